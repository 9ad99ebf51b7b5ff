"""Which policies read which oracle switch, and the one-line errors for the combinations that mean nothing."""

from __future__ import annotations

from agent.videos.modes import Mode
from foundation.errors import UserError
from settings import Settings

# Policies that read oracle.selection and oracle.grounding (oracle.labels only moves the index they read).
READERS = {"selection": ("replay", "video"), "grounding": ("replay",), "values": ("replay",)}


def switched_on(settings: Settings) -> list[str]:
    """The oracle switches that are on, as `oracle.NAME`."""
    oracle = settings.oracle
    return [f"oracle.{name}" for name in ("labels", "selection", "grounding", "values") if getattr(oracle, name)]


def check_policy(policy: str, settings: Settings) -> None:
    """A switch the chosen policy does not read would change nothing: say so before any task runs."""
    for name, readers in READERS.items():
        if getattr(settings.oracle, name) and policy not in readers:
            raise UserError(f"oracle.{name} is read by --policy {' and '.join(readers)} only, not {policy}; "
                            "drop it or change the policy")  # fmt: skip


def check_mode(settings: Settings, mode: Mode, policy: str) -> None:
    """oracle.selection stands in for trajectory selection, so it needs it; grounding needs demonstrations."""
    check_policy(policy, settings)
    if settings.oracle.selection and mode is not Mode.SELECTION:
        raise UserError(
            f"oracle.selection stands in for trajectory selection, which this run turns off ({mode.value} mode): "
            "drop --no-trajectory-selection, --no-videos or --transcript-only, or the oracle"
        )
    if settings.oracle.grounding and mode is Mode.NONE:
        raise UserError("oracle.grounding grounds demonstrated steps, and --no-videos shows none: drop one of them")
    if settings.oracle.values and mode is Mode.NONE:
        raise UserError("oracle.values fills in demonstrated steps, and --no-videos shows none: drop one of them")
