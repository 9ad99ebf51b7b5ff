"""The refined page's tree: one node per line of the environment's tree text, hidden ones kept in place."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(eq=False)  # nodes are compared by identity: two alike cells are still two nodes
class PageNode:
    node_id: str
    role: str
    name: str
    properties: list[str]
    children: list[PageNode] = field(default_factory=list)
    parent: PageNode | None = None
    kept: bool = True
    folded: list[tuple[str, str]] = field(default_factory=list)  # (id, line) of options in its name
    depth: int = -1  # the indentation it prints at when it is not its place in the tree (-1: its place)

    def kept_children(self) -> list[PageNode]:
        return [child for child in self.children if child.kept]

    def add(self, child: PageNode) -> None:
        child.parent = self
        self.children.append(child)


def walk(node: PageNode):
    """The node and all below it, hidden or not, in line order."""
    yield node
    for child in node.children:
        yield from walk(child)


def walk_kept(node: PageNode):
    """The nodes a rendering shows: kept ones under kept ones (a hidden cell's links are not shown)."""
    if not node.kept:
        return
    yield node
    for child in node.children:
        yield from walk_kept(child)
