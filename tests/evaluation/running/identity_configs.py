"""The run configurations whose identities were frozen before policies declared the settings they read
(`data/identities_before_declarations.json`, written by this module's `main` on the code of 7a6e156).

A run folder resumes only while its identity is the same (`run_manifest.check_identity`), so every configuration
here must keep the identity it had: each registered policy under each harness preset, and the settings that were
part of the identity then, changed one at a time for the policies that read them.

    python -m tests.evaluation.running.identity_configs   # (re)writes the fixture: only on the old code
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path
from typing import Any

FIXTURE = Path(__file__).parent / "data" / "identities_before_declarations.json"
TASKS, SOLUTIONS, ORACLE_SOLUTIONS = "/fixture/tasks.json", "/fixture/solutions.json", "/fixture/oracle-solutions"

POLICIES = ("scripted", "stop", "video", "base", "agentoccam", "react", "frames", "summary", "replay")
HARNESSES = (None, "method", "agentoccam", "videowa")
# Settings every identity held (the step limit, the ablation flags, the harness conditions, the sample):
# changed for every policy.
COMMON = (
    (), ("agent.max_steps=7",), ("run.sample=2",), ("agent.stable_element_ids=false",),
    ("agent.stable_element_ids=true",), ("evaluation.rules=agentoccam",), ("browser.viewport_width=1000",),
    ("agentoccam.parser=strict",), ("video_context.image_max_side=512",), ("agent.history_length=2",),
    ("agent.use_videos=false",), ("agent.trajectory_selection=false",), ("agent.visual=false",),
    ("agent.transcript_only=true",), ("evaluation.reference_quirks=[reddit_comment_time]",),
)  # fmt: skip
# Which demonstrations selection may show, and the oracles: changed for the policies that read them.
SELECTION = (
    ("selection.demonstrations=verified_only",), ("selection.stage2_verdicts=true",),
    ("selection.demonstrations=verified_first", "selection.stage2_verdicts=true"),
)  # fmt: skip
ORACLES = {
    "video": (("oracle.labels=true",), ("oracle.selection=true",),
              ("oracle.labels=true", "oracle.selection=true", f"oracle.solutions={ORACLE_SOLUTIONS}")),
    "replay": (("oracle.labels=true",), ("oracle.selection=true",), ("oracle.grounding=true",),
               ("oracle.labels=true", "oracle.selection=true", "oracle.grounding=true",
                f"oracle.solutions={ORACLE_SOLUTIONS}")),
    "frames": (("oracle.labels=true",),), "summary": (("oracle.labels=true",),),
}  # fmt: skip
SELECTION_READERS = ("video", "replay")


def configurations() -> list[dict[str, Any]]:
    """Every frozen configuration: its name, policy, harness, overrides and the spec's selection."""
    found = []

    def add(policy: str, harness: str | None, overrides: tuple[str, ...], **spec: Any) -> None:
        name = " ".join([policy, f"--harness {harness}" if harness else "-", *overrides,
                         *(f"{key}={value}" for key, value in spec.items())])  # fmt: skip
        found.append({"name": name, "policy": policy, "harness": harness, "overrides": list(overrides), "spec": spec})

    for policy in POLICIES:
        for harness in HARNESSES:
            add(policy, harness, ())
        for harness in (None, "videowa"):
            for overrides in COMMON[1:]:
                add(policy, harness, overrides)
        if policy in SELECTION_READERS:
            for overrides in SELECTION:
                add(policy, None, overrides)
        for overrides in ORACLES.get(policy, ()):
            add(policy, None, overrides)
    add("scripted", None, (), solutions=SOLUTIONS)
    add("scripted", "agentoccam", (), solutions=SOLUTIONS, site="shopping", kind="skill", ids="1-3")
    add("video", None, (), site="shopping", kind="skill", ids="1-3")
    return found


def identity_of(config: dict[str, Any]) -> dict[str, Any]:
    """The identity today's code gives the configuration."""
    from evaluation.running.runner import RunSpec
    from settings import load_settings

    spec = dict(config["spec"])
    args = argparse.Namespace(harness=config["harness"], solutions=spec.pop("solutions", None))
    run = RunSpec(tasks_path=Path(TASKS), policy=config["policy"], policy_args=args, **spec)
    return run.identity(load_settings(harness=config["harness"], overrides=config["overrides"]))


def main() -> None:
    entries = [f"  {json.dumps(c['name'])}: {json.dumps(identity_of(c))}" for c in configurations()]
    FIXTURE.write_text("{\n" + ",\n".join(entries) + "\n}\n", encoding="utf-8")
    print(f"{len(entries)} identities written to {FIXTURE}")


if __name__ == "__main__":
    main()
