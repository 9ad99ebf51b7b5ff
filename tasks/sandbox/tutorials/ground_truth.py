"""What a recorded tutorial really did, written beside its video.

`<name>.actions.json` lists every action with its kind, the element as a person
would name it, the text involved, when it starts and ends on the video, and
where the pointer and the element were (frame pixels, browser bar included), so
a processing pipeline's output can be scored against it. `<name>.srt` holds the
narration, one cue per step.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from pathlib import Path

Box = list[float]  # x, y, width, height in frame pixels


@dataclass
class ActionRecord:
    type: str  # click, type, select, scroll, press, hover, goto
    target: str  # the element's accessible name ("" for scroll and press)
    role: str  # its role ("" when none applies)
    text: str  # typed text, chosen option, key, URL, or scroll direction
    start_s: float  # the moment the action happens (press, first key, first wheel notch)
    end_s: float  # when its effect is on screen (new page shown, last key typed)
    step: int  # index of the script step it belongs to
    cursor: list[float] | None = None  # pointer tip at start_s
    box: Box | None = None  # the element at start_s
    name_box: Box | None = None  # where its name is written on screen (the label of a field)
    label: str = ""  # the text written there
    url_before: str = ""
    url_after: str = ""
    scroll_before: float | None = None  # page scroll offsets, for scroll actions
    scroll_after: float | None = None
    # Moments and places worth checking: `typed_s` (type, goto: the whole text is on screen from then),
    # `masked` (a password field), `option_s`, `option_box`, `option_cursor` (select: the pointer on the
    # chosen row of the drawn list).
    extra: dict = field(default_factory=dict)


@dataclass
class Cue:
    start_s: float
    end_s: float
    text: str


@dataclass
class TutorialRecord:
    name: str
    title: str
    description: str
    site: str
    start_url: str
    fps: int
    width: int
    height: int
    page_top: int  # frame row where the page starts (the browser bar is above it)
    duration_s: float
    actions: list[ActionRecord]
    narration: list[Cue]

    def to_json(self) -> str:
        data = asdict(self)
        for action in data["actions"]:
            for key in ("start_s", "end_s"):
                action[key] = round(action[key], 3)
        for cue in data["narration"]:
            cue["start_s"], cue["end_s"] = round(cue["start_s"], 3), round(cue["end_s"], 3)
        data["duration_s"] = round(data["duration_s"], 3)
        return json.dumps(data, indent=1, ensure_ascii=False)


def load_record(path: Path) -> TutorialRecord:
    data = json.loads(path.read_text(encoding="utf-8"))
    data["actions"] = [ActionRecord(**action) for action in data["actions"]]
    data["narration"] = [Cue(**cue) for cue in data["narration"]]
    return TutorialRecord(**data)


def srt_time(seconds: float) -> str:
    millis = int(round(seconds * 1000))
    hours, millis = divmod(millis, 3_600_000)
    minutes, millis = divmod(millis, 60_000)
    secs, millis = divmod(millis, 1000)
    return f"{hours:02d}:{minutes:02d}:{secs:02d},{millis:03d}"


def to_srt(cues: list[Cue]) -> str:
    blocks = [
        f"{number}\n{srt_time(cue.start_s)} --> {srt_time(cue.end_s)}\n{cue.text}\n"
        for number, cue in enumerate(cues, start=1)
    ]
    return "\n".join(blocks)
