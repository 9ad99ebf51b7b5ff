"""Short tutorials recorded by the sandbox recorder for the OCR labeler's tests, with their ground truth.

Each script is a few steps long (under half a minute of video) and together they use
every action the labeler tells apart: clicks on links, typing with and
without Enter, a separate key press, a drop-down choice, scrolling and the address bar.
"""

from __future__ import annotations

from pathlib import Path

from settings import Settings
from tasks.sandbox.tutorials.recorder import TutorialFiles, record_one
from tasks.sandbox.tutorials.script import load_script

SHOP_CLIP = """
title: Cheapest headphones
description: Open a category, search for headphones, sort by price and look further down.
site: shop
start_url: /
login: no
steps:
  - say: First a look at the electronics.
    click: {role: link, name: Electronics, nth: 0}
  - say: Now I search for headphones.
    type: {target: {role: searchbox, name: Search}, text: headphones, enter: yes}
  - say: And sort them by price.
    select: {label: Sort By, option: Price}
  - say: Then scroll down a little.
    scroll: {direction: down, amount: 400}
"""

FORUM_CLIP = """
title: Search the forum
description: Open the forum list, search for bread, and go back to the list by its address.
site: forum
start_url: /
login: no
steps:
  - say: Here is the list of forums.
    click: {role: link, name: Forums}
  - say: I type bread into the search box.
    type: {target: {role: searchbox, name: Search query}, text: bread}
  - say: And I press Enter to search.
    press: Enter
  - say: Back to the forum list by typing its address.
    goto: /forums
"""

CLIPS = {"ocr_shop_clip": SHOP_CLIP, "ocr_forum_clip": FORUM_CLIP}


def record_clip(settings: Settings, browser, folder: Path, name: str) -> TutorialFiles:
    """Record one of CLIPS with the running sandbox into `folder`; returns its video and action log."""
    folder.mkdir(parents=True, exist_ok=True)
    script_path = folder / f"{name}.yaml"
    script_path.write_text(CLIPS[name].lstrip(), encoding="utf-8")
    result = record_one(settings, load_script(script_path), browser, folder)
    return result.files
