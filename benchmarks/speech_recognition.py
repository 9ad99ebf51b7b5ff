"""How well the bundled speech server hears the sandbox narration, on each CPU instruction set and with
Whisper's previous-text conditioning on and off.

CTranslate2 picks its kernels by the CPU (AVX-512, AVX2, AVX, or a generic path), and tiny.en's beam search
can go another way on another machine's arithmetic; with previous-text conditioning, one misheard window
steers the next ones. `CT2_FORCE_CPU_ISA` makes this machine run the kernels another CPU would, so the spread
that CI machines show can be measured on one machine. For each (instruction set, conditioning) pair, one
faster-whisper-server (tiny.en, int8) transcribes each sandbox tutorial's video alone in a folder, through the
transcript stage (`processing.transcripts.video_transcript`, a fresh model cache, so no reply is reused), and the
text is scored against its subtitles (`processing.transcript_accuracy.word_error_rate`). Also the espeak-ng
narration of shop_search_sort at its plain speed as one video (what tests/real_servers/test_speech_recognition.py
transcribes). Per tutorial: WER and seconds; per pair: pooled WER (all edits over all words), the worst tutorial
and the total time, with the time as a ratio of the first pair's (the baseline, measured in the same run).
The same server on the same audio does not always answer the same: `--repeat` runs every pair again on a
fresh server, and the rows show how far the repeats spread.

    .venv/bin/python benchmarks/speech_recognition.py [--isa native AVX2 AVX] [--conditioning on off] [--repeat N] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
import wave
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from foundation.subtitles import parse_subtitles  # noqa: E402
from model_access.client import ModelClient  # noqa: E402
from model_access.local_servers.whisper import whisper_server  # noqa: E402
from processing.transcript_accuracy import word_error_rate  # noqa: E402
from processing.transcripts import video_transcript  # noqa: E402
from settings import load_settings  # noqa: E402
from tasks.sandbox.tutorials.recorder import record_tutorials  # noqa: E402
from tasks.sandbox.tutorials.script import SCRIPTS_DIR, load_script  # noqa: E402

NARRATION = "shop_search_sort (espeak-ng -s 170, one video)"


@dataclass
class Clip:
    name: str
    video: Path
    said: str


@dataclass
class Scores:
    label: str
    wer: dict[str, float] = field(default_factory=dict)
    seconds: dict[str, float] = field(default_factory=dict)
    said: list[str] = field(default_factory=list)
    heard: list[str] = field(default_factory=list)


def narration_clip(folder: Path) -> Clip:
    """The test's clip: shop_search_sort's narration spoken at 170 words a minute, muxed under a test picture."""
    lines = load_script(SCRIPTS_DIR / "shop_search_sort.yaml").narration
    speech, video = folder / "narration.wav", folder / "narration" / "shop_search_sort.mp4"
    video.parent.mkdir()
    subprocess.run(["espeak-ng", "-s", "170", "-w", str(speech), "\n".join(lines)], check=True, capture_output=True)
    with wave.open(str(speech)) as audio:
        seconds = audio.getnframes() / audio.getframerate()
    picture = f"testsrc=size=160x120:rate=2:duration={seconds:.2f}"
    subprocess.run(["ffmpeg", "-v", "error", "-y", "-f", "lavfi", "-i", picture, "-i",
                    str(speech), "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-b:a", "64k", "-shortest",
                    str(video)], check=True, capture_output=True)  # fmt: skip
    return Clip(NARRATION, video, " ".join(lines))


def tutorial_clips(settings, folder: Path, only: list[str] | None) -> list[Clip]:
    """Each recorded tutorial's video copied alone into a folder (so no subtitles sit beside it), and its words."""
    clips = []
    for result in record_tutorials(settings, only=only):  # from the recordings store when there
        alone = folder / result.name
        alone.mkdir()
        cues = parse_subtitles(result.files.subtitles.read_text(encoding="utf-8"))
        video = Path(shutil.copy(result.files.video, alone))
        clips.append(Clip(result.name, video, " ".join(cue.text for cue in cues)))
    return clips


def score(clips: list[Clip], isa: str, conditioning: bool, work: Path, repeat: int) -> Scores:
    scores = Scores(f"{isa}, conditioning {'on' if conditioning else 'off'}, #{repeat}")
    if isa == "native":
        os.environ.pop("CT2_FORCE_CPU_ISA", None)
    else:
        os.environ["CT2_FORCE_CPU_ISA"] = isa  # the server inherits it
    logs = Path(tempfile.mkdtemp(prefix="server-", dir=work))
    with whisper_server(logs, condition_on_previous_text=conditioning) as server:
        for clip in clips:
            settings = load_settings()
            settings.paths.cache_dir = Path(tempfile.mkdtemp(prefix="cache-", dir=work))
            settings.models.asr.base_url, settings.models.asr.model = server.base_url, server.model
            settings.models.asr.timeout_s = 900
            started = time.perf_counter()
            with ModelClient(settings) as client:
                result = video_transcript(clip.video, Path(tempfile.mkdtemp(dir=work)), client, "en")
            scores.seconds[clip.name] = time.perf_counter() - started
            scores.wer[clip.name] = word_error_rate(clip.said, result.text)
            if clip.name != NARRATION:
                scores.said.append(clip.said)
                scores.heard.append(result.text)
            print(f"  {scores.label:<34} {clip.name:<46} WER {scores.wer[clip.name]:.3f}"
                  f"  {scores.seconds[clip.name]:6.1f} s", flush=True)  # fmt: skip
    os.environ.pop("CT2_FORCE_CPU_ISA", None)
    return scores


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--isa", nargs="+", default=["native", "AVX2", "AVX"],
                        help="CTranslate2 instruction sets (native = what this CPU picks; AVX512, AVX2, AVX, GENERIC)")
    parser.add_argument("--conditioning", nargs="+", choices=["on", "off"], default=["on", "off"],
                        help="Whisper's condition_on_previous_text (on is faster-whisper's default; off is ours)")
    parser.add_argument("--repeat", type=int, default=1, help="times to run every pair, each on a fresh server")
    parser.add_argument("--only", action="append", metavar="NAME", help="only this tutorial (repeatable)")
    args = parser.parse_args()

    settings = load_settings()
    with tempfile.TemporaryDirectory(prefix="speech-bench-") as tmp:
        work = Path(tmp)
        clips = [narration_clip(work), *tutorial_clips(settings, work, args.only)]
        runs = [score(clips, isa, mode == "on", work, repeat)
                for repeat in range(1, args.repeat + 1) for isa in args.isa for mode in args.conditioning]

    print(f"\n{'server':<34} {'narration WER':>13} {'tutorials pooled':>16} {'worst tutorial':>14} "
          f"{'seconds':>8} {'time ratio':>10}")  # fmt: skip
    baseline = sum(runs[0].seconds.values())
    for run in runs:
        tutorials = [name for name in run.wer if name != NARRATION]
        pooled = f"{word_error_rate(run.said, run.heard):.3f}" if tutorials else "-"
        worst = f"{max(run.wer[name] for name in tutorials):.3f}" if tutorials else "-"
        took = sum(run.seconds.values())
        print(f"{run.label:<34} {run.wer[NARRATION]:>13.3f} {pooled:>16} {worst:>14} {took:>8.0f} "
              f"{took / baseline:>10.2f}")  # fmt: skip
    print(f"(time ratio: against the first row, {runs[0].label}, measured in this run; pooled over "
          f"{len(clips) - 1} recorded tutorials)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
