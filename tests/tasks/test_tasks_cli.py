"""`videodemo tasks list`: counts, problems, filters, JSON output and exit codes."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from cli.main import main
from tasks.placeholders import SITE_PLACEHOLDERS

DATA = Path(__file__).parent / "data"

SITE_URLS = {
    "SHOPPING": "http://shop.test:7770",
    "SHOPPING_ADMIN": "http://shop.test:7780/admin",
    "REDDIT": "http://forum.test:9999",
    "GITLAB": "http://git.test:8023",
    "CLASSIFIEDS": "http://ads.test:9980",
    "MAP": "http://map.test:3000",
    "WIKIPEDIA": "http://wiki.test:8888",
}


@pytest.fixture
def site_env(monkeypatch):
    for placeholder in SITE_PLACEHOLDERS:
        monkeypatch.delenv(placeholder.env_var, raising=False)
    for name, url in SITE_URLS.items():
        monkeypatch.setenv(name, url)
    return monkeypatch


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(["tasks", "list", *args])
    out, err = capsys.readouterr()
    return code, out, err


def table(out: str, title: str) -> dict[str, int]:
    """Rows of the aligned table headed `title  tasks`, up to the next blank line."""
    lines = out.splitlines()
    start = next(i for i, line in enumerate(lines) if re.fullmatch(rf"{title}\s+tasks", line))
    rows = {}
    for line in lines[start + 1 :]:
        if not line.strip():
            break
        name, count = line.rsplit(None, 1)
        rows[name.strip()] = int(count)
    return rows


def test_list_prints_counts_then_problems(site_env, capsys):
    code, out, err = run(capsys, str(DATA))
    assert code == 0  # problems are data, not a failure
    assert out.splitlines()[0] == f"31 tasks from {DATA} (6 config files)"
    sites = table(out, "site")
    assert sites["shopping"] == 21 and sites["reddit"] == 2 and sites["wikipedia"] == 1 and sites["ebay"] == 1
    assert sites["classifieds"] == 3  # one in the mix, one in each folder of the layout
    assert sites["(none)"] == 2  # the task without sites and the list item that is not a task
    assert table(out, "kind") == {"skill": 28, "factual": 3}
    videos = table(out, "video")
    assert videos["catalog_tour"] == 20 and videos["order_history_tour"] == 2 and videos["(none)"] == 3
    assert table(out, "eval type") == {
        "string_match": 16,
        "program_html": 6,
        "url_match": 5,
        "(none)": 3,
        "html_match": 1,
        "page_image_query": 1,
    }
    assert "tasks with problems: 19" in out
    assert re.search(r"^  defects:12 +eval: program_html without entries \(that score is a config error", out, re.M)
    assert re.search(r"^  defects:6 +eval: missing eval_types$", out, re.M)
    assert re.search(r"^  defects:19 +placeholder __SHOPING__: names no known site$", out, re.M)
    assert "videowa_mix:" not in out.split("tasks with problems")[1]  # every site URL is set: no problem there
    assert "files that did not load: 2" in out
    assert f"  {DATA / 'broken' / 'bad_json.json'}: not valid JSON (" in out
    assert f"  {DATA / 'broken' / 'not_a_list.json'}: holds one JSON object" in out
    assert "skipping" not in err  # file problems are in the listing, not repeated as warnings


def test_filters_narrow_the_counts(site_env, capsys):
    code, out, _ = run(capsys, str(DATA), "--kind", "factual", "--site", "reddit")
    assert code == 0
    assert out.splitlines()[0] == f"1 tasks from {DATA} (6 config files; only site=reddit, kind=factual)"
    assert table(out, "video") == {"subscribe_tutorial": 1}
    assert table(out, "eval type") == {"url_match": 1}
    assert "tasks with problems: none" in out


def test_unset_site_urls_show_up_as_problems(site_env, capsys):
    site_env.delenv("GITLAB")
    _, out, _ = run(capsys, str(DATA / "videowa_mix.json"))
    assert "tasks with problems: 1" in out
    assert re.search(r"^  videowa_mix:3 +site gitlab: set GITLAB to its base URL", out, re.M)
    assert "files that did not load" not in out


def test_json_output(site_env, capsys):
    code, out, _ = run(capsys, str(DATA), "--json", "--kind", "skill")
    assert code == 0
    data = json.loads(out)
    assert data["path"] == str(DATA) and data["files"] == 6 and data["tasks"] == 28
    assert data["by_kind"] == {"skill": 28, "factual": 0}
    assert data["by_site"]["shopping"] == 19
    problems = {entry["task"]: entry["problems"] for entry in data["tasks_with_problems"]}
    assert "defects:12" not in problems  # it runs, with a note
    notes = {entry["task"]: entry["notes"] for entry in data["tasks_with_notes"]}
    assert notes["defects:12"][0].startswith("eval: program_html without entries")
    assert "defects:14" not in problems  # factual, filtered out
    assert [entry["path"] for entry in data["file_problems"]] == [
        str(DATA / "broken" / "bad_json.json"),
        str(DATA / "broken" / "not_a_list.json"),
    ]


def test_a_missing_path_exits_2_with_one_line(capsys, tmp_path):
    code, out, err = run(capsys, str(tmp_path / "missing.json"))
    assert code == 2 and out == ""
    assert err.strip().splitlines() == [
        f"error: task config path {tmp_path / 'missing.json'} does not exist; "
        "pass a JSON config file or a folder of them"
    ]


def test_a_bad_kind_is_refused_by_the_parser(capsys):
    with pytest.raises(SystemExit) as exit_info:
        main(["tasks", "list", str(DATA), "--kind", "visual"])
    assert exit_info.value.code == 2
    assert "invalid choice: 'visual'" in capsys.readouterr().err


def test_without_a_path_it_lists_the_bundled_sandbox_tasks(site_env, capsys, monkeypatch, tmp_path):
    from tasks import loading

    monkeypatch.setattr(loading, "SANDBOX_CONFIGS_DIR", tmp_path / "configs")
    code, out, _ = run(capsys)
    assert code == 0
    assert out.strip() == f"no bundled sandbox tasks yet: {tmp_path / 'configs'} holds no *.json config"

    monkeypatch.setattr(loading, "SANDBOX_CONFIGS_DIR", DATA)
    code, out, _ = run(capsys)
    assert code == 0 and out.startswith(f"31 tasks from {DATA} (6 config files)")
