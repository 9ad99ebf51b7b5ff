"""Symbolic element targets in scripted actions: `click [button 'Add to Cart']` instead of `click [42]`.

The id slot of an element action (click, hover, type, clear) may hold `role 'name'`,
optionally `role 'name':nth(K)` for the K-th such element (0-based), which is looked
up by exact role and accessible name in the observation's tree.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Protocol, TypeVar

_ELEMENT_VERBS = ("click", "hover", "type", "clear")
_SYMBOLIC = re.compile(
    r"^(?P<verb>[a-z_]+)\s*\[\s*(?P<role>[A-Za-z]\w*)\s+(?P<quote>['\"])(?P<name>.*?)(?P=quote)"
    r"(?::nth\((?P<nth>\d+)\))?\s*\](?P<rest>(?:\s*\[.*\])*\s*)$",
    re.S,
)


class NamedNode(Protocol):
    """An element of a page tree as a target is looked up in it (the browser's `TreeNode` fits)."""

    role: str
    name: str


Node = TypeVar("Node", bound=NamedNode)


@dataclass(frozen=True)
class Target:
    verb: str
    role: str
    name: str
    nth: int
    rest: str  # what follows the target, e.g. " [shirt] [1]" for type

    def describe(self) -> str:
        return f"{self.role} {self.name!r}" + (f":nth({self.nth})" if self.nth else "")

    def with_id(self, node_id: str) -> str:
        return f"{self.verb} [{node_id}]{self.rest}"


def parse_target(action: str) -> Target | None:
    """The symbolic target of an element action, or None when the action has none (a numeric id, goto...)."""
    match = _SYMBOLIC.match(action.strip())
    if match is None or match["verb"] not in _ELEMENT_VERBS:
        return None
    return Target(match["verb"], match["role"], match["name"], int(match["nth"] or 0), match["rest"])


def find_node(nodes: dict[str, Node], target: Target) -> Node | None:
    """The target's element among `nodes` (in tree order), or None."""
    matches = [node for node in nodes.values() if node.role == target.role and node.name == target.name]
    return matches[target.nth] if target.nth < len(matches) else None
