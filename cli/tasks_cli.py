"""`videodemo tasks list|check`: what a task set holds, and whether the sites it needs are up.

On the top floor because `check --sites-up` joins two packages: the task loader (tasks)
and the logins and site helpers of the harness (evaluation).
"""

from __future__ import annotations

import argparse

from settings import load_settings_from_args


def register(subparsers, common: argparse.ArgumentParser) -> None:
    register_tasks(subparsers, common)


def register_tasks(subparsers, common: argparse.ArgumentParser) -> None:
    from tasks.filters import KINDS
    from tasks.placeholders import KNOWN_SITES

    tasks = subparsers.add_parser("tasks", parents=[common], help="task configs in the VideoWA/WebArena format")
    sub = tasks.add_subparsers(dest="tasks_command", metavar="ACTION", required=True)

    listing = sub.add_parser(
        "list", parents=[common], help="counts by site, kind, video and eval type, and the configs' problems"
    )
    listing.add_argument(
        "path", nargs="?", help="a JSON config file or a folder of them (default: the bundled sandbox tasks)"
    )
    listing.add_argument("--site", choices=KNOWN_SITES, help="only tasks on this site")
    listing.add_argument("--kind", choices=KINDS, help="only skill-retention or factual-retention tasks")
    listing.add_argument("--json", action="store_true", help="print the counts and problems as JSON")
    listing.set_defaults(handler=_list_tasks)

    check = sub.add_parser(
        "check", parents=[common], help="the sites a task set needs: with --sites-up, log in and read each once"
    )
    check.add_argument("path", help="a JSON config file or a folder of them")
    check.add_argument(
        "--sites-up",
        action="store_true",
        help="log in to each site the tasks need and run one read-only helper on it, one line per site",
    )
    check.add_argument("--site", choices=KNOWN_SITES, help="only tasks on this site")
    check.set_defaults(handler=_check_tasks)


def _list_tasks(args) -> int:
    import json
    import logging

    from tasks import loading
    from tasks.filters import filter_tasks
    from tasks.listing import format_summary, summarize

    path = args.path
    if path is None:
        bundled = loading.SANDBOX_CONFIGS_DIR
        if not bundled.is_dir() or not any(bundled.rglob("*.json")):
            print(f"no bundled sandbox tasks yet: {bundled} holds no *.json config")
            return 0
        path = bundled
    # Files that fail to load are part of the listing below; no need to warn about them twice.
    loader_log = logging.getLogger(loading.__name__)
    level = loader_log.level
    loader_log.setLevel(logging.ERROR)
    try:
        task_set = loading.load_task_set(path, settings=load_settings_from_args(args))
    finally:
        loader_log.setLevel(level)
    tasks = filter_tasks(task_set.tasks, site=args.site, kind=args.kind)
    summary = summarize(tasks, task_set.file_problems)
    if args.json:
        print(json.dumps({"path": str(path), "files": len(task_set.files), **summary}, indent=2))
    else:
        filters = ", ".join(f"{name}={value}" for name, value in (("site", args.site), ("kind", args.kind)) if value)
        print(format_summary(summary, str(path), len(task_set.files), filters))
    return 0


def _check_tasks(args) -> int:
    from tasks import loading
    from tasks.filters import filter_tasks

    settings = load_settings_from_args(args)
    task_set = loading.load_task_set(args.path, settings=settings)
    tasks = filter_tasks(task_set.tasks, site=args.site)
    # Every task counts, those with config problems too: an unset site variable is one of them.
    sites = sorted({site for task in tasks for site in task.sites})
    resets = {site: sum(task.require_reset and site in task.sites for task in tasks) for site in sites}
    with_problems = sum(bool(task.problems) for task in tasks)
    print(f"{len(tasks)} tasks, {with_problems} with config problems (`videodemo tasks list` shows them)")
    print("sites needed: " + (", ".join(sites) if sites else "none"))
    if not args.sites_up:
        print("add --sites-up to log in to each site and read it once")
        return 0
    return _check_sites_up(sites, resets, settings)


def _check_sites_up(sites: list[str], resets: dict[str, int], settings) -> int:
    from playwright.sync_api import sync_playwright

    from foundation.browser import launch_chromium
    from evaluation.scoring.site_check import check_sites

    with sync_playwright() as playwright:
        browser = launch_chromium(playwright, settings.browser)
        try:
            checks = check_sites(sites, settings, browser, resets)
        finally:
            browser.close()
    for check in checks:
        print(check.line())
    failed = [check.site for check in checks if not check.ok]
    print(f"{len(checks) - len(failed)} of {len(checks)} sites ok" + (f"; fix: {', '.join(failed)}" if failed else ""))
    return 1 if failed else 0
