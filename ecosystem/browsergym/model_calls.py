"""What our policy asked its models during one BrowserGym step, in the two fields of AgentInfo AgentLab reads.

    calls = StepModelCalls(policy, settings)
    calls.start()                       # before the step's policy.reset / policy.act
    chat_messages, stats, summary = calls.finish()

`chat_messages`: every chat call the policy's model client answered during the step, in order: the messages sent,
then the reply as an `assistant` message. Each message is a dict with a `role` and a list of parts, `text` or
`image` (a data URL), the form AgentLab 0.4.2's XRay renders in its chat tab (agent_xray.py, dict_msg_to_markdown;
an OpenAI `image_url` part would print its base64 there, a string content would not render), and the form
BrowserGym's own loop counts tokens of (experiments/utils.py, count_messages_token). Calls replayed from our disk
cache are shown too (their reply is the one the model gave then).

`stats`: the step's model usage from the policy's usage ledger (the difference of two snapshots, as our runner's
step_usage), under AgentLab's names: `input_tokens`, `output_tokens`, `cost` (its LLMTracker, llm/tracking.py),
`n_api_calls` and `usage_cached_tokens` (its TrackAPIPricingMixin), `n_retry_llm` (its ChatModel.get_stats); and
two of ours: `cache_hits` (calls replayed from our disk cache: they send nothing, add no tokens and are no API
call) and `scripted_calls` (answers of the scripted test server, so a scripted study cannot pass for a model's).
AgentLab's loop adds every key up per episode as `stats.cum_<key>` and `stats.max_<key>`, which its result tables
read. Tokens, calls and dollars are counted as our cost table counts them (evaluation/reports/run_costs.py, task_cost):
every role, the local embedding model left out; tokens a server did not report, and dollars of a model with no
price in `report.prices`, are None (AgentLab's sum skips them), never 0. A policy that calls no model gives an empty
chat and every key at 0.
"""

from __future__ import annotations

import threading
from typing import Any

from evaluation.reports.run_costs import load_prices, task_cost
from evaluation.running.run_records import usage_difference
from foundation.records.task_record import TaskRecord
from model_access import ROLES
from model_access.client import ChatResult, ModelClient
from settings import Settings

STAT_KEYS = ("input_tokens", "output_tokens", "usage_cached_tokens", "cost", "n_api_calls", "n_retry_llm",
             "cache_hits", "scripted_calls")  # fmt: skip


class StepModelCalls:
    """The chat calls and the ledger difference of one step of one policy."""

    def __init__(self, policy: Any, settings: Settings) -> None:
        self.policy = policy
        self.models = {role: getattr(settings.models, role).model for role in ROLES}
        self.models["embedding"] = settings.models.embedding.model
        self.local = {"embedding"} if settings.models.embedding.backend == "local" else set()
        self.prices = load_prices(settings.report.prices)
        self._lock = threading.Lock()
        self._calls: list[tuple[list[dict], ChatResult]] = []
        self._before: dict[str, Any] = {}
        client = getattr(policy, "client", None)  # the video policy's, and the base agents' (ModelPolicy)
        if isinstance(client, ModelClient):
            self._watch(client)

    def _watch(self, client: ModelClient) -> None:
        """Keep what each of the client's chat calls sent and got (chat_many goes through `chat` too)."""
        chat = client.chat

        def chat_kept(role: str, messages: list[dict], **kwargs: Any) -> ChatResult:
            result = chat(role, messages, **kwargs)
            sent = [xray_message(message) for message in messages]  # now: a policy may reuse its list
            with self._lock:
                self._calls.append((sent, result))
            return result

        client.chat = chat_kept  # type: ignore[method-assign]

    def start(self) -> None:
        with self._lock:
            self._calls = []
        self._before = self.policy.usage() or {}

    def finish(self) -> tuple[list[dict], dict[str, Any], list[dict]]:
        """The step's chat messages, its stats, and one line per call (stage, role, model, tokens)."""
        with self._lock:
            calls, self._calls = self._calls, []
        messages: list[dict] = []
        summary: list[dict] = []
        for sent, result in calls:
            summary.append({
                "stage": result.stage, "role": result.role, "model": result.model, "first_message": len(messages),
                "prompt_tokens": result.prompt_tokens, "completion_tokens": result.completion_tokens,
                "cached": result.cached, "scripted": result.scripted,
            })  # fmt: skip
            messages += sent
            messages.append({"role": "assistant", "content": [{"type": "text", "text": result.text}]})
        return messages, self._stats(usage_difference(self._before, self.policy.usage() or {})["rows"]), summary

    def _stats(self, rows: list[dict]) -> dict[str, Any]:
        cost = task_cost(TaskRecord(usage={"policy": {"rows": rows}}), self.models, self.prices, self.local)
        kept = [row for row in rows if row.get("role") not in self.local]
        return {
            "input_tokens": cost["prompt_tokens"],
            "output_tokens": cost["completion_tokens"],
            "usage_cached_tokens": cost["cached_prompt_tokens"],
            "cost": cost["cost_usd"],
            "n_api_calls": cost["model_calls"] - cost["cache_hits"] - cost["failed_calls"],
            "n_retry_llm": sum(int(row.get("retries", 0)) for row in kept),
            "cache_hits": cost["cache_hits"],
            "scripted_calls": cost["scripted_calls"],
        }


def xray_message(message: dict[str, Any]) -> dict[str, Any]:
    """One message as sent (OpenAI's form), as XRay renders it: a role and a list of `text` / `image` parts."""
    content = message.get("content")
    parts = content if isinstance(content, list) else [{"type": "text", "text": "" if content is None else content}]
    return {"role": str(message.get("role", "user")), "content": [_xray_part(part) for part in parts]}


def _xray_part(part: Any) -> dict[str, Any]:
    if isinstance(part, dict) and part.get("type") == "image_url":
        image = part.get("image_url")
        return {"type": "image", "image": str(image.get("url", "") if isinstance(image, dict) else image)}
    if isinstance(part, dict) and part.get("type") == "text":
        return {"type": "text", "text": str(part.get("text", ""))}
    return {"type": "text", "text": str(part)}
