"""The BrowserGym and AgentLab bridge: our sandbox tasks as BrowserGym tasks, our policies as BrowserGym agents,
the demonstration step as a component any agent can call. Runs in its own environment (scripts/servers/browsergym.sh),
because BrowserGym pins an older Playwright than the rest of the project; docs/ecosystem.md."""

import os
import sys
from pathlib import Path

# tiktoken's encodings, placed in the environment by scripts/servers/lib/tiktoken_cache.py: never downloaded.
_TIKTOKEN_CACHE = Path(sys.prefix) / "tiktoken_cache"
if _TIKTOKEN_CACHE.is_dir():
    os.environ.setdefault("TIKTOKEN_CACHE_DIR", str(_TIKTOKEN_CACHE))
