import pytest

from settings import SettingsError, load_settings


def test_method_defaults_are_the_papers():
    s = load_settings()
    assert (s.processing.sample_fps, s.processing.clip_frames, s.processing.clip_overlap) == (2.0, 20, 3)
    assert s.processing.max_trajectory_actions == 15
    assert s.selection.candidates_per_video == 3
    assert s.agent.max_steps == 20


def test_yaml_file_and_dotted_overrides(tmp_path):
    config = tmp_path / "c.yaml"
    config.write_text("processing:\n  sample_fps: 1\nmodels:\n  vlm:\n    model: qwen\n")
    s = load_settings(config, ["agent.max_steps=7", "models.vlm.base_url=http://gpu:8000/v1"])
    assert s.processing.sample_fps == 1.0 and isinstance(s.processing.sample_fps, float)
    assert s.models.vlm.model == "qwen" and s.models.vlm.base_url == "http://gpu:8000/v1"
    assert s.agent.max_steps == 7


@pytest.mark.parametrize(
    "override, message",
    [
        ("processing.nope=1", "unknown setting"),
        ("agent.max_steps=many", "wants a number"),
        ("agent.max_steps=2.5", "whole number"),
        ("agent.use_videos=3", "true or false"),
        ("processing", "section.key=value"),
        ("models.vlm=1", "is a section"),
    ],
)
def test_bad_overrides_say_what_is_wrong(override, message):
    with pytest.raises(SettingsError, match=message):
        load_settings(overrides=[override])


def test_missing_and_malformed_config_files(tmp_path):
    with pytest.raises(SettingsError, match="not found"):
        load_settings(tmp_path / "missing.yaml")
    bad = tmp_path / "bad.yaml"
    bad.write_text("processing: [1, 2\n")
    with pytest.raises(SettingsError, match="not valid YAML"):
        load_settings(bad)
