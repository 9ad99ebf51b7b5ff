"""Runs inside the WebArena-Verified environment (.venv-servers/webarena-verified, Python 3.12): scores answers with
WebArena-Verified's own evaluator. Reads one JSON request on stdin, writes one JSON line on stdout.

It imports nothing of this project (that environment holds only WebArena-Verified), so it is run by file path:
`python ecosystem/webarena_verified/worker.py < request.json`.

Request: {"sites": {"shopping": "http://host:7770", ...}, "tasks": [{"key", "webarena_id", "answer", "trace",
"task_type"}], "originals": false}. With "originals": true it returns WebArena's original task configs as the
package ships them (for mapping VideoWA tasks), and scores nothing.
"""

from __future__ import annotations

import importlib.resources
import json
import logging
import sys
import zipfile
from pathlib import Path
from typing import Any

PACKAGE = "webarena_verified"
ORIGINALS = "assets/dataset/test.raw.json"  # WebArena's own 812 configs, as the package ships them
NA_ANSWERS = {"n/a", "na"}  # WebArena's "not achievable" answer
TEXT_BODIES = ("form", "json", "text", "xml")  # bodies put back into a trace; images and fonts are never checked


def _asset(name: str) -> Any:
    return json.loads(importlib.resources.files(PACKAGE).joinpath(name).read_text(encoding="utf-8"))


def browsergym_name(task: dict[str, Any]) -> str:
    """The gym id BrowserGym's browsergym-webarena-verified registers for this task (its config.py's pattern)."""
    return f"webarena_verified.{task['intent_template_id']}.{task['task_id']}.{task['revision']}"


def agent_response(answer: Any, task_type: str) -> tuple[Any, str]:
    """The answer as Verified's structured response, and how it was made. An answer already in Verified's format is
    passed as given; a plain answer (our policies' `stop [answer]`) is wrapped: the task type our record names,
    status SUCCESS with the answer as the one retrieved item, or NOT_FOUND_ERROR for WebArena's "N/A"."""
    from webarena_verified.types.agent_response import FinalAgentResponse

    text = answer if isinstance(answer, str) else json.dumps(answer)
    try:
        FinalAgentResponse.model_validate_json(text.strip().removeprefix("```json").removesuffix("```"))
        return text, "answer in Verified's format"
    except ValueError:
        pass
    plain = (answer or "").strip() if isinstance(answer, str) else ""
    if plain.lower() in NA_ANSWERS:
        wrapped = {"task_type": task_type, "status": "NOT_FOUND_ERROR", "retrieved_data": None}
    elif task_type == "RETRIEVE":
        wrapped = {"task_type": task_type, "status": "SUCCESS", "retrieved_data": [plain] if plain else []}
    else:
        wrapped = {"task_type": task_type, "status": "SUCCESS", "retrieved_data": None}
    return json.dumps(wrapped), f"plain answer wrapped as {task_type}/{wrapped['status']}"


def recorded_trace(path: Path) -> Any:
    """A task's network trace as the package's NetworkTrace. Playwright keeps request and response bodies beside a
    trace's entries (`_file` / `_sha1` in resources/), where the package reads a body's `text` only (a posted form
    would look empty): from our Playwright trace, the entries with their text bodies put back. A HAR as it is."""
    from webarena_verified.types.tracing import NetworkTrace

    if path.suffix != ".zip":
        return NetworkTrace.from_content(path)
    events = []
    with zipfile.ZipFile(path) as archive:
        names = set(archive.namelist())
        for line in archive.read("trace.network").decode("utf-8").splitlines():
            event = json.loads(line) if line.strip() else {}
            if event.get("type") != "resource-snapshot":
                continue
            entry = event["snapshot"]
            for body in (entry.get("request", {}).get("postData"), entry.get("response", {}).get("content")):
                if not isinstance(body, dict) or body.get("text"):
                    continue
                stored = body.get("_file") or (f"resources/{body['_sha1']}" if body.get("_sha1") else "")
                if stored in names and any(kind in body.get("mimeType", "") for kind in TEXT_BODIES):
                    body["text"] = archive.read(stored).decode("utf-8", "replace")
            events.append(event)
    if not events:  # the package refuses an empty list; an episode that made no request has an empty trace
        return NetworkTrace.model_construct(is_playwright=True, src_file=path, events=())
    return NetworkTrace.from_content(events)


def score(request: dict[str, Any]) -> list[dict[str, Any]]:
    from webarena_verified.api import WebArenaVerified
    from webarena_verified.types.config import EnvironmentConfig, WebArenaVerifiedConfig
    from webarena_verified.types.tracing import NetworkTrace

    environments = {site: EnvironmentConfig(urls=[url]) for site, url in (request.get("sites") or {}).items() if url}
    verified = WebArenaVerified(config=WebArenaVerifiedConfig(environments=environments or None))
    results = []
    for item in request["tasks"]:
        task = verified.get_task(int(item["webarena_id"]))
        row: dict[str, Any] = {"key": item["key"], "webarena_id": task.task_id, "browsergym": browsergym_name(
            task.model_dump(mode="json")), "score": None}  # fmt: skip
        evaluators = [cfg.evaluator for cfg in task.eval]
        network_checks = sum(1 for name in evaluators if name != "AgentResponseEvaluator")
        missing_sites = [str(site) for site in task.sites if str(site) not in environments]
        recorded = Path(item["trace"]) if item.get("trace") else None  # a Playwright trace or a HAR
        if network_checks and recorded is None:
            row["why"] = (f"not scored: Verified checks {network_checks} network event(s) for this task and the run "
                          "kept no network trace (run with --set run.record_network=true)")  # fmt: skip
        elif missing_sites:
            row["why"] = ("not scored: Verified needs the base URL of " + ", ".join(missing_sites)
                          + " (set " + ", ".join(f"${site.upper()}" for site in missing_sites) + ")")  # fmt: skip
        else:
            response, how = agent_response(item.get("answer"), item.get("task_type") or "RETRIEVE")
            # No trace: an empty one (the package refuses an empty list); only the response evaluator, the one
            # this task has, runs, and it never reads the trace.
            trace = recorded_trace(recorded) if recorded is not None else NetworkTrace.model_construct(
                is_playwright=False, src_file=Path("no-trace"), events=())
            result = verified.evaluate_task(task_id=task.task_id, agent_response=response, network_trace=trace)
            failures = [
                message
                for evaluator in result.evaluators_results
                for assertion in evaluator.assertions or ()
                if assertion.status != "success"
                for message in assertion.assertion_msgs or (assertion.assertion_name,)
            ]
            scores = [evaluator.score for evaluator in result.evaluators_results]
            # BrowserGym's wrapper rewards the mean of the evaluators' scores; Verified's task score is all or nothing
            row["browsergym_reward"] = sum(scores) / len(scores) if scores else result.score
            row.update(score=result.score, status=str(result.status), how=how, evaluators=evaluators,
                       why=result.error_msg or ("; ".join(failures)[:300] if failures else ""))  # fmt: skip
        results.append(row)
    return results


def main() -> int:
    logging.disable(logging.CRITICAL)  # the package logs every step and error; each task's line carries its error
    request = json.loads(sys.stdin.read())
    if request.get("originals"):
        print(json.dumps({"originals": _asset(ORIGINALS)}))
        return 0
    print(json.dumps({"results": score(request)}, default=str))
    return 0


if __name__ == "__main__":
    sys.exit(main())
