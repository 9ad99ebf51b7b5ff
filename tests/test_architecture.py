"""The floors of docs/architecture.md: every import between the project's packages goes down.

Read from the source with `ast`: an `import` or `from ... import` of another package of
the project must name one of the packages that package may stand on. Imports under
`if TYPE_CHECKING:` are only for type hints and do not run, so they do not count.
"""

from __future__ import annotations

import ast
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent

# package -> the packages it may import (every floor below it). Keep in step with docs/architecture.md.
ALLOWED: dict[str, set[str]] = {
    "foundation": set(),
    "settings": {"foundation"},
    "model_access": {"foundation", "settings"},
    "tasks": {"foundation", "settings"},
    "retrieval": {"foundation", "settings", "model_access", "tasks"},
    "processing": {"foundation", "settings", "model_access", "tasks"},
    "evaluation": {"foundation", "settings", "model_access", "tasks"},
    "agent": {"foundation", "settings", "model_access", "tasks", "processing", "evaluation"},
    "cli": {"foundation", "settings", "model_access", "tasks", "retrieval", "processing", "evaluation", "agent"},
}
RULE = "imports go down the floors of docs/architecture.md"


def _is_type_checking_block(node: ast.AST) -> bool:
    return isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test)


def imported_modules(tree: ast.AST) -> list[tuple[int, str]]:
    """(line, module) of every absolute import that runs, skipping `if TYPE_CHECKING:` blocks."""
    found: list[tuple[int, str]] = []

    def visit(node: ast.AST) -> None:
        if _is_type_checking_block(node):
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


def upward_imports(root: Path, allowed: dict[str, set[str]]) -> list[str]:
    """Every import from one project package to another that the table does not allow, as 'file:line -> module'."""
    problems = []
    for package in sorted(allowed):
        for path in sorted((root / package).rglob("*.py")):
            tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
            for line, module in imported_modules(tree):
                target = module.split(".")[0]
                if target in allowed and target != package and target not in allowed[package]:
                    problems.append(f"{path.relative_to(root)}:{line} ({package}) imports {module}")
    return problems


def test_every_import_between_packages_goes_down() -> None:
    problems = upward_imports(PROJECT_ROOT, ALLOWED)
    assert not problems, f"{RULE}; these go up or sideways:\n" + "\n".join(problems)


def test_the_table_names_every_package_folder() -> None:
    folders = {
        path.parent.name
        for path in PROJECT_ROOT.glob("*/__init__.py")
        if path.parent.name not in {"tests", "benchmarks", "scripts", "cache", "docs"}
    }
    assert folders == set(ALLOWED), "a package folder is missing from the floors table (or the table names a gone one)"


def test_the_check_catches_an_import_that_goes_up(tmp_path: Path) -> None:
    (tmp_path / "foundation").mkdir()
    (tmp_path / "foundation" / "bad.py").write_text(
        "from typing import TYPE_CHECKING\n"
        "if TYPE_CHECKING:\n    from settings import Settings\n"  # type hints only: allowed
        "def f():\n    from evaluation.runner import run\n"  # runs: goes up
    )
    (tmp_path / "evaluation").mkdir()
    (tmp_path / "evaluation" / "ok.py").write_text("from foundation.errors import UserError\n")
    problems = upward_imports(tmp_path, {"foundation": set(), "settings": {"foundation"}, "evaluation": {"foundation"}})
    assert problems == ["foundation/bad.py:5 (foundation) imports evaluation.runner"]


def test_architecture_doc_lists_the_same_floors() -> None:
    doc = (PROJECT_ROOT / "docs" / "architecture.md").read_text(encoding="utf-8")
    for package in ALLOWED:
        assert f"`{package}/`" in doc, f"docs/architecture.md does not describe {package}/"
