"""The model-free replay policy: intent values, grounding on live pages, and whole tasks from a recorded tutorial.

The end-to-end tests record one sandbox tutorial (its ground-truth action log), build a
trajectory index from those actions with derived objectives, and play sandbox tasks
through the real runner, browser and evaluators.
"""

from __future__ import annotations

import argparse
import copy
import json
from pathlib import Path

import pytest
from tests.agent.replay_helpers import replay_settings_for

from agent.replay.grounding import Grounder, PageView, anchor_nodes
from agent.videos.intent_values import choose_option, choose_typed_value, intent_values
from evaluation.browser_env.environment import BrowserEnv
from evaluation.running.runner import RunSpec, run
from model_access.embeddings import Embedder
from tasks.loading import SANDBOX_CONFIGS_DIR, load_task_set

TUTORIAL = "shop_order_history"


# ---- values of an intent, and which one replaces a demonstrated value ----


def kinds(intent: str) -> list[tuple[str, str]]:
    return [(value.kind, value.text) for value in intent_values(intent)]


def test_an_intent_names_its_product_colour_size_and_quantity() -> None:
    assert kinds("Put two pairs of the Ridgeback Padded Cycling Shorts in Coral Red, size L, into my cart.") == [
        ("number", "2"), ("entity", "Ridgeback Padded Cycling Shorts"), ("colour", "Coral Red"), ("size", "L"),
    ]  # fmt: skip
    assert kinds("Show me the top posts of all time in the science forum.") == [("forum", "science")]
    assert kinds("What is the price of the cheapest product in the Coffee & Tea category?") == [
        ("category", "Coffee & Tea")
    ]
    assert kinds("Reorder my order 000000030.") == [("long_number", "000000030")]


def test_quoted_texts_go_to_the_fields_their_cue_words_name() -> None:
    intent = (
        "Give the Ironbark Personal Blender a 2-star review titled 'Leaky' saying 'Leaks at the lid after a month.'"
    )
    values = intent_values(intent)
    body = choose_typed_value("Cuts tomatoes cleanly.", "Review", intent, values, set(), search_field=False)
    title = choose_typed_value("Sharp and well balanced", "Summary", intent, values, set(), search_field=False)
    assert body is not None and body.used == "Leaks at the lid after a month."  # typed as written, full stop kept
    assert title is not None and title.used == "Leaky"
    search = choose_typed_value("chef knife", "Search", intent, values, set(), search_field=True)
    assert search is not None and search.used == "Ironbark Personal Blender"


def test_a_value_the_intent_already_names_is_kept_and_a_quantity_defaults_to_one() -> None:
    intent = "Search the store for earbuds and sort them by price."
    assert choose_typed_value("earbuds", "Search", intent, intent_values(intent), set(), search_field=True) is None
    intent = "Add the Stride Theory Women's High Waist Yoga Leggings in Forest Green, size M, to my cart."
    quantity = choose_typed_value("2", "Qty", intent, intent_values(intent), set(), search_field=False)
    assert quantity is not None and quantity.used == "1"


def test_the_menu_option_the_intent_names_replaces_the_demonstrated_one() -> None:
    intent = "Add the Stride Theory Women's High Waist Yoga Leggings in Forest Green, size M, to my cart."
    colours = ["Choose an Option...", "Sky Blue", "Forest Green", "Coral Red"]
    sizes = ["Choose an Option...", "XS", "S", "M", "L", "XL"]
    assert choose_option("Sky Blue", colours, intent).used == "Forest Green"
    assert choose_option("L", sizes, intent).used == "M"  # "Women's" does not name size S
    assert choose_option("Price", ["Position", "Product Name", "Price"], "Sort the results by price") is None


# ---- grounding demonstrated targets on a live page ----


@pytest.fixture
def home_page(sandbox):
    """The shop's home page in a browser episode (task shop:20 starts there)."""
    task = next(t for t in load_task_set(SANDBOX_CONFIGS_DIR, settings=sandbox.settings).tasks if t.key == "shop:20")
    env = BrowserEnv(sandbox.settings)
    observation = env.reset(task)
    try:
        yield env, observation
    finally:
        env.close()


def grounder(settings) -> Grounder:
    embedder = Embedder(settings)
    return Grounder(lambda texts: embedder.encode(texts), settings.replay.grounding_min_similarity)


def test_demonstrated_names_ground_on_the_live_tree(home_page, sandbox) -> None:
    env, observation = home_page
    page = PageView(observation.nodes, lambda: env.observe_full_page().nodes)
    ground = grounder(sandbox.settings)
    no_anchors = lambda nodes: []  # noqa: E731

    account = ground.ground("My Acount", "click", page, no_anchors)  # a misread letter, as OCR makes
    assert account is not None and (account.node.role, account.node.name) == ("link", "My Account")
    search = ground.ground("Search entire store here...", "type", page, no_anchors)  # the placeholder a video shows
    assert search is not None and search.node.role == "searchbox"
    assert ground.ground("Leave a product review", "click", page, no_anchors) is None  # nothing like it here
    # A task names a product by the opening of its long link name; that is the link, well enough to stand in for
    # a demonstrated product (replay.substitution_min_similarity).
    long_link = next(n for n in observation.nodes.values() if n.role == "link" and len(n.name.split()) >= 8)
    opening = " ".join(long_link.name.split()[:3])
    found = ground.ground(opening, "click", page, no_anchors)
    assert found is not None and found.node.name == long_link.name
    assert found.similarity >= sandbox.settings.replay.substitution_min_similarity


def test_of_many_equal_buttons_the_one_by_the_tasks_product_is_chosen_even_out_of_view(home_page, sandbox) -> None:
    env, observation = home_page
    page = PageView(observation.nodes, lambda: env.observe_full_page().nodes)
    product = "Ridgeback Foam Roller 18 Inch"
    found = Grounder.ground(
        grounder(sandbox.settings), "Add to Cart", "click", page, lambda nodes: anchor_nodes(nodes, [product])
    )
    assert found is not None and found.node.name == "Add to Cart" and found.where == "in the full page"
    roller = next(node for node in page.full() if node.name.startswith(product))
    assert abs(found.node.rect[0] - roller.rect[0]) < 5  # the button in the roller's own product card
    assert 0 < found.node.rect[1] - roller.rect[1] < 250


# ---- whole tasks through the runner ----


@pytest.fixture(scope="module")
def replay_settings(sandbox, tmp_path_factory):
    """The sandbox settings reading an index built from the recorded tutorial's ground-truth actions."""
    return replay_settings_for(sandbox.settings, tmp_path_factory.mktemp("replay-index"), TUTORIAL)


def play(settings, ids: str, out: Path) -> dict[str, dict]:
    spec = RunSpec(SANDBOX_CONFIGS_DIR, "replay", argparse.Namespace(), out_dir=out, ids=ids, progress=False)
    run_dir = run(spec, settings)
    records = {}
    for path in (run_dir / "tasks").glob("*/record.json"):
        record = json.loads(path.read_text())
        record["episode"] = json.loads((path.parent / "episode.json").read_text())
        records[record["task_key"]] = record
    return records


def test_replay_answers_two_order_questions_and_records_its_choices(replay_settings, tmp_path) -> None:
    records = play(replay_settings, "shop:20,shop:21", tmp_path / "run")
    assert records["shop:20"]["score"] == 1.0, records["shop:20"]["answer"]  # the grand total of order 24
    assert records["shop:21"]["score"] == 1.0, records["shop:21"]["answer"]  # how many orders were canceled
    for record in records.values():
        steps = record["episode"]["steps"]
        first = steps[0]["extra"]
        assert first["selection"]["decision"] == "reselected" and first["selection"]["candidates"]
        assert first["selection"]["chosen"].startswith(f"{TUTORIAL}/")
        assert first["demonstration"]["objective"] and first["demonstration"]["actions"]
        assert first["replayed"]["grounded"]["similarity"] >= replay_settings.replay.grounding_min_similarity
        assert any(step["extra"].get("selection", {}).get("continued") for step in steps[1:-1])
        assert steps[-1]["action_text"].startswith("stop") and "answer" in steps[-1]["extra"]


def test_without_videos_it_stops_at_once_and_says_why(replay_settings, tmp_path) -> None:
    settings = copy.deepcopy(replay_settings)
    settings.agent.use_videos = False
    record = play(settings, "shop:20", tmp_path / "run")["shop:20"]
    (step,) = record["episode"]["steps"]
    assert step["action_text"] == "stop []" and record["score"] == 0.0
    assert "videos are off" in step["extra"]["reason"]
    assert "demonstration" not in step["extra"]


# ---- reading an answer off the page ----


def nodes(*items: tuple[str, str]) -> list:
    from evaluation.browser_env.ax_tree import TreeNode

    return [TreeNode(str(n), n, role, name, None, f"[{n}] {role} {name!r}") for n, (role, name) in enumerate(items)]


def test_answers_are_read_by_the_kind_of_question() -> None:
    from agent.replay.answers import is_question, read_answer

    order_page = nodes(
        ("heading", "Order # 000000024"), ("StaticText", "Subtotal"), ("StaticText", "$99.97"),
        ("StaticText", "Shipping & Handling"), ("StaticText", "$7.00"), ("StaticText", "Grand Total"),
        ("StaticText", "$106.97"),
    )  # fmt: skip
    intent = "What was the grand total of my order 000000024?"
    assert is_question(intent) and not is_question("Subscribe me to the history forum.")
    assert read_answer(intent, order_page, intent_values(intent)).text == "$106.97"

    listing = nodes(("link", "Kestrel Earbuds"), ("StaticText", "$6.00"), ("link", "Halcyon Headphones"),
                    ("StaticText", "$89.99"))  # fmt: skip
    intent = "What is the price of the cheapest pair of headphones?"
    assert read_answer(intent, listing, intent_values(intent)).text == "$6.00"

    history = nodes(("cell", ""), ("StaticText", "Complete"), ("StaticText", "Canceled"), ("StaticText", "Canceled"),
                    ("StaticText", "Pending"))  # fmt: skip
    intent = "How many of my orders were canceled?"
    assert read_answer(intent, history, intent_values(intent)).text == "2"


# ---- the selection probe (benchmarks/selection.py) ----


def test_the_selection_probe_scores_each_step_and_the_captured_pages_ask_the_same(replay_settings, tmp_path) -> None:
    """The reference solution passes under the probe; every step records the truth and each variant's choice; asked
    again offline on the captured pages, the variants choose as they did live."""
    from agent.replay.probe import CapturedPages, replay_captured, variant_settings
    from agent.replay.probe_scores import probed_steps, summary, task_groups

    variants = {"default": [], "before": ["replay.pool_by_objective_cosine=true"]}
    spec = RunSpec(SANDBOX_CONFIGS_DIR, "selection-probe", progress=False, out_dir=tmp_path / "run", ids="shop:20,shop:23",
                   policy_args=argparse.Namespace(probe_variants=variants, probe_pages=str(tmp_path / "pages")))  # fmt: skip
    run_dir = run(spec, replay_settings)
    live = []
    for path in sorted((run_dir / "tasks").glob("*/record.json")):
        record = json.loads(path.read_text())
        assert record["score"] == 1.0, record["task_key"]  # the reference solution, played under the probe
        steps = json.loads((path.parent / "episode.json").read_text())["steps"]
        live += [(record["task_key"], step["extra"]["probe"]) for step in steps]
    assert {key for key, _ in live} == {"shop:20", "shop:23"}
    first = live[0][1]
    assert first["truth"]["right"] > 0 and set(first["variants"]) == {"default", "before"}
    assert live[-1][1]["truth"]["next"] == "stop"

    tasks = [t for t in load_task_set(SANDBOX_CONFIGS_DIR, settings=replay_settings).tasks if t.key in {"shop:20", "shop:23"}]
    again = replay_captured(replay_settings, variant_settings(replay_settings, variants), CapturedPages(tmp_path / "pages"), tasks)
    assert [(key, record["variants"]["default"]["chosen"]) for key, record in again] == [
        (key, record["variants"]["default"]["chosen"]) for key, record in live
    ]
    figures = summary(probed_steps(again, task_groups(tasks)))
    assert set(figures) == {"default", "before"} and 0.0 <= figures["default"]["all"]["hit@1"] <= 1.0


# ---- the method's pre-cut (selection.precut_ranking) ----


def test_the_precut_lists_stage_1s_best_in_the_videos_order_or_faisss_nearest(replay_settings) -> None:
    from agent.videos.candidates import method_candidates
    from agent.videos.stage1_ranking import RankingQuery, Stage1Ranking
    from agent.videos.task_videos import open_index
    from foundation.errors import UserError
    from model_access.embeddings import MemoEncoder

    settings = copy.deepcopy(replay_settings)
    settings.selection.stage1_precut, settings.selection.stage1_pool_per_video = True, 5
    embedder = Embedder(settings)
    index = open_index(settings, embedder)
    intent = "What was the total of my most recent order?"
    source = method_candidates(settings, index, embedder)
    every = source.trajectories(TUTORIAL)
    assert len(every) > 5
    listed = [c.trajectory for c in source.pool([TUTORIAL], intent, None).candidates]
    # The same five the replay's stage 1 ranks first (agent/videos/stage1_ranking.py), shown as the tutorial unfolds.
    ranking = Stage1Ranking(settings, source, MemoEncoder(embedder, "test"))
    stage1 = ranking.ranked(TUTORIAL, RankingQuery(intent), set())
    assert {t.trajectory_id for t in listed} == {c.trajectory.trajectory_id for c in stage1[:5]}
    assert [every.index(t) for t in listed] == sorted(every.index(t) for t in listed)
    assert source.pool([TUTORIAL], intent, None).per_video[TUTORIAL] == {"trajectories": len(every), "listed": 5,
                                                                         "ranked": True}  # fmt: skip

    settings.selection.precut_ranking = "cosine"  # before issue 64: FAISS's nearest objectives to task and page
    nearest = {t.trajectory_id for t, _ in index.search(intent, k=5, video_ids=[TUTORIAL])}
    cosine = method_candidates(settings, index, embedder).pool([TUTORIAL], intent, None)
    assert {c.trajectory.trajectory_id for c in cosine.candidates} == nearest
    assert nearest != {t.trajectory_id for t in listed}  # the two rankings keep different trajectories here
    settings.selection.precut_ranking = "faiss"
    with pytest.raises(UserError, match="selection.precut_ranking is 'faiss'; set it to one of replay, cosine"):
        method_candidates(settings, index, embedder)
