"""Which sites a task may change, resetting the ones this tool can reset, and noticing changes.

Only the sandbox sites can be reset from here (through their reset endpoint); the
real self-hosted sites are reset by their operators. A sandbox site counts as present
when its address answers the sandbox health check as that site, so a `SHOPPING`
variable pointing at a real Magento is never "reset". The health check also returns
row counts, which, compared before and after a task, show whether it changed state.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

import requests

from settings import Settings

HEALTH_TIMEOUT_S = 5.0


@dataclass
class ResetOutcome:
    reset: list[str] = field(default_factory=list)  # messages of the sites reset
    not_resettable: list[str] = field(default_factory=list)  # task sites this tool cannot reset
    failed: list[str] = field(default_factory=list)  # resets tried that did not work, each with its fix

    def to_dict(self) -> dict[str, Any]:
        return {"reset": self.reset, "not_resettable": self.not_resettable, "failed": self.failed}


def _sandbox_health(site: str, settings: Settings) -> tuple[str, dict[str, Any]] | None:
    """(sandbox name, health) of the sandbox site standing for `site`, when one answers at its address."""
    from tasks.sandbox.server import site_url
    from tasks.sandbox.sites import SITES
    from tasks.sandbox.sites.base import HEALTH_PATH

    for spec in SITES.values():
        if spec.stands_for != site:
            continue
        try:
            response = requests.get(site_url(spec, settings) + HEALTH_PATH, timeout=HEALTH_TIMEOUT_S)
            health = response.json() if response.status_code == 200 else None
        except (requests.RequestException, ValueError):
            health = None
        if isinstance(health, dict) and health.get("site") == spec.name:
            return spec.name, health
    return None


def site_counts(sites: list[str], settings: Settings) -> dict[str, Any]:
    """Row counts of every sandbox site among `sites` that answers (keyed by sandbox name)."""
    counts = {}
    for site in sites:
        found = _sandbox_health(site, settings)
        if found is not None:
            counts[found[0]] = found[1].get("counts", {})
    return counts


def reset_sites(sites: list[str], settings: Settings) -> ResetOutcome:
    """Reset the task's sites: running sandbox sites and real ones with a reset path; list the others as not
    resettable."""
    from evaluation.scoring.site_resets import SITE_RESETS
    from tasks.sandbox.server import reset

    outcome = ResetOutcome()
    for site in sites:
        found = _sandbox_health(site, settings)
        if found is None and site in SITE_RESETS:
            _reset_real_site(site, settings, outcome)
        elif found is None:
            outcome.not_resettable.append(site)
        else:
            outcome.reset += reset(settings, [found[0]])
    return outcome


def _reset_real_site(site: str, settings: Settings, outcome: ResetOutcome) -> None:
    """A real site with a reset path (classifieds: its reset endpoint, called by the reference runner before
    every require_reset task); a failure is kept for the task's record instead of raised."""
    from evaluation.scoring.site_resets import reset_site
    from foundation.errors import UserError

    try:
        outcome.reset.append(reset_site(site, settings))
    except UserError as exc:
        outcome.failed.append(str(exc))
