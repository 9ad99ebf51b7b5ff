"""Command-line registration for `processing` (commands land here as the package grows)."""

from __future__ import annotations

import argparse


def register(subparsers, common: argparse.ArgumentParser) -> None:
    """No processing commands yet."""
