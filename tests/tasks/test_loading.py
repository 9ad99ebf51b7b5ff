"""Loading VideoWA/WebArena task configs: placeholders, task fields, problems, filters."""

from __future__ import annotations

import json
import logging
from pathlib import Path

import pytest

from foundation.errors import UserError
from tasks import Task, filter_tasks, load_task_set, load_tasks
from tasks.placeholders import SITE_PLACEHOLDERS

DATA = Path(__file__).parent / "data"
MIX = DATA / "videowa_mix.json"
DEFECTS = DATA / "defects.json"

SITE_URLS = {
    "SHOPPING": "http://shop.test:7770/",  # trailing slash: must be stripped
    "SHOPPING_ADMIN": "http://shop.test:7780/admin",
    "REDDIT": "http://forum.test:9999",
    "GITLAB": "http://git.test:8023",
    "CLASSIFIEDS": "http://ads.test:9980",
    "MAP": "http://map.test:3000",
    "WIKIPEDIA": "http://wiki.test:8888",
}


@pytest.fixture
def no_site_env(monkeypatch):
    """No site URL in the environment (the session's sandbox fixture may have exported some)."""
    for placeholder in SITE_PLACEHOLDERS:
        monkeypatch.delenv(placeholder.env_var, raising=False)
    return monkeypatch


@pytest.fixture
def site_env(no_site_env):
    for name, url in SITE_URLS.items():
        no_site_env.setenv(name, url)
    return SITE_URLS


def by_id(tasks: list[Task]) -> dict:
    return {task.task_id: task for task in tasks}


def write_tasks(folder: Path, name: str, tasks: list) -> Path:
    path = folder / name
    path.write_text(json.dumps(tasks))
    return path


def sound_task(**changes) -> dict:
    task = {
        "sites": ["shopping"],
        "task_id": 0,
        "start_url": "__SHOPPING__",
        "intent": "Find the kettle",
        "eval": {"eval_types": ["string_match"], "reference_answers": {"must_include": ["kettle"]}},
    }
    task.update(changes)
    return task


# ---- placeholders ----


def test_placeholders_are_filled_from_the_environment(site_env):
    tasks = by_id(load_tasks(MIX))
    assert all(not task.problems for task in tasks.values()), {t.key: t.problems for t in tasks.values() if t.problems}
    assert tasks[0].start_url == "http://shop.test:7770"
    assert tasks[6].config["eval"]["program_html"][0]["url"] == "http://shop.test:7770/checkout/cart"
    assert tasks[3].config["eval"]["program_html"][0]["url"] == "http://git.test:8023/team/demo-app/-/project_members"
    assert tasks[5].config["image"] == "http://ads.test:9980/oc-content/uploads/1/bike.png"
    assert tasks[5].config["eval"]["page_image_query"][0]["eval_fuzzy_image_match"].startswith("http://ads.test:9980/")
    assert tasks[8].start_url == "http://map.test:3000"
    # Nothing anywhere in the configs is left unfilled.
    everything = json.dumps([t.config for t in tasks.values()])
    assert "__" not in everything.replace("__page__", "").replace("__last_url__", "")


def test_shopping_admin_is_not_mangled_by_the_shopping_placeholder(no_site_env):
    no_site_env.setenv("SHOPPING", "http://shop.test")
    no_site_env.setenv("SHOPPING_ADMIN", "http://admin.test/admin")
    admin = by_id(load_tasks(MIX))[1]
    assert admin.start_url == "http://admin.test/admin"
    assert admin.config["eval"]["reference_url"] == (
        "http://admin.test/admin/reports/report_sales/bestsellers/ |OR| http://admin.test/admin/reports/bestsellers"
    )

    no_site_env.delenv("SHOPPING_ADMIN")
    admin = by_id(load_tasks(MIX))[1]
    assert admin.start_url == "__SHOPPING_ADMIN__"
    assert admin.problems == [
        "site shopping_admin: set SHOPPING_ADMIN to its base URL, which must end in /admin "
        "(e.g. export SHOPPING_ADMIN=http://host:7780/admin)"
    ]


def test_sandbox_sites_are_the_default_for_shopping_and_reddit(no_site_env, test_settings):
    tasks = by_id(load_tasks(MIX, settings=test_settings))
    shop = f"http://127.0.0.1:{test_settings.sandbox.shop_port}"
    forum = f"http://127.0.0.1:{test_settings.sandbox.forum_port}"
    assert tasks[0].start_url == shop and not tasks[0].problems
    assert tasks[4].config["eval"]["program_html"][2]["url"] == "func:reddit_get_post_url('__last_url__')"
    assert tasks[7].config["eval"]["reference_url"] == f"{forum}/f/gardening"
    # Sites without a sandbox stand-in stay unfilled and say how to fix it.
    assert tasks[2].start_urls == [f"{forum}/f/books", "__WIKIPEDIA__/wikipedia_en_all_maxi_2022-05/A/Novel"]
    assert tasks[2].problems == [
        "site wikipedia: set WIKIPEDIA to its base URL (e.g. export WIKIPEDIA=http://host:8888)"
    ]
    assert tasks[3].problems == ["site gitlab: set GITLAB to its base URL (e.g. export GITLAB=http://host:8023)"]

    # An environment variable wins over the sandbox default.
    no_site_env.setenv("SHOPPING", "http://elsewhere.test:1234")
    assert by_id(load_tasks(MIX, settings=test_settings))[0].start_url == "http://elsewhere.test:1234"


def test_runtime_tokens_are_left_alone(site_env):
    tasks = by_id(load_tasks(MIX))
    entries = tasks[4].config["eval"]["program_html"]
    assert [entry["url"] for entry in entries] == [
        "func:shopping_get_latest_order_url()",
        "last",
        "func:reddit_get_post_url('__last_url__')",
    ]
    assert entries[1]["locator"] == "lambda:(() => document.querySelectorAll('.review-item').length > 0)()"
    assert entries[1]["required_contents"] == {"required_values": [">= 1"]}
    assert tasks[5].config["eval"]["program_html"][0]["locator"] == "func:get_query_text(__page__, '.price')"
    assert tasks[0].config["eval"]["reference_answers"]["must_include"] == ["42.50 |OR| 42.5"]
    assert tasks[2].start_url == (
        "http://forum.test:9999/f/books |AND| http://wiki.test:8888/wikipedia_en_all_maxi_2022-05/A/Novel"
    )
    assert tasks[2].start_urls == [
        "http://forum.test:9999/f/books",
        "http://wiki.test:8888/wikipedia_en_all_maxi_2022-05/A/Novel",
    ]


def test_config_keeps_the_files_key_order(site_env):
    raw = json.loads(MIX.read_text())
    for raw_task, task in zip(raw, load_tasks(MIX)):
        assert list(task.config) == list(raw_task)
        assert list(task.config["eval"]) == list(raw_task["eval"])


# ---- task fields ----


def test_kind_comes_from_intermediate_intent(site_env):
    tasks = load_tasks(MIX)
    assert {t.task_id for t in tasks if t.kind == "factual"} == {6, 7}
    assert {t.task_id for t in tasks if t.kind == "skill"} == {0, 1, 2, 3, 4, 5, 8}
    factual = by_id(tasks)[6]
    assert factual.intermediate_intent == "Which product did the tutorial put in the cart second?"
    assert factual.config["intermediate_eval"]["eval_types"] == ["string_match"]
    assert by_id(tasks)[0].intermediate_intent is None


def test_video_is_a_list_of_names_whether_the_config_gives_one_or_many(site_env):
    tasks = by_id(load_tasks(MIX))
    assert (tasks[0].videos, tasks[0].video) == (["order_history_tour"], "order_history_tour")
    assert (tasks[1].videos, tasks[1].video) == (["admin_reports", "admin_orders"], "admin_reports")
    assert (tasks[8].videos, tasks[8].video) == ([], None)


def test_other_fields(site_env):
    tasks = by_id(load_tasks(MIX))
    first = tasks[0]
    assert first.source == "videowa_mix" and first.key == "videowa_mix:0"
    assert first.sites == ["shopping"] and first.intent == "How much did I spend on coffee in March 2023?"
    assert first.require_login and not first.require_reset
    assert first.storage_state == "./.auth/shopping_state.json"
    assert first.viewport_size is None and first.difficulty is None
    assert first.eval_types == ["string_match"]
    assert tasks[2].sites == ["reddit", "wikipedia"]
    classifieds = tasks[5]
    assert classifieds.viewport_size == {"width": 1280, "height": 2048}
    assert classifieds.difficulty == "medium" and classifieds.require_reset
    assert classifieds.eval_types == ["program_html", "page_image_query"]
    assert tasks[6].difficulty == "hard"
    assert tasks[8].storage_state is None


# ---- problems ----

DEFECT_MESSAGES = {
    0: ["intent: missing"],
    1: ["intent: empty"],
    2: ["start_url: missing"],
    3: ["sites: missing"],
    4: ["sites: unknown site 'ebay' (known: shopping, shopping_admin, reddit, gitlab, classifieds, map, wikipedia)"],
    5: ["eval: missing"],
    6: ["eval: missing eval_types"],
    7: ["eval: unknown eval type 'html_match' (known: string_match, url_match, program_html, page_image_query)"],
    8: ["eval: string_match without reference_answers"],
    9: ["eval: url_match without reference_url"],
    10: ["eval: url_note is empty (use EXACT or GOLD in PRED)"],
    11: ["eval: unknown url_note 'PREFIX' (use EXACT or GOLD in PRED)"],
    12: [],  # an empty program_html list is a note: the task runs (test_oddities_the_reference_runs_are_notes)
    13: ["eval: program_html[1] missing locator, required_contents"],
    14: ["intermediate_eval: missing (the task has an intermediate_intent)"],
    15: ["intermediate_intent: missing (the task has an intermediate_eval)"],
    16: ["task: not an object (a JSON string)"],
    17: ["task_id: missing (called #17, its position in the file)"],
    18: ["task_id: duplicate of the task at position 4"],
    19: [
        "site gitlab: set GITLAB to its base URL (e.g. export GITLAB=http://host:8023)",
        "placeholder __SHOPING__: names no known site",
    ],
}


@pytest.mark.parametrize("position", sorted(DEFECT_MESSAGES))
def test_each_defect_is_reported_on_its_task(no_site_env, test_settings, position):
    tasks = load_tasks(DEFECTS, settings=test_settings)
    assert tasks[position].problems == DEFECT_MESSAGES[position]


def test_a_file_full_of_defects_still_loads_every_task(no_site_env, test_settings):
    tasks = load_tasks(DEFECTS, settings=test_settings)
    assert len(tasks) == len(json.loads(DEFECTS.read_text())) == 20
    assert [t.key for t in tasks[15:19]] == ["defects:15", "defects:#16", "defects:#17", "defects:4"]
    # Whatever is sound in a defective task is still there.
    no_eval = tasks[5]
    assert no_eval.intent == "Tell me the name of the newest product" and no_eval.eval_types == []
    assert no_eval.start_url == f"http://127.0.0.1:{test_settings.sandbox.shop_port}"
    assert tasks[14].kind == "factual" and tasks[15].kind == "skill"


def test_folder_loads_recursively_and_reports_files_that_do_not_load(site_env, caplog):
    with caplog.at_level(logging.WARNING, logger="tasks.loading"):
        task_set = load_task_set(DATA)
    assert [path.relative_to(DATA).as_posix() for path in task_set.files] == [
        "broken/bad_json.json",
        "broken/not_a_list.json",
        "defects.json",
        "layout/videowa/test_classifieds.json",
        "layout/vwa/test_classifieds.json",
        "videowa_mix.json",
    ]
    assert len(task_set.tasks) == 31
    assert {task.source for task in task_set.tasks} == {
        "defects", "layout/videowa/test_classifieds", "layout/vwa/test_classifieds", "videowa_mix"
    }
    bad_json, not_a_list = task_set.file_problems
    assert bad_json.path == DATA / "broken" / "bad_json.json"
    assert bad_json.message.startswith("not valid JSON (") and "line 6, column 37" in bad_json.message
    assert not_a_list.message == "holds one JSON object, not a list of tasks (wrap a single task in [ ])"
    assert str(not_a_list) == f"{DATA / 'broken' / 'not_a_list.json'}: {not_a_list.message}"
    warnings = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert len(warnings) == 2 and "bad_json.json" in warnings[0]


def test_a_single_task_object_is_one_task(site_env, tmp_path):
    # WebArena's generated per-task files (config_files/<id>.json) hold one task object each.
    (tmp_path / "7.json").write_text(json.dumps(sound_task(task_id=7)))
    task_set = load_task_set(tmp_path)
    assert task_set.file_problems == []
    assert [task.key for task in task_set.tasks] == ["7:7"]


def test_a_missing_path_is_a_user_error(tmp_path):
    with pytest.raises(UserError, match="does not exist"):
        load_tasks(tmp_path / "nowhere.json")


def test_unreadable_and_clashing_files_are_file_problems(site_env, tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    write_tasks(tmp_path / "a", "same.json", [sound_task(task_id=1)])
    write_tasks(tmp_path / "b", "same.json", [sound_task(task_id=2)])
    (tmp_path / "latin1.json").write_bytes('[{"intent": "caf\xe9"}]'.encode("latin-1"))
    (tmp_path / ".auth").mkdir()
    (tmp_path / ".auth" / "shopping_state.json").write_text('{"cookies": []}')  # login state, not tasks
    task_set = load_task_set(tmp_path)
    assert [t.key for t in task_set.tasks] == ["a/same:1", "b/same:2"]
    assert len(task_set.files) == 3
    messages = {problem.path.relative_to(tmp_path).as_posix(): problem.message for problem in task_set.file_problems}
    assert list(messages) == ["latin1.json"] and messages["latin1.json"].startswith("not UTF-8 text")


def test_real_layout_same_named_files_get_distinct_keys(site_env):
    """VideoWA's and VWA's config trees both hold test_classifieds.json, with the same task ids."""
    tasks = load_tasks(DATA / "layout")
    assert [task.key for task in tasks] == ["videowa/test_classifieds:3", "vwa/test_classifieds:3"]
    assert [task.images for task in tasks] == [[], ["https://example.com/kettle.jpg"]]
    # One file loaded on its own keeps the short key.
    (single,) = load_tasks(DATA / "layout" / "vwa" / "test_classifieds.json")
    assert single.key == "test_classifieds:3"


@pytest.mark.parametrize(
    "changes, message",
    [
        (
            {"eval": {"eval_types": ["string_match"], "reference_answers": {"contains": ["kettle"]}}},
            "eval: unknown reference_answers key 'contains'",
        ),
        (
            {
                "eval": {
                    "eval_types": ["string_match"],
                    "reference_answers": {"required_values": ["== 2"], "must_include": ["2"]},
                }
            },
            "eval: reference_answers key 'must_include' comes after required_values and cannot pass",
        ),
        (
            {"eval": {"eval_types": ["page_image_query"], "page_image_query": [{"eval_image_url": "last"}]}},
            "eval: page_image_query[0] missing eval_image_class",
        ),
        (
            {
                "eval": {
                    "eval_types": ["page_image_query"],
                    "page_image_query": [{"eval_image_url": "last", "eval_image_class": ".photos"}],
                }
            },
            "eval: page_image_query[0] has neither eval_vqa nor eval_fuzzy_image_match",
        ),
        (
            {
                "intermediate_intent": "What did the video open?",
                "intermediate_eval": {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/x"},
            },
            # Whatever eval_types say, the intermediate answer is string-matched: without answers it cannot be.
            "intermediate_eval: string_match without reference_answers",
        ),
        (
            {"intermediate_intent": "Which?", "intermediate_eval": {"eval_types": ["string_match"]}},
            "intermediate_eval: string_match without reference_answers",
        ),
        ({"video": {"name": "tour"}}, "video: must be a video name or a list of names"),
        ({"sites": "shopping"}, "sites: must be a list of site names"),
        ({"task_id": 1.5}, "task_id: must be a number or a string (called #0, its position in the file)"),
    ],
)
def test_other_config_errors_the_evaluators_would_trip_on(site_env, tmp_path, changes, message):
    (task,) = load_tasks(write_tasks(tmp_path, "one.json", [sound_task(**changes)]))
    assert message in task.problems


def test_a_sound_minimal_task_has_no_problems(site_env, tmp_path):
    (task,) = load_tasks(write_tasks(tmp_path, "one.json", [sound_task()]))
    assert task.problems == [] and task.kind == "skill" and task.videos == []


def test_exact_match_after_required_values_is_no_problem(site_env, tmp_path):
    # The reference compares the integer's text there ("12" passes "12"), so the config is sound.
    answers = {"required_values": ["== 12"], "exact_match": "12"}
    changes = {"eval": {"eval_types": ["string_match"], "reference_answers": answers}}
    (task,) = load_tasks(write_tasks(tmp_path, "one.json", [sound_task(**changes)]))
    assert task.problems == []


# ---- the typed eval block ----


@pytest.mark.parametrize("block_key", ["eval", "intermediate_eval"])
def test_an_eval_key_no_config_has_is_a_config_problem_naming_it(site_env, tmp_path, block_key):
    block = {"eval_types": ["string_match"], "reference_answers": {"must_include": ["kettle"]},
             "refrence_url": "__SHOPPING__/x"}  # fmt: skip
    changes = {block_key: block, "intermediate_intent": "Which?"} if block_key != "eval" else {"eval": block}
    path = write_tasks(tmp_path, "typo.json", [sound_task(), sound_task(task_id=7, **changes)])
    sound, typo = load_tasks(path)  # the load goes on: the other task is untouched
    assert sound.problems == []
    (message,) = [problem for problem in typo.problems if "unknown key" in problem]
    assert "\n" not in message and message.startswith(f"{block_key} has unknown key(s) 'refrence_url'")
    assert "known: eval_types, reference_answers, reference_url, url_note" in message


def test_every_key_of_the_webarena_family_loads_typed_and_as_written(site_env, tmp_path):
    """Keys of WebArena, VisualWebArena and VideoWA configs (annotations among them) and AgentOccam's "or"."""
    block = {"eval_types": ["url_match"], "reference_answers": None, "reference_url": "__SHOPPING__/a",
             "program_html": [], "string_note": "", "url_note": "GOLD in PRED", "reference_answer_raw_annotation": "a",
             "annotation_note": "", "page_image_query": [], "or": [{"reference_url": "__SHOPPING__/b"}]}  # fmt: skip
    (task,) = load_tasks(write_tasks(tmp_path, "all.json", [sound_task(eval=block)]))
    assert task.problems == [] and task.eval_types == ["url_match"]
    typed = task.eval_block
    assert typed.reference_url == "http://shop.test:7770/a" and typed.url_note == "GOLD in PRED"
    assert typed.or_alternatives == [{"reference_url": "http://shop.test:7770/b"}] and typed.has("or")
    assert typed.to_dict() == task.config["eval"] and list(typed.to_dict()) == list(block)  # the raw config kept
    assert task.intermediate_block is None and not typed.has("intermediate_intent")


# ---- filters ----


def test_filters_by_site_kind_and_ids(site_env):
    tasks = load_tasks(DATA)
    mix = [t for t in tasks if t.source == "videowa_mix"]
    assert [t.task_id for t in filter_tasks(mix, site="reddit")] == [2, 7]
    assert [t.task_id for t in filter_tasks(mix, kind="factual")] == [6, 7]
    assert [t.task_id for t in filter_tasks(mix, site="shopping", kind="skill")] == [0, 4]
    assert [t.task_id for t in filter_tasks(mix, ids="1,3-5, 8")] == [1, 3, 4, 5, 8]
    assert [t.task_id for t in filter_tasks(mix, ids=[2, "7"])] == [2, 7]
    assert [t.key for t in filter_tasks(tasks, ids="videowa_mix:4,#16")] == ["defects:#16", "videowa_mix:4"]
    # Without a source, an id matches in every file.
    assert [t.key for t in filter_tasks(tasks, ids="0")] == ["defects:0", "videowa_mix:0"]


@pytest.mark.parametrize(
    "kwargs, message",
    [
        ({"site": "ebay"}, "unknown site 'ebay'"),
        ({"kind": "visual"}, "unknown task kind 'visual'"),
        ({"ids": "20-10"}, "runs backwards"),
        ({"ids": " , "}, "names no task"),
    ],
)
def test_bad_filters_say_what_is_wrong(kwargs, message):
    with pytest.raises(UserError, match=message):
        filter_tasks([], **kwargs)


@pytest.mark.parametrize(
    "changes, note",
    [
        (
            {"intermediate_intent": "Which?", "intermediate_eval": {"reference_answers": {"must_include": ["tea"]}}},
            "intermediate_eval: no eval_types "
            "(the intermediate answer is string-matched anyway, as the reference does)",
        ),
        (
            {
                "intermediate_intent": "Which?",
                "intermediate_eval": {"eval_types": ["exact"], "reference_answers": {"must_include": ["tea"]}},
            },
            "intermediate_eval: unknown eval type 'exact' (the intermediate answer is string-matched anyway, "
            "as the reference does)",
        ),
        (
            {
                "eval": {
                    "eval_types": ["string_match", "program_html"],
                    "reference_answers": {"must_include": ["kettle"]},
                    "program_html": [],
                }
            },
            "eval: program_html without entries (that score is a config error; the other scores run)",
        ),
    ],
)
def test_oddities_the_reference_runs_are_notes(site_env, tmp_path, changes, note):
    """The reference scores these tasks, so they run here too, with the oddity kept as a note."""
    (task,) = load_tasks(write_tasks(tmp_path, "one.json", [sound_task(**changes)]))
    assert task.problems == [] and task.notes == [note]
