"""Which indexed trajectories demonstrate each step of a task's reference solution, by the tutorials' logs.

    tutorials = IndexedTutorials.load(index_dir, tolerance_s=1.0)   # None when there is no index
    steps = reference_steps(solution.actions)
    covers = tutorials.covering(steps[2], steps, intent, videos=["shop_order_history"])

A recorded sandbox tutorial comes with the ground truth of what was done in it
(`<video>.actions.json` beside the video: each action's kind, element, text and time).
A step of a reference solution is **demonstrated** by a tutorial action when both are the
same kind of action (choosing an option is a select) and
- they act on the same element: names agree (`names_agree`) and roles too where both
  name one; a typed field is matched by its name alone (the value is the task's); or
- the tutorial's element stands for its own thing where the task names its own: the
  reference's element is a link, option or radio button (a thing, not a command) named in
  the task's intent, the tutorial's has the same role, is not named in the intent and
  agrees with no other step of the reference (a category, a forum, a product, a colour),
  and the reference's step before it is demonstrated earlier in the same tutorial (so a
  first step such as "My Account", which an intent may say in passing, is never stood in
  for). This is a rule on names, not meaning: a link of another sort in that place (a sort
  order where the tutorial later opens a forum) counts too; and for an option the
  reference does not say which menu holds it, so any menu choice of the tutorial counts.
A trajectory demonstrates the step when one of its labeled actions is that tutorial
action: the labeled action nearest in time to it (spans overlapping or at most
`tolerance_s` apart), whatever its label says; a label naming the wrong element is a
fault of labeling, seen when the step is replayed, not a missing demonstration.

The index is read from the files processing/index.py writes (`trajectories.sqlite`, read
only), so the harness needs nothing of processing; the agent can use the same rules on
trajectories it holds (`IndexedTutorials.from_records`).
"""

from __future__ import annotations

import json
import re
import sqlite3
import unicodedata
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from evaluation.running.policies.targets import parse_target

INDEX_DB = "trajectories.sqlite"  # processing/index.py's DB_NAME: the index is read here as a file
LOG_SUFFIX = ".actions.json"  # a recorded tutorial's ground truth, beside its video (tasks/sandbox/tutorials)
THING_ROLES = frozenset({"link", "option", "radio"})
SAME, SUBSTITUTED = "same element", "the task's own in its place"  # how a tutorial action demonstrates a step
IGNORED_KINDS = frozenset({"clear", "hover", "scroll", "wait"})  # no step of their own to demonstrate
_BRACKETS = re.compile(r"\[(.*?)\]", re.S)
_COUNT = re.compile(r"\s*\([^()]*\)\s*$")  # "Shoes (7 items )": the count a category link carries
_PLACEHOLDER = re.compile(r"__[A-Z_]+__")


@dataclass(frozen=True)
class Step:
    """One step of a reference solution: what is done, to which element, with which value."""

    number: int  # 1-based place in the solution
    text: str  # as the solution writes it
    kind: str  # click, type, select, goto, press, stop (or clear, hover, scroll: not judged)
    role: str = ""
    name: str = ""  # the element's accessible name; "" for a select (the option is the value) or an id action
    value: str = ""  # typed text, chosen option, address, key or answer
    nth: int = 0  # the n-th of several elements with this role and name (0: the first)

    def describe(self) -> str:
        if self.kind == "select":
            return f"choose option {self.value!r}"
        if self.kind == "type":
            return f"type {self.value!r} into {self.role} {self.name!r}"
        if self.kind in ("goto", "press", "stop"):
            return f"{self.kind} [{self.value}]"
        nth = f" (the {ordinal(self.nth + 1)} of that name)" if self.nth else ""
        return f"{self.kind} {self.role} {self.name!r}{nth}" if self.name else self.text


@dataclass(frozen=True)
class TutorialAction:
    video_id: str
    index: int  # its place in the tutorial's log
    kind: str
    role: str
    name: str
    value: str
    start_s: float
    end_s: float

    def describe(self) -> str:
        value = f" {self.value!r}" if self.value and self.kind in ("type", "select") else ""
        return f"{self.kind}{value} {self.role} {self.name!r} at {self.start_s:.1f} s of {self.video_id}".replace(
            "  ", " "
        )


@dataclass(frozen=True)
class Cover:
    """A trajectory that demonstrates a step: where in it, by which tutorial action, and how."""

    trajectory_id: str
    position: int  # 0-based place of the demonstrating action in the trajectory
    label: str  # what the labeler called that action
    truth: TutorialAction
    how: str  # SAME ("same element") or SUBSTITUTED ("the task's own in its place")


@dataclass
class Labeled:
    """A labeled action of a video, at its place in the video's action list."""

    index: int
    kind: str
    target: str
    text: str
    start_s: float
    end_s: float

    def describe(self) -> str:
        """As processing's LabeledAction.describe words it (the replay's records quote that)."""
        target = f' "{self.target}"' if self.target else ""
        if self.kind == "type":
            return f'type "{self.text}" into{target}'
        if self.kind in ("press", "goto") and self.text:
            return f"{self.kind} {self.text}"
        if self.kind == "select" and self.text:
            return f'select "{self.text}" in{target}'
        if self.kind == "hover" and self.text:
            return f'hover{target} (opens "{self.text}")'
        return f"{self.kind}{target}"


@dataclass
class IndexedVideo:
    video_id: str
    path: str
    actions: dict[int, Labeled] = field(default_factory=dict)  # place in the video -> labeled action
    trajectories: dict[str, tuple[int, int]] = field(default_factory=dict)  # id -> span (first, last)
    log: list[TutorialAction] | None = None  # None: the tutorial has no ground-truth log
    log_path: str = ""


# ---- reference solutions ----------------------------------------------------------------------


def reference_steps(actions: list[str]) -> list[Step]:
    """The steps of a reference solution (scripted-policy syntax, evaluation/running/policies/targets.py)."""
    return [_step(number, text.strip()) for number, text in enumerate(actions, start=1)]


def _step(number: int, text: str) -> Step:
    verb = text.split("[", 1)[0].strip().lower() or text.strip().lower()
    target = parse_target(text)
    if target is not None:
        values = _BRACKETS.findall(target.rest)
        value = values[0] if values else ""
        if target.verb == "click" and target.role == "option":
            return Step(number, text, "select", "option", "", target.name, target.nth)
        return Step(number, text, target.verb, target.role, target.name, value, target.nth)
    values = _BRACKETS.findall(text)
    if verb == "stop":
        return Step(number, text, "stop", value=text.split("[", 1)[1].rsplit("]", 1)[0] if "[" in text else "")
    if verb in ("goto", "press"):
        return Step(number, text, verb, value=values[0] if values else "")
    if verb == "type":  # an id action: the field is not named
        return Step(number, text, "type", value=values[1] if len(values) > 1 else "")
    return Step(number, text, verb)


# ---- names ------------------------------------------------------------------------------------------


def name_words(name: str, numbers: bool = False) -> list[str]:
    """Lower-case words of a name, accents and punctuation dropped, a trailing "(N items)" and (unless `numbers`)
    numbers left out, a plural s ignored."""
    text = unicodedata.normalize("NFKD", _COUNT.sub("", name or "")).casefold()
    text = "".join(ch for ch in text if not unicodedata.combining(ch))
    return [_singular(word) for word in re.findall(r"[^\W_]+", text) if numbers or not word.isdigit()]


def _singular(word: str) -> str:
    return word[:-1] if len(word) > 3 and word.endswith("s") and not word.endswith("ss") else word


def names_agree(a: str, b: str, numbers: bool = False) -> bool:
    """Same words (`name_words`, numbers left out unless `numbers`); names of numbers and symbols only agree when
    equal as written."""
    words_a, words_b = name_words(a, numbers), name_words(b, numbers)
    if not words_a or not words_b:
        return " ".join((a or "").split()).casefold() == " ".join((b or "").split()).casefold()
    return words_a == words_b


def named_in(name: str, intent: str) -> bool:
    """Whether the task's intent names this element: its first (up to three) words appear there in a row."""
    words = name_words(name, numbers=True)[:3]
    said = name_words(intent, numbers=True)
    return bool(words) and any(said[i : i + len(words)] == words for i in range(len(said) - len(words) + 1))


def url_path(url: str) -> str:
    """An address without its scheme, host and site placeholders, for comparing where two steps went."""
    text = _PLACEHOLDER.sub("", url.strip())
    text = re.sub(r"^[a-z]+://[^/]*", "", text)
    return text.rstrip("/") or "/"


# ---- demonstrations ---------------------------------------------------------------------------------


def demonstrates(action: TutorialAction, step: Step, others: list[Step], intent: str) -> str | None:
    """How a tutorial action demonstrates a reference step (SAME, SUBSTITUTED), or None: the rules of the module
    docstring, but for the one on the step before (`IndexedTutorials.demonstrations` checks it)."""
    if step.kind != action.kind or step.kind not in ("click", "type", "select", "goto", "press"):
        return None
    if step.kind == "goto":
        return SAME if url_path(step.value) == url_path(action.value) else None
    if step.kind == "press":
        return SAME if step.value.casefold() == action.value.casefold() else None
    if step.kind == "type":
        return SAME if step.name and names_agree(step.name, action.name) else None
    if step.kind == "select":
        if names_agree(step.value, action.value):
            return SAME
        mine, theirs = step.value, action.value
    else:
        if not step.name or (step.role and action.role and step.role != action.role):
            return None
        if names_agree(step.name, action.name):
            return SAME
        if step.role not in THING_ROLES:
            return None
        mine, theirs = step.name, action.name
    stands_for_another = any(
        other is not step and names_agree(other.value if other.kind == "select" else other.name, theirs)
        for other in others
    )
    if named_in(mine, intent) and not named_in(theirs, intent) and not stands_for_another:
        return SUBSTITUTED
    return None


class IndexedTutorials:
    """The videos of a trajectory index: their labeled actions, trajectories and (where recorded) logs."""

    def __init__(self, videos: dict[str, IndexedVideo], tolerance_s: float, source: str = "") -> None:
        self.videos = videos
        self.tolerance_s = tolerance_s
        self.source = source  # where it was read from, for messages

    @classmethod
    def load(cls, index_dir: Path, tolerance_s: float) -> IndexedTutorials | None:
        """The index in `index_dir` with each video's log beside its file, or None when there is no index."""
        database = Path(index_dir) / INDEX_DB
        if not database.is_file():
            return None
        connection = sqlite3.connect(f"file:{database}?mode=ro", uri=True)
        try:
            videos = [(vid, json.loads(rec)) for vid, rec in connection.execute(
                "SELECT video_id, record FROM videos ORDER BY position")]  # fmt: skip
            trajectories = [json.loads(rec) for (rec,) in connection.execute("SELECT record FROM trajectories")]
        finally:
            connection.close()
        records = [record for _, record in videos]
        whole = [record["whole_video"] for record in records if isinstance(record.get("whole_video"), dict)]
        return cls.from_records(records, trajectories + whole, tolerance_s, str(index_dir))

    @classmethod
    def from_records(
        cls, videos: list[dict[str, Any]], trajectories: list[dict[str, Any]], tolerance_s: float, source: str = ""
    ) -> IndexedTutorials:
        """From video records (`VideoRecord.to_dict()`) and trajectories (`Trajectory.to_dict()`)."""
        found: dict[str, IndexedVideo] = {}
        for record in videos:
            video = IndexedVideo(record["video_id"], str(record.get("path") or ""))
            if video.path:
                video.log_path = str(Path(video.path).with_suffix(LOG_SUFFIX))
                video.log = read_log(video.video_id, Path(video.log_path))
            found[video.video_id] = video
        for trajectory in trajectories:
            video = found.setdefault(trajectory["video_id"], IndexedVideo(trajectory["video_id"], ""))
            first, last = trajectory["span"]
            video.trajectories[trajectory["trajectory_id"]] = (int(first), int(last))
            for offset, action in enumerate(trajectory.get("actions") or []):
                place = int(first) + offset
                video.actions.setdefault(place, Labeled(
                    place, action.get("kind", ""), action.get("target", ""), action.get("text", ""),
                    float(action.get("start_s") or 0.0), float(action.get("end_s") or 0.0),
                ))  # fmt: skip
        return cls(found, tolerance_s, source)

    def video_of(self, trajectory_id: str) -> IndexedVideo | None:
        return next((video for video in self.videos.values() if trajectory_id in video.trajectories), None)

    def labeled_at(self, trajectory_id: str, position: int) -> Labeled | None:
        video = self.video_of(trajectory_id)
        if video is None:
            return None
        return video.actions.get(video.trajectories[trajectory_id][0] + position)

    def truth_of(self, video: IndexedVideo, labeled: Labeled) -> TutorialAction | None:
        """The logged action a labeled one stands for: the nearest in time within the tolerance."""
        best: tuple[float, TutorialAction] | None = None
        for action in video.log or []:
            gap = _gap(labeled.start_s, labeled.end_s, action.start_s, action.end_s)
            if gap <= self.tolerance_s and (best is None or gap < best[0]):
                best = (gap, action)
        return best[1] if best else None

    def labeled_for(self, video: IndexedVideo, action: TutorialAction) -> Labeled | None:
        """The labeled action standing for a logged one (the nearest in time within the tolerance), if any."""
        best: tuple[float, Labeled] | None = None
        for labeled in video.actions.values():
            gap = _gap(labeled.start_s, labeled.end_s, action.start_s, action.end_s)
            if gap <= self.tolerance_s and (best is None or gap < best[0]):
                best = (gap, labeled)
        return best[1] if best else None

    def demonstrations(
        self, step: Step, steps: list[Step], intent: str, videos: list[str]
    ) -> list[tuple[TutorialAction, str]]:
        """Every logged action of `videos` that demonstrates `step`, with how."""
        needed = [s for s in steps if s.kind not in IGNORED_KINDS and s.kind != "stop"]
        before = needed[needed.index(step) - 1] if step in needed and needed.index(step) > 0 else None
        found = []
        for video_id in videos:
            video = self.videos.get(video_id)
            for action in (video.log or []) if video is not None else []:
                how = demonstrates(action, step, steps, intent)
                if how == SUBSTITUTED and (before is None or not any(
                    earlier.index < action.index
                    for earlier, _ in self.demonstrations(before, steps, intent, [video_id])
                )):  # fmt: skip
                    continue  # the tutorial does not reach this place the way the reference does
                if how is not None:
                    found.append((action, how))
        return found

    def covering(self, step: Step, steps: list[Step], intent: str, videos: list[str]) -> list[Cover]:
        """The trajectories of `videos` that demonstrate `step`: those showing the same element first, each kind
        shortest first."""
        covers = []
        for action, how in self.demonstrations(step, steps, intent, videos):
            video = self.videos[action.video_id]
            labeled = self.labeled_for(video, action)
            if labeled is None:
                continue
            for trajectory_id, (first, last) in video.trajectories.items():
                if first <= labeled.index <= last:
                    covers.append(Cover(trajectory_id, labeled.index - first, labeled.describe(), action, how))
        return sorted(covers, key=lambda c: (c.how != SAME, self._length(c), c.trajectory_id))

    def _length(self, cover: Cover) -> int:
        first, last = self.videos[cover.truth.video_id].trajectories[cover.trajectory_id]
        return last - first


def read_log(video_id: str, path: Path) -> list[TutorialAction] | None:
    """A tutorial's ground-truth log (tasks/sandbox/tutorials/ground_truth.py), or None when it has none."""
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return None
    actions = []
    for index, item in enumerate(data.get("actions") or []):
        kind = item.get("type", "")
        actions.append(TutorialAction(
            video_id, index, kind, item.get("role", "") if kind != "goto" else "", item.get("target", ""),
            item.get("text", ""), float(item.get("start_s") or 0.0), float(item.get("end_s") or 0.0),
        ))  # fmt: skip
    return actions


def _gap(start_a: float, end_a: float, start_b: float, end_b: float) -> float:
    """Seconds between two time spans (0 when they overlap)."""
    return max(0.0, max(start_a, start_b) - min(max(start_a, end_a), max(start_b, end_b)))


def ordinal(number: int) -> str:
    suffix = "th" if 10 <= number % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"
