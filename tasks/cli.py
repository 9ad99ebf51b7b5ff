"""`videodemo sandbox ...` and `videodemo tasks ...`."""

from __future__ import annotations

import argparse
import time


def register(subparsers, common: argparse.ArgumentParser) -> None:
    sandbox = subparsers.add_parser("sandbox", parents=[common], help="the bundled sandbox sites (shop, forum)")
    sub = sandbox.add_subparsers(dest="sandbox_command", metavar="ACTION", required=True)

    serve = sub.add_parser("serve", parents=[common], help="start the sandbox sites (Ctrl-C stops them)")
    serve.add_argument("--site", action="append", choices=["shop", "forum"], help="only this site (repeatable)")
    serve.add_argument("--background", action="store_true", help="leave them running; stop with `sandbox stop`")
    serve.add_argument("--fresh", action="store_true", help="reset the databases to the seed before starting")
    serve.set_defaults(handler=_serve)

    stop = sub.add_parser("stop", parents=[common], help="stop sites started with --background")
    stop.set_defaults(handler=_stop)

    status = sub.add_parser("status", parents=[common], help="which sites answer, their URLs and row counts")
    status.set_defaults(handler=_status)

    reset = sub.add_parser("reset", parents=[common], help="restore the seed state (running or not)")
    reset.add_argument("--site", action="append", choices=["shop", "forum"], help="only this site (repeatable)")
    reset.add_argument("--token", help="reset token (default: the sandbox.reset_token setting)")
    reset.set_defaults(handler=_reset)

    from tasks.sandbox.tutorials.command import register_record

    register_record(sub, common)

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


def _settings(args):
    from settings import load_settings_from_args

    return load_settings_from_args(args)


def print_sites(settings) -> None:
    from tasks.sandbox.server import site_url
    from tasks.sandbox.sites import SITES

    for spec in SITES.values():
        url = site_url(spec, settings)
        accounts = "; ".join(f"{a.role} {a.username} / {a.password}" for a in spec.accounts)
        print(f"  {spec.name:<6} (stands for {spec.stands_for}, ${spec.env_var})  {url}   accounts: {accounts}")


def _serve(args) -> int:
    from tasks.sandbox import server

    settings = _settings(args)
    names = args.site or None
    if args.fresh:
        server.stop_background(settings, names)
        for spec_name in names or ["shop", "forum"]:
            from tasks.sandbox.sites import SITES

            server.prepare_database(SITES[spec_name], settings, fresh=True)
    server.start_background(settings, names)
    print("sandbox sites are up:")
    print_sites(settings)
    if args.background:
        print("running in the background; `videodemo sandbox stop` stops them")
        return 0
    print("Ctrl-C stops them")
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop_background(settings, names)
    return 0


def _stop(args) -> int:
    from tasks.sandbox import server

    stopped = server.stop_background(_settings(args))
    print("stopped: " + (", ".join(stopped) if stopped else "nothing was running in the background"))
    return 0


def _status(args) -> int:
    from tasks.sandbox import server

    rows = server.status(_settings(args))
    for row in rows:
        print(f"{row.name:<6} {'up  ' if row.up else 'DOWN'} {row.url}  {row.detail}")
    return 0 if all(row.up for row in rows) else 1


def _reset(args) -> int:
    from tasks.sandbox import server

    for line in server.reset(_settings(args), args.site or None, token=args.token):
        print(line)
    return 0


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
        task_set = loading.load_task_set(path, settings=_settings(args))
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

    settings = _settings(args)
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

    # The checks live with the logins and helpers they exercise (evaluation/); imported only here.
    from evaluation.browser import launch_chromium
    from evaluation.site_check import check_sites

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
