"""What the three labeler styles share: a style as one record, and recording its scripts into videos with exact
ground truth.

    <cache>/labeler_<key>/<name>.mp4 / .actions.json / .fingerprint

A recording is made again only when its fingerprint (the script, the engine's code, the
style's code and pages) changed or a file is missing; one made before under the same
fingerprint is copied from the per-user recordings store instead (`saving.py`).
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from foundation.errors import UserError
from settings import Settings
from tasks.labeler_recordings.page_server import PageServer
from tasks.labeler_recordings.saving import restore_recording, save_recording
from tasks.labeler_recordings.take import Take
from tasks.recording import files
from tasks.recording.effects import ClickEffect
from tasks.recording.film import Film
from tasks.recording.motion import Reach
from tasks.recording.pointer import PointerLook
from tasks.recording.style import VideoStyle

_SHARED_CODE = (Path(__file__).resolve(), Path(__file__).resolve().parent / "take.py")


@dataclass(frozen=True)
class LabelerStyle:
    """What one labeler style is: its video, apps, scripts and choreography, and how its hand and clock behave."""

    key: str  # "heldout": its cache folder (labeler_<key>) and the seed of its hand's chance
    name: str  # the recordings store's name for it and the description it writes ("held-out")
    video: VideoStyle
    scripts: tuple  # its scripts, each with a `name`, an `app` and `steps`
    pages: Callable[[], dict[str, str]]  # app name -> its page's HTML
    code: tuple[Path, ...]  # its own files (choreography, scripts, pointer, pages): changing one records anew
    take: type[Take]  # how it films: on the page's clock, or watching the page in real time
    play: Callable[[Any, tuple, int], None]  # (take, step, step index): its choreography of one script step
    start_box: tuple[tuple[float, float], tuple[float, float]]  # where the pointer starts: x range, y range
    edge_hold_s: float = 1.0  # the still moments before the first step and after the last
    page_clock_ms: int | None = None  # the page's fake clock starts here, paused a second later; None: real time
    reach: Reach | None = None  # how the hand reaches a point
    tremor: float = 0.0  # the chance, each resting picture, that the hand is drawn a pixel off
    scroll_to_targets: bool = True  # else an element a step names must already be in view
    look_of: Callable[[Any], tuple[PointerLook, ClickEffect | None]] | None = None  # a script's own pointer, effect


@dataclass(frozen=True)
class Recording:
    name: str
    video: Path
    actions: Path


def folder_of(style: LabelerStyle, settings: Settings) -> Path:
    return Path(settings.paths.cache_dir) / f"labeler_{style.key}"


def fingerprint(style: LabelerStyle, script) -> str:
    return files.fingerprint(repr(script).encode(), [*_SHARED_CODE, *style.code])


def record_all(style: LabelerStyle, settings: Settings, only: list[str] | None = None, report=print) -> list[Recording]:
    """Every recording of `style`, recording those missing or made by older code first."""
    folder = folder_of(style, settings)
    chosen = [s for s in style.scripts if not only or s.name in only]
    if only and len(chosen) != len(set(only)):
        names = ", ".join(s.name for s in style.scripts)
        raise UserError(f"unknown {style.name} recording in {only}: choose from {names}")
    stale = [
        s for s in chosen
        if not _current(style, folder, s) and not restore_recording(folder, style.name, s.name, fingerprint(style, s))
    ]  # fmt: skip
    if stale:
        from playwright.sync_api import sync_playwright

        from foundation.browser import launch_chromium

        with PageServer(folder / "site", style.pages()) as server, sync_playwright() as playwright:
            browser = launch_chromium(playwright, settings.browser)
            try:
                for script in stale:
                    started = time.monotonic()
                    seconds = _record(style, browser, server.url(script.app), script, folder)
                    report(f"recorded {script.name}: {seconds:.1f} s of video in {time.monotonic() - started:.1f} s")
            finally:
                browser.close()
    return [Recording(s.name, folder / f"{s.name}.mp4", folder / f"{s.name}.actions.json") for s in chosen]


def _current(style: LabelerStyle, folder: Path, script) -> bool:
    needed = [folder / f"{script.name}{suffix}" for suffix in (".mp4", ".actions.json")]
    return files.is_current(needed, folder / f"{script.name}.fingerprint", fingerprint(style, script))


def _record(style: LabelerStyle, browser, url: str, script, folder: Path) -> float:
    folder.mkdir(parents=True, exist_ok=True)
    partial = folder / f"{script.name}.partial.mp4"
    video = style.video
    pointer, effect = style.look_of(script) if style.look_of else (video.pointer, video.click_effect)
    with files.filming(browser, video, partial) as (context, encoder):
        page = context.new_page()
        if style.page_clock_ms is not None:
            page.clock.install(time=style.page_clock_ms)  # a fixed date: clocks on the page read the same each time
        page.goto(url)
        if style.page_clock_ms is not None:
            page.clock.pause_at(style.page_clock_ms + 1000)
        rng = random.Random(f"{style.key}:{script.name}")
        (x0, x1), (y0, y1) = style.start_box
        cursor = (rng.uniform(x0, x1), rng.uniform(y0, y1))
        film = Film(encoder, video.capture_fps, video.width, video.height, pointer, effect, cursor)
        take = style.take(style, page, film, rng)
        take.hold(style.edge_hold_s)
        for index, step in enumerate(script.steps):
            style.play(take, step, index)
        take.hold(style.edge_hold_s)
    duration = film.frames / video.capture_fps
    save_recording(
        folder, partial, script, style=style.name, url=url, fps=video.fps, size=(video.width, video.height),
        duration_s=duration, actions=take.actions, fingerprint=fingerprint(style, script),
    )  # fmt: skip
    return duration
