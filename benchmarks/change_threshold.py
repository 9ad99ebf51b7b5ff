"""How the changed-frame score separates real page changes from pointer movement.

Runs detection on the synthetic screen recordings (tests/processing/make_videos.py,
where the true page state of every frame is known) for several settings, and prints
for each: keyframes kept, keyframes where only the pointer or caret had moved (false),
page switches or scrolls not caught at the first sample that shows them (missed), and
the most letters typed before a keyframe showed them (lag). The default settings in
settings/schema.py were chosen from this table.

    .venv/bin/python benchmarks/change_threshold.py
"""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "processing"))

import make_videos  # noqa: E402

from processing.changed_frames import change_score, diff_image  # noqa: E402
from foundation.video_io import iter_frames  # noqa: E402
from settings import load_settings  # noqa: E402

SAMPLE_FPS = 2.0


@dataclass(frozen=True)
class Variant:
    name: str = field(compare=False)
    noise_floor: int
    pointer_allowance: float
    threshold: float


def variants(default: Variant) -> list[Variant]:
    found = [Variant("plain mean abs. diff", 0, 0.0, t) for t in (0.02, 0.05, 0.1, 0.3, 1.0)]
    found += [Variant("noise floor 12", 12, 0.0, t) for t in (0.02, 0.05, 0.1)]
    found += [Variant("floor 8 + pointer 0.03", 8, 0.03, 0.02)]
    found += [Variant("floor 12 + pointer 0.03", 12, 0.03, t) for t in (0.01, 0.015, 0.02, 0.03)]
    if default not in found:
        found.append(default)
    return found


def samples(path: Path) -> list:
    return [diff_image(frame.luma, 320) for frame in iter_frames(path, SAMPLE_FPS)]


def simulate(images: list, states: list, variant: Variant) -> tuple[int, int, int, int]:
    """(kept, false, missed, letters of lag) for one variant on one recording."""
    kept = false = missed = lag = 0
    reference = reference_state = None
    for image, state in zip(images, states):
        if reference is None:
            keep = True
        else:
            score = change_score(image, reference, variant.noise_floor, variant.pointer_allowance)
            keep = score > variant.threshold
        if keep:
            kept += 1
            if reference_state is not None and reference_state.content == state.content:
                false += 1
            reference, reference_state = image, state
        else:
            if (state.page, state.scroll) != (reference_state.page, reference_state.scroll):
                missed += 1
            lag = max(lag, abs(len(state.text) - len(reference_state.text)))
    return kept, false, missed, lag


def main() -> None:
    settings = load_settings()
    bench = settings.paths.cache_dir / "bench"
    v = make_videos.VERSION
    recordings = [
        ("tutorial 22 s", make_videos.tutorial_script(), bench / f"tutorial_v{v}.mp4", 23),
        ("quiet 14 s", make_videos.quiet_script(), bench / f"quiet_v{v}.mp4", 23),
        ("5 min, crf 23", make_videos.long_script(), bench / f"screen_v{v}_5min.mp4", 23),  # the speed benchmark's file
        ("5 min, crf 32 (noisier)", make_videos.long_script(), bench / f"long_v{v}_crf32.mp4", 32),
    ]
    loaded = []
    for name, script, path, crf in recordings:
        recording = script.render(path, preset="veryfast", crf=crf, reuse=True)
        images = samples(path)
        states = [recording.state_at(i / SAMPLE_FPS) for i in range(len(images))]
        loaded.append((name, images, states))

    print(f"{'variant':<24} {'thresh':>7} | " + " | ".join(f"{name:^24}" for name, _, _ in loaded))
    print(f"{'':<24} {'':>7} | " + " | ".join(f"{'kept false miss lag':^24}" for _ in loaded))
    p = settings.processing
    default = Variant("settings default", p.diff_noise_floor, p.pointer_allowance, p.change_threshold)
    for variant in variants(default):
        cells = []
        for _name, images, states in loaded:
            kept, false, missed, lag = simulate(images, states, variant)
            cells.append(f"{kept:>5} {false:>5} {missed:>4} {lag:>4}   ")
        mark = " <- default" if variant == default else ""
        print(f"{variant.name:<24} {variant.threshold:>7.3f} | " + " | ".join(cells) + mark)


if __name__ == "__main__":
    main()
