"""Is a model endpoint there? One short request before a command starts, and a watch while it runs.

Before touching any video or task, `check_endpoints` asks each role's server for its model
list (`GET /v1/models`: one short request that costs no generation and takes no scripted
reply), once, without retries; a role whose server cannot be reached stops the command
with one line naming the role and its URL. A server that takes the connection but does
not answer within `models.check_timeout_s` is busy, not dead (llama-cpp-python's server
answers nothing while it generates): one warning, and the command goes on.

While a command runs, `ConnectionWatch` counts the attempts in a row that could not reach
a role's server at all (refused, reset, unknown host; not timeouts, which a loaded server
gives). After `models.stop_after_connection_failures` of them the role counts as down: the
call in progress stops retrying and every later call of that role fails at once with
`EndpointDown`, so a run stops new work instead of retrying every call of every remaining
video. One answer from the server resets the count.

A role whose URL is a local server this process started (model_access/local_servers/, as the
tests and benchmarks start them) and whose process has died fails at its first failed attempt,
and the line says how the server ended and where its log is, not only "connection refused".
"""

from __future__ import annotations

import logging
import threading
from typing import TYPE_CHECKING, Any, Iterable, Protocol

from model_access.openai_sdk import openai

from model_access.local_servers.process import dead_server_at
from model_access.retry import ModelCallError, error_summary

if TYPE_CHECKING:
    from settings.schema import ModelRoleSettings


class EndpointClient(Protocol):
    """What the endpoint check reads of a model client (client.ModelClient fits by shape; it imports this module)."""

    settings: Any

    def role_settings(self, role: str) -> ModelRoleSettings: ...

    def http_client(self, role_settings: ModelRoleSettings) -> Any: ...

log = logging.getLogger(__name__)


# Every role that went down in this process, whichever client saw it: a runner checks it between tasks.
_down_in_process: list[str] = []
_down_lock = threading.Lock()


def endpoints_down() -> list[str]:
    """The lines of the roles that went down in this process since `forget_endpoints_down`."""
    with _down_lock:
        return list(_down_in_process)


def forget_endpoints_down() -> None:
    with _down_lock:
        _down_in_process.clear()


class EndpointDown(ModelCallError):
    """A role's server does not answer; the message names the role, the URL and the fix."""


def down_line(role: str, model: str, base_url: str, why: str) -> str:
    return (
        f"model role {role!r} ({model}) at {base_url} does not answer ({why}): start its server or fix "
        f"models.{role}.base_url, then run the command again (finished work is kept)"
    )


def is_unreachable(exc: BaseException) -> bool:
    """The server could not be reached at all: a connection error that is not a timeout."""
    return isinstance(exc, openai.APIConnectionError) and not isinstance(exc, openai.APITimeoutError)


class ConnectionWatch:
    """Consecutive unreachable attempts per role; a role is down once they reach `limit` (0: never)."""

    def __init__(self, limit: int) -> None:
        self.limit = max(0, int(limit))
        self._failures: dict[str, int] = {}
        self._down: dict[str, str] = {}  # role -> the line to fail with
        self._lock = threading.Lock()

    def before_attempt(self, role: str) -> None:
        with self._lock:
            line = self._down.get(role)
        if line is not None:
            raise EndpointDown(line)

    def attempt_failed(self, role: str, model: str, base_url: str, exc: BaseException) -> None:
        """Count `exc` when it means the server is unreachable; raise EndpointDown at the limit, or at once when
        the server is a local one that died (its streamed reply cut off, or nothing listening any more)."""
        if not isinstance(exc, openai.APIStatusError) and (note := dead_server_at(base_url)):
            raise EndpointDown(down_line(role, model, base_url, note)) from exc
        if not is_unreachable(exc) or self.limit == 0:
            return
        with self._lock:
            count = self._failures.get(role, 0) + 1
            self._failures[role] = count
            if count >= self.limit and role not in self._down:
                why = f"{count} attempts in a row failed: {error_summary(exc)}"
                self._down[role] = down_line(role, model, base_url, why)
                with _down_lock:
                    _down_in_process.append(self._down[role])
            line = self._down.get(role)
        if line is not None:
            raise EndpointDown(line) from exc

    def answered(self, role: str) -> None:
        with self._lock:
            self._failures[role] = 0

    def down_roles(self) -> list[str]:
        with self._lock:
            return list(self._down)


def check_endpoint(client: EndpointClient, role: str) -> None:
    """Ask the role's server for its model list once; EndpointDown with one line when it does not answer.

    Any HTTP answer (even an error status from a server without a model list) shows the
    server is there; only an unreachable server fails. One that took the connection but has not
    answered within `models.check_timeout_s` is busy: a warning, and the caller goes on.
    """
    role_settings = client.role_settings(role)
    timeout_s = min(float(role_settings.timeout_s), float(client.settings.models.check_timeout_s))
    http = client.http_client(role_settings)
    try:
        http.models.list(timeout=timeout_s)
    except openai.APIStatusError:
        return
    except openai.APITimeoutError as exc:
        # The HTTP library's ConnectTimeout: nothing took the connection. Any other timeout: connected, no reply
        # yet, so the server is busy, not dead. (By name: the library openai wraps differs between versions.)
        if type(exc.__cause__).__name__ != "ConnectTimeout":
            log.warning(
                "model role %r (%s) at %s took the connection but has not answered within %.0f s "
                "(models.check_timeout_s): it looks busy, so the command goes on; raise models.check_timeout_s "
                "to wait longer, or models.%s.timeout_s if its calls time out",
                role, role_settings.model, role_settings.base_url, timeout_s, role,
            )  # fmt: skip
            return
        raise EndpointDown(_down_before_run(role, role_settings, exc)) from exc
    except openai.APIConnectionError as exc:
        raise EndpointDown(_down_before_run(role, role_settings, exc)) from exc


def _down_before_run(role: str, role_settings: ModelRoleSettings, exc: BaseException) -> str:
    why = dead_server_at(role_settings.base_url) or error_summary(exc)
    line = down_line(role, role_settings.model, role_settings.base_url, why)
    # A re-run whose calls are all cached needs no server: say how to go on without this check.
    return f"{line}; if every call of this run is cached, skip this check with --set models.check_before_run=false"


def check_endpoints(client: EndpointClient, roles: Iterable[str]) -> None:
    """`check_endpoint` for each role, each server asked once."""
    asked: set[tuple[str, str]] = set()
    for role in roles:
        role_settings = client.role_settings(role)
        where = (role_settings.base_url, role_settings.api_key_env)
        if where in asked:
            continue
        check_endpoint(client, role)
        asked.add(where)
