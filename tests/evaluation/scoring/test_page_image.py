"""page_image_query on a small served page: structural similarity against a reference image, and
questions about the images through a VLM (scripted server) or, without one, unscorable."""

from __future__ import annotations

import threading
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import numpy as np
import pytest
from PIL import Image
from playwright.sync_api import Page

from evaluation.scoring.evaluate import evaluate_task
from evaluation.scoring.page_image import ModelVqa, image_ssim, page_image_details

PAGE = """<!doctype html><html><body>
<div class="photo"><img src="/tiles.jpg" alt="product photo"></div>
<img class="other" src="/stripes.png" alt="banner">
<img class="broken" src="/missing.png" alt="gone">
</body></html>"""


def blocks(seed: int, size: int) -> Image.Image:
    """A picture with structure: random 8x8 blocks of grey, scaled up."""
    cells = np.random.default_rng(seed).integers(0, 256, (8, 8), dtype=np.uint8)
    return Image.fromarray(cells).resize((size, size), Image.NEAREST).convert("RGB")


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


@pytest.fixture
def image_site(tmp_path: Path):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text(PAGE)
    blocks(1, 240).save(site / "tiles.jpg", quality=70)  # the reference, smaller and compressed
    blocks(2, 200).save(site / "stripes.png")
    blocks(1, 320).save(tmp_path / "reference.png")
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}/index.html", tmp_path / "reference.png"
    server.shutdown()
    server.server_close()


def query(url: str, image_class: str, **extra) -> dict:
    return {"eval_image_url": url, "eval_image_class": image_class, **extra}


def no_sites(site: str) -> str:
    raise AssertionError(f"no site address should be needed, asked for {site}")


def test_similar_image_passes_and_a_different_one_fails(image_site, page: Page) -> None:
    url, reference = image_site
    same = page_image_details([query(url, ".photo", eval_fuzzy_image_match=str(reference))], page, final_url=url,
                              base_url=no_sites)  # fmt: skip
    other = page_image_details([query("last", ".other", eval_fuzzy_image_match=str(reference))], page, final_url=url,
                               base_url=no_sites)  # fmt: skip
    assert same[0].passed and same[0].images == ["/tiles.jpg"]
    assert not other[0].passed and other[0].images == ["/stripes.png"]
    assert "best SSIM" in other[0].checks[0].note


def test_empty_class_looks_at_every_image_and_skips_those_that_do_not_load(image_site, page: Page) -> None:
    url, reference = image_site
    [result] = page_image_details([query(url, "", eval_fuzzy_image_match=str(reference))], page, final_url=url,
                                  base_url=no_sites)  # fmt: skip
    assert result.passed and sorted(result.images) == ["/stripes.png", "/tiles.jpg"]


def test_threshold_is_strict_and_can_be_set_per_query(image_site, page: Page) -> None:
    url, reference = image_site
    page.goto(url)
    shown = Image.open(Path(reference).parent / "site" / "tiles.jpg")
    similarity = image_ssim(shown.convert("RGB"), Image.open(reference).convert("RGB"))
    assert 0.8 < similarity < 1.0
    strict = query("last", ".photo", eval_fuzzy_image_match=str(reference), ssim_threshold=similarity + 0.001)
    [result] = page_image_details([strict], page, final_url=url, base_url=no_sites)
    assert not result.passed


def test_a_page_without_images_fails_the_evaluator(image_site, page: Page) -> None:
    url, reference = image_site
    task = {"eval": {"eval_types": ["page_image_query"], "page_image_query": [
        query(url, ".nothing-here", eval_fuzzy_image_match=str(reference)),
        query(url, ".photo", eval_fuzzy_image_match=str(reference)),
    ]}}  # fmt: skip
    evaluation = evaluate_task(task, page, None, url, base_url=no_sites)
    assert (evaluation.status, evaluation.score) == ("failed", 0.0)
    assert len(evaluation.verdicts[0].details) == 1  # stopped at the first query, as the reference does


def test_questions_without_a_vlm_are_unscorable(image_site, page: Page) -> None:
    url, _ = image_site
    task = {"eval": {"eval_types": ["page_image_query"], "page_image_query": [
        query(url, ".photo", eval_vqa=[{"question": "Is this a grid of squares? (yes/no)", "answer": "yes"}]),
    ]}}  # fmt: skip
    evaluation = evaluate_task(task, page, None, url, base_url=no_sites)
    assert (evaluation.status, evaluation.score) == ("unscorable", None)


def test_questions_go_to_the_vlm_with_each_image(image_site, page: Page, scripted_server, model_client) -> None:
    url, _ = image_site
    server = scripted_server({"rules": [{"contains": "grid", "reply": "Yes, it is."}], "default": "no"})
    vqa = ModelVqa(model_client(vlm=server))
    questions = [
        {"question": "Is this a grid of squares? (yes/no)", "answer": "yes"},
        {"question": "Is this a photo of a cat? (yes/no)", "answer": "yes"},
    ]
    [result] = page_image_details([query(url, ".photo", eval_vqa=questions)], page, final_url=url, base_url=no_sites,
                                  vqa=vqa)  # fmt: skip
    assert [check.passed for check in result.checks] == [True, False]
    requests = server.requests("/chat/completions")
    assert len(requests) == 2
    parts = requests[0]["body"]["messages"][0]["content"]
    assert any(part["type"] == "image_url" for part in parts)
