"""The VideoWA browser environment: one object per episode, `reset(task, options)` then `act(actions)` (or
`step(reply)`, which parses a reply first) until done.

    env = BrowserEnv(settings)            # or BrowserEnv(settings, browser=a_playwright_browser)
    observation = env.reset(task, EpisodeOptions.from_agent_settings(settings.agent))
    result = env.act([parse_action("click [42]")], reply)   # or env.step("```click [42]```")
    ...
    env.record.save(folder); env.close()

What the policy needs of it (observation, parser, early-stop rules...) comes in one `EpisodeOptions` at reset;
the browser's own settings (`settings.browser`) stay the environment's. Below, `agent.X` names the setting
that `EpisodeOptions.from_agent_settings` reads into the option of the same name.

A step never raises for the agent's mistakes: an unparseable reply is a no-op
step (with `agent.observe_after_unparseable`, as the reference's no-op action: the
pause after actions, then the page observed again), an impossible action (unknown
id, element gone, bad key, failed load) is a failed step, each with its reason (the page
is observed again after it, unless `observe_after_failed_action` is off: AgentOccam's
environment keeps the observation from before a failed action). The episode ends
on `stop [answer]` or after `agent.max_steps` steps (`agent.early_stop: none`,
AgentOccam's runner); with `consecutive`, also after `agent.max_parse_failures`
unparseable replies or the same action `agent.max_repeated_actions` times in a row;
with `videowa`, by the reference runner's rules instead (`evaluation.browser_env.early_stop`),
answering "Early stop: <reason>".
The live `context` and `page` stay open after the end, for the evaluators.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Protocol

from playwright.sync_api import Error as PlaywrightError

from foundation.errors import UserError
from evaluation.browser_env.actions import (
    ELEMENT_KINDS,
    Action,
    ActionKind,
    ActionParseError,
    format_action,
    parse_actions,
)
from evaluation.browser_env.auth import AuthStates, login_sites
from foundation.browser import launch_chromium
from evaluation.browser_env.early_stop import ANSWER_PREFIX, stop_reason
from evaluation.browser_env.element_ids import ElementIds
from evaluation.browser_env.episode import EpisodeRecord, StepRecord
from evaluation.browser_env.episode_options import EARLY_STOP_RULES, EpisodeOptions
from evaluation.browser_env.execution import ActionError, execute_action
from evaluation.browser_env.observation import Observation, ObservationOptions, capture_observation
from foundation.page_settle import SettleLimits
from evaluation.browser_env.tabs import Tabs
from evaluation.browser_env.videowa_actions import reply_parser
from settings import Settings

__all__ = ["EARLY_STOP_RULES", "BrowserEnv", "EpisodeOptions", "StepResult"]


class EpisodeTask(Protocol):
    """What the environment reads of a task (`tasks.loading.Task` has it)."""

    sites: list[str]
    intent: str
    start_url: str
    start_urls: list[str]
    require_login: bool
    storage_state: str | None
    viewport_size: dict | None
    config: dict

    @property
    def key(self) -> str: ...


@dataclass
class StepResult:
    observation: Observation  # the page after the step (for an unparseable reply: the same page, or observed
    # again with agent.observe_after_unparseable)
    action: Action | None  # None when the reply could not be parsed
    ok: bool
    error: str | None
    done: bool
    stop_reason: str | None
    answer: str | None
    timings: dict[str, float] = field(default_factory=dict)


class BrowserEnv:
    def __init__(
        self,
        settings: Settings,
        browser=None,
        options: ObservationOptions | None = None,
        episode: EpisodeOptions | None = None,
    ):
        """`episode`: the options of every episode that `reset` is not handed others for; without it, what
        `settings.agent` asks for (a convenience for scripts: runs pass the policy's options at reset).
        `options`, when given, replaces its observation options."""
        self.settings = settings
        self._playwright = None
        if browser is None:
            from playwright.sync_api import sync_playwright

            self._playwright = sync_playwright().start()
            browser = launch_chromium(self._playwright, settings.browser)
        self.browser = browser
        self.episode = episode or EpisodeOptions.from_agent_settings(settings.agent)
        if options is not None:
            self.episode = replace(self.episode, observation=options)
        self.limits = SettleLimits(
            grace_ms=settings.browser.settle_grace_ms,
            quiet_timeout_ms=settings.browser.settle_quiet_timeout_ms,
            navigation_timeout_ms=settings.browser.navigation_timeout_ms,
        )
        self.auth = AuthStates(settings, browser)
        self.context = None
        self.tabs: Tabs | None = None
        self.observation: Observation | None = None
        self.record: EpisodeRecord | None = None
        # Set by the runner (run.record_network): the episode's requests go to this Playwright trace, saved by
        # `save_trace` before the evaluators load pages of their own.
        self.trace_path: Path | None = None
        self._tracing = False
        self._reset_counters()

    def _reset_counters(self) -> None:
        self.done = False
        self.answer: str | None = None
        self.stop_reason: str | None = None
        self.steps_taken = 0
        self._parse_failures = 0
        self._last_action: str | None = None
        self._repeats = 0
        self._actions: list[Action | None] = []  # every step's action, None when it had none (early-stop rules)
        self._started = time.monotonic()
        self.element_ids = ElementIds()  # the episode's stable ids (agent.stable_element_ids), page by page

    # ---- what evaluators and runners read ----

    @property
    def options(self) -> ObservationOptions:
        """How pages are observed in this episode (`episode.observation`)."""
        return self.episode.observation

    @options.setter
    def options(self, value: ObservationOptions) -> None:
        self.episode = replace(self.episode, observation=value)

    @property
    def page(self):
        """The current tab."""
        if self.tabs is None:
            raise RuntimeError("call reset(task) first")
        return self.tabs.current

    @property
    def url(self) -> str:
        return self.page.url

    # ---- episode ----

    def reset(self, task: EpisodeTask, options: EpisodeOptions | None = None) -> Observation:
        """Open a fresh browser context for `task`: its login state, viewport and start tabs. `options`: what the
        policy needs of this episode (kept for later episodes too); None keeps the current ones."""
        if options is not None:
            self.episode = options
        if self.episode.early_stop not in EARLY_STOP_RULES:
            raise UserError(
                f"agent.early_stop is {self.episode.early_stop!r}; use one of {', '.join(EARLY_STOP_RULES)}"
            )
        self._close_context()
        self._reset_counters()
        browser_settings = self.settings.browser
        viewport = task.viewport_size or {}
        options: dict = {
            "viewport": {
                "width": int(viewport.get("width", browser_settings.viewport_width)),
                "height": int(viewport.get("height", browser_settings.viewport_height)),
            }
        }
        # Logged in to the sites the task's storage_state names, and no others (the reference's rule).
        logins = login_sites(task.storage_state)
        if logins:
            state = self.auth.storage_state(logins)
            if state is not None:
                options["storage_state"] = state
        geolocation = (task.config or {}).get("geolocation")
        if geolocation:
            options["geolocation"] = geolocation
            options["permissions"] = ["geolocation"]
        self.context = self.browser.new_context(**options)
        self.context.set_default_timeout(browser_settings.action_timeout_ms)
        self.context.set_default_navigation_timeout(browser_settings.navigation_timeout_ms)
        if self.trace_path is not None:  # Playwright records requests only along with DOM snapshots
            self.context.tracing.start(snapshots=True, screenshots=False)
            self._tracing = True
        self.tabs = Tabs(self.context)

        start_urls = [url for url in (task.start_urls or [task.start_url]) if url] or ["about:blank"]
        for url in start_urls:
            page = self.tabs.open()
            try:
                page.goto(url, wait_until="load")
            except PlaywrightError as exc:
                raise UserError(
                    f"task {task.key}: the start page {url} did not open ({str(exc).splitlines()[0]}); "
                    "check that its site runs and its environment variable points at it"
                ) from None
        self.tabs.focus(0)  # the first start URL is the current tab, as in WebArena
        self.tabs.watcher().settle(self.limits)
        self._fixed_wait()
        self.observation = self._observe()
        self.record = EpisodeRecord(
            task_key=task.key,
            intent=task.intent,
            start_urls=start_urls,
            start_observation_text=self.observation.text,
            final_url=self.url,
            start_screenshot_png=self.observation.screenshot,
        )
        return self.observation

    def step(self, reply: str) -> StepResult:
        """Parse the action in `reply` (a model reply or a bare action) and carry it out. With
        `several_actions` on, a block of several actions (one starting each line) is carried out in
        order as one step, as AgentOccam runs every command of an ACTION; a stop ends it there."""
        try:
            actions = self._read_actions(reply)
        except ActionParseError as exc:
            return self._unparseable(reply, exc)
        return self.act(actions, reply)

    def act(self, actions: list[Action], reply: str = "") -> StepResult:
        """Carry out actions a policy has already read (in order, one step; a stop ends it there). `reply`, the
        text they were read from, is kept in the step record; the actions themselves are not parsed again."""
        if not actions:
            return self._unparseable(reply, ActionParseError("the reply holds no action"))
        started, url_before = self._begin_step()
        timings: dict[str, float] = {}
        commands: list[dict] = []
        self._parse_failures = 0
        canonical = "\n".join(format_action(action) for action in actions)
        self._repeats = self._repeats + 1 if canonical == self._last_action else 1
        self._last_action = canonical
        document = self.observation.document  # the page whose ids the block was written with
        # Only the first command acts on the page the "before" screenshot shows; later ones act on pages not kept.
        first = actions[0]
        target_box = self.observation.target_box(first.element_id) if first.kind in ELEMENT_KINDS else None
        for action in actions:
            if action.kind is ActionKind.STOP:
                self.answer = action.answer or ""
                self._end("stop")
                one_ok, one_error = True, None
            elif self._page_replaced(action, document):
                one_ok, one_error = False, (
                    f"[{action.element_id}] was read on the page before an earlier command of this step "
                    "loaded another; look at the new observation"
                )
            else:
                one_ok, one_error = self._execute(action, timings)
            commands.append({"action": format_action(action), "ok": one_ok, "error": one_error})
            if self.done:
                break
        ok = all(command["ok"] for command in commands)
        failed = [command for command in commands if not command["ok"]]
        if len(commands) == 1:
            error = commands[0]["error"]
        else:
            error = "; ".join(f"`{command['action']}`: {command['error']}" for command in failed) or None
        if not self.done and self._repeats >= self.episode.max_repeated_actions and self._consecutive_rules:
            self._end("repeated_action")
        self._actions.append(action)
        self._check_step_limits()
        timings["total_s"] = time.perf_counter() - started
        several = commands if len(commands) > 1 else []
        return self._recorded(reply, action, ok, error, url_before, timings, several, target_box)

    def _unparseable(self, reply: str, exc: ActionParseError) -> StepResult:
        """A step whose reply holds no action: a no-op, counted toward the early-stop rules."""
        started, url_before = self._begin_step()
        timings: dict[str, float] = {}
        error = f"unparseable reply: {exc.reason}"
        self._parse_failures += 1
        self._last_action, self._repeats = None, 0
        if self._parse_failures >= self.episode.max_parse_failures and self._consecutive_rules:
            self._end("parse_failures")
        elif self.episode.observe_after_unparseable:
            error = self._observe_again(timings) or error
        self._actions.append(None)
        self._check_step_limits()
        timings["total_s"] = time.perf_counter() - started
        return self._recorded(reply, None, False, error, url_before, timings)

    def _page_replaced(self, action: Action, document: str) -> bool:
        """Whether an element action of a block comes after a command that loaded another page. Stable ids start
        again at 1 on each page, so its id could name an element of the new one; Chrome's go on counting, and
        carry no document, so a block under them runs as before (as AgentOccam's)."""
        return bool(document) and action.element_id is not None and self.observation.document != document

    def _read_actions(self, reply: str) -> list[Action]:
        if self.episode.several_actions:
            return parse_actions(reply)
        return [reply_parser(self.episode.action_parser)(reply)]

    def _begin_step(self) -> tuple[float, str]:
        """Count a step of a running episode; returns its start time and the URL before it."""
        if self.done:
            raise RuntimeError(f"the episode is over ({self.stop_reason}); call reset(task) to start another")
        if self.observation is None:
            raise RuntimeError("call reset(task) first")
        started = time.perf_counter()
        self.steps_taken += 1
        return started, self.url

    @property
    def _videowa_rules(self) -> bool:
        return self.episode.early_stop == "videowa"

    @property
    def _consecutive_rules(self) -> bool:
        return self.episode.early_stop == "consecutive"

    def _check_step_limits(self) -> None:
        """End the episode at the step limit, or by the reference's early-stop rules when they are chosen."""
        if self.done:
            return
        rules = self.episode
        if self._videowa_rules:
            found = stop_reason(self._actions, rules.max_steps, rules.max_parse_failures, rules.max_repeated_actions)
            if found is not None:
                self.answer = ANSWER_PREFIX + found[1]  # the reference's stop answer, scored like any other
                self._end(found[0])
        elif self.steps_taken >= rules.max_steps:
            self._end("max_steps")

    def _fixed_wait(self) -> None:
        """The reference runner's pause after each action (browser.wait_after_action_s)."""
        wait_s = self.settings.browser.wait_after_action_s
        if wait_s > 0:
            self.page.wait_for_timeout(int(wait_s * 1000))

    def _observe_again(self, timings: dict[str, float]) -> str | None:
        """The pause and fresh observation after a step (a page that changed on its own is seen); the
        reason when the page cannot be observed, which ends the episode."""
        try:
            self._fixed_wait()
            self.observation = self._observe()
            timings.update(self.observation.timings)
        except PlaywrightError as exc:
            self._end("browser_error")
            return f"the page could not be observed: {str(exc).splitlines()[0]}"
        return None

    def _execute(self, action: Action, timings: dict[str, float]) -> tuple[bool, str | None]:
        ok, error = True, None
        try:
            timings.update(
                execute_action(
                    action,
                    self.tabs,
                    self.observation.nodes,
                    self.limits,
                    self.settings.browser.navigation_timeout_ms,
                    self.episode.type_clears_field,
                    self.episode.type_keys_in_menus,
                )
            )
        except ActionError as exc:
            ok, error = False, str(exc)
        except PlaywrightError as exc:  # the browser failed in a way no action check foresaw
            ok, error = False, f"the browser failed during `{action.kind.value}`: {str(exc).splitlines()[0]}"
        if not ok and not self.episode.observe_after_failed_action:
            return ok, error  # no pause, no new observation: the next step sees the page as it was before
        unobserved = self._observe_again(timings)
        if unobserved is not None:
            ok, error = False, error or unobserved
        return ok, error

    def record_failed_step(self, reply: str, reason: str) -> StepResult:
        """A step the policy could not turn into an action (`reason` says why): nothing happens on the
        page, the step counts toward `agent.max_steps`, and it is recorded as failed."""
        started, url_before = self._begin_step()
        self._last_action, self._repeats = None, 0
        self._actions.append(None)
        self._check_step_limits()
        return self._recorded(reply, None, False, reason, url_before, {"total_s": time.perf_counter() - started})

    def end_episode(self, reason: str) -> None:
        """End the episode for a reason of the caller's (the policy's prompt no longer fits its model)."""
        self._end(reason)
        if self.record is not None:
            self.record.stop_reason = reason

    def record_memory_step(self, reply: str) -> StepResult:
        """A step that changed only the policy's memory (AgentOccam's `note`, `branch`): the page is
        untouched, the step counts toward `agent.max_steps` and is recorded as done, with no action.
        The reference runner's early-stop rules (`agent.early_stop: videowa`) do not see it."""
        started, url_before = self._begin_step()
        self._check_step_limits()
        return self._recorded(reply, None, True, None, url_before, {"total_s": time.perf_counter() - started})

    def observe_full_page(self) -> Observation:
        """Observe the whole page (not only the viewport, no token budget); the next step's ids refer
        to it. For tools that look elements up by role and name, such as the scripted policy."""
        options = replace(self.options, viewport_only=False, token_budget=None)
        self.observation = capture_observation(self.page, self.tabs.cdp(), self.tabs.info(), options, self.element_ids)
        return self.observation

    def observe(self) -> Observation:
        """Observe the current tab again (after a change of `options`, or of the page by other means)."""
        self.observation = self._observe()
        return self.observation

    def _observe(self) -> Observation:
        return capture_observation(self.page, self.tabs.cdp(), self.tabs.info(), self.options, self.element_ids)

    def _end(self, reason: str) -> None:
        self.done = True
        self.stop_reason = reason

    def _recorded(
        self,
        reply: str,
        action: Action | None,
        ok: bool,
        error: str | None,
        url_before: str,
        timings: dict[str, float],
        commands: list[dict] | None = None,
        target_box: list[float] | None = None,
    ) -> StepResult:
        url_after = self._safe_url()
        self.record.steps.append(
            StepRecord(
                index=self.steps_taken,
                action_text=reply,
                action=action.to_dict() if action else None,
                ok=ok,
                error=error,
                url_before=url_before,
                url_after=url_after,
                observation_text=self.observation.text,
                timings=timings,
                screenshot_png=self.observation.screenshot,
                commands=commands or [],
                target_box=target_box,
            )
        )
        self.record.final_url = url_after
        self.record.answer = self.answer
        self.record.stop_reason = self.stop_reason
        self.record.duration_s = time.monotonic() - self._started
        return StepResult(self.observation, action, ok, error, self.done, self.stop_reason, self.answer, timings)

    def _safe_url(self) -> str:
        try:
            return self.url
        except PlaywrightError:
            return self.observation.url if self.observation else ""

    def save_trace(self) -> str | None:
        """Write the episode's network trace to `trace_path`; None when written (or none asked), else why not."""
        if not self._tracing or self.context is None:
            return None if self.trace_path is None else "no trace was started (the episode did not open its pages)"
        self._tracing = False
        try:
            self.context.tracing.stop(path=str(self.trace_path))
        except PlaywrightError as exc:
            return f"the network trace was not saved: {str(exc).splitlines()[0]}"
        return None

    # ---- teardown ----

    def _close_context(self) -> None:
        if self.context is not None:
            try:
                self.context.close()
            except PlaywrightError:
                pass
        self.context, self.tabs, self.observation, self._tracing = None, None, None, False

    def close(self) -> None:
        """Close the episode's context, and the browser when this environment launched it."""
        self._close_context()
        if self._playwright is not None:
            self.browser.close()
            self._playwright.stop()
            self._playwright = None

    def __enter__(self) -> BrowserEnv:
        return self

    def __exit__(self, *exc_info) -> None:
        self.close()
