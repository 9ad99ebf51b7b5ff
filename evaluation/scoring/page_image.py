"""page_image_query: images on a page compared with a reference image, or asked about through a VLM.

For each query `{eval_image_url, eval_image_class, eval_fuzzy_image_match?, eval_vqa?, ssim_threshold?}`
(VisualWebArena's shape): open the URL (`last`, `func:...` or a plain URL, as in
program_html), collect the images (every `img` on the page when the class is empty,
else the `img` elements matching the class selector and those inside them), and fetch
them with the browser's cookies. Then:

- `eval_fuzzy_image_match`: reference images (URLs or files, ` |OR| `-separated); passes
  when some pair of reference and page image has a structural similarity above the
  threshold (0.8 unless the query sets `ssim_threshold`), both images resized to the
  larger width and height and turned grey first;
- `eval_vqa`: each `{question, answer}` is asked about every page image through the
  configured VLM; it passes when any reply contains the expected answer (case ignored).

A page with no images, or none that could be fetched, fails the whole evaluator at
once, as in the reference. VQA without a configured VLM is Unscorable.
"""

from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path
from string import Template
from typing import Any, Callable, Protocol
from urllib.parse import urljoin

import numpy as np
import requests
from PIL import Image
from playwright.sync_api import Error as PlaywrightError

from evaluation.scoring.errors import ConfigError, Unscorable
from evaluation.scoring.judge import PROMPTS_DIR
from evaluation.scoring.program_html import LAST, check_url_spec, open_url, resolve_url
from evaluation.scoring.site_helpers import HelperContext
from evaluation.scoring.site_helpers.rest import SiteHelperError
from evaluation.scoring.string_match import Check
from evaluation.scoring.text import split_alternatives

DEFAULT_SSIM_THRESHOLD = 0.8
IMAGE_TIMEOUT_S = 30.0


class Vqa(Protocol):
    def answer(self, image: Image.Image, question: str) -> str:
        """A short answer to `question` about `image`."""
        ...


class ModelVqa:
    """A `Vqa` through the configured `vlm` model role."""

    def __init__(self, client: Any, prompts_dir: Path = PROMPTS_DIR) -> None:
        self._client = client
        self._template = Template((prompts_dir / "vqa_user.txt").read_text(encoding="utf-8").rstrip("\n"))

    def answer(self, image: Image.Image, question: str) -> str:
        from model_access.messages import user_message

        prompt = self._template.substitute(question=question)
        return self._client.chat("vlm", [user_message(prompt, [image])], stage="vqa", temperature=0).text


@dataclass
class ImageQueryResult:
    index: int
    url: str
    visited_url: str
    image_class: str
    images: list[str] = field(default_factory=list)  # the src of every page image that was fetched
    checks: list[Check] = field(default_factory=list)
    passed: bool = False
    note: str = ""

    def to_dict(self) -> dict[str, Any]:
        return {**self.__dict__, "checks": [check.__dict__ for check in self.checks]}


def check_queries(queries: Any) -> None:
    """Raise ConfigError unless every query can be applied as written."""
    if not isinstance(queries, list) or not queries:
        raise ConfigError(f"page_image_query needs a non-empty list of queries, got {queries!r}")
    for index, query in enumerate(queries):
        where = f"page_image_query[{index}]"
        if not isinstance(query, dict):
            raise ConfigError(f"{where} must be an object")
        url, image_class = query.get("eval_image_url"), query.get("eval_image_class")
        check_url_spec(url, f"{where}.eval_image_url")
        if not isinstance(image_class, str) or (image_class.strip() and not image_class.startswith(".")):
            raise ConfigError(f"{where}.eval_image_class must be empty or a class selector like '.photo'")
        vqa = query.get("eval_vqa", [])
        if not isinstance(vqa, list) or not all(
            isinstance(qa, dict) and isinstance(qa.get("question"), str) and isinstance(qa.get("answer"), str)
            for qa in vqa
        ):
            raise ConfigError(f"{where}.eval_vqa must be a list of {{question, answer}} strings")
        fuzzy = query.get("eval_fuzzy_image_match")
        if not vqa and fuzzy is None:
            raise ConfigError(f"{where} has neither eval_vqa questions nor eval_fuzzy_image_match")
        if fuzzy is not None and (not isinstance(fuzzy, str) or not fuzzy.strip()):
            raise ConfigError(f"{where}.eval_fuzzy_image_match must name reference images, got {fuzzy!r}")
        threshold = query.get("ssim_threshold", DEFAULT_SSIM_THRESHOLD)
        if isinstance(threshold, bool) or not isinstance(threshold, (int, float)):
            raise ConfigError(f"{where}.ssim_threshold must be a number, got {threshold!r}")


def image_ssim(first: Image.Image, second: Image.Image) -> float:
    """Structural similarity of two images after resizing both to the larger size and turning them grey."""
    from skimage.metrics import structural_similarity

    size = (max(first.size[0], second.size[0]), max(first.size[1], second.size[1]))
    grey = [np.asarray(image.resize(size, Image.LANCZOS).convert("L")) for image in (first, second)]
    return float(structural_similarity(grey[0], grey[1]))


def page_images(page: Any, image_class: str) -> list[Any]:
    """The image elements a query looks at."""
    if not image_class.strip():
        return page.get_by_role("img").all()
    images = []
    for element in page.query_selector_all(image_class):
        if element.evaluate("(element) => element.tagName === 'IMG'"):
            images.append(element)
        else:
            images.extend(element.query_selector_all("img"))
    return images


def fetch_page_images(page: Any, elements: list[Any]) -> tuple[list[Image.Image], list[str]]:
    """Download each element's `src` with the page's cookies; images that cannot be fetched are skipped."""
    images, sources = [], []
    for element in elements:
        try:
            source = element.get_attribute("src")
            if not source:
                continue
            images.append(Image.open(io.BytesIO(_image_bytes(page, source))).convert("RGB"))
            sources.append(source)
        except (PlaywrightError, OSError, ValueError):
            continue  # the reference skips an image it cannot load
    return images, sources


def _image_bytes(page: Any, source: str) -> bytes:
    if source.startswith("data:"):
        from model_access.messages import decode_data_url

        return decode_data_url(source)[1]
    url = source if source.startswith(("http://", "https://")) else urljoin(page.url, source)
    # Through the browser context, so an image only a logged-in user may see is fetched too.
    response = page.request.get(url, timeout=IMAGE_TIMEOUT_S * 1000)
    if not response.ok:
        raise ValueError(f"HTTP {response.status} for {url}")
    return response.body()


def load_reference_image(source: str, base_dir: Path | None = None) -> Image.Image:
    """A reference image from a URL or a file (relative paths from `base_dir`)."""
    try:
        if source.startswith(("http://", "https://")):
            response = requests.get(source, timeout=IMAGE_TIMEOUT_S)
            response.raise_for_status()
            return Image.open(io.BytesIO(response.content)).convert("RGB")
        path = Path(source)
        if base_dir is not None and not path.is_absolute():
            path = base_dir / path
        return Image.open(path).convert("RGB")
    except (requests.RequestException, OSError) as exc:
        raise SiteHelperError(f"reference image {source} could not be loaded ({exc})") from None


def page_image_details(
    queries: list[dict],
    page: Any,
    *,
    final_url: str,
    base_url: Callable[[str], str],
    vqa: Vqa | None = None,
    reference_dir: Path | None = None,
    navigation_timeout_ms: int = 30000,
) -> list[ImageQueryResult]:
    """Run every query in order; stops at a query whose page has no usable image (the evaluator fails)."""
    check_queries(queries)
    if vqa is None and any(query.get("eval_vqa") for query in queries):
        raise Unscorable("page_image_query asks questions about images; configure a VLM (models.vlm) to score it")
    context = HelperContext(page=page, last_url=final_url, base_url=base_url)
    results = []
    for index, query in enumerate(queries):
        target = resolve_url(query["eval_image_url"], context)
        if target != LAST:
            open_url(page, target, navigation_timeout_ms)
        result = ImageQueryResult(index, query["eval_image_url"], page.url, query["eval_image_class"])
        results.append(result)
        images, result.images = fetch_page_images(page, page_images(page, query["eval_image_class"]))
        if not images:
            result.note = "no image could be read on the page, which fails the evaluator"
            return results
        for qa in query.get("eval_vqa", []):
            replies = [vqa.answer(image, qa["question"]) for image in images]  # type: ignore[union-attr]
            passed = any(qa["answer"].lower() in reply.lower() for reply in replies)
            note = "replies: " + " | ".join(" ".join(reply.split())[:80] for reply in replies)
            result.checks.append(Check("eval_vqa", f"{qa['question']} -> {qa['answer']}", passed, note))
        if query.get("eval_fuzzy_image_match") is not None:
            result.checks.append(_fuzzy_image_check(query, images, reference_dir))
        result.passed = all(check.passed for check in result.checks)
    return results


def _fuzzy_image_check(query: dict, images: list[Image.Image], reference_dir: Path | None) -> Check:
    threshold = float(query.get("ssim_threshold", DEFAULT_SSIM_THRESHOLD))
    sources = split_alternatives(query["eval_fuzzy_image_match"])
    best = -1.0
    for source in sources:
        reference = load_reference_image(source, reference_dir)
        for image in images:
            try:
                best = max(best, image_ssim(image, reference))
            except ValueError:
                continue  # an image too small for the similarity window cannot match
    passed = best > threshold
    note = f"best SSIM {best:.3f} vs {threshold}"
    return Check("eval_fuzzy_image_match", query["eval_fuzzy_image_match"], passed, note)


def vqa_from_client(client: Any) -> ModelVqa | None:
    """A ModelVqa on the client's `vlm` role; None when that role is not configured."""
    return ModelVqa(client) if client.is_configured("vlm") else None
