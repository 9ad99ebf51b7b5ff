"""`videodemo tasks check PATH --sites-up`: one line per site the tasks need, against the sandbox
(shop, forum) and the stand-ins of the other real sites, with one site down."""

from __future__ import annotations

import json
import re

import pytest

from cli.main import main
from tests.conftest import free_port

# No `chromium` fixture in this module: the command starts its own Playwright.

SITES = ["shopping", "shopping_admin", "reddit", "gitlab", "classifieds", "map", "wikipedia"]


def _task(task_id: int, site: str, **extra) -> dict:
    placeholder = f"__{site.upper()}__"
    return {
        "task_id": task_id, "sites": [site], "start_url": placeholder, "intent": "Read the page",
        "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["x"]}}, **extra,
    }  # fmt: skip


@pytest.fixture
def task_file(tmp_path):
    tasks = [_task(index, site) for index, site in enumerate(SITES)]
    tasks.append(_task(len(SITES), "classifieds", require_reset=True))
    path = tmp_path / "tasks.json"
    path.write_text(json.dumps(tasks))
    return path


@pytest.fixture
def sites_env(sandbox, standins, monkeypatch, tmp_path):
    """shopping and reddit on the sandbox, the other sites on their stand-ins; a private auth folder."""
    for site in ("shopping_admin", "gitlab", "classifieds", "map", "wikipedia"):
        monkeypatch.setenv(site.upper(), standins[site])
    monkeypatch.setenv("SHOPPING", sandbox.shop_url)
    monkeypatch.setenv("REDDIT", sandbox.forum_url)
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", "any")  # only checked to be set: the check never resets
    monkeypatch.setenv("VIDEODEMO_CACHE", str(tmp_path / "cache"))
    return monkeypatch


def _lines(capsys) -> dict[str, str]:
    out = capsys.readouterr().out
    return {match.group(1): match.group(2) for match in re.finditer(r"^(\w+)\s+(ok|FAILED)\s", out, re.M)} | {
        "out": out
    }


def _check(task_file) -> int:
    return main(["tasks", "check", str(task_file), "--sites-up"])


def test_every_site_up_gives_ok_lines_and_exit_0(sites_env, task_file, capsys) -> None:
    code = _check(task_file)
    lines = _lines(capsys)
    assert code == 0, lines["out"]
    assert {site: lines.get(site) for site in SITES} == {site: "ok" for site in SITES}
    assert "member role on byteblaze/a11yproject.com: Owner" in lines["out"]
    assert "7 of 7 sites ok" in lines["out"]


def test_a_site_down_an_unset_variable_and_a_missing_reset_token_are_failed_lines_with_the_fix(
    sites_env, task_file, capsys
) -> None:
    sites_env.setenv("GITLAB", f"http://127.0.0.1:{free_port()}")
    sites_env.delenv("WIKIPEDIA")
    sites_env.delenv("CLASSIFIEDS_RESET_TOKEN")
    code = _check(task_file)
    lines = _lines(capsys)
    assert code == 1
    assert lines["gitlab"] == "FAILED" and lines["classifieds"] == "FAILED"
    out = lines["out"]
    assert re.search(r"^gitlab .*ERR_CONNECTION_REFUSED.*check that the site runs", out, re.M)
    token_line = r"^classifieds .*1 task needs a reset .*export CLASSIFIEDS_RESET_TOKEN=.*login and reading work"
    assert re.search(token_line, out, re.M)
    assert re.search(r"^wikipedia\s+FAILED no address for the wikipedia site: set the WIKIPEDIA", out, re.M)
    assert all(lines[site] == "ok" for site in ("shopping", "shopping_admin", "reddit", "map"))
    assert "4 of 7 sites ok; fix: classifieds, gitlab, wikipedia" in out


def test_without_sites_up_it_lists_the_sites_needed(task_file, capsys) -> None:
    assert main(["tasks", "check", str(task_file)]) == 0
    out = capsys.readouterr().out
    assert "sites needed: classifieds, gitlab, map, reddit, shopping, shopping_admin, wikipedia" in out

