"""A run's identity comes from the settings it reads (evaluation/running/run_identity.py), and every run folder made
before keeps the identity it had, byte for byte, or it would no longer resume (nor be found under its name)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import pytest

from evaluation.running.policies import policies, policy_reads, register_policy
from evaluation.running.run_identity import FRAME, HARNESS_READS, setting
from evaluation.running.runner import RunSpec, default_run_dir
from settings import Settings, load_settings
from tests.evaluation.running.identity_configs import FIXTURE, TASKS, configurations, identity_of

FROZEN = json.loads(FIXTURE.read_text(encoding="utf-8"))
CONFIGS = {config["name"]: config for config in configurations()}


def reads_of(policy: str) -> set[str]:
    return set(HARNESS_READS) | set(policy_reads(policy) or ())


def unread(config: dict) -> list[str]:
    """The overrides of `config` that name a setting its policy does not read and the frame does not hold."""
    reads = reads_of(config["policy"])
    return [item for item in config["overrides"] if (key := item.split("=")[0]) not in reads and key not in FRAME]


def test_the_frozen_configurations_are_the_ones_tested() -> None:
    assert list(FROZEN) == list(CONFIGS)


@pytest.mark.parametrize("name", list(CONFIGS))
def test_a_configuration_keeps_the_identity_it_had(name: str) -> None:
    """Byte for byte (key order too, as run.json holds it), unless it changes a setting its policy never reads:
    then it is the same run as without that change."""
    config = CONFIGS[name]
    identity = identity_of(config)
    dropped = unread(config)
    if not dropped:
        assert json.dumps(identity) == json.dumps(FROZEN[name])
        return
    kept = {**config, "overrides": [item for item in config["overrides"] if item not in dropped]}
    assert identity == identity_of(kept)
    named = next((other for other, c in CONFIGS.items() if c == {**kept, "name": other}), None)
    if named is not None:
        assert json.dumps(identity) == json.dumps(FROZEN[named])


def test_every_declared_setting_exists() -> None:
    settings = Settings()
    for entry in policies().values():
        for dotted in entry.reads or ():
            setting(settings, dotted)  # AttributeError names a wrong one
    for dotted in HARNESS_READS:
        setting(settings, dotted)


def spec(policy: str, harness: str | None = None) -> RunSpec:
    return RunSpec(tasks_path=Path(TASKS), policy=policy, policy_args=argparse.Namespace(harness=harness))


def test_a_setting_a_policy_reads_makes_another_run_and_one_it_does_not_the_same() -> None:
    plain = load_settings()
    one_video = load_settings(overrides=["agent.videos_per_task=1"])  # the paper's Table 3: 1 video against all
    assert spec("video").identity(one_video)["settings"] == {"agent.videos_per_task": 1}
    assert default_run_dir(one_video, spec("video")) != default_run_dir(plain, spec("video"))
    # The replay policy and the base agent never read it: the same run, the same folder.
    for policy in ("replay", "base", "scripted"):
        assert spec(policy).identity(one_video) == spec(policy).identity(plain)
        assert default_run_dir(one_video, spec(policy)) == default_run_dir(plain, spec(policy))
    grounding = load_settings(overrides=["replay.grounding_min_similarity=0.5"])
    assert spec("replay").identity(grounding)["settings"] == {"replay.grounding_min_similarity": 0.5}
    assert spec("video").identity(grounding) == spec("video").identity(plain)


def test_a_setting_every_run_reads_makes_another_run_for_every_policy() -> None:
    budget = load_settings(overrides=["agent.observation_token_budget=2000"])
    for policy in ("scripted", "video", "replay"):
        assert spec(policy).identity(budget)["settings"] == {"agent.observation_token_budget": 2000}


def test_settings_are_measured_against_the_harness_preset() -> None:
    """`--harness videowa` plays on ReAct: its own base agent adds nothing; AgentOccam under it does."""
    videowa = load_settings(harness="videowa")
    assert "settings" not in spec("video", "videowa").identity(videowa)
    occam = load_settings(harness="videowa", overrides=["agent.base_agent=agentoccam"])
    assert spec("video", "videowa").identity(occam)["settings"] == {"agent.base_agent": "agentoccam"}
    assert spec("video").identity(load_settings(overrides=["agent.base_agent=react"]))["settings"] == {
        "agent.base_agent": "react"
    }


def test_a_policy_that_declares_nothing_keeps_the_identity_of_before() -> None:
    """A policy run as module:callable or registered without `reads`: the selection and oracle blocks as before,
    nothing under "settings"."""
    register_policy("undeclared-test", "evaluation.running.policies.stop:build_stop_policy", "a test policy")
    settings = load_settings(overrides=["selection.stage2_verdicts=true", "agent.videos_per_task=1"])
    identity = spec("undeclared-test").identity(settings)
    assert identity["selection"] == {"stage2_verdicts": True} and "settings" not in identity
    assert policy_reads("evaluation.running.policies.stop:build_stop_policy") is None


def test_a_setting_value_is_kept_as_run_json_reads_it_back() -> None:
    """A list setting compares equal after run.json's round trip, so the run resumes."""
    actions = load_settings(overrides=["agentoccam.actions=[click, type, stop]"])
    identity = spec("agentoccam").identity(actions)
    assert identity["settings"] == {"agentoccam.actions": ["click", "type", "stop"]}
    assert json.loads(json.dumps(identity)) == identity


def test_a_folder_from_before_a_declaration_resumes_when_its_sessions_ran_with_the_value(tmp_path) -> None:
    """A `--videos-per-task 1` run made before the method declared the setting: its identity lacks it, its sessions'
    recorded settings have it. It resumes (its identity now says so); one whose sessions ran with all videos not."""
    from evaluation.running.run_manifest import check_identity, open_session, read_identity
    from evaluation.running.run_records import RUN_FILE
    from foundation.errors import UserError
    from foundation.json_files import write_json
    from settings import settings_as_dict

    one_video = load_settings(overrides=["agent.videos_per_task=1"])
    identity = spec("video").identity(one_video)
    before = {key: value for key, value in identity.items() if key != "settings"}
    for name, recorded, resumes in (("one", one_video, True), ("all", load_settings(), False)):
        folder = tmp_path / name
        folder.mkdir()
        write_json(folder / RUN_FILE, {"identity": before, "sessions": [{"settings": settings_as_dict(recorded)}]})
        if not resumes:
            with pytest.raises(UserError, match="holds another run"):
                check_identity(folder, identity)
            continue
        open_session(folder, identity, one_video, workers=1)
        assert read_identity(folder) == identity
