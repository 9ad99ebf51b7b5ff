"""The transcript of a video: a subtitle file beside it (SRT or WebVTT), parsed into cues.

yt-dlp writes subtitles as `<stem>.<lang>.vtt` (or `.srt`); people put `<stem>.srt`
next to their own recordings. YouTube's auto-captions scroll: every cue repeats the
line before it and the words arrive with inline timing tags, so a naive reading says
everything twice. Lines already shown are dropped here, leaving each spoken line once.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from pathlib import Path

SUBTITLE_SUFFIXES = (".srt", ".vtt")
TIMING = re.compile(
    r"(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})\s*-->\s*(?:(\d+):)?(\d{1,2}):(\d{2})[.,](\d{1,3})"
)
TAG = re.compile(r"<[^>]*>")  # <c>, <i>, <v Name>, <00:00:01.230> timing tags
ASS_OVERRIDE = re.compile(r"\{\\[^}]*\}")  # {\an8} positioning some SRT files carry
MIN_CUE_S = 0.05  # YouTube inserts 10 ms cues that only freeze the previous line
CONTIGUOUS_S = 0.1  # gap up to which a repeated line counts as still on screen


@dataclass(frozen=True)
class Cue:
    start_s: float
    end_s: float
    text: str


@dataclass(frozen=True)
class Transcript:
    path: Path
    language: str  # from the file name ("en", "en-US"); "" when the name has none
    cues: tuple[Cue, ...]

    @property
    def text(self) -> str:
        return " ".join(cue.text for cue in self.cues)


def find_subtitle(video_path: str | Path, language: str = "en") -> Path | None:
    """The subtitle file that belongs to `video_path`, best match first.

    Order: `<stem>.srt|.vtt`, then `<stem>.<language>.*`, then regional or original
    variants (`<stem>.<language>-US.*`, `<stem>.<language>-orig.*`), then any other language.
    """
    video_path = Path(video_path)
    stem, folder = video_path.stem, video_path.parent
    if not folder.is_dir():
        return None
    candidates: list[tuple[int, str, Path]] = []
    for path in folder.iterdir():
        name = path.name
        if path.suffix.lower() not in SUBTITLE_SUFFIXES or not name.startswith(stem + ".") or not path.is_file():
            continue
        tag = name[len(stem) + 1 : -len(path.suffix)]
        if tag == "":
            rank = 0
        elif tag.lower() == language.lower():
            rank = 1
        elif tag.lower().startswith(language.lower() + "-"):
            rank = 2
        elif "." in tag:
            continue  # another video's subtitles, e.g. "<stem>.part2.en.vtt"
        else:
            rank = 3
        candidates.append((rank, name, path))
    return min(candidates)[2] if candidates else None


def load_transcript(video_path: str | Path, language: str = "en") -> Transcript | None:
    """Parse the subtitle file beside `video_path`; None when there is none or it holds no speech."""
    video_path = Path(video_path)
    found = find_subtitle(video_path, language)
    if found is None:
        return None
    cues = parse_subtitles(found.read_text(encoding="utf-8-sig", errors="replace"))
    if not cues:
        return None
    tag = found.name[len(video_path.stem) + 1 : -len(found.suffix)]
    return Transcript(found, tag, tuple(cues))


def parse_subtitles(text: str) -> list[Cue]:
    """Cues of an SRT or WebVTT document, cleaned of markup and de-duplicated.

    Read line by line: a timing line opens a cue, an empty line closes it. Only truly
    empty lines close a cue, because YouTube puts lines holding a single space inside cues.
    Headers, NOTE/STYLE blocks and cue numbers sit outside cues and are skipped.
    """
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    raw: list[tuple[float, float, list[str]]] = []
    open_cue: list[str] | None = None
    for number, line in enumerate(lines):
        match = TIMING.search(line)
        if match:
            groups = match.groups()
            open_cue = []
            raw.append((_seconds(groups[:4]), _seconds(groups[4:]), open_cue))
        elif line == "":
            open_cue = None
        elif open_cue is not None and not (number + 1 < len(lines) and TIMING.search(lines[number + 1])):
            open_cue.append(line)  # (a line right before a timing line is the next cue's number)
    cues = []
    for start, end, text_lines in raw:
        cleaned = [_clean(line) for line in text_lines]
        cues.append(Cue(start, end, "\n".join(line for line in cleaned if line)))
    return _deduplicate(cues)


def _seconds(parts: tuple[str | None, ...]) -> float:
    hours, minutes, seconds, fraction = parts
    return int(hours or 0) * 3600 + int(minutes) * 60 + int(seconds) + int(fraction.ljust(3, "0")) / 1000


def _clean(line: str) -> str:
    line = ASS_OVERRIDE.sub("", TAG.sub("", line))
    return " ".join(html.unescape(line).replace("\u00a0", " ").split())


def _deduplicate(cues: list[Cue]) -> list[Cue]:
    """Drop lines still on screen from an earlier cue (they only extend that cue); join a cue's new lines.

    Only lines shown until (about) the new cue's start count as repeats, so a phrase
    said twice a minute apart stays twice.
    """
    result: list[Cue] = []
    for cue in cues:
        if not cue.text or cue.end_s - cue.start_s < MIN_CUE_S:
            continue
        new_lines = []
        for line in cue.text.split("\n"):
            repeat = _still_shown(line, cue.start_s, result)
            if repeat is None:
                new_lines.append(line)
            else:
                shown = result[repeat]
                result[repeat] = Cue(shown.start_s, max(shown.end_s, cue.end_s), shown.text)
        if new_lines:
            result.append(Cue(cue.start_s, cue.end_s, " ".join(new_lines)))
    return result


def _still_shown(line: str, start_s: float, result: list[Cue], window: int = 3) -> int | None:
    """Index of a recent cue with this very line that lasts until `start_s`, if any."""
    for index in range(len(result) - 1, max(-1, len(result) - 1 - window), -1):
        cue = result[index]
        same = cue.text == line or cue.text.endswith(" " + line)
        if same and cue.end_s >= start_s - CONTIGUOUS_S:
            return index
    return None
