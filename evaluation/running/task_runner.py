"""One worker's side of a run: play each task it is given in a fresh browser context, score it, save it.

    runner = TaskRunner(settings, "scripted", args, run_dir)
    record = runner.run(task, reset_first=True)
    runner.close()

Each worker has its own Chromium, policy instance and model client. Nothing a task
does can stop the worker: a config with problems is recorded as `config_error`
without running; a policy or browser failure is recorded as `error` with its
message (and the browser is relaunched if it died). The record is written last,
after the episode, evidence and report page, so its presence marks the task done.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import time
from pathlib import Path
from typing import Any, Callable

from playwright.sync_api import Error as PlaywrightError

from evaluation.browser_env.actions import Action, format_action
from evaluation.browser_env.episode_options import EpisodeOptions
from evaluation.running.policy import declared_episode_options
from evaluation.scoring.evaluate import CONFIG_ERROR, ERROR, TaskEvaluation, Verdict, evaluate_task
from evaluation.running.progress import TaskProgress
from evaluation.scoring.reference_quirks import quirk_set
from evaluation.running.run_manifest import now
from evaluation.running.run_health import step_usage, task_health
from evaluation.scoring.scoring_rules import scoring_rules
from evaluation.running.run_records import EVIDENCE_FILE, NETWORK_TRACE_FILE, task_folder, usage_difference
from foundation.json_files import write_json
from foundation.records.task_record import TaskRecord
from evaluation.scoring.site_state import reset_sites, site_counts
from evaluation.running.step_calls import StepCalls
from evaluation.browser_env.step_extras import prepare_extra
from foundation.errors import UserError
from model_access.accounting import UsageLedger
from model_access.retry import ContextOverflow
from model_access.sampling import sampling_scope
from settings import Settings
from settings.schema import RunSettings

logger = logging.getLogger(__name__)
# The config fields that name a task's original WebArena task (as ecosystem/browsergym/webarena_ids.py reads them).
WEBARENA_ID_FIELDS = ("webarena_task_id", "original_task_id")


class TaskRunner:
    def __init__(
        self,
        settings: Settings,
        policy_name: str,
        policy_args: argparse.Namespace,
        run_dir: Path,
        *,
        concurrent: bool = False,
        progress: Callable[[str], None] | None = None,
    ) -> None:
        from evaluation.scoring.judge import judge_from_client
        from evaluation.scoring.page_image import vqa_from_client
        from evaluation.running.policies import build_policy
        from model_access.client import ModelClient

        self.settings = settings
        post_task_ranges(settings.run)  # a bad entry stops the run before its first task
        # The reference's scoring quirks asked for (evaluation/scoring/reference_quirks.py); an unknown name stops the
        # run here.
        self.quirks = quirk_set(settings.evaluation.reference_quirks)
        # Whose matching rules score the tasks (evaluation/scoring/scoring_rules.py); the run checked the task file it
        # needs.
        self.rules = scoring_rules(settings, [])
        self.run_dir = Path(run_dir)
        self.concurrent = concurrent  # other workers may change the same sites meanwhile
        # The step and model calls of the task in play, for the run's progress line (evaluation/running/progress.py).
        self.progress = TaskProgress(progress) if progress is not None else None
        self.policy = build_policy(policy_name, settings, policy_args)
        self.client = ModelClient(settings)
        self.judge = judge_from_client(self.client)
        self.vqa = vqa_from_client(self.client)
        self._env = None

    @property
    def env(self):
        if self._env is None:
            from evaluation.browser_env.environment import BrowserEnv

            self._env = BrowserEnv(self.settings)
        return self._env

    def close(self) -> None:
        self.policy.close()
        self.client.close()
        if self._env is not None:
            self._env.close()
            self._env = None

    # ---- one task ----

    def run(self, task: Any, *, reset_first: bool = False) -> TaskRecord:
        # Every model call of the task (policy, evaluators) belongs to this task in this run's sample.
        if self.progress is not None:
            self.progress.start(task.key)
        try:
            with sampling_scope(task.key, sample=self.settings.run.sample):
                return self._run(task, reset_first=reset_first)
        finally:
            if self.progress is not None:
                self.progress.stop()

    def _run(self, task: Any, *, reset_first: bool) -> TaskRecord:
        folder = task_folder(self.run_dir, task.key)
        if folder.exists():
            shutil.rmtree(folder)  # leftovers of an attempt that was killed before its record was written
        folder.mkdir(parents=True)
        started, clock = now(), time.perf_counter()
        record = task_record(task)
        record.policy = self.policy.name
        record.sample = self.settings.run.sample
        record.started_at = started
        record.worker_pid = os.getpid()
        record.rules = self.rules.name
        if task.problems:
            message = "; ".join(task.problems)
            evaluation = TaskEvaluation([Verdict("config", CONFIG_ERROR, f"the task config has problems: {message}")])
            record.set_evaluation(evaluation.to_dict())
            record.steps, record.actions, record.errors = 0, [], []
            return self._finish(folder, record, evaluation, clock, {})

        timings: dict[str, float] = {}
        wait_s = reddit_post_wait_s(task, self.settings.run)
        if wait_s > 0:  # AgentOccam's runner: the forum refuses posts that follow each other too closely
            logger.info("task %s posts on the forum: waiting %g s first (run.reddit_post_wait_s)", task.key, wait_s)
            if self.progress is not None:
                self.progress.note(f"waiting {wait_s:g} s before posting (run.reddit_post_wait_s)")
            time.sleep(wait_s)
            timings["reddit_post_wait_s"] = wait_s
        state: dict[str, Any] = {"require_reset": task.require_reset, "concurrent": self.concurrent}
        reset_failure = None
        if reset_first and task.require_reset:
            mark = time.perf_counter()
            if self.settings.run.reset_sites:
                outcome = reset_sites(task.sites, self.settings)
                state["reset"] = outcome.to_dict()
                # A task that needs a fresh site is not played on a dirty one.
                reset_failure = "; ".join(outcome.failed) or None
            else:
                state["reset"] = "skipped: run.reset_sites is false"
            timings["reset_s"] = time.perf_counter() - mark
        state["counts_before"] = site_counts(task.sites, self.settings)

        usage_before = self.policy.usage()
        self.client.ledger = UsageLedger()  # the evaluation's model calls of this task only
        mark = time.perf_counter()
        failure = reset_failure or self._episode(task, folder)
        timings["episode_s"] = time.perf_counter() - mark
        if self.settings.run.record_network:  # saved before the evaluators open pages of their own
            trace_problem = self._env.save_trace() if self._env is not None else "the browser was lost"
            record.network_trace = f"not saved: {trace_problem}" if trace_problem else NETWORK_TRACE_FILE
        episode = self._env.record if self._env is not None and reset_failure is None else None
        answer = episode.answer if episode else None
        final_url = episode.final_url if episode else ""
        intermediate_answer = None
        if failure is None and task.intermediate_intent is not None:
            try:
                intermediate_answer = self.policy.answer_intermediate(task.intermediate_intent)
            except Exception as exc:  # noqa: BLE001 - a policy failure is recorded, the run goes on
                failure = f"the policy failed to answer the intermediate question: {_one_line(exc)}"

        mark = time.perf_counter()
        if failure is not None:
            evaluation = TaskEvaluation([Verdict("episode", ERROR, failure)])
        else:
            evaluation = evaluate_task(
                task, self._env, answer, final_url, self.judge,
                vqa=self.vqa, intermediate_answer=intermediate_answer, base_url=self._base_url,
                navigation_timeout_ms=self.settings.browser.navigation_timeout_ms,
                program_html_wait_ms=int(self.settings.browser.program_html_wait_s * 1000), quirks=self.quirks,
                rules=self.rules,
            )  # fmt: skip
        timings["evaluation_s"] = time.perf_counter() - mark
        state["counts_after"] = site_counts(task.sites, self.settings)
        state["counts_changed"] = state["counts_before"] != state["counts_after"]
        # A require_reset task is taken to change state even when the counts miss it (an edited row).
        state["changed"] = task.require_reset or state["counts_changed"]

        steps = episode.steps if episode else []
        policy_usage = usage_difference(usage_before, self.policy.usage())
        if episode is not None:
            episode.save(folder)
        record.set_evaluation(evaluation.to_dict())
        record.answer = answer
        record.intermediate_answer = intermediate_answer
        record.final_url = final_url
        record.stop_reason = episode.stop_reason if episode else None
        record.steps = len(steps)
        record.actions = [_action_text(step) for step in steps]
        record.errors = [f"step {step.index}: {step.error}" for step in steps if step.error] + (
            [failure] if failure else []
        )
        record.state = state
        # What the policy says about the episode as a whole (the video policy: its videos, what it showed when).
        record.policy_info = self.policy.episode_info() if hasattr(self.policy, "episode_info") else None
        record.usage = {
            "policy": policy_usage,
            "evaluation": self.client.ledger.to_dict(),
        }
        record.model_health = task_health(steps, policy_usage.get("totals") or {})
        return self._finish(folder, record, evaluation, clock, timings)

    def _episode(self, task: Any, folder: Path) -> str | None:
        """Play the task; None when the episode ran to its end, else why it could not."""
        # Calls made before the first step (a whole-video choice at reset) are kept with the first step's.
        calls = StepCalls(self.policy) if self.settings.run.keep_model_calls else None
        try:
            env = self.env
            env.record = None  # the previous task's record must not stand in for this one's
            if hasattr(self.policy, "attach_environment"):
                self.policy.attach_environment(env)
            self.policy.reset(task)
            env.trace_path = folder / NETWORK_TRACE_FILE if self.settings.run.record_network else None
            # The one reader of the agent's episode settings (agent.max_steps among them); the policy may adjust them.
            defaults = EpisodeOptions.from_agent_settings(self.settings.agent)
            options = declared_episode_options(self.policy, defaults, self.settings.run.step_screenshots)
            env.reset(task, options)
            env.record.model_calls_kept = calls is not None
            while not env.done:
                if self.progress is not None:
                    self.progress.step(len(env.record.steps) + 1, options.max_steps)
                before = _usage_totals(self.policy)
                try:
                    step = self.policy.act(env.observation)
                except ContextOverflow as exc:
                    # The prompt outgrew the model: a failed step with the reason, then the episode ends (every
                    # later prompt would be as long); the task is scored on what was done, not crashed.
                    env.record_failed_step("", f"context overflow: {exc}")
                    env.end_episode("context_overflow")
                    env.record.steps[-1].model_usage = step_usage(before, _usage_totals(self.policy))
                    env.record.steps[-1].model_calls = calls.take() if calls else []
                    break
                apply_policy_step(env, step)
                last = env.record.steps[-1]
                last.extra = prepare_extra(step.info.to_dict(), folder, last.index)
                last.model_usage = step_usage(before, _usage_totals(self.policy))
                last.model_calls = calls.take() if calls else []
        except Exception as exc:  # noqa: BLE001 - recorded as the task's error; the run goes on
            self._recover_browser()
            return f"{type(exc).__name__}: {_one_line(exc)}"
        finally:
            if calls is not None:
                calls.close()
        return None

    def _recover_browser(self) -> None:
        env = self._env
        if env is None:
            return
        try:
            alive = env.browser.is_connected()
        except PlaywrightError:
            alive = False
        if not alive:
            try:
                env.close()
            except PlaywrightError:
                pass
            self._env = None

    def _base_url(self, site: str) -> str:
        from evaluation.browser_env.auth import site_base_url

        return site_base_url(site, self.settings)

    def _finish(
        self, folder: Path, record: TaskRecord, evaluation: TaskEvaluation, clock: float, timings: dict
    ) -> TaskRecord:
        timings["total_s"] = time.perf_counter() - clock
        record.timings = timings
        record.finished_at = now()
        record.complete = True
        write_json(folder / EVIDENCE_FILE, evaluation.evidence)
        record.save(folder)
        record.folder = folder.name
        return record


def task_record(task: Any) -> TaskRecord:
    """A new record holding the task's own fields, as its config gave them."""
    return TaskRecord(
        task_key=task.key,
        task_id=task.task_id,
        source=task.source,
        sites=list(task.sites),
        kind=task.kind,
        difficulty=task.difficulty,
        eval_types=list(task.eval_types),
        intent=task.intent,
        images=list(getattr(task, "images", [])),  # the config's input images, given with the intent
        intermediate_intent=task.intermediate_intent,
        video=task.video,
        require_reset=task.require_reset,
        problems=list(task.problems),
        notes=list(getattr(task, "notes", [])),  # config oddities the task ran with, as the reference runs them
    )


def reddit_post_wait_s(task: Any, run: RunSettings) -> float:
    """Seconds to wait before `task`: `run.reddit_post_wait_s` for a forum posting task, else 0. A posting task is
    on the reddit site and its WebArena id (the one its config names, else its own task_id) is in
    `run.reddit_post_tasks`, as AgentOccam's runner picks WebArena's tasks 600-649 and 681-688."""
    if run.reddit_post_wait_s <= 0 or "reddit" not in (task.sites or []):
        return 0.0
    config = task.config or {}
    named = next((config[name] for name in WEBARENA_ID_FIELDS if config.get(name) is not None), task.task_id)
    try:
        webarena_id = int(named)
    except (TypeError, ValueError):
        return 0.0
    if any(first <= webarena_id <= last for first, last in post_task_ranges(run)):
        return float(run.reddit_post_wait_s)
    return 0.0


def post_task_ranges(run: RunSettings) -> list[tuple[int, int]]:
    """`run.reddit_post_tasks` as (first, last) id ranges; UserError for an entry that is neither `N` nor `N-M`."""
    ranges = []
    for entry in run.reddit_post_tasks:
        first, _, last = str(entry).partition("-")
        try:
            ranges.append((int(first), int(last or first)))
        except ValueError:
            raise UserError(
                f"run.reddit_post_tasks holds {entry!r}; use WebArena task ids and ranges such as '600-649'"
            ) from None
    return ranges


def apply_policy_step(env: Any, step: Any) -> None:
    """Carry out one `PolicyStep` in the environment: a failed step, a memory-only step (AgentOccam's note or
    branch), or the action in its reply."""
    if step.error:
        env.record_failed_step(step.reply, step.error)
    elif step.memory_only:
        env.record_memory_step(step.reply)
    elif getattr(step, "actions", None) is not None:
        env.act(step.actions, step.reply)
    else:
        env.step(step.reply)


def _usage_totals(policy: Any) -> dict[str, Any]:
    return (policy.usage() or {}).get("totals") or {}


def _action_text(step) -> str:
    commands = getattr(step, "commands", None)
    if commands and len(commands) > 1:  # an ACTION of several commands (AgentOccam): each, in order
        return "\n".join(command["action"] for command in commands)
    if step.action:
        try:
            return format_action(Action.from_dict(step.action))
        except (KeyError, TypeError, ValueError):
            pass
    return step.action_text


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip()
    return text.splitlines()[0] if text else type(exc).__name__
