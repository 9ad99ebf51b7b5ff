"""Record the tutorial scripts on the sandbox sites into videos with ground truth.

For each script in `scripts/`, `<cache>/sandbox/tutorials/` receives:

    <name>.mp4           H.264, 1280x800 (browser bar + 1280x720 page), constant 15 fps, and an AAC track of the
                         narration spoken by espeak-ng (voice.py, soundtrack.py)
    <name>.srt           the narration, one cue per step: the interval where its line is heard
    <name>.actions.json  what was done, when, and where (see ground_truth.py)
    <name>.fingerprint   hash of the script, the recorder code (this folder's and the engine's), the voice and the
                         site's seed

A tutorial is recorded again only when its fingerprint changed or a file is
missing; one recorded before under the same fingerprint, in any clone or test session
of this user and on whatever ports its site ran, is copied from the recordings store
instead (tasks/recording_store.py): the video and its log show the site's usual address
(`shown_base`), never the port it ran on. The site is reset before each tutorial and once after the last, so
tasks start from the seed. Time on the video is virtual (see tasks/recording/film.py),
which is why a minute of video takes seconds to make. The recorder engine
(tasks/recording/) films and encodes; `STYLE` is this style's record.

15 fps: screen recorders commonly use 15 to 30 fps for UI work; 15 shows every
UI change at human pace (the pipeline samples 2 fps) and halves the encoding
work of 30, which keeps recording every tutorial well under the 5-minute budget.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import cv2

from foundation.errors import UserError
from settings import Settings
from settings.schema import SandboxSettings
from tasks import recording_store
from tasks.recording import files as recording_files
from tasks.recording.encoder import Codec
from tasks.recording.style import VideoStyle
from tasks.sandbox import server
from tasks.sandbox.login import log_in
from tasks.sandbox.sites import SITES
from tasks.sandbox.tutorials import chrome, soundtrack, voice
from tasks.sandbox.tutorials.cursor import POINTER, RING
from tasks.sandbox.tutorials.film import BrowserFilm
from tasks.sandbox.tutorials.ground_truth import TutorialRecord, to_srt
from tasks.sandbox.tutorials.performer import Performer
from tasks.sandbox.tutorials.script import TutorialScript, load_all

FPS = 15
WIDTH, PAGE_HEIGHT = 1280, 720
STYLE = VideoStyle(
    width=WIDTH, page_height=PAGE_HEIGHT, bar_height=chrome.HEIGHT, capture_fps=FPS, pointer=POINTER, click_effect=RING,
    codec=Codec("yuv420p", (
        # superfast: about a tenth less CPU than veryfast for files about half again as big, which
        # keeps recording every tutorial within its time budget on a small machine.
        "-c:v", "libx264", "-preset", "superfast", "-crf", "23", "-pix_fmt", "yuv420p",
        "-colorspace", "smpte170m", "-color_primaries", "smpte170m", "-color_trc", "smpte170m", "-color_range", "tv",
        # A key frame every two seconds keeps seeking in the result cheap.
        "-g", str(2 * FPS), "-r", str(FPS), "-movflags", "+faststart",
    ), conversion=cv2.COLOR_RGB2YUV_I420),
)  # fmt: skip
_CODE = sorted(Path(__file__).resolve().parent.glob("*.py"))


@dataclass(frozen=True)
class TutorialFiles:
    video: Path
    subtitles: Path
    actions: Path
    fingerprint: Path

    @classmethod
    def of(cls, folder: Path, name: str) -> TutorialFiles:
        return cls(*(folder / f"{name}{suffix}" for suffix in (".mp4", ".srt", ".actions.json", ".fingerprint")))


@dataclass(frozen=True)
class RecordingResult:
    name: str
    files: TutorialFiles
    recorded: bool  # False: it was up to date, or copied from the recordings store
    duration_s: float  # length of the video (0 when not recorded now)
    elapsed_s: float  # time it took to record
    from_store: bool = False  # copied from the per-user recordings store, not recorded


STORE_KIND = "sandbox-tutorials"


def store_key(script: TutorialScript) -> str:
    """What the video shows: the fingerprint (script, recorder code, the site's seed) and the site's usual address
    (its browser bar and log show that one), never where the site ran: a recording made on other ports (another
    command's sandbox, `SHOPPING=...`) is the same video, so it reuses the store instead of adding to it."""
    return recording_store.store_key(fingerprint(script), shown_base(script.site))


def shown_base(site: str) -> str:
    """The address a tutorial shows for `site`: its default one (settings' defaults), whatever port it runs on."""
    defaults = SandboxSettings()
    return f"http://{defaults.host}:{getattr(defaults, SITES[site].port_setting)}"


def _stored_files(files: TutorialFiles) -> list[Path]:
    return [files.video, files.subtitles, files.actions]


def _restore(script: TutorialScript, folder: Path) -> RecordingResult | None:
    files = TutorialFiles.of(folder, script.name)
    if not recording_store.fetch(STORE_KIND, script.name, store_key(script), _stored_files(files)):
        return None
    files.fingerprint.write_text(fingerprint(script) + "\n")
    recording_store.keep(STORE_KIND, script.name, store_key(script), _stored_files(files))
    return RecordingResult(script.name, files, False, 0.0, 0.0, from_store=True)


def tutorials_dir(settings: Settings) -> Path:
    return settings.paths.sandbox_dir / "tutorials"


def fingerprint(script: TutorialScript) -> str:
    """Changes when the script, the recorder's code, the voice (another espeak-ng) or the site's seed changes."""
    identity = script.path.read_bytes() + SITES[script.site].seed_fingerprint().encode() + voice.identity().encode()
    return recording_files.fingerprint(identity, _CODE)


def is_current(script: TutorialScript, folder: Path) -> bool:
    files = TutorialFiles.of(folder, script.name)
    return recording_files.is_current(_stored_files(files), files.fingerprint, fingerprint(script))


def select_scripts(only: list[str] | None = None) -> list[TutorialScript]:
    scripts = load_all()
    if not only:
        return scripts
    known = {script.name: script for script in scripts}
    missing = [name for name in only if name not in known]
    if missing:
        raise UserError(f"no tutorial named {missing[0]!r}; known: {', '.join(known)}")
    return [known[name] for name in only]


def record_tutorials(
    settings: Settings,
    only: list[str] | None = None,
    force: bool = False,
    report: Callable[[RecordingResult], None] | None = None,
    workers: int = 1,
) -> list[RecordingResult]:
    """Record the scripts that are missing or outdated (all of `only` with `force`, past the recordings store too);
    others are left alone. With `workers` > 1 the sites' tutorials are recorded side by side, one process and
    browser per site (a tutorial resets its own site only, and time on the video is virtual, so each video is the
    one a lone recorder makes)."""
    folder = tutorials_dir(settings)
    folder.mkdir(parents=True, exist_ok=True)
    scripts = select_scripts(only)
    results: list[RecordingResult] = []
    todo = []
    for script in scripts:
        result = None
        if not force and is_current(script, folder):
            result = RecordingResult(script.name, TutorialFiles.of(folder, script.name), False, 0.0, 0.0)
        elif not force:
            result = _restore(script, folder)
        if result is None:
            todo.append(script)
            continue
        results.append(result)
        if report:
            report(result)
    if not todo:
        return results
    by_site: dict[str, list[TutorialScript]] = {}
    for script in todo:
        by_site.setdefault(script.site, []).append(script)
    with server.sites_up(settings):
        try:
            if workers > 1 and len(by_site) > 1:
                results += _record_sites_side_by_side(settings, list(by_site.values()), folder, report, workers, force)
            else:
                results += _record_in_browser(settings, todo, folder, report, force)
        finally:
            server.reset(settings)  # tasks start from the seed
    return results


def _record_sites_side_by_side(
    settings: Settings,
    groups: list[list[TutorialScript]],
    folder: Path,
    report: Callable | None,
    workers: int,
    force: bool,
) -> list[RecordingResult]:
    import multiprocessing
    from concurrent.futures import ProcessPoolExecutor, as_completed

    results = []
    # spawn: Playwright's sync API must not inherit a parent's event loop
    pool = ProcessPoolExecutor(min(workers, len(groups)), mp_context=multiprocessing.get_context("spawn"))
    try:
        futures = [pool.submit(_record_names, settings, [s.name for s in group], folder, force) for group in groups]
        for future in as_completed(futures):
            for result in future.result():
                results.append(result)
                if report:
                    report(result)
    except BaseException:
        # Interrupted (Ctrl-C, a test's time limit) or a recording failed: the other worker is stopped, not
        # waited for; leaving the `with` of an executor would wait for a stuck recording for good.
        for process in list((pool._processes or {}).values()):  # no public way to stop a running task
            process.kill()
        pool.shutdown(wait=False, cancel_futures=True)
        raise
    pool.shutdown()
    return results


def _record_names(settings: Settings, names: list[str], folder: Path, force: bool) -> list[RecordingResult]:
    """A worker process's share: these tutorials, one after another in its own browser."""
    return _record_in_browser(settings, select_scripts(names), folder, None, force)


def ensure_tutorials(settings: Settings) -> list[Path]:
    """The videos of every tutorial, recording those that are missing or outdated (for the demo)."""
    return [result.files.video for result in record_tutorials(settings)]


def _record_in_browser(
    settings: Settings, scripts: list[TutorialScript], folder: Path, report: Callable | None, force: bool = False
) -> list[RecordingResult]:
    from playwright.sync_api import sync_playwright

    from foundation.browser import launch_chromium

    results = []
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, settings.browser)
        try:
            for script in scripts:
                result = record_one(settings, script, browser, folder) if force else _claim_or_record(
                    settings, script, browser, folder
                )
                results.append(result)
                if report:
                    report(result)
        finally:
            browser.close()
    return results


def _claim_or_record(settings: Settings, script: TutorialScript, browser, folder: Path) -> RecordingResult:
    """Record `script` unless another process, which held the claim on it first, has put it in the store meanwhile
    (a test suite's workers, or a demo beside them, each record a tutorial once between them)."""
    with recording_store.claim(STORE_KIND, script.name, store_key(script)):
        return _restore(script, folder) or record_one(settings, script, browser, folder)


def record_one(settings: Settings, script: TutorialScript, browser, folder: Path) -> RecordingResult:
    started = time.monotonic()
    spec = SITES[script.site]
    server.reset(settings, [script.site])
    files = TutorialFiles.of(folder, script.name)
    lines = voice.speak_all(script.narration)
    # Not *.mp4 until it is complete, so that nothing reading the folder takes a half-written video.
    partial_video = files.video.with_name(files.video.name + ".partial")
    silent_video = files.video.with_name(files.video.name + ".silent.partial")
    timeout_ms = settings.browser.action_timeout_ms
    with recording_files.filming(browser, STYLE, silent_video, timeout_ms) as (context, encoder):
        if script.login:
            log_in(context, spec, server.site_url(spec, settings))
        page = context.new_page()
        rng = random.Random(f"tutorial:{script.name}")  # same script, same video
        film = BrowserFilm(encoder, STYLE, cursor=(rng.uniform(560, 760), rng.uniform(380, 520)))
        speech_s = [line.seconds for line in lines]
        performer = Performer(page, film, script, server.site_url(spec, settings), rng, speech_s,
                              shown_base(script.site))  # fmt: skip
        performer.play()
    try:
        # Each line from its cue's start: the subtitles are exactly where the voice is heard.
        clips = [(cue.start_s, line.samples) for cue, line in zip(performer.cues, lines, strict=True)]
        track = soundtrack.mix(clips, film.frames / FPS, voice.SAMPLE_RATE)
        soundtrack.add_track(silent_video, track, voice.SAMPLE_RATE, partial_video)
    finally:
        silent_video.unlink(missing_ok=True)
    record = TutorialRecord(
        name=script.name, title=script.title, description=script.description, site=script.site,
        start_url=script.start_url, fps=FPS, width=WIDTH, height=STYLE.height, page_top=chrome.HEIGHT,
        duration_s=film.frames / FPS, actions=performer.actions, narration=performer.cues,
    )  # fmt: skip
    texts = {files.subtitles: to_srt(performer.cues), files.actions: record.to_json()}
    recording_files.put_in_place(partial_video, files.video, texts, files.fingerprint, fingerprint(script))
    recording_store.keep(STORE_KIND, script.name, store_key(script), _stored_files(files))
    return RecordingResult(script.name, files, True, record.duration_s, time.monotonic() - started)
