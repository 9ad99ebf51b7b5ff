"""Helpers for the gitlab site (no sandbox stands for it; these read GitLab's own member pages)."""

from __future__ import annotations

from typing import Any

from evaluation.scoring.site_helpers.generic import evaluate_or

# The role shown in the row of a project's "Members" table whose account reads "@<name>".
_MEMBER_ROLE_JS = """(account) => {
  const accounts = [...document.querySelectorAll("td[data-label='Account'] span.gl-avatar-labeled-sublabel")];
  const index = accounts.findIndex((element) => element.outerText === '@' + account);
  return document.querySelectorAll('td.col-max-role span')[index].outerText;
}"""


def gitlab_get_project_memeber_role(page: Any, account_name: str) -> str:
    """Role ("Developer", "Maintainer"...) of a member on the project members page; "" when not listed.

    The misspelt name is the one task configs call.
    """
    role = evaluate_or(page, _MEMBER_ROLE_JS, "", account_name)
    return role if isinstance(role, str) else ""
