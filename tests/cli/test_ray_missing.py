"""`--ray` without the ray package: one line naming the fix, before any run folder or video is touched."""

from __future__ import annotations

import sys

from tests.processing.pipeline_helpers import run_cli


def test_ray_flag_without_ray_says_how_to_install_it(monkeypatch, tmp_path) -> None:
    monkeypatch.setitem(sys.modules, "ray", None)  # what `import ray` meets where it is not installed
    out = tmp_path / "run"
    code, stdout, stderr = run_cli("run", "--policy", "scripted", "--solutions", "tasks/sandbox/solutions",
                                   "--ray", "--out", str(out), "--no-progress")  # fmt: skip
    assert code != 0
    assert "install it with `pip install -e .[scale]`" in stdout + stderr
    assert not out.exists()
    code, stdout, stderr = run_cli("process-videos", "--source", "dir", "--videos", str(tmp_path), "--ray")
    assert code != 0
    assert "install it with `pip install -e .[scale]`" in stdout + stderr
