"""The unit YouTube is searched for: the application a task runs on, not the task itself.

Tasks on the same sites share one application, hence one query and one set of search
results: a hundred shopping tasks cost one search. A task given as bare text with no
site has no known application; its own wording stands in for it (see `queries.py`).
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

# What each WebArena-family site is, in the words a tutorial's title would use.
SITE_DESCRIPTIONS: dict[str, str] = {
    "shopping": "an online store built on Magento 2, seen as a customer: product search and pages, cart, "
    "checkout, account, orders, reviews",
    "shopping_admin": "the Magento 2 admin panel: catalog, orders, customers, reports, marketing, content",
    "reddit": "a Reddit-style discussion forum (Postmill): forums, submissions, comments, votes, user profiles",
    "gitlab": "GitLab: projects, repositories, issues, merge requests, members and settings",
    "map": "OpenStreetMap: searching places, reading the map, getting directions",
    "wikipedia": "Wikipedia: searching and reading articles",
    "classifieds": "a classifieds website (OSClass): browsing, searching and posting listings",
}


@dataclass(frozen=True)
class RetrievalTask:
    """What retrieval needs from a task: a key for its files, its text and its sites."""

    key: str
    intent: str
    sites: tuple[str, ...]

    @classmethod
    def from_task(cls, task) -> "RetrievalTask":  # a tasks.loading.Task
        return cls(task.key, task.intent, tuple(task.sites))

    @classmethod
    def from_text(cls, intent: str, site: str | None = None) -> "RetrievalTask":
        """A task typed on the command line; its key is a digest of the text so re-runs find its files."""
        digest = hashlib.sha256(f"{site or ''}\n{intent}".encode()).hexdigest()[:12]
        return cls(f"text:{digest}", intent, (site,) if site else ())


@dataclass(frozen=True)
class Application:
    key: str  # "shopping", "gitlab+reddit", or "text:<digest>" for a task without sites
    description: str
    task_text: str = ""  # only for a task without sites: the query has nothing else to go on


def application_of(task: RetrievalTask) -> Application:
    if not task.sites:
        digest = hashlib.sha256(task.intent.encode()).hexdigest()[:12]
        return Application(f"text:{digest}", "not stated; infer it from the task below", task.intent)
    sites = sorted(set(task.sites))
    described = [SITE_DESCRIPTIONS.get(site, f"the website called {site!r}") for site in sites]
    return Application("+".join(sites), "; and ".join(described))
