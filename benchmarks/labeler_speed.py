"""Speed of the OCR labeler on a 5-minute 720p tutorial, on 2 cores (issue 15).

Target: labeling takes at most the video's own duration (ratio <= 1.0). The video is the
held-out recordings (1280x720, 12 fps) joined end to end, repeated until it lasts at
least `--minutes` (default 5); joining copies the streams, so nothing is re-encoded.
This process and the ffmpeg decoder it starts are pinned to 2 cores.

    .venv/bin/python benchmarks/labeler_speed.py [--minutes 5] [--cores 2]
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from foundation.video_io import probe  # noqa: E402
from tasks.labeler_recordings.heldout.recorder import folder_of, record_all  # noqa: E402
from processing.ocr_labeler.labeler import OcrLabeler  # noqa: E402
from settings import load_settings  # noqa: E402


def long_video(parts: list[Path], minutes: float, out: Path) -> None:
    """Join `parts` (repeated as needed) into one video of at least `minutes`, copying the streams."""
    durations = [probe(p).duration_s for p in parts]
    chosen, total = [], 0.0
    while total < minutes * 60:
        for part, seconds in zip(parts, durations):
            chosen.append(part)
            total += seconds
            if total >= minutes * 60:
                break
    listing = out.with_suffix(".txt")
    listing.write_text("".join(f"file '{p}'\n" for p in chosen))
    subprocess.run(["ffmpeg", "-loglevel", "error", "-y", "-f", "concat", "-safe", "0", "-i", str(listing),
                    "-c", "copy", str(out)], check=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=5.0)
    parser.add_argument("--cores", type=int, default=2)
    args = parser.parse_args()
    cores = sorted(os.sched_getaffinity(0))[: args.cores]
    os.sched_setaffinity(0, cores)  # children (ffmpeg) inherit it
    settings = load_settings()
    parts = [r.video for r in record_all(settings)]
    with tempfile.TemporaryDirectory(dir=folder_of(settings)) as folder:
        video = Path(folder) / "long.mp4"
        long_video(parts, args.minutes, video)
        info = probe(video)
        print(f"video: {info.duration_s:.0f} s at {info.width}x{info.height}; pinned to cores {cores}", flush=True)
        run = OcrLabeler().run(video, [], settings.processing.ocr_labeler)
    per_second = run.seconds / run.video_s
    print(f"labeling: {run.seconds:.1f} s wall, {run.cpu_seconds:.1f} s CPU, {len(run.actions)} actions")
    print(f"{per_second:.3f} s per video second; ratio to real time {per_second:.2f} (target <= 1.0: "
          f"{'ok' if per_second <= 1.0 else 'MISSED'})")  # fmt: skip
    print(f"load average now: {' '.join(Path('/proc/loadavg').read_text().split()[:3])}")


if __name__ == "__main__":
    main()
