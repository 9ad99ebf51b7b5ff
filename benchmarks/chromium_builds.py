"""CPU and wall time of a run on Chromium's old headless shell against full Chromium in headless mode, and
whether their pixels and accessibility trees differ.

The run is `videodemo run --policy stop` over the first sandbox tasks (each task: its reset, logins, start
pages, one observation, evaluation), the same command for both builds, sites started with a private cache.
The CPU seconds are the whole machine's busy time over the command (from /proc/stat), so Chromium's
renderer, GPU and browser processes count: run it on an otherwise quiet machine. Then screenshots of the
sandbox pages from both builds are compared pixel by pixel, and the observation text the agent reads (element
ids aside: Chromium numbers elements anew in every session of either build) line by line.

    .venv/bin/python benchmarks/chromium_builds.py [--ids 1-20]
"""

from __future__ import annotations

import argparse
import io
import re
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
from PIL import Image
from playwright.sync_api import sync_playwright

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from benchmarks.env_step import BenchTask  # noqa: E402
from benchmarks.private_sandbox import private_sandbox  # noqa: E402
from evaluation.browser_env.environment import BrowserEnv  # noqa: E402
from foundation.browser import launch_chromium  # noqa: E402
from scripts.cpu_per_module import busy_seconds  # noqa: E402

VIDEODEMO = str(Path(sys.executable).parent / "videodemo")
BUILDS = {"headless shell (default)": "/usr/bin/chromium-headless-shell", "full Chromium, headless": "/usr/bin/chromium"}
PAGES = ("/", "/customer/account/login/", "/catalogsearch/result/?q=headphones")


def timed_run(executable: str, ids: str, env: dict[str, str], out: Path) -> tuple[float, float]:
    args = [VIDEODEMO, "run", "--policy", "stop", "--ids", ids, "--out", str(out), "--fresh", "--no-progress"]
    args += ["--workers", "1", "--set", f"browser.executable_path={executable}"]
    busy, started = busy_seconds(), time.perf_counter()
    result = subprocess.run(args, capture_output=True, text=True, env=env)
    if result.returncode != 0:
        raise SystemExit(f"the run on {executable} failed: {result.stderr.strip()[-500:]}")
    return busy_seconds() - busy, time.perf_counter() - started


def screenshots(settings, executable: str, urls: list[str]) -> list[np.ndarray]:
    settings.browser.executable_path = executable
    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, settings.browser)
        page = browser.new_page(viewport={"width": 1280, "height": 720})
        shots = []
        for url in urls:
            page.goto(url)
            page.wait_for_load_state("networkidle")
            shots.append(np.asarray(Image.open(io.BytesIO(page.screenshot())).convert("RGB")))
        browser.close()
    return shots


def trees(settings, executable: str, urls: list[str]) -> list[str]:
    """The agent's observation text of each page, element ids blanked."""
    settings.browser.executable_path = executable
    with BrowserEnv(settings) as env:
        return [re.sub(r"\[\d+\] ", "[] ", env.reset(BenchTask(url)).text) for url in urls]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--ids", default="1-20", help="sandbox task ids to play (default 1-20)")
    args = parser.parse_args()
    missing = [path for path in BUILDS.values() if not Path(path).exists()]
    if missing:
        raise SystemExit(f"not installed: {', '.join(missing)}; apt-get install chromium chromium-headless-shell")

    with private_sandbox("videodemo-bench-chromium-") as sandbox:
        settings, shop, forum = sandbox.settings, sandbox.shop, sandbox.forum
        figures = {}
        for label, executable in BUILDS.items():
            out = sandbox.cache / "runs" / Path(executable).name
            figures[label] = timed_run(executable, args.ids, sandbox.env, out)
        base_cpu, base_wall = figures["full Chromium, headless"]
        print(f"`videodemo run --policy stop --ids {args.ids} --workers 1`, machine busy CPU and wall:")
        print("| build | CPU s | wall s | CPU vs full | wall vs full |\n| --- | ---: | ---: | ---: | ---: |")
        for label, (cpu, wall) in figures.items():
            print(f"| {label} | {cpu:.1f} | {wall:.1f} | {cpu / base_cpu:.2f}x | {wall / base_wall:.2f}x |")
        urls = [shop + path for path in PAGES] + [forum + "/", forum + "/forums"]
        shell, full = (screenshots(settings, executable, urls) for executable in BUILDS.values())
        shell_trees, full_trees = (trees(settings, executable, urls) for executable in BUILDS.values())
        for url, a, b, tree_a, tree_b in zip(urls, shell, full, shell_trees, full_trees):
            differing = int((a != b).any(axis=2).sum()) if a.shape == b.shape else -1
            lines = sum(x != y for x, y in zip(tree_a.splitlines(), tree_b.splitlines()))
            lines += abs(len(tree_a.splitlines()) - len(tree_b.splitlines()))
            print(
                f"{url}: {a.shape[1]}x{a.shape[0]} vs {b.shape[1]}x{b.shape[0]}, pixels differing: {differing}; "
                f"tree lines {len(tree_a.splitlines())}, differing: {lines}"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
