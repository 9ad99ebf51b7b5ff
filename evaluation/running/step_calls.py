"""The chat calls a policy's model client answers during an episode, kept step by step for the task page
(`run.keep_model_calls`): each call's stage, role, model, tokens, the messages sent and the reply.

    calls = StepCalls(policy)        # listens to policy.client (none: a policy without a model client)
    ...policy.act(...)...
    step.model_calls = calls.take()  # the calls answered since the last take
    calls.close()

Images in the messages are kept by their digest (model_access.messages.image_digest), not their bytes: the
screenshot a step sent is step_NNN.png beside the record, a demonstration's keyframes are under extra/. Calls that
failed (no answer) are not kept; the step's model_usage counts them.
"""

from __future__ import annotations

import threading
from typing import Any

from model_access.client import ChatResult, ModelClient
from model_access.messages import Message, image_digest


class StepCalls:
    def __init__(self, policy: Any) -> None:
        client = getattr(policy, "client", None)  # the video policy's, and the base agents' (ModelPolicy)
        self.client = client if isinstance(client, ModelClient) else None
        self._lock = threading.Lock()  # chat_many answers from several threads
        self._calls: list[dict[str, Any]] = []
        if self.client is not None:
            self.client.listeners.append(self._heard)

    def _heard(self, messages: list[Message], result: ChatResult) -> None:
        call = {
            "stage": result.stage, "role": result.role, "model": result.model, "cached": result.cached,
            "scripted": result.scripted, "prompt_tokens": result.prompt_tokens,
            "completion_tokens": result.completion_tokens, "finish_reason": result.finish_reason,
            "messages": [kept_message(message) for message in messages], "reply": result.text,
        }  # fmt: skip
        if result.reasoning:
            call["reasoning"] = result.reasoning
        with self._lock:
            self._calls.append(call)

    def take(self) -> list[dict[str, Any]]:
        with self._lock:
            calls, self._calls = self._calls, []
        return calls

    def close(self) -> None:
        if self.client is not None and self._heard in self.client.listeners:
            self.client.listeners.remove(self._heard)


def kept_message(message: Message) -> dict[str, Any]:
    """A message as sent, in the record's form: a role and a list of `text` and `image` (digest) parts."""
    content = message.get("content")
    parts = content if isinstance(content, list) else [{"type": "text", "text": "" if content is None else content}]
    kept = []
    for part in parts:
        if isinstance(part, dict) and part.get("type") == "image_url":
            image = part.get("image_url")
            kept.append({"type": "image", "digest": image_digest(str(image.get("url", "") if isinstance(image, dict)
                                                                     else image))})  # fmt: skip
        elif isinstance(part, dict) and part.get("type") == "text":
            kept.append({"type": "text", "text": str(part.get("text", ""))})
        else:
            kept.append({"type": "text", "text": str(part)})
    return {"role": str(message.get("role", "user")), "content": kept}
