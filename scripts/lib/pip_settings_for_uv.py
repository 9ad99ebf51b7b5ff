"""Print pip's install settings as uv arguments, one per line (uv reads no pip.conf nor PIP_* variables).

`pip config list` merges pip's files and PIP_* variables; of them, the ones that decide which packages are found
are carried over: index-url, extra-index-url, find-links, constraint; a `cert` setting becomes --system-certs (uv then
trusts the system's certificate store, where such a setting points pip).
uv's default index strategy stops at the first index that has a package; pip takes the best version of all.
"""

from __future__ import annotations

import shlex
import subprocess
import sys

FLAGS = {"index-url": "--index-url", "extra-index-url": "--extra-index-url", "find-links": "--find-links",
         "constraint": "--constraint"}  # fmt: skip


def main() -> None:
    listed = subprocess.run([sys.executable, "-m", "pip", "config", "list"], capture_output=True, text=True).stdout
    arguments = ["--index-strategy", "unsafe-best-match"]
    seen: set[tuple[str, str]] = set()
    for line in listed.splitlines():
        key, _, value = line.partition("=")
        name = key.rsplit(".", 1)[-1]
        for item in " ".join(shlex.split(value.strip())).split():
            if name in FLAGS and (name, item) not in seen:
                seen.add((name, item))
                arguments += [FLAGS[name], item]
            elif name == "cert" and "--system-certs" not in arguments:
                arguments.append("--system-certs")
    print("\n".join(arguments))


if __name__ == "__main__":
    main()
