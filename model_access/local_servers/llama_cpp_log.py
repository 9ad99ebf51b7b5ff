"""How many prompt tokens llama-cpp-python's server reused from its slot, read from its verbose log.

Its replies carry no `cached_tokens` (vLLM and OpenAI say it in `usage.prompt_tokens_details`), but with
`--verbose true` it writes, per request it serves:

    Llama.generate: 758 prefix-match hit, remaining 1429 prompt tokens to eval
    ...
    INFO:     127.0.0.1:55920 - "POST /v1/chat/completions HTTP/1.1" 200 OK

(no "prefix-match" line when nothing was reused; "full prompt already cached" when all of it was). It
serves one request at a time, so the access lines come in the order the replies did, which is the order of
`models.call_log`'s lines.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_HIT = re.compile(r"Llama\.generate: (\d+) prefix-match hit, remaining (\d+) prompt tokens to eval")
_FULL = "Llama.generate: full prompt already cached"
_DONE = re.compile(r'"POST /v1/chat/completions HTTP/1\.\d" (\d{3})')


@dataclass
class PromptReuse:
    """One answered chat request: prompt tokens taken from the slot, and those evaluated (None: all of them
    were reused, or the log did not say)."""

    reused: int
    remaining: int | None
    whole_prompt_cached: bool = False
    status: int = 200

    def reused_of(self, prompt_tokens: int) -> int:
        """Reused tokens of a prompt of `prompt_tokens` (what the reply's usage said)."""
        return prompt_tokens if self.whole_prompt_cached else min(self.reused, prompt_tokens)


def prompt_reuse(log_text: str) -> list[PromptReuse]:
    """One entry per chat request the log shows answered, in order."""
    found: list[PromptReuse] = []
    current = PromptReuse(0, None)
    for line in log_text.splitlines():
        if hit := _HIT.search(line):
            current = PromptReuse(int(hit[1]), int(hit[2]))
        elif _FULL in line:
            current = PromptReuse(0, 0, whole_prompt_cached=True)
        elif done := _DONE.search(line):
            current.status = int(done[1])
            found.append(current)
            current = PromptReuse(0, None)
    return found
