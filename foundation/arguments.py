"""The argument parser every command of the project uses: a mistake is one line, not a usage dump.

argparse answers a wrong value with its whole usage (17 lines for `process-videos`) before the one line
that matters. `ArgumentParser` here prints only that line, naming the value, the choices and where to read
more, and exits with argparse's code 2; `--help` prints everything as before. Subparsers made by
`add_subparsers` are of the parser's own class, so one `ArgumentParser(...)` at the top covers them all.

`add_switch` defines an on/off pair (`--X` / `--no-X`) whose default, None, leaves the setting as it is.
"""

from __future__ import annotations

import argparse
import re
from typing import NoReturn

_REQUIRED = re.compile(r"the following arguments are required: (.+)")


_PROG = "_parsed_by"  # namespace attribute: the innermost (sub)command that parsed, while parsing


class ArgumentParser(argparse.ArgumentParser):
    def error(self, message: str, prog: str | None = None) -> NoReturn:
        """One line on stderr: the mistake, the choices where there are some, and the fix; exit code 2."""
        prog = prog or self.prog
        self.exit(2, f"error: {prog}: {self._explained(message)}; see `{prog} --help`\n")

    def parse_known_args(self, args=None, namespace=None):  # type: ignore[override]
        parsed, extras = super().parse_known_args(args, namespace)
        if not hasattr(parsed, _PROG):  # a subcommand's parser returns first: the innermost one is kept
            setattr(parsed, _PROG, self.prog)
        return parsed, extras

    def parse_args(self, args=None, namespace=None):  # type: ignore[override]
        """As argparse's, but an unknown argument names the subcommand it was given to, not the top command."""
        parsed, extras = self.parse_known_args(args, namespace)
        prog = getattr(parsed, _PROG, self.prog)
        delattr(parsed, _PROG)
        if extras:
            self.error(f"unrecognized arguments: {' '.join(extras)}", prog)
        return parsed

    def _explained(self, message: str) -> str:
        missing = _REQUIRED.match(message)
        if not missing:
            return message  # argparse's own line names the value and, for a choice, every choice
        names = [name.strip() for name in missing.group(1).split(",")]
        parts = []
        for name in names:
            action = self._action_named(name)
            choices = list(action.choices) if action is not None and action.choices else []
            if choices:
                parts.append(f"{name} (one of: {', '.join(map(str, choices))})")
            else:  # its help says what to pass
                parts.append(f"{name} ({action.help})" if action is not None and action.help else name)
        return f"missing {', '.join(parts)}"

    def _action_named(self, name: str) -> argparse.Action | None:
        for action in self._actions:
            if name in action.option_strings or name in (action.metavar, action.dest):
                return action
        return None


def add_switch(parser: argparse.ArgumentParser | argparse._ArgumentGroup, name: str, on: str, off: str) -> None:
    """`--NAME` (help `on`) and `--no-NAME` (help `off`), into dest NAME (dashes as underscores): True, False,
    or None when neither is given, so the setting's own default (settings/schema.py) stands."""
    dest = name.replace("-", "_")
    parser.add_argument(f"--{name}", dest=dest, action="store_const", const=True, default=None, help=on)
    parser.add_argument(f"--no-{name}", dest=dest, action="store_const", const=False, default=None, help=off)
