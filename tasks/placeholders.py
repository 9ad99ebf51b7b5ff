"""Site placeholders in task configs (`__SHOPPING__`, `__GITLAB__`, ...) and how they are filled.

WebArena-family configs name every site by a placeholder that is replaced, at load
time, by the base URL held in the environment variable of the same name
(`__SHOPPING__` <- `$SHOPPING`). Placeholders of the bundled sandbox sites fall
back to the sandbox's own URL, because the sandbox is the embedded default.
Runtime tokens (`__last_url__`, `__page__`, `func:...`, `last`, ...) are lowercase
or not placeholders at all, so the pattern below never touches them.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from typing import Any

from settings import Settings


@dataclass(frozen=True)
class SitePlaceholder:
    site: str  # site name as used in a config's `sites` list
    env_var: str  # environment variable holding the base URL
    example_port: int  # port of the WebArena docker image, for the hint in problem messages
    example_path: str = ""  # what the base URL ends with, when it is not the host alone

    @property
    def token(self) -> str:
        return f"__{self.env_var}__"


SITE_PLACEHOLDERS: tuple[SitePlaceholder, ...] = (
    SitePlaceholder("shopping", "SHOPPING", 7770),
    # The Magento admin lives under /admin, and the configs append paths to that.
    SitePlaceholder("shopping_admin", "SHOPPING_ADMIN", 7780, "/admin"),
    SitePlaceholder("reddit", "REDDIT", 9999),
    SitePlaceholder("gitlab", "GITLAB", 8023),
    SitePlaceholder("classifieds", "CLASSIFIEDS", 9980),
    SitePlaceholder("map", "MAP", 3000),
    SitePlaceholder("wikipedia", "WIKIPEDIA", 8888),
    # The WebArena homepage is not a task site, but its placeholder may appear in URLs.
    SitePlaceholder("homepage", "HOMEPAGE", 4399),
)

PLACEHOLDERS_BY_ENV: dict[str, SitePlaceholder] = {p.env_var: p for p in SITE_PLACEHOLDERS}

# Sites a config's `sites` list may name.
KNOWN_SITES: tuple[str, ...] = tuple(p.site for p in SITE_PLACEHOLDERS if p.site != "homepage")

# Any upper-case `__NAME__` word: a site placeholder, known or not. Words are joined by
# single underscores, so `__SHOPPING_ADMIN__` is one name and never `__SHOPPING__` + rest.
_PLACEHOLDER = re.compile(r"__([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)*)__")


class PlaceholderValues:
    """Base URL for each placeholder: the environment first, then the sandbox default, else None.

    Sandbox URLs are looked up only when needed, so loading configs that name no
    sandbox site never imports the sandbox (and Flask).
    """

    def __init__(self, settings: Settings | None = None) -> None:
        self._settings = settings
        self._cache: dict[str, str | None] = {}

    def get(self, env_var: str) -> str | None:
        if env_var not in self._cache:
            self._cache[env_var] = self._resolve(env_var)
        return self._cache[env_var]

    def _resolve(self, env_var: str) -> str | None:
        from_env = os.environ.get(env_var, "").strip()
        if from_env:
            return from_env.rstrip("/")
        return self._sandbox_url(env_var)

    def _sandbox_url(self, env_var: str) -> str | None:
        from tasks.sandbox.server import site_url
        from tasks.sandbox.sites import SITES

        for spec in SITES.values():
            if spec.env_var == env_var:
                if self._settings is None:
                    from settings import load_settings

                    self._settings = load_settings()
                return site_url(spec, self._settings)
        return None


@dataclass
class FillResult:
    value: Any  # the config with every resolvable placeholder replaced
    unfilled: set[str]  # env var names of known placeholders left in place (no URL for them)
    unknown: set[str]  # `__NAME__` tokens that name no known site


def fill_placeholders(value: Any, values: PlaceholderValues) -> FillResult:
    """Replace placeholders in every string of a JSON value, keeping dict key order."""
    result = FillResult(value=None, unfilled=set(), unknown=set())

    def substitute(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in PLACEHOLDERS_BY_ENV:
            result.unknown.add(match.group(0))
            return match.group(0)
        url = values.get(name)
        if url is None:
            result.unfilled.add(name)
            return match.group(0)
        return url

    def walk(node: Any) -> Any:
        if isinstance(node, str):
            return _PLACEHOLDER.sub(substitute, node)
        if isinstance(node, dict):
            return {key: walk(item) for key, item in node.items()}
        if isinstance(node, list):
            return [walk(item) for item in node]
        return node

    result.value = walk(value)
    return result


def unfilled_message(env_var: str) -> str:
    placeholder = PLACEHOLDERS_BY_ENV[env_var]
    path = placeholder.example_path
    must_end = f", which must end in {path}" if path else ""
    return (
        f"site {placeholder.site}: set {env_var} to its base URL{must_end} "
        f"(e.g. export {env_var}=http://host:{placeholder.example_port}{path})"
    )
