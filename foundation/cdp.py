"""Chrome DevTools Protocol calls that return large replies (the accessibility tree, the DOM snapshot).

Playwright's sync `CDPSession.send` walks every value of a reply to swap its internal objects for API ones;
a protocol reply is plain JSON with none, and on a page of ~1,000 nodes that walk costs about as much as
Chromium's own work (0.05 s of 0.10 s per tree on 2 cores, measured). `send_json` skips it: same call, same
reply. Small replies keep going through `cdp.send`.
"""

from __future__ import annotations

from typing import Any


def send_json(cdp: Any, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    """`cdp.send(method, params)` without the conversion of its reply (see the module's docstring)."""
    impl = getattr(cdp, "_impl_obj", None)
    if impl is None or not hasattr(cdp, "_sync"):  # not Playwright's sync CDPSession (a test double, a new API)
        return cdp.send(method, params or {})
    return cdp._sync(impl.send(method=method, params=params or {}, timeout=None))
