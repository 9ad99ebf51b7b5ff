"""Changed-frame detection against a bare ffmpeg decode of the same video.

Target (issue 6): on a 5-minute 1280x720 30 fps screen recording, detection (sampling,
comparing, writing keyframes) takes at most 1.5x the time `ffmpeg -i f -f null -` takes
to decode the file, with peak memory under 500 MB. The recording is synthesised once
(tests/processing/make_videos.py) and cached under cache/bench/.

    .venv/bin/python benchmarks/changed_frames.py [--runs 3] [--minutes 5]

Detection runs in a child process so its memory is measured alone: the peak of the
child's and its ffmpeg's resident memory added together, sampled every 10 ms
from /proc, and each one's own high-water mark (ru_maxrss) as a check.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests" / "processing"))

TIME_TARGET = 1.5
MEMORY_TARGET_MB = 500


def ensure_recording(minutes: float) -> Path:
    import make_videos

    from settings import load_settings

    path = load_settings().paths.cache_dir / "bench" / f"screen_v{make_videos.VERSION}_{minutes:g}min.mp4"
    if not path.is_file():
        print(f"rendering {path} (once; a few minutes) ...", flush=True)
        make_videos.long_script(minutes).render(path, preset="veryfast")
    return path


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def time_decode(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of a bare decode of every frame."""
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-i", str(path), "-f", "null", "-"], check=True)
    return time.perf_counter() - start, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu


def detect_in_child(path: Path) -> dict:
    """Run detection in a fresh interpreter; its report plus the sampled peak RSS of it and its ffmpeg."""
    with tempfile.TemporaryDirectory() as out:
        child = subprocess.Popen(
            [sys.executable, __file__, "--child", str(path), out], stdout=subprocess.PIPE, text=True
        )
        peak = {"kb": 0}
        sampler = threading.Thread(target=_sample_tree_rss, args=(child, peak), daemon=True)
        sampler.start()
        stdout, _ = child.communicate()
        sampler.join()
    if child.returncode != 0:
        raise SystemExit("detection failed")
    report = json.loads(stdout.strip().splitlines()[-1])
    report["tree_peak_mb"] = peak["kb"] / 1024
    return report


def _sample_tree_rss(child: subprocess.Popen, peak: dict) -> None:
    while child.poll() is None:
        total = 0
        for pid in [child.pid, *_children(child.pid)]:
            total += _rss_kb(pid)
        peak["kb"] = max(peak["kb"], total)
        time.sleep(0.01)


def _children(pid: int) -> list[int]:
    try:
        return [int(x) for x in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
    except OSError:
        return []


def _rss_kb(pid: int) -> int:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        pass
    return 0


def child_main(path: str, out: str) -> None:
    from processing.changed_frames import detect_changed_frames, load_keyframes
    from settings import load_settings

    settings = load_settings().processing
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN)
    keyframes = detect_changed_frames(path, settings, out)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN) - cpu
    sampled = json.loads((Path(out) / "keyframes.json").read_text())["sampled_frames"]
    assert load_keyframes(out) == keyframes
    print(
        json.dumps(
            {
                "seconds": seconds,
                "cpu_seconds": cpu,
                "keyframes": len(keyframes),
                "sampled": sampled,
                "python_maxrss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024,
                "ffmpeg_maxrss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024,
            }
        )
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="repetitions; medians are reported")
    parser.add_argument("--minutes", type=float, default=5.0)
    args = parser.parse_args()
    path = ensure_recording(args.minutes)
    info = json.loads(
        subprocess.run(
            ["ffprobe", "-v", "error", "-of", "json", "-show_streams", "-select_streams", "v:0", str(path)],
            capture_output=True, text=True, check=True,
        ).stdout
    )["streams"][0]  # fmt: skip
    decode, detect = [], []
    for _ in range(args.runs):  # interleaved, so a busy spell on the machine hits both alike
        decode.append(time_decode(path))
        detect.append(detect_in_child(path))
    decode_s = statistics.median(wall for wall, _ in decode)
    decode_cpu = statistics.median(cpu for _, cpu in decode)
    detect_s = statistics.median(r["seconds"] for r in detect)
    detect_cpu = statistics.median(r["cpu_seconds"] for r in detect)
    peak_mb = max(r["tree_peak_mb"] for r in detect)
    ratio, cpu_ratio = detect_s / decode_s, detect_cpu / decode_cpu
    last = detect[-1]
    verdict = "ok" if ratio <= TIME_TARGET else "MISSED"
    print(f"video: {path.name}, {info['width']}x{info['height']} {info['avg_frame_rate']} fps, "
          f"{info['nb_frames']} frames, {path.stat().st_size / 1e6:.1f} MB; {args.runs} runs, medians")  # fmt: skip
    print(f"{'':<44} {'wall':>8}   {'CPU':>8}")
    print(f"{'ffmpeg decode alone (-f null)':<44} {decode_s:8.2f} s {decode_cpu:8.2f} s")
    print(f"{'changed-frame detection (incl. JPEGs)':<44} {detect_s:8.2f} s {detect_cpu:8.2f} s")
    print(f"{'ratio (target <= %.1f)' % TIME_TARGET:<44} {ratio:8.2f}   {cpu_ratio:8.2f}     {verdict}")
    print(f"{'peak RSS, python + ffmpeg (target < %d MB)' % MEMORY_TARGET_MB:<44} {peak_mb:8.0f} MB "
          f"{'ok' if peak_mb < MEMORY_TARGET_MB else 'MISSED'}")  # fmt: skip
    print(f"{'  max RSS python / ffmpeg (ru_maxrss)':<44} {last['python_maxrss_mb']:5.0f} / "
          f"{last['ffmpeg_maxrss_mb']:.0f} MB")  # fmt: skip
    print(f"{'keyframes kept / frames sampled':<44} {last['keyframes']:5d} / {last['sampled']}")
    decode_runs = ", ".join(f"{wall:.2f}" for wall, _ in decode)
    detect_runs = ", ".join(f"{r['seconds']:.2f}" for r in detect)
    print(f"wall times of all runs, decode: {decode_runs} s; detection: {detect_runs} s")
    print(f"load average now: {' '.join(Path('/proc/loadavg').read_text().split()[:3])} on {os.cpu_count()} cores")

if __name__ == "__main__":
    if len(sys.argv) == 4 and sys.argv[1] == "--child":
        child_main(sys.argv[2], sys.argv[3])
    else:
        main()
