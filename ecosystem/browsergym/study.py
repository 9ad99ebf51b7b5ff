"""An AgentLab study of bridged tasks with one of our policies, run by AgentLab's own runner; the results are then
read back with AgentLab's result reader (`inspect_results.load_result_df`) and printed as one JSON line: per task its
reward, steps, error, the episode's model usage as AgentLab's table has it (`stats.cum_<key>` for each key of
model_calls.STAT_KEYS) and the number of chat messages each step's agent_info keeps (None: it keeps none).

    python -m ecosystem.browsergym.study videodemo.shop.1 videodemo.forum.37 --policy video --out results/ \\
        --set agent.index_dir=cache/index --set models.policy.base_url=http://gpu:8000/v1

`--backend sequential` (the default) plays the tasks one after the other in this process; `joblib` and `ray` are
AgentLab's parallel backends (each worker imports our task registry when it builds the agent). The sandbox sites are
shared state, so tasks that write to the same site should not run at once.

WebArena tasks with VideoWA's videos (webarena_ids.py maps them): name `webarena.N` tasks and pass `--tasks-path` the
VideoWA configs, so the agent finds each goal's task, and so its videos, there.
"""

from __future__ import annotations

import argparse
import logging
import sys
from pathlib import Path

from foundation.errors import print_json_or_error

from ecosystem.browsergym.agent import PolicyAgentArgs
from ecosystem.browsergym.model_calls import STAT_KEYS
from ecosystem.browsergym.registry import sandbox_benchmark


def run_study(
    task_names: list[str], policy: str, out: Path, config: str | None, overrides: tuple[str, ...],
    solutions: str | None, backend: str, jobs: int, tasks_path: str | None = None,
) -> dict:  # fmt: skip
    from agentlab.analyze import inspect_results
    from agentlab.experiments.study import Study

    agent = PolicyAgentArgs(
        policy=policy, config=config, overrides=overrides, solutions=solutions, tasks_path=tasks_path
    )
    study = Study([agent], sandbox_benchmark(task_names, overrides, config), logging_level_stdout=logging.WARNING)
    study.run(n_jobs=jobs, parallel_backend=backend, n_relaunch=1, exp_root=out)
    results = inspect_results.load_result_df(study.dir, progress_fn=None).reset_index()
    rows = [
        {"task_name": row["env.task_name"], "cum_reward": float(row["cum_reward"]), "n_steps": int(row["n_steps"]),
         "err_msg": row.get("err_msg") if isinstance(row.get("err_msg"), str) else None,
         "stats": {key: _number(row.get(f"stats.cum_{key}")) for key in STAT_KEYS},
         "chat_messages": [_count(step.agent_info.get("chat_messages")) for step in _acted(row["exp_dir"])]}
        for _, row in results.iterrows()
    ]  # fmt: skip
    rows.sort(key=lambda row: row["task_name"])
    return {"study_dir": str(study.dir), "agent": agent.agent_name, "results": rows}


def _acted(exp_dir) -> list:
    """The steps of an experiment where the agent acted (AgentLab keeps one more, the last page, with no agent_info)."""
    from agentlab.experiments.loop import get_exp_result

    return [step for step in get_exp_result(exp_dir).steps_info if step.action is not None]


def _number(value):
    """A table cell as JSON: NaN (no such column, or unknown) as None."""
    return None if value is None or value != value else float(value)


def _count(messages) -> int | None:
    return None if messages is None else len(messages)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("tasks", nargs="+", help="bridged task names, e.g. videodemo.shop.1")
    parser.add_argument("--policy", default="video", help="one of our policies")
    parser.add_argument("--out", type=Path, required=True, help="the folder AgentLab writes the study into")
    parser.add_argument("--solutions", help="the scripted policy's solutions (default: the sandbox's)")
    parser.add_argument("--tasks-path", help="our task configs the agent looks goals up in (default: the sandbox's)")
    parser.add_argument("--backend", default="sequential", choices=["sequential", "joblib", "ray"])
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--config", help="a settings YAML file")
    parser.add_argument("--set", dest="overrides", action="append", default=[], metavar="KEY=VALUE")
    args = parser.parse_args(argv)
    return print_json_or_error(lambda: run_study(args.tasks, args.policy, args.out, args.config, tuple(args.overrides),
                                                 args.solutions, args.backend, args.jobs, args.tasks_path))  # fmt: skip


if __name__ == "__main__":
    sys.exit(main())
