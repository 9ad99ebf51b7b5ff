"""The classifieds reset path (POST index.php?page=reset with the token), the only real site that has one."""

from __future__ import annotations

import pytest

from foundation.errors import UserError
from evaluation.scoring.site_resets import SITE_RESETS, reset_classifieds, reset_site

from tests.evaluation.scoring.sites.osclass import RESET_TOKEN  # noqa: I001


def test_reset_with_the_token_from_the_environment(site_env, site_settings, monkeypatch) -> None:
    monkeypatch.setenv("CLASSIFIEDS_RESET_TOKEN", RESET_TOKEN)
    line = reset_site("classifieds", site_settings)
    assert line == f"classifieds reset ({site_env['classifieds']}/index.php?page=reset)"


def test_missing_token_names_the_variable(site_env, monkeypatch) -> None:
    monkeypatch.delenv("CLASSIFIEDS_RESET_TOKEN", raising=False)
    with pytest.raises(UserError, match="export CLASSIFIEDS_RESET_TOKEN="):
        reset_classifieds(site_env["classifieds"])


def test_wrong_token_is_refused_by_the_site(site_env) -> None:
    with pytest.raises(UserError, match="HTTP 403; check CLASSIFIEDS_RESET_TOKEN"):
        reset_classifieds(site_env["classifieds"], token="wrong")


def test_sites_without_a_reset_path_say_so(site_env, site_settings) -> None:
    assert set(SITE_RESETS) == {"classifieds"}
    with pytest.raises(UserError, match="gitlab site has no reset path"):
        reset_site("gitlab", site_settings)
