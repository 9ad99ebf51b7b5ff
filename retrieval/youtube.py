"""A thin, frugal client of the YouTube Data API v3: search pages and video details.

Every answered request is kept on disk (`<cache>/retrieval/api/`, one JSON file per
request, named by the hash of the method and its parameters, never the key), so a
re-run replays it and spends no quota. Failed requests are not kept: the next run
asks again.

Quota: `search.list` costs 100 units a call, `videos.list` 1 (10,000 a day by
default). When the API says the quota is spent, the client sends nothing more in this
run; each request it would have sent raises `QuotaExhausted`, and callers record that
and carry on with what the cache holds. Other failures (network, 5xx after retries,
a bad request) raise `ApiError` for that request only.
"""

from __future__ import annotations

import json
import logging
import os
import time
from collections import Counter
from typing import Any

import httplib2
from googleapiclient.discovery import build
from googleapiclient.errors import HttpError

from foundation.errors import UserError
from model_access.cache import DiskCache, request_key
from settings.schema import Settings

log = logging.getLogger(__name__)
# The library warns about every 403 and retry on its own; failures are reported here once, in our words.
logging.getLogger("googleapiclient.http").setLevel(logging.ERROR)

QUOTA_UNITS = {"search.list": 100, "videos.list": 1}
QUOTA_REASONS = {"quotaExceeded", "dailyLimitExceeded"}
PAGE_SIZE = 50  # the API's largest page and largest batch of ids


class ApiError(Exception):
    """One API request that failed; the message says which and why."""


class QuotaExhausted(ApiError):
    """The day's quota is spent: no further request is sent in this run."""


def missing_key_message(env_var: str) -> str:
    return (
        f"no YouTube API key: set the environment variable {env_var} to a YouTube Data API v3 key "
        f"(setting retrieval.api_key_env names the variable; see docs/retrieval.md)"
    )


def require_api_key(settings: Settings) -> str:
    env_var = settings.retrieval.api_key_env
    key = os.environ.get(env_var, "").strip()
    if not key:
        raise UserError(missing_key_message(env_var))
    return key


class YouTubeApi:
    def __init__(self, settings: Settings, *, api_key: str | None = None, http: Any = None) -> None:
        """`http`: an httplib2.Http-like object (tests pass a `googleapiclient.http.HttpMockSequence`)."""
        self.settings = settings
        self.cache = DiskCache(settings.paths.cache_dir / "retrieval" / "api")
        self._api_key = api_key
        self._http = http
        self._service: Any = None
        self.sent: Counter[str] = Counter()  # requests sent, per method
        self.replayed: Counter[str] = Counter()  # requests answered from the cache, per method
        self.quota_message: str | None = None  # set once the API reports the quota spent
        self.skipped_for_quota = 0

    @property
    def units_spent(self) -> int:
        return sum(QUOTA_UNITS[method] * count for method, count in self.sent.items())

    def search_page(self, query: str, max_results: int, page_token: str | None, language: str) -> dict[str, Any]:
        params: dict[str, Any] = {
            "part": "snippet",
            "type": "video",
            "q": query,
            "maxResults": max_results,
            "relevanceLanguage": language,
        }
        if page_token:
            params["pageToken"] = page_token
        return self.call("search.list", params)

    def video_details(self, ids: list[str]) -> dict[str, Any]:
        if len(ids) > PAGE_SIZE:
            raise ValueError(f"videos.list takes at most {PAGE_SIZE} ids, got {len(ids)}")
        return self.call("videos.list", {"part": "contentDetails,snippet", "id": ",".join(ids)})

    def call(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        """The response of `method` (e.g. "search.list") with `params`, from the cache or the API."""
        key = request_key({"api": "youtube/v3", "method": method, "params": params})
        entry = self.cache.get(key)
        if entry is not None and isinstance(entry.get("response"), dict):
            self.replayed[method] += 1
            return entry["response"]
        if self.quota_message is not None:
            self.skipped_for_quota += 1
            raise QuotaExhausted(f"{method} not sent: the YouTube API quota ran out earlier in this run")
        response = self._send(method, params)
        entry = {"method": method, "params": params, "response": response, "fetched_at": _now()}
        try:
            self.cache.put(key, entry)
        except OSError as exc:
            log.warning("could not keep the API response on disk (%s); a re-run will ask again", exc)
        return response

    # -- internals ------------------------------------------------------------------------------

    def _send(self, method: str, params: dict[str, Any]) -> dict[str, Any]:
        resource, verb = method.split(".")
        request = getattr(getattr(self._youtube(), resource)(), verb)(**params)
        self.sent[method] += 1
        try:
            return request.execute(num_retries=max(0, int(self.settings.retrieval.api_retries)))
        except HttpError as exc:
            status = int(getattr(exc.resp, "status", 0) or 0)
            reasons = _error_reasons(exc)
            if status == 403 and reasons & QUOTA_REASONS:
                self.quota_message = (
                    "the YouTube API quota is exhausted (it resets at midnight Pacific time); "
                    "re-run then and cached work is not repeated"
                )
                log.warning("%s: %s", method, self.quota_message)
                raise QuotaExhausted(f"{method}: {self.quota_message}") from exc
            detail = ", ".join(sorted(reasons)) or str(exc.reason or "").strip() or "no reason given"
            raise ApiError(f"{method} failed with HTTP {status} ({detail})") from exc
        except (httplib2.HttpLib2Error, OSError) as exc:
            raise ApiError(f"{method} failed: network error ({type(exc).__name__}: {exc})") from exc

    def _youtube(self) -> Any:
        if self._service is None:
            key = self._api_key or require_api_key(self.settings)
            http = self._http or httplib2.Http(timeout=self.settings.retrieval.api_timeout_s)
            # The discovery document bundled with the library: no request is spent fetching it.
            self._service = build(
                "youtube", "v3", developerKey=key, http=http, cache_discovery=False, static_discovery=True
            )
        return self._service


def _error_reasons(exc: HttpError) -> set[str]:
    """The machine-readable reasons of an API error body (`error.errors[].reason`)."""
    try:
        body = json.loads(exc.content.decode("utf-8"))
        return {str(item.get("reason")) for item in body["error"].get("errors", []) if item.get("reason")}
    except (ValueError, KeyError, TypeError, AttributeError):
        return set()


def _now() -> str:
    return time.strftime("%Y-%m-%dT%H:%M:%S%z")
