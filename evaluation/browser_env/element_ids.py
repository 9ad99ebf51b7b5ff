"""Element ids that read the same in every browser session (`agent.stable_element_ids`, on by default).

Chromium's accessibility ids are its backend DOM node ids: a counter of the renderer process, which goes
on over the pages a tab showed before and is not even the same in two runs of one command (the sandbox's
address page, read in a dozen fresh processes, came out numbered in more than one way). The same page
then shows other ids in another browser session, and a task resumed in a new process sends other prompts,
so its model calls miss the cache.

Stable ids number a page's elements 1, 2, 3... in the order the observations first show them (document
order within one observation), anew for each document a tab loads. An element keeps its number while it
lives, as with Chromium's ids, so a block of several commands and the history still point at it; actions
still find it through its backend node id (`TreeNode.backend_id`). A page loaded and observed after the
same steps reads the same in any browser session.
"""

from __future__ import annotations

from typing import Callable, TypeVar

from foundation.cdp import send_json

T = TypeVar("T")


class DocumentIds:
    """The numbers given so far to the elements of one document."""

    def __init__(self) -> None:
        self._numbers: dict[str, int] = {}

    def number(self, key: str) -> str:
        """The element's number, a new one when `key` (the element's identity in this document) is new."""
        found = self._numbers.get(key)
        if found is None:
            found = self._numbers[key] = len(self._numbers) + 1
        return str(found)


class ElementIds:
    """One episode's numbering, per document (Chromium's loader id of a tab's main frame: new for each page
    load in any tab, kept by a same-document navigation, never shared by two documents)."""

    def __init__(self) -> None:
        self._documents: dict[str, DocumentIds] = {}

    def document(self, loader_id: str) -> DocumentIds:
        return self._documents.setdefault(loader_id, DocumentIds())

    def read(self, cdp, read_tree: Callable[[DocumentIds], T]) -> tuple[T, str]:
        """`read_tree(numbering)` on the tab behind `cdp`, with the numbering of its document; returns what it
        read and the document's loader id. A page that loads another document meanwhile is read again."""
        loader_id = document_of(cdp)
        tree = read_tree(self.document(loader_id))
        now = document_of(cdp)
        if now != loader_id:
            loader_id, tree = now, read_tree(self.document(now))
        return tree, loader_id


def document_of(cdp) -> str:
    """The loader id of the document the tab's main frame shows."""
    return str(send_json(cdp, "Page.getFrameTree")["frameTree"]["frame"]["loaderId"])
