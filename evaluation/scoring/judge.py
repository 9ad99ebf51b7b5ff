"""The LLM judge behind `fuzzy_match`: grading an answer, and comparing "cannot be done" reasons.

`ModelJudge` only builds prompts (templates in `evaluation/scoring/prompts/`) and reads verdicts;
the model call itself is the `ask(system, user) -> str` function it is given, which must
query the configured judge model at temperature 0 (the reference used GPT-4 at 0).
"""

from __future__ import annotations

import re
from pathlib import Path
from string import Template
from typing import Callable, Protocol

from evaluation.scoring.errors import JudgeReplyError
from model_access.reply_schema import ReplySchema, load_reply_schema

PROMPTS_DIR = Path(__file__).resolve().parent / "prompts"

CORRECT = "correct"
PARTIALLY_CORRECT = "partially correct"
INCORRECT = "incorrect"
GRADES = (CORRECT, PARTIALLY_CORRECT, INCORRECT)
SAME = "same"
DIFFERENT = "different"

# A final line such as "Verdict: partially correct" or "**correct**." counts as a bare verdict.
_LABEL = r"(?:(?:final|my) )?(?:verdict|answer|grade|judgement|judgment|decision)?"


class Judge(Protocol):
    def grade(self, question: str, reference: str, answer: str) -> str:
        """"correct", "partially correct" or "incorrect": how the answer compares with the reference."""
        ...

    def same_reason(self, task: str, reference_reason: str, answer: str) -> str:
        """"same" or "different": whether the answer gives the reference's reason the task cannot be done."""
        ...


def _last_line(reply: str) -> str:
    lines = [line for line in reply.lower().splitlines() if line.strip()]
    if not lines:
        return ""
    return " ".join(re.sub(r"[^a-z]+", " ", lines[-1]).split())


def _bare_verdict(reply: str, verdicts: tuple[str, ...]) -> str | None:
    match = re.fullmatch(rf"{_LABEL} ?({'|'.join(verdicts)})", _last_line(reply))
    return match.group(1) if match else None


def _mentions(text: str, phrase: str) -> bool:
    return re.search(rf"\b{phrase}\b", text) is not None


def parse_grade(reply: str) -> str:
    """The verdict in a grading reply. Prefers a bare verdict on the last line; otherwise, like
    the reference, any sign of a failing verdict wins over "correct" ("partially correct" and
    "incorrect" both contain the word). A reply with no verdict raises JudgeReplyError."""
    bare = _bare_verdict(reply, GRADES)
    if bare:
        return bare
    text = " ".join(reply.lower().split())
    if _mentions(text, PARTIALLY_CORRECT):
        return PARTIALLY_CORRECT
    if _mentions(text, INCORRECT) or _mentions(text, "not correct"):
        return INCORRECT
    if _mentions(text, CORRECT):
        return CORRECT
    raise JudgeReplyError(f"judge reply has no verdict (correct / partially correct / incorrect): {reply[:200]!r}")


def parse_same_reason(reply: str) -> str:
    """"same" or "different" from a reason-comparison reply; "different" wins when both appear."""
    bare = _bare_verdict(reply, (SAME, DIFFERENT))
    if bare:
        return bare
    text = " ".join(reply.lower().split())
    if _mentions(text, DIFFERENT) or _mentions(text, "not the same"):
        return DIFFERENT
    if _mentions(text, SAME):
        return SAME
    raise JudgeReplyError(f"judge reply has no verdict (same / different): {reply[:200]!r}")


class ModelJudge:
    """A `Judge` that asks a model through `ask(system, user, schema) -> reply` (schema: the reply's shape,
    model_access/reply_schema.py, which the client sends when the judge role's structured_output is on)."""

    def __init__(self, ask: Callable[[str, str, ReplySchema], str], prompts_dir: Path = PROMPTS_DIR) -> None:
        self._ask = ask
        self._schemas = {
            name: load_reply_schema(PROMPTS_DIR / f"{name}.schema.json")
            for name in ("judge_grade_user", "judge_reason_user")
        }
        self._templates = {
            name: Template((prompts_dir / f"{name}.txt").read_text(encoding="utf-8").rstrip("\n"))
            for name in ("judge_grade_system", "judge_grade_user", "judge_reason_system", "judge_reason_user")
        }

    def grade_prompt(self, question: str, reference: str, answer: str) -> tuple[str, str]:
        return (
            self._templates["judge_grade_system"].substitute(),
            self._templates["judge_grade_user"].substitute(question=question, reference=reference, answer=answer),
        )

    def reason_prompt(self, task: str, reference_reason: str, answer: str) -> tuple[str, str]:
        return (
            self._templates["judge_reason_system"].substitute(),
            self._templates["judge_reason_user"].substitute(
                task=task, reference_reason=reference_reason, answer=answer
            ),
        )

    def grade(self, question: str, reference: str, answer: str) -> str:
        reply = self._ask(*self.grade_prompt(question, reference, answer), self._schemas["judge_grade_user"])
        return parse_grade(reply)

    def same_reason(self, task: str, reference_reason: str, answer: str) -> str:
        reply = self._ask(*self.reason_prompt(task, reference_reason, answer), self._schemas["judge_reason_user"])
        return parse_same_reason(reply)


def judge_from_client(client) -> ModelJudge | None:
    """A ModelJudge asking the `judge` role of a `model_access.ModelClient` at temperature 0;
    None when that role is not configured (fuzzy cases are then reported as unscorable)."""
    if not client.is_configured("judge"):
        return None
    from model_access.messages import system_message, user_message

    def ask(system: str, user: str, schema: ReplySchema) -> str:
        messages = [system_message(system), user_message(user)]
        return client.chat("judge", messages, stage="judge", temperature=0, reply_schema=schema).text

    return ModelJudge(ask)
