"""How long things take in a tutorial video: speech, hand movements, typing, page loads.

The recorder runs on a virtual clock, so these numbers alone decide the pace a
viewer sees, with one exception: a line lasts as long as the voice takes to say it
(voice.py). They sit in one place so that the planned length of a script
(`planned_duration`, which estimates speech from the line's length) and the recorded
one agree.
"""

from __future__ import annotations

import math
import random
from collections.abc import Sequence

from tasks.sandbox.tutorials.script import Step, TutorialScript

# How fast the voice (voice.py) speaks: the 13 scripts' 338 lines, 30,053 characters, take 2,520 s (2026-11-28,
# espeak-ng 1.51 at -s 120), and every script's planned length came within 2.5% of its recording. Characters follow
# the voice better than words: on the earlier one-minute scripts a line's estimate was off by 0.47 s (rms) against
# 0.79 s by words, and one script's plan by 10.2% by words.
CHARS_PER_SECOND = 11.9
# Silence after each narration line before the next one starts.
SENTENCE_GAP_S = 0.5
# The hand starts moving a little after the narrator starts talking about it.
ACTION_LEAD_MAX_S = 0.9
# A still moment on the target before pressing, as people check they are on it.
SETTLE_BEFORE_CLICK_S = (0.18, 0.35)
# The old page stays on screen this long after a click that loads a new one.
PAGE_LOAD_S = (0.45, 1.0)
# Keystroke intervals of a competent typist, and an occasional hesitation.
KEY_INTERVAL_S = (0.06, 0.2)
HESITATION_CHANCE = 0.06
HESITATION_S = (0.3, 0.6)
# One wheel notch, and the time between notches.
WHEEL_NOTCH_PX = 100
WHEEL_INTERVAL_S = (0.07, 0.13)
# Looking at the result of an action before talking about the next one.
AFTER_ACTION_S = 0.35


def speech_seconds(text: str) -> float:
    """The plan's estimate of how long a line is heard (the recording uses the voice's real length)."""
    return len(text) / CHARS_PER_SECOND


def action_lead(speech_s: float) -> float:
    return min(ACTION_LEAD_MAX_S, 0.25 * speech_s)


def move_seconds(distance: float, target_size: float, rng: random.Random) -> float:
    """Fitts's law: longer for far and small targets, with a person's variability."""
    index = math.log2(1.0 + distance / max(target_size, 8.0))
    return min(1.4, max(0.25, (0.22 + 0.13 * index) * rng.uniform(0.9, 1.15)))


def key_interval(rng: random.Random, previous: str) -> float:
    interval = rng.uniform(*KEY_INTERVAL_S)
    if previous == " ":
        interval += rng.uniform(0.0, 0.08)
    if rng.random() < HESITATION_CHANCE:
        interval += rng.uniform(*HESITATION_S)
    return interval


def uniform(rng: random.Random, bounds: tuple[float, float]) -> float:
    return rng.uniform(*bounds)


# ---- the planned length of a script, without a browser ----

_NOMINAL_MOVE_S = 0.75
_NOMINAL_CLICK_S = sum(SETTLE_BEFORE_CLICK_S) / 2 + 0.15
_NOMINAL_LOAD_S = sum(PAGE_LOAD_S) / 2
_NOMINAL_KEY_S = sum(KEY_INTERVAL_S) / 2 + HESITATION_CHANCE * sum(HESITATION_S) / 2 + 0.02


def planned_action_seconds(step: Step) -> float:
    """A typical duration of a step's action (the recorder's actual figure varies around it)."""
    if step.kind in ("wait", "idle", "wander"):
        return step.seconds
    if step.kind in ("click", "hover"):
        return _NOMINAL_MOVE_S + _NOMINAL_CLICK_S + _NOMINAL_LOAD_S * 0.6 + AFTER_ACTION_S
    if step.kind == "type":
        typing = len(step.text) * _NOMINAL_KEY_S
        enter = 0.3 + _NOMINAL_LOAD_S if step.enter else 0.0
        return _NOMINAL_MOVE_S + _NOMINAL_CLICK_S + typing + enter + AFTER_ACTION_S
    if step.kind == "goto":
        return _NOMINAL_MOVE_S + _NOMINAL_CLICK_S + 0.3 + len(step.text) * 0.5 * _NOMINAL_KEY_S + _NOMINAL_LOAD_S
    if step.kind == "select":
        return 2 * (_NOMINAL_MOVE_S * 0.6 + _NOMINAL_CLICK_S) + 0.4 + _NOMINAL_LOAD_S * 0.6 + AFTER_ACTION_S
    if step.kind == "scroll":
        notches = math.ceil(step.amount / WHEEL_NOTCH_PX)
        return notches * sum(WHEEL_INTERVAL_S) / 2 + AFTER_ACTION_S
    if step.kind == "press":
        return 0.2 + _NOMINAL_LOAD_S * 0.6 + AFTER_ACTION_S
    raise ValueError(f"unknown step kind {step.kind}")


def planned_step_seconds(step: Step, speech: float | None = None) -> float:
    speech = speech_seconds(step.say) if speech is None else speech
    lead = action_lead(speech)
    return max(lead + planned_action_seconds(step), speech + SENTENCE_GAP_S)


def planned_duration(script: TutorialScript, speech_s: Sequence[float] | None = None) -> float:
    """The video length a script is expected to give (within about 10%); `speech_s`: each line's real spoken
    length in place of the estimate."""
    spoken = [None] * len(script.steps) if speech_s is None else list(speech_s)
    steps = sum(planned_step_seconds(step, speech) for step, speech in zip(script.steps, spoken, strict=True))
    return 0.6 + steps + 1.0
