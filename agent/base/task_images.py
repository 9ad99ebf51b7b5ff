"""A task's input images (the VisualWebArena `image` field), given to the model with the objective at every step,
as the reference runner gives them with the intent. Every base agent uses these two functions."""

from __future__ import annotations

from typing import Any

from agent.base.templates import block
from model_access.messages import image_part
from tasks.images import load_task_images
from settings import Settings


def images_of(task: Any, settings: Settings) -> list[bytes]:
    """The task's images, downloaded once into the cache (a UserError names one that cannot be had)."""
    return load_task_images(getattr(task, "images", []), settings.paths.cache_dir)


def task_image_parts(images: list[bytes]) -> list[dict[str, Any]]:
    """A caption saying how many images the objective comes with, then the images; nothing without images."""
    if not images:
        return []
    return [block("task_images", count=len(images)), *(image_part(image) for image in images)]
