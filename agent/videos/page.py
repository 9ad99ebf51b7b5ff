"""Short descriptions of the current page, for the pre-cut's ranking query."""

from __future__ import annotations

from evaluation.browser_env.observation import Observation


def page_title(observation: Observation) -> str:
    current = next((tab for tab in observation.tabs if tab.current), None)
    return current.title if current is not None else ""


def tree_head(observation: Observation, lines: int) -> str:
    """The first `lines` lines of the accessibility tree, with a note when more follow."""
    tree = observation.tree_text.splitlines()
    head = "\n".join(tree[: max(lines, 0)])
    if len(tree) > lines:
        head += f"\n[... {len(tree) - lines} more lines ...]"
    return head


def ranking_query(intent: str, observation: Observation | None, lines: int = 10) -> str:
    """What candidate trajectories are ranked against: the task, then where the agent is."""
    if observation is None:
        return intent
    words = " ".join(line.strip() for line in tree_head(observation, lines).splitlines())
    return f"{intent}\n{page_title(observation)}\n{observation.url}\n{words}"
