"""Command-line registration for `evaluation` (commands land here as the package grows)."""

from __future__ import annotations

import argparse


def register(subparsers, common: argparse.ArgumentParser) -> None:
    """No evaluation commands yet."""
