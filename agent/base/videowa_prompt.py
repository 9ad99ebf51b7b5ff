"""VideoWA's own baseline prompt, read at run time from the user's checkout (`agent.videowa_prompt_file`).

The reference's prompt files (`agent/prompts/jsons/p_som_cot_id_actree_3s*.json` in a VideoWA
checkout) hold an `intro`, worked `examples` (each an observation, the reply, its screenshot and,
in the frame variant, the example video's frames), a `template` with `{objective}`, `{url}`,
`{observation}`, `{previous_action}` (and `{video}`/`{audio}` or `{tutorial}`) and the
`answer_phrase`. Their text is not copied here: this module builds the request the way the
reference's prompt constructors do (MultimodalCoT, VideoFrame and VideoSummary, chat mode):

  system: intro
  per example: user (name example_user): text, "IMAGES: (1) current page screenshot", image
               [, "frame-i", frame image ...]; user (name example_assistant): the reply
  user: the filled template, "IMAGES: (1) current page screenshot", the page's screenshot,
        "(k) input image j" for each task image [, "Video frames", "frame-i", frame ...]
  user: the answer phrase

URLs are shown by the reference's real-world names (onestopmarket.com for the shop, ...) and a
reply's names are turned back into the local sites' URLs before the action is read.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

from evaluation.browser_env.actions import Action, ActionKind
from foundation.errors import UserError
from model_access.messages import Message, image_part, text_part
from tasks.placeholders import PlaceholderValues

SCREENSHOT_LABEL = "IMAGES: (1) current page screenshot"
# The reference's real-world names of the sites (browser_env/env_config.py, VideoWA's dataset).
REAL_NAMES = {
    "REDDIT": "http://reddit.com",
    "SHOPPING": "http://onestopmarket.com",
    "WIKIPEDIA": "http://wikipedia.org",
    "HOMEPAGE": "http://homepage.com",
    "CLASSIFIEDS": "http://classifieds.com",
    "SHOPPING_ADMIN": "http://luma.com/admin",
    "GITLAB": "http://gitlab.com",
    "MAP": "http://openstreetmap.org",
}


@runtime_checkable
class FramesShown(Protocol):
    """What `--policy frames` shows (agent/videowa_baselines/material.py): frame image parts and the narration.
    Matched by shape, so the base agent names no room above it."""

    parts: list[dict[str, Any]]
    transcript: str


@runtime_checkable
class SummaryShown(Protocol):
    """What `--policy summary` shows: (video, summary) pairs."""

    summaries: list[tuple[Any, str]]


@dataclass(frozen=True)
class ReferencePrompt:
    path: Path
    intro: str
    examples: list[list[Any]]
    template: str
    answer_phrase: str
    root: Path  # the checkout: example image paths are relative to it
    constructor: str = ""  # the file's meta_data.prompt_constructor: which of the reference's builders reads it

    @property
    def wants_frames(self) -> bool:
        return "{video}" in self.template or "{audio}" in self.template

    @property
    def wants_summary(self) -> bool:
        return "{tutorial}" in self.template


def read_prompt_file(path: Path, setting: str, fix: str) -> ReferencePrompt:
    """A VideoWA prompt file (intro, worked examples, template, answer phrase) as the setting `setting` names
    it; a missing or malformed file is one line ending with `fix`. Callers check what their kind needs."""
    if not path.is_file():
        raise UserError(f"{setting}: {path} does not exist; {fix}")
    try:
        data = json.loads(path.read_text())
        intro, examples, template = data["intro"], data["examples"], data["template"]
        meta = data["meta_data"]
        answer_phrase, constructor = meta["answer_phrase"], str(meta.get("prompt_constructor") or "")
    except (json.JSONDecodeError, KeyError, TypeError, AttributeError) as exc:
        raise UserError(f"{setting}: {path} is not a VideoWA prompt file ({exc!s}); {fix}") from None
    first = next((example[2] for example in examples if len(example) > 2 and example[2]), None)
    if isinstance(first, list):  # a frame question's example holds a list of frames
        first = first[0]
    return ReferencePrompt(path, intro, examples, template, answer_phrase, checkout_root(path, first, setting),
                           constructor)  # fmt: skip


def load_reference_prompt(setting: str) -> ReferencePrompt:
    """Read and check the prompt file `agent.videowa_prompt_file` names; every problem is one line."""
    path = Path(setting).expanduser()
    fix = "point it at agent/prompts/jsons/p_som_cot_id_actree_3s*.json in your VideoWA checkout"
    for example in _raw_examples(path):
        if len(example) < 3 or (len(example) > 3 and isinstance(example[3], str)):
            raise UserError(
                f"agent.videowa_prompt_file: {path} shows its examples as video files, which only Gemini reads "
                "there; use p_som_cot_id_actree_3s.json, ..._video_frame.json or ..._video_summary.json"
            )
    return read_prompt_file(path, "agent.videowa_prompt_file", fix)


def _raw_examples(path: Path) -> list[Any]:
    """The file's examples before any other check (their shape decides which message applies); [] if unreadable."""
    try:
        examples = json.loads(path.read_text()).get("examples")
    except (OSError, ValueError, AttributeError):
        return []
    return examples if isinstance(examples, list) else []


def checkout_root(path: Path, first_image: str | None, setting: str) -> Path:
    """The folder a prompt file's example image paths are relative to (the reference opens them from its
    working directory, the checkout): the first ancestor of the file that has the first of them."""
    for folder in path.resolve().parents:
        if first_image is None or (folder / first_image).is_file():
            return folder
    raise UserError(
        f"{setting}: the example image {first_image} is not under any folder above {path}; "
        "use the file inside its VideoWA checkout"
    )


class ReferenceUrls:
    """Local site URLs <-> the reference's real-world names."""

    def __init__(self, values: PlaceholderValues) -> None:
        self.pairs = [(url, REAL_NAMES[env]) for env in REAL_NAMES if (url := values.get(env))]

    def to_real(self, text: str) -> str:
        for local, real in self.pairs:
            text = text.replace(local, real)
        return text

    def to_local(self, text: str) -> str:
        for local, real in self.pairs:
            text = text.replace(real, local).replace(real.replace("http", "https", 1), local)
        return text


def previous_action_text(step: Any, known_ids: set[str]) -> str:
    """The PREVIOUS ACTION line as the reference writes it for Set-of-Marks (helper_functions.py)."""
    if step is None:
        return "None"
    if step.action is None:
        return (
            f'Your previous reply "{step.action_text}" gave no action in the expected form: put the action '
            "between a pair of ``` and its arguments in [], as in ```click [12]```."
        )
    action = Action.from_dict(step.action)
    kind, element = action.kind, action.element_id
    if element is not None and element not in known_ids:
        return f'There is no element [{element}] to "{kind.value}" in the observation; read it again carefully.'
    if kind in (ActionKind.CLICK, ActionKind.HOVER):
        return f"{kind.value} [{element}] where [{element}]"
    if kind is ActionKind.TYPE:
        return f"type [{element}] [{action.text}{chr(10) if action.press_enter else ''}] where [{element}]"
    if kind is ActionKind.CLEAR:
        return f"clear [{element}] where [{element}] is "
    described = {
        ActionKind.SCROLL: f"scroll [{action.direction}]",
        ActionKind.PRESS: f"press [{action.keys}]",
        ActionKind.GOTO: f"goto [{action.url}]",
        ActionKind.TAB_FOCUS: f"page_focus [{action.tab_index}]",
        ActionKind.STOP: f"stop [{action.answer}]",
    }
    return described.get(kind, kind.value)


def reference_messages(
    prompt: ReferencePrompt,
    fields: dict[str, str],
    screenshot: bytes | None,
    task_images: list[dict[str, Any]],
    material: Any,
) -> list[Message]:
    """The request of one step; `fields` fills the template, `material` is the video baselines' context."""
    values = dict(fields)
    frames: list[dict[str, Any]] = []
    if prompt.wants_frames:
        if not isinstance(material, FramesShown):
            raise UserError(f"{prompt.path.name} shows a video's frames: run it with --policy frames")
        frames = [part for part in material.parts if part.get("type") == "image_url"]
        values["video"] = " ".join(f"[FRAME{number}]" for number in range(1, len(frames) + 1))
        values["audio"] = material.transcript
    elif prompt.wants_summary:
        if not isinstance(material, SummaryShown):
            raise UserError(f"{prompt.path.name} shows a video's summary: run it with --policy summary")
        values["tutorial"] = "\n\n".join(summary for _, summary in material.summaries)
    elif material is not None:
        raise UserError(f"{prompt.path.name} has no place for a video; use a ..._video_frame or ..._video_summary file")
    try:
        current = prompt.template.format(**values)
    except KeyError as exc:
        raise UserError(f"{prompt.path.name}: its template asks for {exc} that this run does not give") from None

    messages: list[Message] = [{"role": "system", "content": [text_part(prompt.intro)]}]
    for example in prompt.examples:
        observation, reply, screenshot_path = example[:3]
        content = [text_part(observation), text_part(SCREENSHOT_LABEL), image_part(prompt.root / screenshot_path)]
        for number, frame_path in enumerate(example[3] if len(example) > 3 else []):
            content += [text_part(f"frame-{number}"), image_part(prompt.root / frame_path)]
        messages.append({"role": "user", "name": "example_user", "content": content})
        messages.append({"role": "user", "name": "example_assistant", "content": [text_part(reply)]})
    content = [text_part(current), text_part(SCREENSHOT_LABEL)]
    if screenshot is not None:
        content.append(image_part(screenshot))
    images = [part for part in task_images if part.get("type") == "image_url"]
    for number, image in enumerate(images, 1):
        content += [text_part(f"({number + 1}) input image {number}"), image]
    if frames:
        content.append(text_part("Video frames"))
        for number, frame in enumerate(frames):
            content += [text_part(f"frame-{number}"), frame]
    messages.append({"role": "user", "content": content})
    messages.append({"role": "user", "content": prompt.answer_phrase})
    return messages

