"""What makes two runs the same run: the settings part of a run's identity (run.json), from the settings it reads.

Every run reads the harness's settings (`HARNESS_READS`: the browser, the episode's bounds and rules, how it is
scored, the sample) and its policy's, which the policy declares where it is registered (`register_policy(...,
reads=...)`, evaluation/running/policies). A run changed in a setting it reads is another run, with another default
folder; a run changed in a setting it does not read is the same run and resumes.

Run folders made before policies declared what they read must keep their identity, or they no longer resume
(`run_manifest.check_identity`) and their default folder moves. So the settings those identities held keep their
places and rules, whatever the policy reads (`FRAME`): the step limit and the four ablation flags always, the
harness conditions by "section.name" when they differ from the defaults; the "selection" and "oracle" blocks keep
their shapes for the policies that read them. Every other setting a run reads goes under "settings" by its dotted
name when it differs from the value of the run's harness preset (so `--harness videowa`'s own `agent.base_agent`
adds nothing). A policy that declares nothing (`reads=None`, a `--policy module:callable` without
`reads_settings`) gets the identity runs had before: the frame and both blocks, nothing under "settings".

What a declaration leaves out on purpose: where models are served and which role answers (`models.*`,
`selection.role`), and files and folders (`agent.index_dir`, prompt files, checkouts): they say where, not what,
and each session's settings in run.json keep them.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from settings import Settings, load_settings

# The settings every run reads: its environment (EpisodeOptions and the browser), its scoring and its sample.
HARNESS_READS = (
    "agent.max_steps", "agent.observation_format", "agent.viewport_only", "agent.observation_token_budget",
    "agent.set_of_marks", "agent.som_labels", "agent.stable_element_ids", "agent.use_screenshot",
    "agent.action_parser", "agent.observe_after_unparseable", "agent.early_stop", "agent.max_parse_failures",
    "agent.max_repeated_actions",
    "browser.viewport_width", "browser.viewport_height", "browser.wait_after_action_s", "browser.program_html_wait_s",
    "evaluation.reference_quirks", "evaluation.rules", "evaluation.agentoccam_task_file",
    "run.sample",
)  # fmt: skip

# ---- the frame: every setting the identities of older run folders held, in its place ----

# Written in every identity at every value.
STEP_LIMIT = "agent.max_steps"
ABLATION_FLAGS = ("use_videos", "trajectory_selection", "visual", "transcript_only")  # the "agent" block
# The "harness" block: the run conditions a harness preset changed, each when it differs from the default.
HARNESS_BLOCK = {
    "browser": ("viewport_width", "viewport_height", "wait_after_action_s", "program_html_wait_s"),
    "agent": (
        "observation_format", "early_stop", "history_length", "set_of_marks", "action_parser", "som_labels",
        "observe_after_unparseable", "no_video_max_tokens", "use_screenshot",
    ),
    "agentoccam": (
        "parser", "stop_answer", "states", "root_line", "observation_token_budget", "characters",
        "max_invalid_reasks", "observe_after_failed_action", "prompt_source", "cut_marker", "table_rows",
        "highlight_ids", "same_page_name_ids", "prune_hides",
    ),
    "video_context": (
        "intermediate_prompt", "intermediate_answer", "image_max_side", "frame_channel_order", "frame_format",
        "transcript_max_chars", "summary_prompt",
    ),
    # Scored another way: records with and without quirks, or under two rule sets, are not mixed.
    "evaluation": ("reference_quirks", "rules", "agentoccam_task_file"),
}  # fmt: skip
# Element ids: in the "harness" block only when other than the run's harness's own (each harness kept its folders).
ELEMENT_IDS = "agent.stable_element_ids"
# The "selection" block (for a policy that reads them): which demonstrations selection may show.
SELECTION_BLOCK = ("selection.demonstrations", "selection.stage2_verdicts")
# The "oracle" block: the switches that are on, and where their solutions come from when one is.
ORACLE_SWITCHES = ("oracle.labels", "oracle.selection", "oracle.grounding", "oracle.values")
ORACLE_SOLUTIONS = "oracle.solutions"
SAMPLE = "run.sample"  # only when not 1

# In every run's identity, whatever its policy reads.
FRAME = frozenset(
    [STEP_LIMIT, ELEMENT_IDS, SAMPLE]
    + [f"agent.{name}" for name in ABLATION_FLAGS]
    + [f"{section}.{name}" for section, names in HARNESS_BLOCK.items() for name in names]
)
# Every setting with a place of its own (never under "settings").
PLACED = FRAME | {ORACLE_SOLUTIONS, *SELECTION_BLOCK, *ORACLE_SWITCHES}


def setting(settings: Settings, dotted: str) -> Any:
    """The value of a setting by its dotted name ("agent.videos_per_task"); AttributeError names a wrong one."""
    value: Any = settings
    for part in dotted.split("."):
        if not hasattr(value, part):
            raise AttributeError(f"no setting {dotted!r} (declared as read by a policy?)")
        value = getattr(value, part)
    return value


def settings_identity(settings: Settings, reads: tuple[str, ...] | None, harness: str | None = None) -> dict[str, Any]:
    """The settings part of a run's identity: `reads` are the policy's (None: undeclared), `harness` the preset the
    run was given (`--harness`), whose own values add nothing under "settings"."""
    declared = None if reads is None else set(reads)

    def read(dotted: str) -> bool:
        return declared is None or dotted in declared

    identity: dict[str, Any] = {
        "max_steps": setting(settings, STEP_LIMIT),
        # The agent's ablation flags: a run with --no-videos must not resume one with videos.
        "agent": {name: getattr(settings.agent, name) for name in ABLATION_FLAGS},
    }
    identity.update(harness_identity(settings, harness))
    selection = settings.selection
    chosen: dict[str, Any] = {}
    if read("selection.demonstrations") and selection.demonstrations != "all":
        chosen["demonstrations"] = selection.demonstrations
    if read("selection.stage2_verdicts") and selection.stage2_verdicts:
        chosen["stage2_verdicts"] = True
    if chosen:
        identity["selection"] = chosen
    oracle = {name.split(".")[1]: True for name in ORACLE_SWITCHES if read(name) and setting(settings, name)}
    if oracle and read(ORACLE_SOLUTIONS) and settings.oracle.solutions:
        oracle["solutions"] = str(Path(settings.oracle.solutions).expanduser().resolve())
    if oracle:
        identity["oracle"] = oracle
    if declared is not None:
        baseline = load_settings(harness=harness) if harness else Settings()
        changed = {
            dotted: _plain(setting(settings, dotted))
            for dotted in dict.fromkeys(HARNESS_READS + tuple(reads or ()))
            if dotted not in PLACED and setting(settings, dotted) != setting(baseline, dotted)
        }
        if changed:
            identity["settings"] = changed
    if settings.run.sample != 1:  # sample K > 1 of the same configuration
        identity["sample"] = settings.run.sample
    return identity


def harness_identity(settings: Settings, harness: str | None = None) -> dict[str, Any]:
    """The "harness" block: the harness conditions that differ from the defaults (none: no block)."""
    defaults = Settings()
    changed = {
        f"{section}.{name}": getattr(getattr(settings, section), name)
        for section, names in HARNESS_BLOCK.items()
        for name in names
        if getattr(getattr(settings, section), name) != getattr(getattr(defaults, section), name)
    }
    # Element ids change every prompt, yet each harness keeps the identity (and folder) its runs had before the
    # setting came: only a value other than its harness's own is another run (Chromium's ids under the method's
    # harness, stable ones under agentoccam or videowa, whose runs showed Chromium's then as now).
    expected = (load_settings(harness=harness) if harness else defaults).agent.stable_element_ids
    if settings.agent.stable_element_ids != expected:
        changed[ELEMENT_IDS] = settings.agent.stable_element_ids
    return {"harness": changed} if changed else {}


def rescored_identity(identity: dict[str, Any], settings: Settings) -> dict[str, Any]:
    """A run's identity once its records are scored again under `settings`: the scoring conditions (the
    `evaluation` fields of the harness) are the new ones, the rest stays what was played."""
    scoring = {key: value for key, value in harness_identity(settings).get("harness", {}).items()
               if key.startswith("evaluation.")}  # fmt: skip
    played = {key: value for key, value in (identity.get("harness") or {}).items() if not key.startswith("evaluation.")}
    rest = {key: value for key, value in identity.items() if key != "harness"}
    harness = {**played, **scoring}
    return {**rest, **({"harness": harness} if harness else {})}


def _plain(value: Any) -> Any:
    """A value as run.json holds it (a path as text, a tuple as a list), so a resumed run compares equal."""
    if isinstance(value, Path):
        return str(value)
    if isinstance(value, (list, tuple)):
        return [_plain(item) for item in value]
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    return value
