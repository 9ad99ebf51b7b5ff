"""How close a transcript is to what was said: word error rate after Whisper's English normaliser.

The normaliser is OpenAI's, as transformers ships it (case, punctuation, numbers written either way:
"one hundred three" and "103"), so only misheard words count. jiwer is a development dependency
(`pip install -e .[dev]`): the tests and benchmarks/speech_recognition.py score with it.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Callable, Sequence


@lru_cache(maxsize=1)
def _normaliser() -> Callable[[str], str]:
    from transformers.models.whisper.english_normalizer import EnglishTextNormalizer

    return EnglishTextNormalizer({})


def word_error_rate(reference: str | Sequence[str], heard: str | Sequence[str]) -> float:
    """jiwer's word error rate (substitutions, deletions and insertions over the reference's words) of the texts
    as Whisper's normaliser writes them; lists of texts are pooled (all edits over all reference words)."""
    import jiwer

    normalise = _normaliser()
    if isinstance(reference, str) and isinstance(heard, str):
        return jiwer.wer(normalise(reference), normalise(heard))
    return jiwer.wer([normalise(text) for text in reference], [normalise(text) for text in heard])
