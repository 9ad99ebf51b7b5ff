"""Our tasks registered with BrowserGym (importing this module does it), and as an AgentLab benchmark.

    import ecosystem.browsergym.registry
    env = gym.make("browsergym/videodemo.shop.5")                       # any BrowserGym agent
    benchmark = sandbox_benchmark(["videodemo.shop.1", "videodemo.forum.37"])   # an AgentLab study

Every sandbox task (both kinds) is registered as `browsergym/videodemo.<source>.<task_id>`; `register_tasks(PATH)`
registers another task set in the same format (VideoWA's configs, with its sites running). Each environment runs on
the system Chromium (`pw_chromium_kwargs`, chromium.py); `gym.make(..., task_kwargs={"overrides": (...)})` passes
settings to the task (site ports, reset token).
"""

from __future__ import annotations

from pathlib import Path

from browsergym.core.registration import register_task
from browsergym.experiments.benchmark.base import Benchmark, HighLevelActionSetArgs
from browsergym.experiments.loop import EnvArgs

from settings import load_settings
from tasks.loading import SANDBOX_CONFIGS_DIR, load_tasks

from ecosystem.browsergym.actions import ACTION_SUBSETS
from ecosystem.browsergym.chromium import chromium_kwargs, use_system_chromium
from ecosystem.browsergym.sandbox_task import SandboxTask
from ecosystem.browsergym.task_names import PREFIX, browsergym_name

BENCHMARK_NAME = "videodemo_sandbox"
_registered: set[str] = set()


def register_tasks(tasks_path: str | Path | None = None) -> list[str]:
    """Register every task of a config file or folder (default: the sandbox's); returns their BrowserGym names."""
    settings = load_settings()
    use_system_chromium(settings)
    names = []
    for task in load_tasks(tasks_path or SANDBOX_CONFIGS_DIR, settings=settings):
        name = browsergym_name(task)
        names.append(name)
        if name in _registered:
            continue
        register_task(
            name,
            SandboxTask,
            task_kwargs={"task_key": task.key, "tasks_path": str(tasks_path) if tasks_path else None},
            default_task_kwargs={"config": None, "overrides": ()},
            kwargs={"pw_chromium_kwargs": chromium_kwargs(settings)},  # gymnasium 1.x: keyword arguments of the env
        )
        _registered.add(name)
    return names


def sandbox_benchmark(
    task_names: list[str], overrides: tuple[str, ...] = (), config: str | None = None, max_steps: int | None = None
) -> Benchmark:
    """An AgentLab benchmark of bridged tasks (`videodemo.*`: `overrides` reach every task's settings, ports and
    reset token) and of BrowserGym's own WebArena / VisualWebArena tasks (`webarena.N`, `visualwebarena.N`: their
    backends are prepared, which resets those sites, as AgentLab does for its own benchmarks)."""
    settings = load_settings(config, list(overrides))
    env_args = [
        EnvArgs(
            task_name=name,
            task_seed=0,
            max_steps=max_steps or settings.agent.max_steps,
            headless=settings.browser.headless,
            task_kwargs={"config": config, "overrides": tuple(overrides)} if name.startswith(PREFIX + ".") else None,
        )
        for name in task_names
    ]
    backends = sorted({name.split(".")[0] for name in task_names} & {"webarena", "visualwebarena"})
    return Benchmark(
        name=BENCHMARK_NAME,
        high_level_action_set_args=HighLevelActionSetArgs(subsets=tuple(ACTION_SUBSETS), multiaction=True),
        is_multi_tab=True,
        supports_parallel_seeds=False,  # the sandbox sites are shared: tasks reset them
        env_args_list=env_args,
        backends=backends,  # our sites need none: each task's setup resets what it uses
    )


SANDBOX_TASKS = register_tasks()
