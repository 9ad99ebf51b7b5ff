"""Finding a demonstrated element on the live page by text similarity.

A demonstration says "click 'Add to Wish List'" or "type into 'Summary'"; the live
page has an accessibility tree of `role 'name'` nodes. Grounding embeds the
demonstrated name and the names of the nodes that can take that kind of action (only
fields for typing, only menus for choosing, interactive elements for clicking) and
picks the most similar, with exact and contained names counted as near-certain
matches and names misread by a letter or two (OCR) matched by spelling. Several
equally good nodes ("Add to Cart" under every product) are told
apart by the task: the one closest on the page to something the task names (its
product, its post) wins, else the first. The viewport is searched first, then the
whole page (`BrowserEnv.observe_full_page`), whose ids the next action can use.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any, Callable

import numpy as np

from agent.videos.intent_values import normalise
from evaluation.browser_env.ax_tree import INTERACTIVE_ROLES, TreeNode
from foundation.records.demonstration import TIE_MARGIN
from tasks.reference.steps import MENU_ROLES

TEXT_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton", "textarea"})
CLICK_ROLES = INTERACTIVE_ROLES - {"option"}
CONTAINED_SIMILARITY = 0.85  # one name inside the other (a cut or longer label) is almost certainly it
# A name that opens with the whole of a two-or-more-word target is the thing it names in full: a task's "Nestwell
# Electric Kettle" is the link "Nestwell Electric Kettle 1.7 Liter, Stainless Steel, ..." (too long to be contained).
OPENING_SIMILARITY = 0.86
SPELLING_SIMILARITY = 0.92  # names this alike letter by letter ("My Acount") are the same name misread;
# "Subscribe" and "Subscribers" (0.90) are not
FIELD_FLOOR_DROP = 0.2  # fields and menus are few on a page, so their names may match more loosely
FIELD_WORD_SIMILARITY = 0.75  # a field whose whole name is among the demonstrated words (its placeholder, say)
_VALUE = re.compile(r"\bvalue: (['\"])(.*?)\1")


def roles_for(kind: str) -> frozenset[str]:
    if kind == "type":
        return TEXT_ROLES
    if kind == "select":
        return MENU_ROLES
    return CLICK_ROLES


def field_value(node: TreeNode) -> str:
    """The current value of a field, as its tree line shows it ("" when empty or not shown)."""
    match = _VALUE.search(node.line)
    return match.group(2) if match else ""


def options_of(nodes: list[TreeNode], menu: TreeNode) -> list[str]:
    """The option names listed under a menu node (they follow it in tree order)."""
    names: list[str] = []
    seen = False
    for node in nodes:
        if node.node_id == menu.node_id:
            seen = True
            continue
        if seen:
            if node.role != "option":
                break
            names.append(node.name)
    return names


@dataclass
class Grounding:
    node: TreeNode
    similarity: float
    where: str  # "in view" or "in the full page"
    looked_for: str
    others: list[dict[str, Any]]  # the next best nodes, for the record

    def to_dict(self) -> dict[str, Any]:
        return {
            "looked_for": self.looked_for,
            "node": f"[{self.node.node_id}] {self.node.role} {self.node.name!r}",
            "similarity": round(self.similarity, 3),
            "where": self.where,
            "next_best": self.others,
        }


class PageView:
    """The nodes of the current page: the observation's (viewport), and the whole page once asked for."""

    def __init__(self, view_nodes: dict[str, TreeNode], full_page: Callable[[], dict[str, TreeNode]] | None) -> None:
        self.view = list(view_nodes.values())
        self._full_page = full_page
        self._full: list[TreeNode] | None = None

    def full(self) -> list[TreeNode] | None:
        if self._full is None and self._full_page is not None:
            self._full = list(self._full_page().values())
        return self._full

    def loaded_full(self) -> list[TreeNode] | None:
        """The whole page if it was read already (without reading it)."""
        return self._full

    def all_nodes(self) -> list[TreeNode]:
        """The whole page when it was read, else the viewport."""
        return self._full if self._full is not None else self.view


class Grounder:
    def __init__(self, encode: Callable[[list[str]], np.ndarray], min_similarity: float) -> None:
        self.encode = encode  # texts -> unit vectors (the shared, disk-cached Embedder)
        self.min_similarity = min_similarity

    def similarities(self, target: str, names: list[str]) -> np.ndarray:
        if not names:
            return np.zeros(0)
        unique = list(dict.fromkeys([target, *names]))
        vectors = self.encode(unique)
        position = {text: n for n, text in enumerate(unique)}
        scores = vectors[[position[name] for name in names]] @ vectors[position[target]]
        wanted = normalise(target)
        for n, name in enumerate(names):
            have = normalise(name)
            if have == wanted:
                scores[n] = 1.0
                continue
            if _contained(have, wanted):
                scores[n] = max(scores[n], CONTAINED_SIMILARITY)
            elif len(wanted.split()) >= 2 and have.startswith(wanted + " "):
                scores[n] = max(scores[n], OPENING_SIMILARITY)
            spelled = SequenceMatcher(None, have, wanted).ratio()
            if spelled >= SPELLING_SIMILARITY:  # a misread letter or two, which embeddings punish hard
                scores[n] = max(scores[n], spelled)
        return scores

    def best(
        self, target: str, kind: str, nodes: list[TreeNode], anchors: list[TreeNode], where: str
    ) -> Grounding | None:
        roles = roles_for(kind)
        candidates = [node for node in nodes if node.role in roles and node.backend_id is not None]
        if not candidates or not target.strip():
            return None
        scores = self.similarities(target, [node.name for node in candidates])
        if kind in ("type", "select"):  # a field named by a word of the demonstrated text ("Search entire store")
            words = set(normalise(target).split())
            for n, node in enumerate(candidates):
                own = set(normalise(node.name).split())
                if own and len(node.name) >= 4 and own <= words:
                    scores[n] = max(scores[n], FIELD_WORD_SIMILARITY)
        order = np.argsort(-scores, kind="stable")
        top = float(scores[order[0]])
        tied = [candidates[i] for i in order if scores[i] >= top - TIE_MARGIN]
        node = _closest_to(tied, anchors) if len(tied) > 1 else tied[0]
        others = [
            {"node": f"[{candidates[i].node_id}] {candidates[i].role} {candidates[i].name!r}",
             "similarity": round(float(scores[i]), 3)}
            for i in order[:4] if candidates[i] is not node
        ][:3]  # fmt: skip
        return Grounding(node, top, where, target, others)

    def ground(
        self, target: str, kind: str, page: PageView, anchors_for: Callable[[list[TreeNode]], list[TreeNode]]
    ) -> Grounding | None:
        """The node for `target` in view, else in the whole page; None when nothing reaches the similarity floor."""
        floor = self.min_similarity - (FIELD_FLOOR_DROP if kind in ("type", "select") else 0.0)
        found = self.best(target, kind, page.view, anchors_for(page.view), "in view")
        if found is not None and found.similarity >= floor:
            return found
        whole = page.full()
        if whole is None:
            return None
        found = self.best(target, kind, whole, anchors_for(whole), "in the full page")
        return found if found is not None and found.similarity >= floor else None


def _contained(a: str, b: str) -> bool:
    """One name inside the other, the shorter being most of the longer: a cut or slightly longer label, not
    a common word ("Edit" inside "Edit biography")."""
    short, long = sorted((a, b), key=len)
    return len(short) >= 4 and len(short) > 0.6 * len(long) and short in long


def anchor_nodes(nodes: list[TreeNode], values: list[str]) -> list[TreeNode]:
    """Nodes whose text holds one of the task's values (its product, post, forum): where the task's thing is."""
    wanted = [normalise(value) for value in values if len(normalise(value)) >= 3]
    if not wanted:
        return []
    return [node for node in nodes if node.name and any(f" {w} " in f" {normalise(node.name)} " for w in wanted)]


def _closest_to(nodes: list[TreeNode], anchors: list[TreeNode]) -> TreeNode:
    """Among equally good nodes, the one nearest (on the page) to an anchor; the first when there is none."""
    placed = [anchor for anchor in anchors if anchor.rect is not None]
    if not placed:
        return nodes[0]

    def distance(node: TreeNode) -> float:
        if node.rect is None:
            return float("inf")
        x, y = node.rect[0] + node.rect[2] / 2, node.rect[1] + node.rect[3] / 2
        return min(
            abs(x - (a.rect[0] + a.rect[2] / 2)) + 2 * abs(y - (a.rect[1] + a.rect[3] / 2))  # type: ignore[index]
            for a in placed
        )

    return min(nodes, key=distance)
