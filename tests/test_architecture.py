"""The floors of docs/architecture.md: every import between the project's packages goes down.

Read from the source with `ast`: an `import` or `from ... import` of another package of
the project must name one of the packages that package may stand on. Imports under
`if TYPE_CHECKING:` count too: a type hint that names a module above is still an arrow up
(where a low module reads an object of a higher one, it names the fields it reads as a
`Protocol`). The rooms inside `agent/` follow the same rule with their own table.
"""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# The harness's four rooms under evaluation/, lowest first.
HARNESS = ("evaluation.browser_env", "evaluation.scoring", "evaluation.running", "evaluation.reports")
BELOW_HARNESS = {"foundation", "settings", "model_access", "tasks"}

# package -> the packages it may import (every floor below it). A package is a top-level folder or, inside
# evaluation/, one of its rooms (a dotted name). Keep in step with docs/architecture.md.
ALLOWED: dict[str, set[str]] = {
    "foundation": set(),
    "settings": {"foundation"},
    "model_access": {"foundation", "settings"},
    "tasks": {"foundation", "settings"},
    "retrieval": {"foundation", "settings", "model_access", "tasks"},
    "processing": {"foundation", "settings", "model_access", "tasks"},
    # The harness: four floors inside evaluation/, each standing on the ones before it.
    "evaluation.browser_env": BELOW_HARNESS,
    "evaluation.scoring": {*BELOW_HARNESS, "evaluation.browser_env"},
    "evaluation.running": {*BELOW_HARNESS, "evaluation.browser_env", "evaluation.scoring"},
    "evaluation.reports": {*BELOW_HARNESS, "evaluation.browser_env", "evaluation.scoring", "evaluation.running"},
    "agent": {*BELOW_HARNESS, "processing", "evaluation.browser_env", "evaluation.scoring", "evaluation.running"},
    "cli": {*BELOW_HARNESS, "retrieval", "processing", *HARNESS, "agent"},
    # Bridges to other tools (BrowserGym, AgentLab): on the top floor beside cli, which never imports them.
    "ecosystem": {*BELOW_HARNESS, "retrieval", "processing", *HARNESS, "agent"},
}
# Low floors inside a package, that every reader of the package's floor may import: the typed records (below
# everything but stdlib) and the one reference-solution engine (the agent's oracles and the reports alike).
SUB_FLOORS: dict[str, set[str]] = {
    "foundation.records": {"foundation"},
    "tasks.reference": {"foundation", "foundation.records", "settings", "tasks"},
}
for _package, _below in list(ALLOWED.items()):
    _below.update(sub for sub in SUB_FLOORS if sub.split(".")[0] in _below)
ALLOWED.update(SUB_FLOORS)
# Folders that only group packages of the table (evaluation/ holds the harness's rooms and nothing else).
GROUPS = ("evaluation",)
RULE = "imports go down the floors of docs/architecture.md"

# room of agent/ -> the rooms it may import. The modules at agent/'s top (registration, run_flags) register
# and configure every room, so they may import any; no room imports them. Keep in step with docs/architecture.md.
AGENT_ROOMS: dict[str, set[str]] = {
    "base": set(),
    "videos": {"base"},
    "oracles": {"base", "videos"},
    "method": {"base", "videos", "oracles"},
    "videowa_baselines": {"base", "videos"},
    "replay": {"base", "videos", "oracles"},
    "verification": {"base", "videos", "replay"},
}
ROOM_RULE = "rooms inside agent/ import downwards (docs/architecture.md, the agent's rooms)"


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported_modules(tree: ast.AST, type_only: bool = False) -> list[tuple[int, str]]:
    """(line, module) of every absolute import that runs, skipping `if TYPE_CHECKING:` blocks unless `type_only`."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if _is_type_checking_block(node) and not type_only:
            for child in node.orelse:  # the else branch does run
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.extend((node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.lineno, node.module))
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def package_of(module: str, packages: set[str] | dict[str, set[str]]) -> str | None:
    """The package of the table a dotted module name belongs to (the longest name that is it or holds it)."""
    found = [name for name in packages if module == name or module.startswith(name + ".")]
    return max(found, key=len) if found else None


def upward_imports(root: Path, allowed: dict[str, set[str]], inside: str = "") -> list[str]:
    """Every import from one package to another that the table does not allow, as 'file:line (package) imports
    module'. With `inside` ("agent"), the table's names are the sub-packages of that package, and a module at
    its top (agent.run_flags) counts as one more name no sub-package may import."""
    prefix = f"{inside}." if inside else ""
    folder = root / inside if inside else root
    top_modules = {path.stem for path in folder.glob("*.py")} - {"__init__"} if inside else set()
    known_names = set(allowed) | top_modules
    problems = []
    for package in sorted(allowed):
        for path in sorted((folder / package.replace(".", "/")).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            if any(path.is_relative_to(folder / sub.replace(".", "/")) for sub in allowed if sub.startswith(f"{package}.")):
                continue  # a sub-floor of this package: judged under its own name
            for line, module in imported_modules(tree, type_only=True):
                if not module.startswith(prefix):
                    continue
                target = package_of(module[len(prefix) :], known_names)
                if target is not None and target != package and target not in allowed[package]:
                    problems.append(f"{path.relative_to(root)}:{line} ({package}) imports {module}")
    return problems


def test_every_import_between_packages_goes_down() -> None:
    problems = upward_imports(PROJECT_ROOT, ALLOWED)
    assert not problems, f"{RULE}; these go up or sideways:\n" + "\n".join(problems)


def test_rooms_inside_agent_import_downwards() -> None:
    problems = upward_imports(PROJECT_ROOT, AGENT_ROOMS, inside="agent")
    assert not problems, f"{ROOM_RULE}; these go up or sideways:\n" + "\n".join(problems)


def test_the_room_table_names_every_room_of_agent() -> None:
    rooms = {path.parent.name for path in (PROJECT_ROOT / "agent").glob("*/__init__.py")}
    assert rooms == set(AGENT_ROOMS), "a room of agent/ is missing from AGENT_ROOMS (or the table names a gone one)"


def test_the_room_check_catches_a_room_that_imports_up(tmp_path: Path) -> None:
    for room in ("base", "videos", "method"):
        (tmp_path / "agent" / room).mkdir(parents=True)
    (tmp_path / "agent" / "run_flags.py").write_text("")
    (tmp_path / "agent" / "base" / "react.py").write_text(
        "from agent.base.history import History\n"  # inside its own room: allowed
        "from agent.videos.demonstration import Demonstration\n"  # up a room
        "from evaluation.running.policy import PolicyStep\n"  # another package: the floors' table judges it
    )
    (tmp_path / "agent" / "method" / "policy.py").write_text(
        "from agent.videos.candidates import CandidateSource\nfrom agent.base.agent import make_base_agent\n"
    )
    (tmp_path / "agent" / "videos" / "modes.py").write_text("from agent.run_flags import add_agent_arguments\n")
    rooms = {"base": set(), "videos": {"base"}, "method": {"base", "videos"}}
    assert upward_imports(tmp_path, rooms, inside="agent") == [
        "agent/base/react.py:2 (base) imports agent.videos.demonstration",
        "agent/videos/modes.py:1 (videos) imports agent.run_flags",
    ]


def test_the_table_names_every_package_folder() -> None:
    folders = {
        path.parent.name
        for path in PROJECT_ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "benchmarks", "scripts", "cache", "docs", *GROUPS}
    }
    rooms = {f"{group}.{path.parent.name}" for group in GROUPS for path in (PROJECT_ROOT / group).glob("*/__init__.py")}
    loose = [path.name for group in GROUPS for path in (PROJECT_ROOT / group).glob("*.py") if path.name != "__init__.py"]
    floors = {sub for sub in SUB_FLOORS if (PROJECT_ROOT / sub.replace(".", "/") / "__init__.py").is_file()}
    assert floors == set(SUB_FLOORS), f"a sub-floor of the table is gone: {set(SUB_FLOORS) - floors}"
    assert folders | rooms | floors == set(ALLOWED), "a package folder is missing from the floors table (or it names a gone one)"
    assert not loose, f"modules outside a room of a group folder: {loose}"


def test_the_check_catches_an_import_that_goes_up(tmp_path: Path) -> None:
    (tmp_path / "foundation").mkdir()
    (tmp_path / "foundation" / "bad.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from settings import Settings\n"  # type hints only: still an arrow on the ground
        "def f():\n    from evaluation.runner import run\n"  # runs: goes up
    )
    (tmp_path / "evaluation").mkdir()
    (tmp_path / "evaluation" / "ok.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "from foundation.errors import UserError\n"
        "if TYPE_CHECKING:\n    from cli.main import main\n"  # type hints only: still an arrow, and it goes up
    )
    table = {"foundation": set(), "settings": {"foundation"}, "evaluation": {"foundation"}, "cli": {"evaluation"}}
    problems = upward_imports(tmp_path, table)
    assert problems == [
        "evaluation/ok.py:4 (evaluation) imports cli.main",
        "foundation/bad.py:3 (foundation) imports settings",
        "foundation/bad.py:5 (foundation) imports evaluation.runner",
    ]


def test_architecture_doc_lists_the_same_floors() -> None:
    doc = (PROJECT_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in ALLOWED:
        assert f"`{package.replace('.', '/')}/`" in doc, f"docs/architecture.md does not describe {package}/"
    for room in AGENT_ROOMS:
        assert f"`agent/{room}/`" in doc, f"docs/architecture.md does not describe the room agent/{room}/"


def test_no_two_modules_import_each_other() -> None:
    """In every package (the harness's four since the move, all since 2026-11-28): no two modules import each
    other, even through others and even lazily (scripts/import_graph.py draws the graph and names a circle's
    modules)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("import_graph", PROJECT_ROOT / "scripts" / "import_graph.py")
    import_graph = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(import_graph)
    import networkx as nx

    graph = import_graph.module_graph(list(ALLOWED))
    circles = [sorted(group) for group in nx.strongly_connected_components(graph) if len(group) > 1]
    assert not circles, "import circles: " + "; ".join(" <-> ".join(group) for group in circles)
