"""Prompt templates: filled from values, and a broken file named with how to fix it."""

from __future__ import annotations

from pathlib import Path

import pytest

from agent.base.agentoccam.templates import PROMPTS_DIR as OCCAM_PROMPTS
from agent.base.templates import PROMPTS_DIR as BASE_PROMPTS
from agent.method.templates import PROMPTS_DIR as METHOD_PROMPTS
from agent.videos.templates import PROMPTS_DIR as VIDEOS_PROMPTS
from agent.videowa_baselines.templates import PROMPTS_DIR as VIDEOWA_PROMPTS
from foundation.errors import UserError
from foundation.prompt_folder import PromptFolder


def test_fills_placeholders_and_drops_the_trailing_newline(tmp_path: Path) -> None:
    (tmp_path / "greet.txt").write_text("Go to $site and pay $$5.\n\n", encoding="utf-8")
    assert PromptFolder(tmp_path).render("greet", site="the shop") == "Go to the shop and pay $5."


def test_unfilled_placeholder_names_the_file_and_the_placeholder(tmp_path: Path) -> None:
    (tmp_path / "task.txt").write_text("Do $objective on $site\n", encoding="utf-8")
    with pytest.raises(UserError, match=r"task\.txt uses \$site, which the agent does not fill"):
        PromptFolder(tmp_path, filled_by="the agent").render("task", objective="x")


def test_stray_dollar_and_missing_file_are_user_errors(tmp_path: Path) -> None:
    (tmp_path / "price.txt").write_text("costs $ 5\n", encoding="utf-8")
    folder = PromptFolder(tmp_path)
    with pytest.raises(UserError, match=r"price\.txt has a stray '\$'"):
        folder.render("price")
    with pytest.raises(UserError, match=r"absent\.txt is missing"):
        folder.render("absent")


@pytest.mark.parametrize("folder", [BASE_PROMPTS, OCCAM_PROMPTS, VIDEOS_PROMPTS, METHOD_PROMPTS, VIDEOWA_PROMPTS])
def test_every_bundled_agent_prompt_is_a_valid_template(folder: Path) -> None:
    names = sorted(path.stem for path in folder.glob("*.txt"))
    assert names, f"no prompts in {folder}"
    prompts = PromptFolder(folder)
    broken = [name for name in names if not prompts._template(name).is_valid()]  # a stray `$` in the text
    assert broken == [], f"prompts that cannot be filled: {broken}"
