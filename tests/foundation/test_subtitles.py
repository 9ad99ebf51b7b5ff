"""Subtitle files beside a video, parsed into clean, de-duplicated cues."""

from __future__ import annotations

from foundation.subtitles import Cue, find_subtitle, load_transcript, parse_subtitles

SRT = (
    "\ufeff1\r\n"
    "00:00:01,000 --> 00:00:03,500\r\n"
    "<i>Welcome</i> back &amp; thanks\r\n"
    "\r\n"
    "2\r\n"
    "00:00:04,000 --> 00:00:06,250\r\n"
    "{\\an8}Click the <b>Cart</b>\r\n"
    "button at the top\r\n"
    "\r\n"
    "3\r\n"
    "01:02:03,400 --> 01:02:05,000\r\n"
    "That's all.\r\n"
)

VTT = """WEBVTT - Shop admin tutorial
Kind: captions
Language: en

STYLE
::cue { color: yellow }

NOTE written by hand,
not by a machine

intro
00:00.500 --> 00:02.000 align:start position:10%
<v Presenter>Open the <c.highlight>orders</c> page</v>

00:00:02.000 --> 00:00:04.000
Then filter by&nbsp;status
"""

# YouTube auto-captions: each cue repeats the line above the new one, words carry timing
# tags, and 10 ms cues freeze the previous line between them.
ROLLING = """WEBVTT
Kind: captions
Language: en

00:00:00.000 --> 00:00:02.350 align:start position:0%
 
so<00:00:00.420><c> today</c><00:00:00.780><c> we're</c><00:00:01.020><c> going</c>

00:00:02.350 --> 00:00:02.360 align:start position:0%
so today we're going
 

00:00:02.360 --> 00:00:05.030 align:start position:0%
so today we're going
to<00:00:02.520><c> show</c><00:00:02.800><c> you</c><00:00:03.100><c> how</c>

00:00:05.030 --> 00:00:05.040 align:start position:0%
to show you how
 

00:00:05.040 --> 00:00:07.000 align:start position:0%
to show you how
to<00:00:05.300><c> add</c><00:00:05.600><c> a</c><00:00:06.000><c> product</c>

00:00:07.000 --> 00:00:07.010 align:start position:0%
to add a product
 

00:01:00.000 --> 00:01:02.000 align:start position:0%
 
so today we're going
"""


def test_srt_with_bom_crlf_tags_and_entities():
    assert parse_subtitles(SRT) == [
        Cue(1.0, 3.5, "Welcome back & thanks"),
        Cue(4.0, 6.25, "Click the Cart button at the top"),
        Cue(3723.4, 3725.0, "That's all."),
    ]


def test_vtt_headers_notes_styles_voices_and_short_timestamps():
    assert parse_subtitles(VTT) == [
        Cue(0.5, 2.0, "Open the orders page"),
        Cue(2.0, 4.0, "Then filter by status"),
    ]


def test_rolling_auto_captions_say_each_line_once():
    cues = parse_subtitles(ROLLING)
    assert [c.text for c in cues] == [
        "so today we're going",
        "to show you how",
        "to add a product",
        "so today we're going",  # said again a minute later: kept
    ]
    assert (cues[0].start_s, cues[0].end_s) == (0.0, 5.03)  # on screen until it scrolled away
    assert cues[2].start_s == 5.04


def test_transcript_beside_the_video(tmp_path):
    video = tmp_path / "How to add a product [abc123].mp4"
    video.write_bytes(b"")
    (tmp_path / "How to add a product [abc123].en.vtt").write_text(ROLLING)
    transcript = load_transcript(video)
    assert transcript is not None and transcript.language == "en"
    assert transcript.text == "so today we're going to show you how to add a product so today we're going"


def test_subtitle_choice_prefers_plain_then_language_then_region_then_others(tmp_path):
    video = tmp_path / "talk.mp4"
    video.write_bytes(b"")
    assert find_subtitle(video) is None
    for name in ("talk2.en.vtt", "talk.part2.en.vtt", "talk.de.vtt"):
        (tmp_path / name).write_text(VTT)
    assert find_subtitle(video).name == "talk.de.vtt"
    (tmp_path / "talk.en-US.vtt").write_text(VTT)
    assert find_subtitle(video).name == "talk.en-US.vtt"
    (tmp_path / "talk.en.srt").write_text(SRT)
    assert find_subtitle(video).name == "talk.en.srt"
    (tmp_path / "talk.srt").write_text(SRT)
    assert find_subtitle(video).name == "talk.srt"


def test_an_empty_subtitle_file_is_no_transcript(tmp_path):
    video = tmp_path / "silent.mp4"
    video.write_bytes(b"")
    (tmp_path / "silent.en.vtt").write_text("WEBVTT\n\n")
    assert load_transcript(video) is None
