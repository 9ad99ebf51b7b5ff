"""`--policy selection-probe`: play each task's reference solution and ask the replay's selection, before every step,
what it would choose there, without letting it act (benchmarks/selection.py; docs/baselines.md, "Selection against
the ground truth").

At each step, on the live page the reference solution has reached:
- every selector variant (a `ReplayPolicy` with its own settings: the default and the ablations the benchmark
  names) plans its next action as it would in a run: it continues its trajectory or selects again;
- the truth is the reference engine's answer (tasks/reference/coverage.py, by names): the trajectories of the
  task's videos whose steps do the reference's next steps, from their first step (what the replay follows) or from
  any step (what a model shown the whole trajectory can use), and how many of them each carries;
- the variant's choice is scored there (`ProbeStep`): whether the chosen trajectory, from the step it enters at,
  does the next reference step, how many of the remaining steps it carries beside the best any trajectory carries,
  whether its planned action does that step on this page, where the first right trajectory stands in its stage-1
  ranking, and whether a right one is among its stage-1 candidates and among the method's pre-cut list;
- then the reference step is carried out. A variant whose planned action did not do it takes that action back and
  drops its trajectory (it would have gone elsewhere), so every step scores the choice on the reference's path.
The scripted policy plays the steps, so the episode passes as `--policy scripted` does; the probe's findings are
each step's `probe` record, which `agent/replay/probe_scores.py` sums up.
"""

from __future__ import annotations

import argparse
import copy
import json
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any

from agent.oracles.progress import LiveProgress, Page
from agent.replay.grounding import PageView
from agent.replay.oracle_grounding import oracle_page
from agent.replay.policy import ReplayPolicy
from agent.videos.candidates import method_candidates
from evaluation.browser_env.ax_tree import TreeNode
from evaluation.browser_env.observation import Observation, TabInfo
from foundation.json_files import write_json
from evaluation.running.policies.scripted import ScriptedPolicy
from evaluation.running.policy import PolicyStep
from foundation.records.trajectory import Trajectory
from settings import Settings
from settings.load import apply_override
from tasks.reference.coverage import cover, reference_steps_to_cover
from tasks.reference.solutions import ReferenceSolutions, load_solutions

DEFAULT_VARIANT = "default"


@dataclass
class ProbeStep:
    """One variant's choice at one step, scored against the truth (what `probe_scores` sums)."""

    decision: str  # "continued", "reselected" or "none"
    chosen: str | None  # trajectory id
    entry: int | None  # the chosen trajectory's step (0-based) its next action carries out
    hit: bool  # the chosen trajectory, from its entry, does the next reference step: by names, and on this page
    carries: int  # reference steps it carries from there by names, in a row
    on_page: bool  # its planned action, on this page, does the next reference step (whatever the names say)
    first_right_rank: int | None  # 1-based place of the first right trajectory in its stage-1 ranking
    candidates_right: bool  # a right trajectory among its stage-1 candidates (per video)
    precut_right: bool  # a right trajectory (from any of its steps) among the method's pre-cut list
    action: str  # the planned action ("stop [...]" when it chose nothing)
    precut_rank: int | None = None  # 1-based place of the first right one in the pre-cut's ranking of its video


class ProbeEnvironment:
    """The episode's environment as the variants read it: the whole page is read once per step for all of them."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self._full: Observation | None = None

    def new_step(self) -> None:
        self._full = None

    def observe_full_page(self) -> Observation:
        if self._full is None:
            self._full = self.env.observe_full_page()
        return self._full

    def __getattr__(self, name: str) -> Any:
        return getattr(self.env, name)


class SelectionProbe:
    name = "selection-probe"
    reads_screenshots = False

    def __init__(self, settings: Settings, variants: dict[str, Settings], pages: CapturedPages | None = None) -> None:
        self.settings = settings
        self.pages = pages  # where each step's page is kept for `replay_captured`, when given
        self.references = ReferenceSolutions(settings)
        self.scripted = ScriptedPolicy(load_solutions(self.references.path), settings)
        self.variants = {name: ReplayPolicy(variant) for name, variant in variants.items()}
        self.env: ProbeEnvironment | None = None
        self.task: Any = None
        self.progress: LiveProgress | None = None
        self.steps_played = 0
        self._precut_sources: dict[int, Any] = {}  # variant -> the method's candidate source, pre-cut on

    # ---- the Policy protocol ----

    def attach_environment(self, env: Any) -> None:
        self.env = ProbeEnvironment(env)
        self.scripted.attach_environment(self.env)
        for variant in self.variants.values():
            variant.attach_environment(self.env)

    def reset(self, task: Any) -> None:
        self.task = task
        self.scripted.reset(task)
        self.progress = LiveProgress(self.references.steps(task, "the selection probe"))
        self.steps_played = 0
        for variant in self.variants.values():
            variant.reset(task)

    def act(self, observation: Observation) -> PolicyStep:
        assert self.progress is not None
        if self.env is not None:
            self.env.new_step()
        self.steps_played += 1
        if self.steps_played > 1 and self.env is not None and self.env.record.steps:
            self.progress.carried_out(self.env.record.steps[-1])
        if self.pages is not None and self.env is not None:
            self.pages.save(self.task.key, self.steps_played, self.progress.position, observation,
                            self.env.observe_full_page())  # fmt: skip
        page, record = self.probe(observation)
        step = self.scripted.act(observation)
        self.progress.chose(step.reply, page)
        step.info.put("probe", record)
        return step

    def probe(self, observation: Observation) -> tuple[Page, dict[str, Any]]:
        """Every variant asked on this page and scored against the truth at the reference's position: the page as the
        oracles read it, and the step's `probe` record."""
        view = PageView(observation.nodes, self._full_nodes)
        page = oracle_page(view)
        truth = self._truth(view, page)
        probes = {name: asdict(self._probe(variant, observation, page, truth)) for name, variant in self.variants.items()}
        return page, {"truth": truth["record"], "variants": probes}

    def answer_intermediate(self, question: str) -> str | None:
        return self.scripted.answer_intermediate(question)

    def usage(self) -> dict[str, Any]:
        return {}

    def close(self) -> None:
        for variant in self.variants.values():
            variant.close()
        self.env = None

    # ---- the truth and the probes ----

    def _truth(self, view: PageView, page: Page) -> dict[str, Any]:
        """What the reference engine says of this step: the remaining steps and the right trajectories, those the
        selection oracle may choose (they cover the next step by names from their first step, and that step,
        planned on this page, does it). With nothing left to demonstrate (the next step is the stop), the right
        choice is none."""
        assert self.progress is not None
        remaining = reference_steps_to_cover(self.progress.steps[self.progress.position :])
        if not remaining:
            record = {"position": self.progress.position, "next": "stop", "remaining": 0, "right": 0}
            return {"record": record, "remaining": [], "from_start": {}, "anywhere": {}}
        trajectories = self._trajectories()
        planner = next(iter(self.variants.values()))
        memo: dict = {}
        right: dict[str, int] = {}
        for trajectory in trajectories:
            found = cover(trajectory, remaining, self.task.intent)
            if found is None:
                continue
            _, plan = planner.plan_first_step(trajectory, view, memo)
            if plan is not None and self.progress.on_track(plan.action, page):
                right[trajectory.trajectory_id] = found.matched
        anywhere = {
            t.trajectory_id: c.matched for t in trajectories if (c := cover(t, remaining, self.task.intent, False))
        }
        record = {
            "position": self.progress.position,
            "next": remaining[0].text,
            "remaining": len(remaining),
            "right": len(right),
            "right_anywhere": len(anywhere),
            "best": max(right.values(), default=0),
            "best_anywhere": max(anywhere.values(), default=0),
        }
        return {"record": record, "remaining": remaining, "from_start": right, "anywhere": anywhere}

    def _trajectories(self) -> list[Trajectory]:
        variant = next(iter(self.variants.values()))
        source = variant.source
        return [t for video in variant.videos.processed for t in source.trajectories(video)] if source else []

    def _probe(self, variant: ReplayPolicy, observation: Observation, page: Page, truth: dict[str, Any]) -> ProbeStep:
        before = variant.checkpoint()
        planned = variant.act(observation)
        info = planned.info
        selection = info.selection
        decision = (selection.decision if selection is not None else None) or "none"
        chosen = variant.current if not planned.reply.startswith("stop") else None
        entry = variant.last_entry if chosen is not None else None
        carries = 0
        if chosen is not None and entry is not None:
            entered = Trajectory(**{**chosen.__dict__, "actions": chosen.actions[entry:]})
            found = cover(entered, truth["remaining"], self.task.intent)
            carries = found.matched if found is not None else 0
        on_page = chosen is not None and self.progress.on_track(planned.reply, page)  # type: ignore[union-attr]
        if not on_page:
            variant.forget(before)
        if not truth["remaining"]:  # the reference stops here: right is choosing nothing
            return ProbeStep(decision, chosen.trajectory_id if chosen else None, entry, chosen is None, 0, chosen is None,
                             None, False, False, planned.reply)  # fmt: skip
        rank, candidates_right = self._ranking(variant, observation, selection, truth)
        precut_rank = self._precut_rank(variant, observation, truth)
        return ProbeStep(
            decision=decision if chosen is not None else "none",
            chosen=chosen.trajectory_id if chosen is not None else None,
            entry=entry,
            hit=carries > 0 and on_page,
            carries=carries,
            on_page=on_page,
            first_right_rank=rank,
            candidates_right=candidates_right,
            precut_right=precut_rank is not None and precut_rank <= variant.settings.selection.stage1_pool_per_video,
            action=planned.reply,
            precut_rank=precut_rank,
        )

    def _ranking(self, variant: ReplayPolicy, observation: Observation, selection: Any, truth: dict) -> tuple:
        """The place of the first right trajectory in the variant's stage-1 ranking of this page, and whether its
        stage-1 candidates (when it selected at this step) hold a right one."""
        right = truth["from_start"]
        ranking = variant.stage1_ranking(observation)
        rank = next((place for place, tid in enumerate(ranking, start=1) if tid in right), None)
        candidates = [c.trajectory_id for c in (getattr(selection, "candidates", None) or [])]
        if not candidates:  # it continued: the candidates it would list here
            candidates = variant.stage1_candidates(observation)
        return rank, any(tid in right for tid in candidates)

    def _precut_rank(self, variant: ReplayPolicy, observation: Observation, truth: dict) -> int | None:
        """Where the method's pre-cut ranks the first trajectory that does the next reference step from any of its
        steps (the model is shown whole trajectories), best over the task's videos; None: not in the first
        `selection.stage1_pool_per_video` of any (the pre-cut's ranking is `selection.precut_ranking`)."""
        if variant.index is None:
            return None
        source = self._precut_sources.get(id(variant))
        if source is None:
            selection = replace(variant.settings.selection, stage1_precut=True)
            settings = replace(variant.settings, selection=selection)
            source = self._precut_sources[id(variant)] = method_candidates(settings, variant.index, variant.embedder)
        places = []
        for video in variant.videos.processed:
            ranked = source.best(video, self.task.intent, observation)
            right = [place for place, (t, _) in enumerate(ranked, 1) if t.trajectory_id in truth["anywhere"]]
            places += right[:1]
        return min(places, default=None)

    def _full_nodes(self) -> Any:
        return self.env.observe_full_page().nodes if self.env is not None else None


class CapturedPages:
    """Each probed step's page (the observation and the whole page's tree), kept so that selection variants can be
    asked again on the very pages the browser showed, without playing the tasks (`replay_captured`)."""

    def __init__(self, folder: Path) -> None:
        self.folder = Path(folder)

    def save(self, task_key: str, step: int, position: int, observation: Observation, full: Observation) -> None:
        data = {"position": position, "observation": _observation_data(observation), "full": _nodes_data(full.nodes)}
        write_json(self.folder / _task_folder(task_key) / f"step_{step:03d}.json", data)

    def steps(self, task_key: str) -> list[tuple[int, Observation, dict[str, TreeNode]]]:
        """(reference position, observation, whole page's nodes) of each captured step, in order."""
        found = []
        for path in sorted((self.folder / _task_folder(task_key)).glob("step_*.json")):
            data = json.loads(path.read_text(encoding="utf-8"))
            found.append((data["position"], _observation(data["observation"]), _nodes(data["full"])))
        return found

    def task_keys(self) -> list[str]:
        return sorted(p.name.replace("-", ":", 1) for p in self.folder.iterdir() if p.is_dir()) if self.folder.is_dir() else []


class CapturedEnvironment:
    """What the variants read of the environment, from a captured step."""

    def __init__(self) -> None:
        self.full: Observation | None = None
        self.url = ""
        self.record = None

    def show(self, observation: Observation, full_nodes: dict[str, TreeNode]) -> None:
        self.url = observation.url
        self.full = replace(observation, nodes=full_nodes)

    def new_step(self) -> None:
        pass

    def observe_full_page(self) -> Observation:
        assert self.full is not None
        return self.full


def replay_captured(settings: Settings, variants: dict[str, Settings], pages: CapturedPages,
                    tasks: list[Any]) -> list[tuple[str, dict[str, Any]]]:  # fmt: skip
    """Every variant asked again on the captured pages of `tasks`, as the live probe asks it: (task key, the step's
    `probe` record) for each captured step, in order."""
    probe = SelectionProbe(settings, variants)
    env = CapturedEnvironment()
    probe.env = env  # type: ignore[assignment]
    for variant in probe.variants.values():
        variant.attach_environment(env)
    found = []
    for task in tasks:
        captured = pages.steps(task.key)
        if not captured:
            continue
        probe.reset(task)
        for position, observation, full_nodes in captured:
            env.show(observation, full_nodes)
            probe.progress.position = probe.progress.target = position  # type: ignore[union-attr]
            _, record = probe.probe(observation)
            found.append((task.key, record))
    return found


def _task_folder(task_key: str) -> str:
    return task_key.replace(":", "-", 1)


def _nodes_data(nodes: dict[str, TreeNode]) -> list[dict[str, Any]]:
    return [asdict(node) for node in nodes.values()]


def _nodes(data: list[dict[str, Any]]) -> dict[str, TreeNode]:
    return {item["node_id"]: TreeNode(**{**item, "rect": tuple(item["rect"]) if item["rect"] else None}) for item in data}


def _observation_data(observation: Observation) -> dict[str, Any]:
    return {
        "text": observation.text, "url": observation.url, "tabs": [asdict(tab) for tab in observation.tabs],
        "nodes": _nodes_data(observation.nodes), "viewport": list(observation.viewport),
        "scroll": list(observation.scroll),
    }  # fmt: skip


def _observation(data: dict[str, Any]) -> Observation:
    return Observation(data["text"], data["url"], [TabInfo(**tab) for tab in data["tabs"]], None, _nodes(data["nodes"]),
                       tuple(data["viewport"]), tuple(data["scroll"]))  # fmt: skip


def variant_settings(settings: Settings, overrides: dict[str, list[str]]) -> dict[str, Settings]:
    """Each named variant: the run's settings with its dotted overrides applied."""
    variants = {}
    for name, items in overrides.items():
        variant = copy.deepcopy(settings)
        for item in items:
            apply_override(variant, item)
        variants[name] = variant
    return variants


def build_selection_probe(settings: Settings, args: argparse.Namespace) -> SelectionProbe:
    overrides = getattr(args, "probe_variants", None) or {DEFAULT_VARIANT: []}
    pages = getattr(args, "probe_pages", None)
    return SelectionProbe(settings, variant_settings(settings, overrides), CapturedPages(pages) if pages else None)
