"""The values oracle (`oracle.values`): the reference solution's text and answer where the replay has got there.

The tutorials teach where to type and where to read the answer; what to type and what to answer comes from the
task, which the model-free replay reads with rules (agent/videos/intent_values.py, agent/replay/answers.py). With this
oracle on, a planned `type` into the very element the reference solution's next typing step types into takes the
reference's text (and its Enter), and a stop, once every step before the reference's stop is done, gives the
reference's answer. Where the replay types elsewhere, or stops early, nothing is replaced: the oracle stands in for
the values only, never for reaching the place.
"""

from __future__ import annotations

import re
from dataclasses import replace

from agent.oracles.progress import LiveProgress, Page
from agent.replay.answers import Answer
from agent.replay.steps import Plan
from tasks.reference.steps import ReferenceStep

_TYPE = re.compile(r"type \[(?P<id>[^\]]+)\] \[(?P<text>.*)\] \[(?P<enter>[01])\]", re.S)


def _ahead(progress: LiveProgress) -> list[ReferenceStep]:
    """The steps from the one aimed at up to and including the first one an episode is judged on (or the stop)."""
    found, index = [], progress.target
    while (step := progress.step(index)) is not None:
        found.append(step)
        if step.judged or step.verb == "stop":
            break
        index += 1
    return found


def reference_values(plan: Plan, progress: LiveProgress | None, page: Page) -> Plan:
    """`plan` typing the reference's text when it types into the field of the reference's next typing step."""
    typed = _TYPE.fullmatch(plan.action)
    if progress is None or typed is None:
        return plan
    step = next((s for s in _ahead(progress) if s.verb == "type"), None)
    found = page.element(step) if step is not None else None
    if step is None or found is None or found.node.node_id != typed["id"]:
        return plan
    action = f"type [{typed['id']}] [{step.value}] [{1 if step.enter else 0}]"
    note = f"values oracle: the reference's text ({step.text})"
    return replace(plan, action=action, note=f"{plan.note}; {note}" if plan.note else note)


def reference_answer(progress: LiveProgress) -> Answer | None:
    """The reference's answer when every step before its stop is done, else None."""
    ahead = _ahead(progress) if progress.target == progress.position else []
    if ahead and ahead[-1].verb == "stop" and all(not s.judged for s in ahead[:-1]):
        return Answer(ahead[-1].value, "values oracle: the reference solution's answer")
    return None
