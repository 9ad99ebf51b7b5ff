"""Command-line registration for `retrieval` (commands land here as the package grows)."""

from __future__ import annotations

import argparse


def register(subparsers, common: argparse.ArgumentParser) -> None:
    """No retrieval commands yet."""
