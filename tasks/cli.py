"""`videodemo sandbox ...`: the bundled sandbox sites and their tutorial recordings."""

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
    from tasks.sandbox.sites import SITES

    settings = _settings(args)
    names = args.site or None
    if args.fresh:
        server.stop_background(settings, names)
        for spec_name in names or list(SITES):
            server.prepare_database(SITES[spec_name], settings, fresh=True)
    if args.background:
        others = server.sites_of_others(settings, names)  # up before this command, from elsewhere
        server.start_background(settings, names)
        print("sandbox sites are up:")
        print_sites(settings)
        for line in others:
            print(line)
        if len(others) < len(names or SITES):
            print("running in the background; `videodemo sandbox stop` stops those started from this cache")
        return 0
    # In the foreground the sites live as long as this command: Ctrl-C, SIGTERM and SIGHUP unwind to the
    # `finally` (cli/main.py), and a SIGKILL-ed command takes its sites along (they exit with their parent).
    try:
        server.start_background(settings, names, exit_with_parent=True)
        print("sandbox sites are up:")
        print_sites(settings)
        print("Ctrl-C stops them")
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        pass
    finally:
        server.stop_background(settings, names)
    return 0


def _stop(args) -> int:
    from tasks.sandbox import server

    settings = _settings(args)
    stopped = server.stop_background(settings)
    print("stopped: " + (", ".join(stopped) if stopped else f"nothing started from {settings.paths.cache_dir}"))
    for line in server.sites_of_others(settings):  # still answering: started from another cache
        print(line)
    return 0


def _status(args) -> int:
    from tasks.sandbox import server

    settings = _settings(args)
    rows = server.status(settings)
    for row in rows:
        print(f"{row.name:<6} {'up  ' if row.up else 'DOWN'} {row.url}  {row.detail}")
        if row.elsewhere:  # answering on this cache's address, yet another cache's or command's site
            print(f"{'':<6} not started from {settings.paths.cache_dir}: another cache's or command's site "
                  f"({row.elsewhere}); its data is not this cache's and `videodemo sandbox stop` here leaves it")
    return 0 if all(row.up for row in rows) else 1


def _reset(args) -> int:
    from tasks.sandbox import server

    for line in server.reset(_settings(args), args.site or None, token=args.token):
        print(line)
    return 0
