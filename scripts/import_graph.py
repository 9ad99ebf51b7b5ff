"""The project's import graph, read from the source with `ast`: arrows between packages, import circles between
modules, and lines of code per package.

    .venv/bin/python scripts/import_graph.py                     # every package
    .venv/bin/python scripts/import_graph.py browser_env scoring running reports --mermaid

Every import counts, also those inside functions (a lazy import is still an arrow); imports under
`if TYPE_CHECKING:` do not (they never run). A circle is a strongly connected set of modules (networkx); the
package arrows are checked against the floors of docs/architecture.md (tests/test_architecture.py's table).
"""

from __future__ import annotations

import argparse
import ast
import sys
from collections import Counter
from pathlib import Path

import networkx as nx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from tests.test_architecture import ALLOWED, imported_modules, package_of as table_package  # noqa: E402


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def project_modules(packages: list[str]) -> dict[str, Path]:
    return {
        module_name(path): path
        for package in packages
        for path in sorted((ROOT / package.replace(".", "/")).rglob("*.py"))
    }


def resolve(imported: str, modules: dict[str, Path]) -> str | None:
    """The project module an import names (`a.b.c` may be the function c of module a.b)."""
    while imported and imported not in modules:
        imported = imported.rpartition(".")[0]
    return imported or None


def module_graph(packages: list[str], type_only: bool = True) -> nx.DiGraph:
    """Modules and their imports; `type_only` counts the imports under `if TYPE_CHECKING:` too (a circle of type
    hints is still two modules that need each other to be read)."""
    everything = project_modules(list(ALLOWED))
    graph = nx.DiGraph()
    for name, path in project_modules(packages).items():
        graph.add_node(name)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for _, imported in imported_modules(tree, type_only=type_only):
            target = resolve(imported, everything)
            if target and target != name and not name.startswith(target + "."):  # a package's own __init__
                graph.add_edge(name, target)
    return graph


def package_of(module: str) -> str:
    """The package of the floors' table a module is in (a room of evaluation/ by its dotted name)."""
    return table_package(module, ALLOWED) or module.split(".")[0]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("packages", nargs="*", help="packages to look at (default: all of docs/architecture.md)")
    parser.add_argument("--mermaid", action="store_true", help="also print the package arrows as a Mermaid graph")
    args = parser.parse_args()
    packages = args.packages or list(ALLOWED)
    graph = module_graph(packages)

    arrows = Counter((package_of(a), package_of(b)) for a, b in graph.edges if package_of(a) != package_of(b))
    print("package arrows (imports between modules):")
    for (source, target), count in sorted(arrows.items()):
        up = "" if target in ALLOWED.get(source, set()) else "   <- UP or SIDEWAYS"
        print(f"  {source} -> {target} ({count}){up}")

    inside = graph.subgraph(n for n in graph if package_of(n) in packages)
    circles = [sorted(group) for group in nx.strongly_connected_components(inside) if len(group) > 1]
    print(f"\nimport circles among the modules of {', '.join(packages)}: {len(circles)}")
    for group in circles:
        print("  " + " <-> ".join(group))

    print("\nlines of code (non-blank, .py):")
    for package in packages:
        lines = sum(
            sum(1 for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
            for path in (ROOT / package.replace(".", "/")).rglob("*.py")
        )
        print(f"  {package}: {lines} lines in {len(list((ROOT / package.replace('.', '/')).rglob('*.py')))} files")

    if args.mermaid:
        print("\n```mermaid\ngraph TD")
        for source, target in sorted(arrows):
            if source in packages and target in packages:
                print(f"  {source} --> {target}")
        print("```")
    upward = [pair for pair in arrows if pair[1] not in ALLOWED.get(pair[0], set())]
    return 1 if circles or upward else 0


if __name__ == "__main__":
    raise SystemExit(main())
