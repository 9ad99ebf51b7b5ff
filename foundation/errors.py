"""The one exception type the command line turns into a single clear line."""

from __future__ import annotations

import json
import sys
from typing import Any, Callable


class UserError(Exception):
    """Something the user can fix: the message names the thing and the fix, in one line."""


def print_json_or_error(make: Callable[[], Any]) -> int:
    """A script's exit: `make()`'s result as one JSON line on stdout (0), or a UserError as one line on stderr (2);
    the shape the scripts other environments run by subprocess share (ecosystem/browsergym)."""
    try:
        outcome = make()
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(json.dumps(outcome))
    return 0
