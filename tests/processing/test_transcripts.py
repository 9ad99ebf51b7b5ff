"""Transcripts from audio: a sandbox tutorial's narration, spoken by espeak-ng into a real audio track,
goes through ffmpeg and the real `openai` client to a SCRIPTED `/v1/audio/transcriptions` server
and comes back as a timed transcript; videos without one say why in one line."""

from __future__ import annotations

import json
import shutil
import subprocess
import wave
from pathlib import Path

import pytest

from foundation.subtitles import parse_subtitles
from foundation.video_io import has_audio
from model_access.client import ModelClient
from model_access.scripted_server import ScriptedServer
from processing.transcripts import VTT_NAME, timed_transcript, video_transcript
from settings import load_settings
from tasks.sandbox.tutorials.script import SCRIPTS_DIR, load_script

TUTORIAL = "shop_search_sort"


def _need(tool: str) -> str:
    path = shutil.which(tool)
    if path is None:
        pytest.fail(f"{tool} is not installed: run `bash scripts/bootstrap.sh` (it installs {tool} with apt)")
    return path


def _run(command: list[str]) -> None:
    subprocess.run(command, check=True, capture_output=True)


@pytest.fixture(scope="module")
def narrated_video(tmp_path_factory) -> tuple[Path, list[dict]]:
    """A short screen video whose audio track is the tutorial's narration, and each line's time span."""
    espeak, ffmpeg = _need("espeak-ng"), _need("ffmpeg")
    folder = tmp_path_factory.mktemp("narrated")
    lines = load_script(SCRIPTS_DIR / f"{TUTORIAL}.yaml").narration[:3]
    spans, parts, start = [], [], 0.0
    for n, line in enumerate(lines):
        part = folder / f"line{n}.wav"
        _run([espeak, "-s", "190", "-w", str(part), line])
        with wave.open(str(part)) as audio:
            seconds = audio.getnframes() / audio.getframerate()
        spans.append({"start": round(start, 3), "end": round(start + seconds, 3), "text": line})
        parts.append(part)
        start += seconds
    listing = folder / "parts.txt"
    listing.write_text("".join(f"file '{part}'\n" for part in parts))
    speech = folder / "speech.wav"
    _run([ffmpeg, "-v", "error", "-y", "-f", "concat", "-safe", "0", "-i", str(listing), str(speech)])
    video = folder / f"{TUTORIAL}.mp4"
    _run([ffmpeg, "-v", "error", "-y", "-f", "lavfi", "-i", f"testsrc=size=320x240:rate=5:duration={start:.2f}",
          "-i", str(speech), "-c:v", "libx264", "-preset", "ultrafast", "-c:a", "aac", "-shortest", str(video)])  # fmt: skip
    return video, spans


def _asr_settings(tmp_path: Path, url: str = ""):
    settings = load_settings()
    settings.paths.cache_dir = tmp_path / "cache"
    if url:
        settings.models.asr.base_url, settings.models.asr.model = url, "whisper-large-v3"
    return settings


def test_narration_comes_back_as_a_timed_transcript_through_the_asr_role(narrated_video, tmp_path) -> None:
    video, spans = narrated_video
    assert has_audio(video)
    script = {"name": "asr", "rules": [{"contains": "audio transcription", "reply": json.dumps(spans)}]}
    with ScriptedServer(script) as server:
        settings = _asr_settings(tmp_path, server.base_url)
        with ModelClient(settings) as client:
            result = video_transcript(video, tmp_path / "artifacts", client, "en")
            again = video_transcript(video, tmp_path / "artifacts", client, "en")
        requests = server.requests("/audio/transcriptions")
    # One request: the second transcript of the same audio came from the cache.
    assert len(requests) == 1
    body = requests[0]["body"]
    assert body["model"] == "whisper-large-v3" and body["response_format"] == "verbose_json"
    assert body["model_name"] == "whisper-large-v3"  # faster-whisper-server reads this field, not `model`
    assert body["language"] == "en"
    audio = body["file"]
    # FLAC of the 16 kHz mono track: lossless, and smaller than the 32 000 bytes a second of a WAV.
    assert audio["head"] == "fLaC" and audio["name"].endswith(".flac")
    assert 4000 * spans[-1]["end"] < audio["bytes"] < 0.8 * 32000 * spans[-1]["end"]
    assert result.source == "asr" and result.scripted and again.text == result.text
    assert (result.calls, result.cached, again.calls, again.cached) == (1, 0, 1, 1)
    assert result.text == " ".join(span["text"] for span in spans)
    cues = timed_transcript(tmp_path / "artifacts")
    assert [(c.start_s, c.end_s, c.text) for c in cues] == [(s["start"], s["end"], s["text"]) for s in spans]
    # The kept file is ordinary WebVTT.
    assert parse_subtitles((tmp_path / "artifacts" / VTT_NAME).read_text()) == cues


def test_subtitles_beside_the_video_win_over_speech_recognition(narrated_video, tmp_path) -> None:
    video, spans = narrated_video
    copy = tmp_path / video.name
    shutil.copy(video, copy)
    copy.with_suffix(".en.srt").write_text("1\n00:00:00,000 --> 00:00:02,500\nHello from the subtitles\n")
    with ScriptedServer({"default": "[]"}) as server:
        with ModelClient(_asr_settings(tmp_path, server.base_url)) as client:
            result = video_transcript(copy, tmp_path / "artifacts", client, "en")
        assert not server.requests("/audio/transcriptions")
    assert result.source == "subtitles" and result.text == "Hello from the subtitles"
    assert [c.end_s for c in timed_transcript(tmp_path / "artifacts")] == [2.5]


def test_a_video_without_transcript_says_why(narrated_video, tmp_path) -> None:
    video, _ = narrated_video
    silent = tmp_path / "silent.mp4"
    _run(["ffmpeg", "-v", "error", "-y", "-i", str(video), "-an", "-c:v", "copy", str(silent)])
    with ModelClient(_asr_settings(tmp_path)) as client:
        no_audio = video_transcript(silent, tmp_path / "a", client, "en")
        no_asr = video_transcript(video, tmp_path / "b", client, "en")
    assert no_audio.text == "" and no_audio.reason == "no subtitles and no audio track: the video has no transcript"
    assert no_asr.text == "" and "set models.asr.base_url" in no_asr.reason
    assert not (tmp_path / "a" / VTT_NAME).exists()


def test_dry_run_counts_the_speech_recognition_requests_and_sends_none(narrated_video, tmp_path) -> None:
    from tests.processing.pipeline_helpers import pipeline_settings, process

    video, _ = narrated_video
    folder = tmp_path / "videos"
    folder.mkdir()
    shutil.copy(video, folder / video.name)
    with ScriptedServer({"default": "[]"}) as server:
        settings = pipeline_settings(tmp_path / "cache", server.base_url)
        code, without_asr, _ = process(settings, "--source", "dir", "--videos", str(folder), "--dry-run")
        assert code == 0
        settings.models.asr.base_url, settings.models.asr.model = server.base_url, "whisper-large-v3"
        code, with_asr, _ = process(settings, "--source", "dir", "--videos", str(folder), "--dry-run")
        assert code == 0 and server.log == []
    assert "to do: transcript, changed_frames" in with_asr
    assert "transcript: 1 model call(s) (at most: one request per piece of at most 600 s of audio" in with_asr
    assert "speech recognition: at most 1 request(s) in all" in with_asr
    assert "transcript: 0 model call(s) (none: no subtitles, and its audio is not transcribed" in without_asr
    assert "speech recognition: at most 0 request(s) in all" in without_asr


def _audio_file(folder: Path, name: str, sources: list[str], filters: str, seconds: float) -> Path:
    """An audio-only file made by ffmpeg from lavfi sources and audio files, mixed by `filters`."""
    path = folder / name
    inputs: list[str] = []
    for source in sources:
        inputs += ["-f", "lavfi", "-i", source] if "=" in source else ["-i", source]
    _run([_need("ffmpeg"), "-v", "error", "-y", *inputs, "-filter_complex", filters, "-t", f"{seconds}",
          "-ac", "1", "-ar", "16000", str(path)])  # fmt: skip
    return path


def _narration(folder: Path, text: str) -> Path:
    path = folder / f"say{abs(hash(text)) % 10**8}.wav"
    _run([_need("espeak-ng"), "-s", "170", "-w", str(path), text])
    return path


def test_long_audio_goes_up_in_flac_pieces_under_25_mb_with_cue_times_offset(tmp_path) -> None:
    # 14 minutes of loud noise: as one 16 kHz WAV 27 MB, past the 25 MB cap of the OpenAI API and vLLM;
    # noise barely compresses, so this is the worst case for a FLAC piece's size.
    seconds = 14 * 60
    track = _audio_file(tmp_path, "lecture.mka", ["anoisesrc=r=16000:color=white:amplitude=0.5"], "[0:a]anull", seconds)
    segment = {"start": 5.0, "end": 7.5, "text": "Open the cart.", "no_speech_prob": 0.01}
    script = {"name": "asr", "rules": [{"contains": "audio transcription", "reply": json.dumps([segment])}]}
    with ScriptedServer(script) as server:
        with ModelClient(_asr_settings(tmp_path, server.base_url)) as client:
            result = video_transcript(track, tmp_path / "artifacts", client, "en")
        requests = server.requests("/audio/transcriptions")
    assert 32000 * seconds > 25 * 2**20
    sizes = [request["body"]["file"]["bytes"] for request in requests]
    assert len(sizes) == 2 and all(size < 21 * 2**20 for size in sizes), sizes
    assert {request["body"]["file"]["head"] for request in requests} == {"fLaC"}
    # Each piece's cue is shifted by the piece's start: the first piece ends within 20 s before 600 s.
    starts = [cue.start_s for cue in timed_transcript(tmp_path / "artifacts")]
    assert starts[0] == 5.0 and 580 + 5 <= starts[1] <= 600 + 5, starts
    assert (result.pieces, result.calls, result.silent_pieces) == (2, 2, 0)


def test_a_silent_track_sends_no_request_and_says_so(tmp_path) -> None:
    track = _audio_file(tmp_path, "quiet.mka", ["anullsrc=r=16000:cl=mono"], "[0:a]anull", 40)
    with ScriptedServer({"default": "[]"}) as server:
        with ModelClient(_asr_settings(tmp_path, server.base_url)) as client:
            result = video_transcript(track, tmp_path / "artifacts", client, "en")
        assert server.requests("/audio/transcriptions") == []
    assert result.text == "" and result.calls == 0 and result.silent_pieces == 1
    assert result.reason == "no subtitles, and its audio track is silent (no speech recognition request sent)"
    assert not (tmp_path / "artifacts" / VTT_NAME).exists()


def test_a_no_speech_segment_over_silence_is_dropped_and_one_over_speech_kept(tmp_path) -> None:
    said = _narration(tmp_path, "Click the search box and type kettle.")
    # The phrase, then 8 seconds of silence (too short to be cut out; Whisper writes "You" over it).
    track = _audio_file(tmp_path, "talk.mka", [str(said), "anullsrc=r=16000:cl=mono"],
                        "[0:a]aresample=16000[a];[a][1:a]concat=n=2:v=0:a=1", 10.5)  # fmt: skip
    segments = [
        {"start": 0.0, "end": 2.6, "text": "Click the search box and type kettle.", "no_speech_prob": 0.84},
        {"start": 5.0, "end": 10.0, "text": "You", "no_speech_prob": 0.95},
    ]
    script = {"name": "asr", "rules": [{"contains": "audio transcription", "reply": json.dumps(segments)}]}
    with ScriptedServer(script) as server:
        with ModelClient(_asr_settings(tmp_path, server.base_url)) as client:
            result = video_transcript(track, tmp_path / "artifacts", client, "en")
            settings = _asr_settings(tmp_path / "keep", server.base_url)
            settings.processing.speech.drop_no_speech_prob = 1.0
            with ModelClient(settings) as keeping:
                kept = video_transcript(track, tmp_path / "kept", keeping, "en")
    assert result.text == "Click the search box and type kettle." and result.dropped == 1
    assert kept.text == "Click the search box and type kettle. You" and kept.dropped == 0


def test_a_refused_verbose_json_is_asked_again_as_json_and_the_text_spans_the_audio(narrated_video, tmp_path) -> None:
    video, spans = narrated_video
    refusal = "Currently only support response_format `text` or `json`"  # what older vLLM answers
    script = {"name": "asr", "rules": [
        {"contains": "as verbose_json", "status": 400, "reply": refusal},
        {"contains": "as json", "reply": "Search for shoes and sort by price."},
    ]}  # fmt: skip
    with ScriptedServer(script) as server:
        with ModelClient(_asr_settings(tmp_path, server.base_url)) as client:
            result = video_transcript(video, tmp_path / "artifacts", client, "en")
            again = video_transcript(video, tmp_path / "again", client, "en", )
            usage = client.ledger.usage(role="asr")
        formats = [request["body"]["response_format"] for request in server.requests("/audio/transcriptions")]
    assert formats == ["verbose_json", "json"]  # and the second video came from the cache
    assert result.text == "Search for shoes and sort by price." and again.cached == 1
    cues = timed_transcript(tmp_path / "artifacts")
    assert len(cues) == 1 and cues[0].start_s == 0.0 and cues[0].end_s == pytest.approx(spans[-1]["end"], abs=0.3)
    assert any("without segments" in warning for warning in result.warnings)
    assert any("refused verbose_json" in warning and refusal in warning for warning in result.warnings)
    assert (usage.calls, usage.retries, usage.cache_hits, usage.failures) == (2, 1, 1, 0)


def test_retries_and_cache_hits_are_counted_in_the_ledger(narrated_video, tmp_path) -> None:
    video, spans = narrated_video
    script = {"name": "asr", "replies": [{"status": 503}, {"status": 500}], "default": json.dumps(spans)}
    with ScriptedServer(script) as server:
        settings = _asr_settings(tmp_path, server.base_url)
        settings.models.backoff_initial_s, settings.models.backoff_max_s = 0.01, 0.02
        with ModelClient(settings) as client:
            video_transcript(video, tmp_path / "artifacts", client, "en")
            video_transcript(video, tmp_path / "again", client, "en")
            table = client.ledger.summary_table()
            usage = client.ledger.usage(role="asr")
    assert (usage.calls, usage.retries, usage.cache_hits, usage.failures) == (2, 2, 1, 0)
    row = next(line for line in table.splitlines() if line.startswith("transcripts"))
    assert row.split()[2:6] == ["2", "1", "0", "2"]  # calls, cached, failed, retries


def test_with_the_asr_server_down_a_video_still_gets_frames_actions_and_trajectories(
    tutorial_videos, narrated_video, scripted_model, tmp_path, caplog
) -> None:
    from tests.processing.pipeline_helpers import pipeline_settings, process, read_summary, video_summary

    from model_access.local_servers.process import free_port

    # The search tutorial with a narration track; speech recognition points at a port nothing listens on.
    folder = tmp_path / "videos"
    folder.mkdir()
    speech = narrated_video[0]
    _run([_need("ffmpeg"), "-v", "error", "-y", "-i", str(tutorial_videos["search_tutorial"]), "-i", str(speech),
          "-map", "0:v", "-map", "1:a", "-c:v", "copy", "-c:a", "aac", str(folder / "search_tutorial.mp4")])  # fmt: skip
    server = scripted_model()
    settings = pipeline_settings(tmp_path / "cache", server.base_url)
    down = f"http://127.0.0.1:{free_port()}/v1"
    settings.models.asr.base_url, settings.models.asr.model = down, "whisper-tiny.en"
    # The pre-run check only warns about a dead asr server (transcripts are optional), once; speech recognition is
    # then skipped, one line per video, with no request and no retry lines.
    code, out, err = process(settings, "--source", "dir", "--videos", str(folder))
    assert code == 0, out
    video = video_summary(read_summary(settings), "search_tutorial")
    assert video["ok"] and video["keyframes"] > 0 and video["actions"] > 0 and video["kept"] > 0
    assert video["transcript"] == f"none: speech recognition skipped: the ASR server at {down} did not answer the check before the run"
    printed = out + err + caplog.text
    assert printed.count("Connection refused") == 1, printed  # the reason, once
    assert "speech recognition is off for this run" in printed and "run the command again" not in printed
    assert "retry 1/" not in printed  # no request, so no retry lines
    assert "no transcript: search_tutorial: speech recognition skipped" in out
    # Nothing was stored for the failed transcript: with the server back, the next run transcribes.
    segments = json.dumps([{"start": 0.5, "end": 2.0, "text": "Search for headphones."}])
    asr = ScriptedServer({"name": "asr", "rules": [{"contains": "audio transcription", "reply": segments}]}).start()
    try:
        settings.models.asr.base_url = asr.base_url
        code, out, _ = process(settings, "--source", "dir", "--videos", str(folder))
    finally:
        asr.stop()
    assert code == 0 and video_summary(read_summary(settings), "search_tutorial")["transcript"] == "asr"
    # The line tells where the timed transcript is.
    line = next(line for line in out.splitlines() if "transcript: from asr" in line)
    vtt = Path(line.split("cues in ", 1)[1].split(",")[0])
    assert vtt.name == VTT_NAME and "Search for headphones." in vtt.read_text()
