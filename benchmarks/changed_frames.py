"""Changed-frame detection in each decoding mode against a bare ffmpeg decode, and what it finds.

Targets (issue 17), on a 5-minute 1280x720 30 fps screen recording with B-frames:
detection in the default mode (`processing.decode_frames`) costs at most 0.4x the CPU of
`ffmpeg -i f -f null -`, finds ground-truth action times within 1 point of recall of the
full-decode detector (`decode_frames=all`), and peaks under 500 MB.

The recording is built once, reproducibly, from the sandbox tutorials (`videodemo sandbox
record`): each tutorial's page area (1280x720 under the browser bar) at 30 fps, one after
another until 5 minutes, encoded with libx264's default settings (preset medium, 3 B-frames,
B-pyramid), and its ground truth is the tutorials' action logs shifted to their place in it.
It is cached under cache/bench/.

Recall: an action counts as found when a kept frame's time lies in [start_s, end_s + window]
(its effect is on screen by end_s). It is printed on the benchmark file and on the tutorials
as recorded (15 fps, x264 superfast, also with B-frames), split into shop and forum
tutorials: two independent sets, since nothing here was tuned on either.

    .venv/bin/python benchmarks/changed_frames.py [--runs 2] [--window 1.0]

The skipping modes decode in this process through PyAV, whose wheel carries its own libavcodec
(newer than the system ffmpeg the command line uses, and a little faster on H.264). So the
full decode is also timed in that same library (PyAV, every frame, one thread), and detection's
ratio to it is printed beside the ratio to the command line.

CPU time (user + system, from getrusage) is the primary measure, since the machine is shared;
wall time is printed beside it. Detection's CPU is that of the `detect_changed_frames` call in
the child (the child itself and its ffmpeg; not the interpreter's start-up and imports, paid
once per process, not per video). The full decode is timed as the issue states it
(`ffmpeg -i f -f null -`, ffmpeg's own thread count) and with `-threads 1`, the setting
detection uses by default (`processing.decode_threads`). Detection runs
in a child process so its memory is measured alone: the peak of the child's and its ffmpeg's
resident memory added together, sampled every 10 ms from /proc.
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
sys.path.insert(0, str(ROOT))

CPU_TARGET = 0.4
RECALL_POINTS = 1.0
MEMORY_TARGET_MB = 500
BENCH_VERSION = 1
MODES = ("all", "noref", "bidir", "nokey")
PAGE_CROP = "crop=1280:720:0:80"  # the tutorials are 1280x800: an 80 px browser bar above the 720p page


def tutorial_videos() -> list[Path]:
    from settings import load_settings
    from tasks.sandbox.tutorials.recorder import ensure_tutorials

    return sorted(ensure_tutorials(load_settings()))


def actions_of(video: Path) -> list[dict]:
    return json.loads(video.with_suffix(".actions.json").read_text())["actions"]


def ensure_recording(minutes: float, videos: list[Path]) -> tuple[Path, list[dict]]:
    """The benchmark file and its ground-truth actions, built once from the tutorials."""
    from settings import load_settings

    seconds = minutes * 60
    path = load_settings().paths.cache_dir / "bench" / f"tutorials_v{BENCH_VERSION}_{minutes:g}min_720p30.mp4"
    truth_path = path.with_suffix(".actions.json")
    if path.is_file() and truth_path.is_file():
        return path, json.loads(truth_path.read_text())
    path.parent.mkdir(parents=True, exist_ok=True)
    chosen, offsets, total = [], [], 0.0
    while total < seconds:  # loop over the tutorials (in name order) until the length is reached
        for video in videos:
            if total >= seconds:
                break
            chosen.append(video)
            offsets.append(total)
            total += float(_probe(video)["duration"])
    truth = []
    for video, offset in zip(chosen, offsets):
        for action in actions_of(video):
            if action["start_s"] + offset < seconds:
                truth.append({"type": action["type"], "start_s": round(action["start_s"] + offset, 3),
                              "end_s": round(action["end_s"] + offset, 3), "source": video.stem})  # fmt: skip
    print(f"building {path.name} from {len(chosen)} tutorial recordings (once; a few minutes) ...", flush=True)
    inputs = [arg for video in chosen for arg in ("-i", str(video))]
    streams = "".join(f"[{i}:v]" for i in range(len(chosen)))
    graph = f"{streams}concat=n={len(chosen)}:v=1:a=0,{PAGE_CROP},fps=30[v]"
    partial = path.with_suffix(".partial.mp4")
    subprocess.run(
        ["ffmpeg", "-nostdin", "-v", "error", "-y", *inputs, "-filter_complex", graph, "-map", "[v]",
         "-t", f"{seconds:g}", "-c:v", "libx264", "-pix_fmt", "yuv420p", str(partial)],
        check=True,
    )  # fmt: skip
    partial.replace(path)
    truth_path.write_text(json.dumps(truth, indent=1))
    return path, truth


def _probe(path: Path) -> dict:
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-of", "json", "-show_streams", "-select_streams", "v:0", str(path)],
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    return json.loads(result.stdout)["streams"][0]


def b_frame_share(path: Path) -> tuple[int, int]:
    """(B-frames, frames) of the file, from the packet-level picture types ffprobe reports."""
    result = subprocess.run(
        ["ffprobe", "-v", "error", "-select_streams", "v:0", "-show_entries", "frame=pict_type", "-of", "csv=p=0",
         str(path)], capture_output=True, text=True, check=True,
    )  # fmt: skip
    types = [line.strip() for line in result.stdout.splitlines() if line.strip()]
    return sum(t == "B" for t in types), len(types)


def cpu_seconds(who: int) -> float:
    usage = resource.getrusage(who)
    return usage.ru_utime + usage.ru_stime


def time_decode(path: Path, threads: list[str]) -> tuple[float, float]:
    """(wall, CPU) seconds of a bare decode of every frame."""
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_CHILDREN)
    subprocess.run(["ffmpeg", "-nostdin", "-v", "error", *threads, "-i", str(path), "-f", "null", "-"], check=True)
    return time.perf_counter() - start, cpu_seconds(resource.RUSAGE_CHILDREN) - cpu


def time_library_decode(path: Path) -> tuple[float, float]:
    """(wall, CPU) seconds of decoding every frame with PyAV on one thread, measured in a child."""
    result = subprocess.run([sys.executable, __file__, "--child-decode", str(path)], capture_output=True, text=True,
                            check=True)  # fmt: skip
    report = json.loads(result.stdout.strip().splitlines()[-1])
    return report["seconds"], report["cpu_seconds"]


def child_decode_main(path: str) -> None:
    import av

    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF)
    frames = 0
    with av.open(path) as container:
        stream = container.streams.video[0]
        stream.codec_context.thread_type, stream.codec_context.thread_count = "NONE", 1
        for _ in container.decode(stream):
            frames += 1
    print(json.dumps({"seconds": time.perf_counter() - start, "cpu_seconds": cpu_seconds(resource.RUSAGE_SELF) - cpu,
                      "frames": frames}))  # fmt: skip


def detect_in_child(path: Path, mode: str) -> dict:
    """Run detection in a fresh interpreter; its report and the sampled peak RSS of it and its ffmpeg."""
    with tempfile.TemporaryDirectory() as out:
        child = subprocess.Popen(
            [sys.executable, __file__, "--child", str(path), out, mode], stdout=subprocess.PIPE, text=True
        )
        peak = {"kb": 0}
        sampler = threading.Thread(target=_sample_tree_rss, args=(child, peak), daemon=True)
        sampler.start()
        stdout, _ = child.communicate()
        sampler.join()
    if child.returncode != 0:
        raise SystemExit(f"detection ({mode}) failed on {path}")
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


def child_main(path: str, out: str, mode: str) -> None:
    from dataclasses import replace

    from processing.changed_frames import detect_changed_frames, load_keyframes
    from settings import load_settings

    settings = replace(load_settings().processing, decode_frames=mode)
    start, cpu = time.perf_counter(), cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN)
    keyframes = detect_changed_frames(path, settings, out)
    seconds = time.perf_counter() - start
    cpu = cpu_seconds(resource.RUSAGE_SELF) + cpu_seconds(resource.RUSAGE_CHILDREN) - cpu
    sampled = json.loads((Path(out) / "keyframes.json").read_text())["sampled_frames"]
    assert load_keyframes(out) == keyframes
    print(json.dumps({
        "seconds": seconds, "cpu_seconds": cpu, "keyframes": len(keyframes), "sampled": sampled,
        "times": [k.time_s for k in keyframes],
    }))  # fmt: skip


def recall(actions: list[dict], kept_times: list[float], window: float) -> tuple[int, int]:
    """(found, total): actions with a kept frame in [start_s, end_s + window]."""
    found = sum(any(a["start_s"] <= t <= a["end_s"] + window for t in kept_times) for a in actions)
    return found, len(actions)


def kept_times(path: Path, mode: str) -> list[float]:
    from dataclasses import replace

    from processing.changed_frames import detect_changed_frames
    from settings import load_settings

    settings = replace(load_settings().processing, decode_frames=mode)
    with tempfile.TemporaryDirectory() as out:
        return [k.time_s for k in detect_changed_frames(path, settings, out)]


def percent(found: int, total: int) -> float:
    return 100.0 * found / total if total else 0.0


def main() -> None:
    from settings import load_settings

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=2, help="timed repetitions per mode; medians are reported")
    parser.add_argument("--minutes", type=float, default=5.0, help="length of the benchmark recording")
    parser.add_argument("--window", type=float, default=1.0, help="seconds after an action's end_s a frame may come")
    args = parser.parse_args()
    default_mode = load_settings().processing.decode_frames
    videos = tutorial_videos()
    path, truth = ensure_recording(args.minutes, videos)
    info = _probe(path)
    b_frames, frames = b_frame_share(path)

    decode, decode_single, decode_library, detect = [], [], [], {mode: [] for mode in MODES}
    for _ in range(args.runs):  # interleaved, so a busy spell on the machine hits every mode alike
        decode.append(time_decode(path, []))
        decode_single.append(time_decode(path, ["-threads", "1"]))
        decode_library.append(time_library_decode(path))
        for mode in MODES:
            detect[mode].append(detect_in_child(path, mode))
    decode_wall = statistics.median(wall for wall, _ in decode)
    decode_cpu = statistics.median(cpu for _, cpu in decode)
    single_wall = statistics.median(wall for wall, _ in decode_single)
    single_cpu = statistics.median(cpu for _, cpu in decode_single)
    library_wall = statistics.median(wall for wall, _ in decode_library)
    library_cpu = statistics.median(cpu for _, cpu in decode_library)
    threads = load_settings().processing.decode_threads

    sites = {"shop": [v for v in videos if v.stem.startswith("shop")],
             "forum": [v for v in videos if v.stem.startswith("forum")]}  # fmt: skip
    tutorial_recall = {}
    for mode in MODES:
        for site, site_videos in sites.items():
            found = total = 0
            for video in site_videos:
                f, t = recall(actions_of(video), kept_times(video, mode), args.window)
                found, total = found + f, total + t
            tutorial_recall[mode, site] = (found, total)

    print(f"benchmark file: {path.name}, {info['width']}x{info['height']} {info['avg_frame_rate']} fps, "
          f"{float(info['duration']):.0f} s, {frames} frames of which {b_frames} B-frames "
          f"(has_b_frames={info.get('has_b_frames')}), {path.stat().st_size / 1e6:.1f} MB, "
          f"{len(truth)} actions")  # fmt: skip
    print(f"tutorials: {len(sites['shop'])} shop, {len(sites['forum'])} forum; recall window: a kept frame in "
          f"[start_s, end_s + {args.window:g} s]; {args.runs} timed runs, medians; detection CPU = the "
          f"detect_changed_frames call (python + its ffmpeg, decode_threads={threads})")  # fmt: skip
    print(f"{'':<26}{'CPU':>8}  {'wall':>7}  {'CPU ratio':>9}  {'peak MB':>7}  {'kept':>5}/{'sampled':<7}"
          f"  {'recall bench':>12}  {'shop':>6}  {'forum':>6}")  # fmt: skip
    print(f"{'ffmpeg -i f -f null -':<26}{decode_cpu:7.2f}s {decode_wall:7.2f}s  {1.0:9.2f}")
    print(f"{'  same, -threads 1':<26}{single_cpu:7.2f}s {single_wall:7.2f}s  {single_cpu / decode_cpu:9.2f}")
    print(f"{'  PyAV, 1 thread':<26}{library_cpu:7.2f}s {library_wall:7.2f}s  {library_cpu / decode_cpu:9.2f}")
    rows = {}
    for mode in MODES:
        runs = detect[mode]
        cpu = statistics.median(r["cpu_seconds"] for r in runs)
        wall = statistics.median(r["seconds"] for r in runs)
        peak = max(r["tree_peak_mb"] for r in runs)
        bench = percent(*recall(truth, runs[-1]["times"], args.window))
        shop, forum = percent(*tutorial_recall[mode, "shop"]), percent(*tutorial_recall[mode, "forum"])
        rows[mode] = (cpu / decode_cpu, peak, bench, shop, forum, cpu / library_cpu)
        label = f"detection, {mode}" + (" (default)" if mode == default_mode else "")
        print(f"{label:<26}{cpu:7.2f}s {wall:7.2f}s  {cpu / decode_cpu:9.2f}  {peak:7.0f}  "
              f"{runs[-1]['keyframes']:5d}/{runs[-1]['sampled']:<7}  {bench:11.1f}%  "
              f"{shop:5.1f}%  {forum:5.1f}%")  # fmt: skip
    ratio, peak, bench, shop, forum, library_ratio = rows[default_mode]
    _, _, base_bench, base_shop, base_forum, _ = rows["all"]
    drop = max(base_bench - bench, base_shop - shop, base_forum - forum)
    checks = [
        (f"default mode CPU <= {CPU_TARGET}x full decode", ratio <= CPU_TARGET,
         f"{ratio:.2f}x ({library_ratio:.2f}x of PyAV 1 thread)"),
        (f"recall within {RECALL_POINTS:g} point of decode_frames=all", drop <= RECALL_POINTS,
         f"largest drop {drop:+.1f} points" if drop > 0 else "no drop"),
        (f"peak RSS < {MEMORY_TARGET_MB} MB", peak < MEMORY_TARGET_MB, f"{peak:.0f} MB"),
    ]  # fmt: skip
    for name, ok, figure in checks:
        print(f"{name:<52} {figure:<24} {'ok' if ok else 'MISSED'}")
    print(f"load average now: {' '.join(Path('/proc/loadavg').read_text().split()[:3])} on {os.cpu_count()} cores")


if __name__ == "__main__":
    if len(sys.argv) == 5 and sys.argv[1] == "--child":
        child_main(sys.argv[2], sys.argv[3], sys.argv[4])
    elif len(sys.argv) == 3 and sys.argv[1] == "--child-decode":
        child_decode_main(sys.argv[2])
    else:
        main()
