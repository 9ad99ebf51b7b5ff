"""Entry points: `videodemo <command>` and `process-videos`.

Each package registers its own subcommands (a `register(subparsers, common)`
function in its `cli` module) so that this file only wires them together and
handles what every command shares: `--config`, `--set`, turning a
`UserError` into one line and exit code 2, and stopping on SIGTERM or SIGHUP the
way Ctrl-C does (so locks are given back and child processes stopped).
"""

from __future__ import annotations

import argparse
import importlib
import logging
import signal
import sys
from contextlib import contextmanager
from typing import Callable, Iterator, Sequence

from foundation.arguments import ArgumentParser
from foundation.errors import UserError

# Order = order in `--help`. Handlers import their heavy dependencies lazily.
COMMAND_MODULES = [
    "tasks.cli",
    "cli.tasks_cli",
    "processing.cli",
    "cli.verification",  # wraps process-videos for --verify
    "retrieval.cli",
    "cli.run_commands",
    "model_access.cli",
    "cli.demo",
    "ecosystem.webarena_verified.cli",
    "cli.settings_cli",
]

Handler = Callable[[argparse.Namespace], int]
STOP_SIGNALS = (signal.SIGTERM, signal.SIGHUP)


class Stopped(KeyboardInterrupt):
    """A stop signal, raised where the command is so that it unwinds as after Ctrl-C."""

    def __init__(self, signum: int) -> None:
        super().__init__(signal.Signals(signum).name)
        self.signum = signum


@contextmanager
def stop_signals_unwind() -> Iterator[None]:
    """While a command runs, SIGTERM and SIGHUP raise `Stopped` (a second one kills at once). Left alone
    when they are ignored (nohup) or handled already, and outside the main thread, where Python sets none."""
    import threading

    def stop(signum: int, frame: object) -> None:
        signal.signal(signum, signal.SIG_DFL)
        raise Stopped(signum)

    saved = {}
    if threading.current_thread() is threading.main_thread():
        for signum in STOP_SIGNALS:
            if signal.getsignal(signum) is signal.SIG_DFL:
                saved[signum] = signal.signal(signum, stop)
    try:
        yield
    finally:
        for signum, previous in saved.items():
            signal.signal(signum, previous)


def common_options() -> ArgumentParser:
    """Options accepted before or after any subcommand."""
    common = ArgumentParser(add_help=False)
    common.add_argument(
        "--config", default=argparse.SUPPRESS, metavar="FILE", help="YAML settings file (sections as in settings/schema.py)"
    )
    common.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=argparse.SUPPRESS,
        metavar="KEY=VALUE",
        help="override one setting, e.g. --set processing.sample_fps=1 (repeatable)",
    )
    common.add_argument(
        "--harness",
        default=argparse.SUPPRESS,
        metavar="NAME",
        help="settings preset from settings/presets/ applied before --config and --set: 'method' (the paper's "
        "harness, the default), 'videowa' (VideoWA's baseline runner: Set-of-Marks, 1280x2048, 30 steps) or "
        "'agentoccam' (AgentOccam alone as its code runs: temperature 0.5, top_p 0.95, 1920x1080)",
    )
    common.add_argument("-v", "--verbose", action="store_true", default=argparse.SUPPRESS, help="debug logging")
    return common


def build_parser(prog: str = "videodemo") -> ArgumentParser:
    common = common_options()
    # Its subparsers are of its class (argparse's parser_class): a mistake anywhere is one line.
    parser = ArgumentParser(
        prog=prog,
        parents=[common],
        description="Web agents that learn from video tutorials at inference time: process tutorials into "
        "objective-tagged trajectories, run the agent on VideoWebArena-format tasks, score and report.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for module_name in COMMAND_MODULES:
        importlib.import_module(module_name).register(subparsers, common)
    return parser


def main(argv: Sequence[str] | None = None, prog: str = "videodemo") -> int:
    parser = build_parser(prog)
    args = parser.parse_args(list(sys.argv[1:] if argv is None else argv))
    logging.basicConfig(
        level=logging.DEBUG if getattr(args, "verbose", False) else logging.INFO,
        format="%(levelname)s %(name)s: %(message)s",
    )
    handler: Handler | None = getattr(args, "handler", None)
    if handler is None:
        parser.print_help()
        return 2
    try:
        with stop_signals_unwind():
            return int(handler(args) or 0)
    except UserError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt as exc:
        how = f"stopped by {exc}" if isinstance(exc, Stopped) else "interrupted"
        print(f"{how}; finished work is kept and a re-run resumes from it", file=sys.stderr)
        return 128 + exc.signum if isinstance(exc, Stopped) else 130


def process_videos_main(argv: Sequence[str] | None = None) -> int:
    """`process-videos ...` is `videodemo process-videos ...`."""
    return main(["process-videos", *(sys.argv[1:] if argv is None else argv)], prog="videodemo")


if __name__ == "__main__":
    sys.exit(main())
