"""Objectives judged: every kept objective of the processed sandbox tutorials, graded 0-5 by the judge model.

VideoGUI's plan judging (processing/objective_grades.py): the judge reads the tutorial's script (its description
and the narration of each action step) and one kept objective with its steps, comments, and gives a grade from 0
(wrong) to 5 (exact). The objectives are read from the processed tutorials (`process-videos --source sandbox`),
the method's VLM objectives and the model-free path's derived ones alike; pass `--processed` for another run's
folder. With no judge configured it says so in one line and grades nothing.

    .venv/bin/python benchmarks/objective_grades.py [--processed DIR] [--only NAME ...] [--set KEY=VALUE ...]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from model_access.client import ModelClient  # noqa: E402
from processing.objective_grades import NO_JUDGE, grade_objectives  # noqa: E402
from settings import load_settings  # noqa: E402
from tasks.sandbox.tutorials.script import script_paths  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--processed", type=Path, help="processed-videos folder (default <cache>/processed)")
    parser.add_argument("--only", action="append", metavar="NAME", help="only this tutorial (repeatable)")
    parser.add_argument("--config", help="settings file (models.judge.* names the judge)")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE",
                        help="override a setting, e.g. models.judge.base_url=http://HOST:8000/v1")  # fmt: skip
    args = parser.parse_args(argv)
    settings = load_settings(args.config, overrides=args.overrides)
    names = args.only or [path.stem for path in script_paths()]
    with ModelClient(settings) as client:
        report = grade_objectives(settings, client, names, args.processed)
        if report is None:
            print(NO_JUDGE)
            return 0
        print(f"objectives of {len(names)} sandbox tutorials, judged by {settings.models.judge.model}:")
        for line in report.lines():
            print(line)
        warning = client.ledger.to_dict().get("warning")
        if warning:  # replies from the scripted test server are no model's grades
            print(warning)
    return 0


if __name__ == "__main__":
    sys.exit(main())
