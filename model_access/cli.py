"""`videodemo models check` and `videodemo models scripted-server`, plus the model options other commands share.

Commands that call models add the shared options with `add_model_arguments(parser)`
and apply them after loading settings with `apply_model_arguments(args, settings)`:
`--cache` / `--no-cache` and per-role shortcuts (`--vlm-url URL --vlm-model NAME`, likewise
for llm, policy and judge), each the same as the matching `--set models...`.
"""

from __future__ import annotations

import argparse
import time
from typing import TYPE_CHECKING

from foundation.arguments import add_switch
from model_access import ROLES, SPEECH_ROLES

if TYPE_CHECKING:
    from settings import Settings


def add_model_arguments(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("models")
    add_switch(group, "cache", on="answer a call sent before from the model-call cache (models.use_cache=true)",
               off="send every model call again (models.use_cache=false)")  # fmt: skip
    for role in ROLES:
        url_help = f"OpenAI-compatible base URL of the {role} role (models.{role}.base_url)"
        group.add_argument(f"--{role}-url", metavar="URL", help=url_help)
        model_help = f"model name of the {role} role (models.{role}.model)"
        group.add_argument(f"--{role}-model", metavar="NAME", help=model_help)


def apply_model_arguments(args: argparse.Namespace, settings: "Settings") -> None:
    """Apply the options of `add_model_arguments` on top of --config / --set."""
    if getattr(args, "cache", None) is not None:
        settings.models.use_cache = args.cache
    for role in ROLES:
        role_settings = getattr(settings.models, role)
        url = getattr(args, f"{role}_url", None)
        model = getattr(args, f"{role}_model", None)
        if url:
            role_settings.base_url = url
        if model:
            role_settings.model = model


def register(subparsers, common: argparse.ArgumentParser) -> None:
    models = subparsers.add_parser(
        "models", parents=[common], help="model endpoints: check them, or serve scripted replies"
    )
    sub = models.add_subparsers(dest="models_command", metavar="ACTION", required=True)

    check = sub.add_parser(
        "check", parents=[common], help="send a tiny request to each configured role and say who answers"
    )
    add_model_arguments(check)
    check.set_defaults(handler=_check)

    serve = sub.add_parser(
        "scripted-server", parents=[common], help="serve scripted replies over the OpenAI API (tests and demos only)"
    )
    serve.add_argument(
        "--script", required=True, metavar="FILE", help="YAML/JSON script (format: model_access/scripted_server.py)"
    )
    serve.add_argument("--port", type=int, default=8100, help="port to listen on (default 8100)")
    serve.add_argument("--host", default="127.0.0.1", help="address to listen on (default 127.0.0.1)")
    serve.add_argument("--log", metavar="FILE", help="append every request as one JSON line to FILE")
    serve.set_defaults(handler=_serve)


def _check(args: argparse.Namespace) -> int:
    from model_access.accounting import SCRIPTED_LABEL
    from model_access.client import ModelClient
    from model_access.role_check import FAIL, check_role
    from settings import load_settings_from_args

    settings = load_settings_from_args(args)
    apply_model_arguments(args, settings)
    failures = 0
    with ModelClient(settings) as client:
        for role in ROLES:
            if not client.is_configured(role):
                fix = f"--set models.{role}.base_url=http://HOST:8000/v1 --set models.{role}.model=NAME"
                print(f"{role:<9} not configured ({fix})")
                continue
            started = time.perf_counter()
            check = check_role(client, role, speech=role in SPEECH_ROLES)
            took = time.perf_counter() - started
            failures += check.level == FAIL
            label = f"  [{SCRIPTED_LABEL}]" if check.scripted else ""
            print(f"{role:<9} {check.level:<6} {check.where}{label}  ({took:.1f}s)", flush=True)
            for finding in check.findings:
                print(f"{'':<9} {finding.level:<6} {finding.text}")
        if failures:
            # Loading a local embedding model costs seconds to tens of seconds on a small CPU: not spent on a
            # check that fails already; it runs once the roles pass.
            print("embedding not checked: fix the FAILED role(s) first (the check then loads the embedding model)")
        else:
            failures += not _check_embedding(settings, client.ledger)
    return 1 if failures else 0


def _check_embedding(settings: "Settings", ledger) -> bool:
    """One sentence embedded (the embedding model loaded once, by this call); False when it fails."""
    from foundation.errors import UserError
    from model_access.embeddings import Embedder

    try:
        embedder = Embedder(settings, ledger)
        started = time.perf_counter()
        vectors = embedder.encode(["a tiny check sentence"], stage="check", use_cache=False)
        took = time.perf_counter() - started
    except UserError as exc:
        print(f"embedding FAILED {exc}")
        return False
    print(f"embedding ok     {embedder.description}: {vectors.shape[1]} dimensions in {took:.2f}s")
    return True


def _serve(args: argparse.Namespace) -> int:
    from model_access.scripted_server import ScriptedServer

    server = ScriptedServer(args.script, host=args.host, port=args.port, log_path=args.log, echo=True)
    url = server.base_url
    print(f"SCRIPTED OpenAI-compatible server at {url}: its replies come from {args.script}, not from a model")
    print(f"point a role at it with --set models.vlm.base_url={url} --set models.vlm.model=scripted; Ctrl-C stops it")
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.stop()
    return 0
