"""What YouTube is searched for: one query per task, abstracting its operation on its application.

The paper writes a query for each task ("the agent generates queries for each task"),
so a task's query names its application (from its sites) and the kind of operation
the task needs, without the task's particular values (see `queries.py`). Each task
costs one query and one search; the caches make a re-run free. A task given as bare
text with no site has no known application; the model infers it from the task.
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
    """The subject of one query: a task's application and the task whose operation the query abstracts."""

    key: str  # the task's key: one query and one search per task
    description: str  # the application, from the task's sites ("not stated" for a task without sites)
    task_text: str = ""  # the task, whose operation the query names without its particular values


def application_of(task: RetrievalTask) -> Application:
    if not task.sites:
        return Application(task.key, "not stated; infer it from the task below", task.intent)
    sites = sorted(set(task.sites))
    described = [SITE_DESCRIPTIONS.get(site, f"the website called {site!r}") for site in sites]
    return Application(task.key, "; and ".join(described), task.intent)
