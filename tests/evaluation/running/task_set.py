"""A small sandbox task set with scripted solutions, one task per thing the runner must get right."""

from __future__ import annotations

import json
from pathlib import Path

SOURCE = "runner_tasks"
HEADPHONES = "tidewave-wireless-over-ear-headphones-active-noise-cancelling-40h-playtime.html"
REVIEW_SUMMARY = "Solid bass, comfy fit"


def _task(task_id: int, intent: str, start_url: str, eval_block: dict, **extra) -> dict:
    sites = ["reddit"] if start_url.startswith("__REDDIT__") else ["shopping"]
    return {
        "task_id": task_id,
        "sites": sites,
        "intent": intent,
        "start_url": start_url,
        "require_login": True,
        # Logins follow the storage state's name, as in the reference runner.
        "storage_state": f"./.auth/{sites[0]}_state.json",
        "require_reset": False,
        "eval": eval_block,
        **extra,
    }


TASKS = [
    _task(1, "What is the street of my default address?", "__SHOPPING__/customer/address/",
          {"eval_types": ["string_match"], "reference_answers": {"must_include": ["2145 Maple Grove Ave"]}}),
    _task(2, "Open my wish list.", "__SHOPPING__",
          {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/wishlist/", "url_note": "EXACT"}),
    _task(3, f"Review the headphones with four stars, summary '{REVIEW_SUMMARY}'.", f"__SHOPPING__/{HEADPHONES}",
          {"eval_types": ["program_html"], "program_html": [
              {"url": f"__SHOPPING__/{HEADPHONES}", "locator": "",
               "required_contents": {"must_include": [REVIEW_SUMMARY]}}]}),
    _task(4, "Remove the first item of my wish list.", "__SHOPPING__/wishlist/",
          {"eval_types": ["program_html"], "program_html": [
              {"url": "__SHOPPING__/wishlist/",
               "locator": "document.querySelectorAll('.wishlist-items .product-item').length",
               "required_contents": {"required_values": ["== 2"]}}]},
          require_reset=True),
    _task(5, "A task whose url_note is empty.", "__SHOPPING__",
          {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/", "url_note": ""}),
    _task(6, "What is the zip code of my default address?", "__SHOPPING__/customer/address/",
          {"eval_types": ["string_match"], "reference_answers": {"must_include": ["15213"]}},
          intermediate_intent="In which city does the customer in the video live?",
          intermediate_eval={"eval_types": ["string_match"], "reference_answers": {"must_include": ["Pittsburgh"]}},
          overall_difficulty="easy"),
    _task(7, "What is the name of this store?", "__SHOPPING__",
          {"eval_types": ["string_match"], "reference_answers": {"fuzzy_match": ["the One Stop Market"]}}),
    _task(8, "Is the product picture a triangle?", f"__SHOPPING__/{HEADPHONES}",
          {"eval_types": ["page_image_query"], "page_image_query": [
              {"eval_image_url": "last", "eval_image_class": ".media",
               "eval_vqa": [{"question": "Is there a triangle in the image? (yes/no)", "answer": "yes"}]}]}),
    _task(9, "Open the movies forum.", "__REDDIT__/forums",
          {"eval_types": ["url_match"], "reference_url": "__REDDIT__/f/movies", "url_note": "GOLD in PRED"}),
    _task(10, "Open the cart.", "__SHOPPING__",
          {"eval_types": ["url_match"], "reference_url": "__SHOPPING__/checkout/cart/"}),
]  # fmt: skip

SOLUTIONS = {
    "1": ["stop [2145 Maple Grove Ave]"],
    "2": ["click [link 'My Wish List']", "stop []"],
    # The review form is below the fold: its targets are found in the full-page tree.
    "3": [
        "click [radio '4 stars']",
        "type [textbox 'Summary'] [Solid bass, comfy fit] [0]",
        "type [textbox 'Review'] [Deep sound and soft ear cushions.] [0]",
        "click [button 'Submit Review']",
        "stop []",
    ],
    "4": ["click [button 'Remove item']", "stop []"],
    "5": ["stop []"],
    f"{SOURCE}:6": {"actions": ["stop [15213]"], "intermediate_answer": "She lives in Pittsburgh."},
    "7": ["stop [One Stop Market]"],
    "8": ["stop []"],
    "9": ["click [link 'movies']", "stop []"],
    "10": ["click [button 'Teleport Me']", "stop []"],
}

# What each task must come out as (with a judge configured, without a VLM).
EXPECTED = {
    1: "passed", 2: "passed", 3: "passed", 4: "passed", 5: "config_error",
    6: "passed", 7: "passed", 8: "unscorable", 9: "passed", 10: "failed",
}  # fmt: skip


def write_task_set(folder: Path) -> tuple[Path, Path]:
    """(tasks file, solutions file) in `folder`."""
    folder.mkdir(parents=True, exist_ok=True)
    tasks, solutions = folder / f"{SOURCE}.json", folder / "solutions.json"
    tasks.write_text(json.dumps(TASKS, indent=1))
    solutions.write_text(json.dumps(SOLUTIONS, indent=1))
    return tasks, solutions
