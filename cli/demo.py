"""`videodemo demo`: the main job on the bundled sandbox (what `make demo` runs)."""

from __future__ import annotations

import argparse


def register(subparsers, common: argparse.ArgumentParser) -> None:
    demo = subparsers.add_parser(
        "demo", parents=[common], help="run the main job on the bundled sandbox (what `make demo` runs)"
    )
    demo.set_defaults(handler=_demo)


def _demo(args: argparse.Namespace) -> int:
    from cli.main import load_settings_from_args
    from tasks.cli import print_sites
    from tasks.sandbox import server

    settings = load_settings_from_args(args)
    server.start_background(settings)
    rows = server.status(settings)
    down = [row.name for row in rows if not row.up]
    if down:
        print(f"error: sandbox sites not answering: {', '.join(down)}")
        return 1
    print("sandbox sites are up and answering:")
    print_sites(settings)
    print("they keep running in the background; `videodemo sandbox stop` stops them")
    return 0
