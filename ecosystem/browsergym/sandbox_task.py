"""One sandbox task (either kind) as a BrowserGym task: set up, validated by our evaluators, torn down.

    env = gym.make("browsergym/videodemo.shop.5")        # after `import ecosystem.browsergym.registry`
    obs, info = env.reset()
    obs, reward, terminated, truncated, info = env.step('send_msg_to_user("$6.00")')

`setup` resets the task's sandbox sites to their seed state (every task, not only `require_reset` ones: BrowserGym
runs tasks back to back in any order), logs in to the sites the config's storage_state names, and opens the start
page(s). `validate` scores the episode once the agent has sent its answer (`send_msg_to_user`, our `stop [answer]`)
or reported the task infeasible, with the same evaluators as `videodemo run` (evaluation/scoring/evaluate.py); until
then the reward is 0 and the episode goes on. The reward is the task score; a factual-retention task's intermediate
question is not asked here (BrowserGym's chat has no second question), so `info` has no intermediate score.
"""

from __future__ import annotations

from typing import Any

import playwright.sync_api
from browsergym.core.task import AbstractBrowserTask

from evaluation.browser_env.auth import AuthStates, login_sites, site_base_url
from evaluation.scoring.evaluate import evaluate_task
from evaluation.scoring.site_state import reset_sites
from foundation.errors import UserError
from settings import Settings, load_settings
from tasks.loading import Task

from ecosystem.browsergym.task_names import find_task

ASSISTANT_ROLES = ("assistant", "infeasible")  # chat roles that end the agent's work


def bridge_settings(config: str | None, overrides: tuple[str, ...] | list[str]) -> Settings:
    """The settings a bridged task or agent runs with: our defaults, a YAML file, `section.key=value` overrides."""
    return load_settings(config, list(overrides))


class SandboxTask(AbstractBrowserTask):
    """A task of ours; `task_key` is `source:task_id` (`shop:5`), `tasks_path` the config file or folder."""

    def __init__(
        self,
        seed: int,
        task_key: str,
        tasks_path: str | None = None,
        config: str | None = None,
        overrides: tuple[str, ...] = (),
    ) -> None:
        super().__init__(seed)
        self.settings = bridge_settings(config, overrides)
        self.task: Task = find_task(task_key, tasks_path, self.settings)
        viewport = self.task.viewport_size or {}
        self.viewport = {
            "width": int(viewport.get("width", self.settings.browser.viewport_width)),
            "height": int(viewport.get("height", self.settings.browser.viewport_height)),
        }
        self.slow_mo = 0  # BrowserGym's default pauses 1 s per Playwright call; our runner pauses none
        self.timeout = self.settings.browser.action_timeout_ms
        self.answer: str | None = None
        self.evaluation: dict[str, Any] | None = None

    @classmethod
    def get_task_id(cls) -> str:
        return "videodemo"

    # ---- BrowserGym's task interface ----

    def setup(self, page: playwright.sync_api.Page) -> tuple[str, dict]:
        if self.task.problems:
            raise UserError(f"task {self.task.key} has config problems: {'; '.join(self.task.problems)}")
        outcome = reset_sites(self.task.sites, self.settings)
        if outcome.failed:
            raise UserError(f"task {self.task.key}: resetting its sites failed: {'; '.join(outcome.failed)}")
        self._log_in(page)
        start_urls = [url for url in self.task.start_urls or [self.task.start_url] if url] or ["about:blank"]
        for index, url in enumerate(start_urls):
            tab = page if index == 0 else page.context.new_page()
            tab.goto(url, wait_until="load", timeout=self.settings.browser.navigation_timeout_ms)
        page.bring_to_front()  # the first start URL is the current tab, as in WebArena
        info = {"task_key": self.task.key, "kind": self.task.kind, "videos": list(self.task.videos),
                "reset": outcome.to_dict()}  # fmt: skip
        return self.task.intent, info

    def validate(self, page: playwright.sync_api.Page, chat_messages: list[dict]) -> tuple[float, bool, str, dict]:
        if self.evaluation is not None:
            return 0.0, True, "", {"evaluation": self.evaluation}
        finished = [message for message in chat_messages if message.get("role") in ASSISTANT_ROLES]
        greeting = 1  # BrowserGym's own first assistant message ("Hi! I am your UI assistant...")
        if len(finished) <= greeting:
            return 0.0, False, "", {}
        last = finished[-1]
        self.answer = last["message"] if last["role"] == "assistant" else ""
        result = evaluate_task(
            self.task, page, self.answer, page.url, None, base_url=lambda site: site_base_url(site, self.settings),
            navigation_timeout_ms=self.settings.browser.navigation_timeout_ms,
            program_html_wait_ms=int(self.settings.browser.program_html_wait_s * 1000),
        )  # fmt: skip
        self.evaluation = result.to_dict()
        reward = float(result.score or 0.0)  # unscorable (None) counts as no reward; `info` says why
        return reward, True, "", {"evaluation": self.evaluation, "answer": self.answer}

    def teardown(self) -> None:
        """Nothing to undo: the next task's setup resets the sites it uses."""

    # ---- helpers ----

    def _log_in(self, page: playwright.sync_api.Page) -> None:
        sites = login_sites(self.task.storage_state)
        if not sites:
            return
        state = AuthStates(self.settings, page.context.browser).storage_state(sites)
        if state is None:
            raise UserError(f"task {self.task.key}: could not log in to {', '.join(sites)}; check that they run")
        page.context.add_cookies(state.get("cookies", []))
