"""Print, one a line, what the BrowserGym environment installs: the `browsergym` extra of pyproject.toml and the
project's dependencies except playwright (BrowserGym pins its own, older release) and torch (installed first)."""

import re
import tomllib
from pathlib import Path

LEFT_TO_BROWSERGYM = {"playwright", "torch"}

project = tomllib.loads((Path(__file__).resolve().parents[3] / "pyproject.toml").read_text())["project"]
for requirement in project["optional-dependencies"]["browsergym"] + project["dependencies"]:
    name = re.split(r"[<>=!~\[; ]", requirement, maxsplit=1)[0].lower()
    if name not in LEFT_TO_BROWSERGYM:
        print(requirement)
