"""The `openai` package, imported the first time one of its names is used.

Importing it costs about a CPU second (its typed models), paid by every process that imports the model client:
each `videodemo` command and each run worker, even when it calls no model (a scripted run, a report, a rescore).
Modules here write `from model_access.openai_sdk import openai` and use it as the package itself.
"""

from __future__ import annotations

import importlib
from typing import Any


class _OnFirstUse:
    def __getattr__(self, name: str) -> Any:
        return getattr(importlib.import_module("openai"), name)


openai: Any = _OnFirstUse()
