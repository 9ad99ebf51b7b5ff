"""VideoGUI's action measures over a labeler's matched actions, beside the F1s of `labeling_accuracy`.

VideoGUI (its supplementary, "Evaluation Settings") scores each action kind on its own terms; here they are
taken over the pairs (labeled action, ground-truth action) that the kind matching of
`processing.labeling_accuracy.score_actions` made:

- click distance: for a matched click whose label gives a point, the distance from that point to the true
  click point, divided by the distance from the true point to the farthest corner of the frame (the largest
  miss possible from there, so 0 is on the spot and 1 the far corner); the mean over those clicks;
- click recall: the share of those clicks whose point lies inside the clicked element's box;
- typed text: for matched type, select, press and goto actions, the share whose text equals the truth after
  normalisation (case, spacing; key names spelled one way; an address without its scheme or trailing slash);
- scroll direction: the share of matched scrolls that name the true direction.

A labeler that gives no point for any matched click has no click figures (n/a), not 0: it was not measured.
"""

from __future__ import annotations

import json
import math
import re
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from foundation.records.trajectory import LabeledAction

CLICK_KINDS = ("click", "right_click")
TEXT_KINDS = ("type", "select", "press", "goto")
Box = tuple[float, float, float, float]  # x, y, width, height in frame pixels (the ground-truth log's form)
NOT_MEASURED = "n/a"

# Key names as labelers and logs spell them, one way each.
_KEY_ALIASES = {"ctrl": "control", "cmd": "meta", "command": "meta", "return": "enter", "esc": "escape",
                "del": "delete", "option": "alt", "spacebar": "space", " ": "space"}  # fmt: skip


@dataclass(frozen=True)
class Geometry:
    """What the ground-truth log says about where: the frame's size and each logged action's element box."""

    width: int
    height: int
    boxes: list[Box | None]  # one per logged action, in the log's order

    @classmethod
    def from_log(cls, path: str | Path) -> Geometry | None:
        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return None
        boxes = [tuple(item["box"]) if item.get("box") else None for item in data.get("actions") or []]
        return cls(int(data.get("width") or 0), int(data.get("height") or 0), boxes)  # type: ignore[arg-type]


def farthest_corner(point: tuple[float, float], width: int, height: int) -> float:
    """The distance from `point` to the frame corner farthest from it: VideoGUI's normaliser of a click's miss."""
    x, y = point
    return max(math.dist((x, y), corner) for corner in ((0, 0), (width, 0), (0, height), (width, height)))


def normalised_distance(predicted: tuple[float, float], truth: tuple[float, float], width: int, height: int) -> float:
    """The miss as a share of the largest miss possible from the true point (0: on it, 1: the farthest corner)."""
    reach = farthest_corner(truth, width, height)
    return math.dist(predicted, truth) / reach if reach else 0.0


def inside(point: tuple[float, float], box: Box) -> bool:
    x, y, w, h = box
    return x <= point[0] <= x + w and y <= point[1] <= y + h


def normalise_text(kind: str, text: str) -> str:
    """The text as compared: lower case, single spaces; keys and addresses in one spelling."""
    value = " ".join(text.split()).casefold().strip(" \"'")
    if kind == "press":
        keys = [part.strip() for part in value.replace(" + ", "+").split("+")]
        return "+".join(_KEY_ALIASES.get(key, key) for key in keys)
    if kind == "goto":
        return re.sub(r"^(https?://)?(www\.)?", "", value).rstrip("/")
    return value


def scroll_direction(action: LabeledAction) -> str:
    """The direction ("up", "down", "left", "right") the text (else the target) names; "" when none does."""
    for words in (action.text, action.target):
        found = [w for w in ("up", "down", "left", "right") if re.search(rf"\b{w}\b", words.casefold())]
        if len(found) == 1:
            return found[0]
    return ""


@dataclass
class ActionMeasures:
    """Sums over matched pairs, so two videos' measures add up; the figures are their ratios."""

    clicks: int = 0  # matched click pairs
    pointed: int = 0  # of which the label gives a point and the truth a point (distance measured)
    distance_sum: float = 0.0
    pixels_sum: float = 0.0  # the same misses in frame pixels, to read the ratio by
    boxed: int = 0  # of the pointed, those whose truth has a box (recall measured)
    hits: int = 0  # of which the point lies in the box
    texts: Counter = field(default_factory=Counter)  # kind -> matched pairs of TEXT_KINDS
    texts_equal: Counter = field(default_factory=Counter)  # kind -> of which the text matches
    scrolls: int = 0
    scrolls_right: int = 0

    def add(self, other: ActionMeasures) -> ActionMeasures:
        return ActionMeasures(
            self.clicks + other.clicks, self.pointed + other.pointed, self.distance_sum + other.distance_sum,
            self.pixels_sum + other.pixels_sum, self.boxed + other.boxed, self.hits + other.hits, self.texts + other.texts,
            self.texts_equal + other.texts_equal, self.scrolls + other.scrolls,
            self.scrolls_right + other.scrolls_right,
        )  # fmt: skip

    @property
    def click_distance(self) -> float | None:
        return self.distance_sum / self.pointed if self.pointed else None

    @property
    def click_recall(self) -> float | None:
        return self.hits / self.boxed if self.boxed else None

    @property
    def text_match(self) -> float | None:
        total = sum(self.texts.values())
        return sum(self.texts_equal.values()) / total if total else None

    @property
    def scroll_accuracy(self) -> float | None:
        return self.scrolls_right / self.scrolls if self.scrolls else None

    def lines(self) -> list[str]:
        """The four measures, one line each, n/a where nothing was measured."""
        pixels = f"; mean miss {self.pixels_sum / self.pointed:.1f} px" if self.pointed else ""
        kinds = ", ".join(f"{k} {self.texts_equal[k]}/{self.texts[k]}" for k in TEXT_KINDS if self.texts[k])
        return [
            f"click distance (normalised, lower is better) {_figure(self.click_distance)}  "
            f"({self.pointed} of {self.clicks} matched clicks with a point{pixels})",
            f"click recall (point inside the element)    {_figure(self.click_recall)}  ({self.hits}/{self.boxed})",
            f"typed text exact match                     {_figure(self.text_match)}  ({kinds or 'none matched'})",
            f"scroll direction accuracy                  {_figure(self.scroll_accuracy)}  "
            f"({self.scrolls_right}/{self.scrolls})",
        ]


def _figure(value: float | None) -> str:
    return NOT_MEASURED if value is None else f"{value:.3f}"


def measure_actions(
    predicted: list[LabeledAction], truth: list[LabeledAction], pairs: list[tuple[int, int]], geometry: Geometry | None
) -> ActionMeasures:
    """The measures over `pairs` (predicted index, truth index) of the kind matching; no geometry, no click figures."""
    found = ActionMeasures()
    for i, j in pairs:
        guess, real = predicted[i], truth[j]
        kind = real.kind
        if kind in CLICK_KINDS:
            found.clicks += 1
            if guess.point is None or real.point is None or geometry is None or not geometry.width:
                continue
            found.pointed += 1
            found.distance_sum += normalised_distance(guess.point, real.point, geometry.width, geometry.height)
            found.pixels_sum += math.dist(guess.point, real.point)
            box = geometry.boxes[j] if j < len(geometry.boxes) else None
            if box is not None:
                found.boxed += 1
                found.hits += inside(guess.point, box)
        elif kind in TEXT_KINDS:
            found.texts[kind] += 1
            found.texts_equal[kind] += normalise_text(kind, guess.text) == normalise_text(kind, real.text)
        elif kind == "scroll":
            found.scrolls += 1
            found.scrolls_right += bool(scroll_direction(real)) and scroll_direction(guess) == scroll_direction(real)
    return found
