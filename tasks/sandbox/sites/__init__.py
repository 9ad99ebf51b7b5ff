"""The sandbox websites: small stand-ins for the WebArena shopping and reddit sites."""

from tasks.sandbox.sites.base import Account, LoginForm, SiteSpec

SHOP = SiteSpec(
    name="shop",
    stands_for="shopping",
    env_var="SHOPPING",
    port_setting="shop_port",
    package="tasks.sandbox.sites.shop",
    accounts=(
        # The customer the WebArena shopping tasks log in as, and the admin used by REST helpers.
        Account(username="emma.lopez@gmail.com", password="Password.123", email="emma.lopez@gmail.com"),
        Account(username="admin", password="admin1234", role="admin"),
    ),
    login_form=LoginForm("/customer/account/loginPost/", "login[username]", "login[password]"),
)

FORUM = SiteSpec(
    name="forum",
    stands_for="reddit",
    env_var="REDDIT",
    port_setting="forum_port",
    package="tasks.sandbox.sites.forum",
    accounts=(Account(username="MarvelsGrantMan136", password="test1234"),),
    login_form=LoginForm("/login_check", "_username", "_password"),
)

SITES: dict[str, SiteSpec] = {spec.name: spec for spec in (SHOP, FORUM)}


def site_by_name(name: str) -> SiteSpec:
    """Look a site up by sandbox name ("shop") or by the VideoWA site it stands for ("shopping")."""
    for spec in SITES.values():
        if name in (spec.name, spec.stands_for):
            return spec
    from foundation.errors import UserError

    raise UserError(f"unknown sandbox site {name!r}; choose one of: {', '.join(SITES)}")


__all__ = ["FORUM", "SHOP", "SITES", "Account", "LoginForm", "SiteSpec", "site_by_name"]
