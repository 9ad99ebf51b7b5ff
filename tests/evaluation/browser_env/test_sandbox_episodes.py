"""Whole episodes on the sandbox sites, driven only by text actions whose ids are looked up in the observation."""

from __future__ import annotations

import json
import re

from evaluation.browser_env.observation import Observation

from tests.evaluation.browser_env.browser_env_helpers import EpisodeTask, find_id, has_line

PRODUCT = "Tidewave Wireless Over-Ear Headphones, Active Noise Cancelling, 40H Playtime, Bluetooth 5.3"


class Driver:
    """Sends text actions to an environment, naming elements by role and name as a reader of the tree would."""

    def __init__(self, env, observation: Observation):
        self.env = env
        self.observation = observation

    def do(self, action: str, role: str | None = None, name: str | None = None, *args: str) -> Observation:
        if role is not None:
            action += f" [{find_id(self.observation, role, name)}]"
        action += "".join(f" [{arg}]" for arg in args)
        result = self.env.step(f"```{action}```")
        assert result.ok, f"{action}: {result.error}"
        self.observation = result.observation
        return result.observation


def test_shop_episode_logs_in_searches_adds_to_cart_and_checks_out(fresh_sandbox, make_env, env_settings) -> None:
    env_settings.agent.max_steps = 40
    env = make_env()
    shop = fresh_sandbox.shop_url
    driver = Driver(env, env.reset(EpisodeTask(start_url=shop, sites=["shopping"])))
    assert has_line(driver.observation, "link", "Sign In")

    # Log in through the site's own form.
    driver.do("click", "link", "Sign In")
    assert driver.observation.url == f"{shop}/customer/account/login/"
    driver.do("type", "textbox", "Email", "emma.lopez@gmail.com", "0")
    driver.do("type", "textbox", "Password", "Password.123", "0")
    observation = driver.do("press [Enter]")
    assert "StaticText 'Welcome, Emma Lopez!'" in observation.text

    # Search: a wrong start, cleared, then the real query with Enter.
    driver.do("type", "searchbox", "Search", "over-ear", "0")
    driver.do("clear", "searchbox", "Search")
    observation = driver.do("type", "searchbox", "Search", "over-ear headphones")
    assert observation.url == f"{shop}/catalogsearch/result/?q=over-ear+headphones"
    assert has_line(observation, "heading", "Search results for: 'over-ear headphones'")

    # The product needs a colour before it goes into the cart.
    driver.do("hover", "link", PRODUCT)
    observation = driver.do("click", "link", PRODUCT)
    assert has_line(observation, "heading", PRODUCT)
    observation = driver.do("click", "option", "Charcoal Gray")
    assert "combobox 'Color' expanded: False value: 'Charcoal Gray'" in observation.text
    observation = driver.do("click", "button", "Add to Cart")
    assert f"You added {PRODUCT} to your shopping cart." in observation.text
    assert has_line(observation, "link", "My Cart 1 item")

    observation = driver.do("click", "link", "My Cart 1 item")
    assert observation.url == f"{shop}/checkout/cart/"
    assert has_line(observation, "cell", f"{PRODUCT} Color: Charcoal Gray")
    observation = driver.do("click", "link", "Proceed to Checkout")
    assert "textbox 'Street Address' required: True value: '2145 Maple Grove Ave'" in observation.text
    if not has_line(observation, "button", "Place Order"):
        observation = driver.do("scroll [down]")
    observation = driver.do("click", "button", "Place Order")
    assert observation.url == f"{shop}/checkout/onepage/success/"
    assert has_line(observation, "heading", "Thank you for your purchase!")
    order_number = re.search(r"StaticText '(\d{6,})'", observation.text) or re.search(
        r"link '(\d{6,})'", observation.text
    )
    assert order_number, observation.text
    order_number = order_number.group(1)

    # The order history, read in a second tab, lists the new order; then back to the first tab.
    driver.do("new_tab")
    observation = driver.do(f"goto [{shop}/sales/order/history/]")
    assert observation.text.startswith("Tab 0: Success Page | Tab 1 (current): My Orders")
    assert has_line(observation, "cell", order_number)
    assert has_line(observation, "cell", "$97.95")
    observation = driver.do("close_tab")
    assert observation.url == f"{shop}/checkout/onepage/success/" and len(observation.tabs) == 1

    result = env.step(f"```stop [{order_number}]```")
    assert result.done and result.answer == order_number
    # What an evaluator would check afterwards, on the live context the episode leaves open.
    history = env.context.new_page()
    history.goto(f"{shop}/sales/order/history/")
    assert order_number in history.locator("#my-orders-table").inner_text()


def test_forum_episode_logs_in_opens_a_forum_votes_and_comments(fresh_sandbox, make_env, env_settings) -> None:
    env_settings.agent.max_steps = 40
    env = make_env()
    forum = fresh_sandbox.forum_url
    driver = Driver(env, env.reset(EpisodeTask(start_url=f"{forum}/login", sites=["reddit"])))

    driver.do("type", "textbox", "Username", "MarvelsGrantMan136", "0")
    observation = driver.do("type", "textbox", "Password", "test1234")  # Enter submits
    assert has_line(observation, "link", "MarvelsGrantMan136") and has_line(observation, "button", "Log out")

    driver.do("click", "link", "Forums")
    observation = driver.do("click", "link", "gaming")
    assert observation.url == f"{forum}/f/gaming"
    observation = driver.do("click", "link", "Finally beat Elden Ring after 140 hours")
    post_url = observation.url
    assert has_line(observation, "heading", "Finally beat Elden Ring after 140 hours")
    score = _post_score(observation)

    observation = driver.do("click", "button", "Upvote")
    assert _post_score(observation) == score + 1
    assert has_line(observation, "button", "Retract upvote")

    comment = "Malenia took me 41 tries, so this is impressive."
    driver.do("type", "textbox", "Comment", comment, "0")
    observation = driver.do("click", "button", "Post")
    if f"StaticText {comment!r}" not in observation.text:  # the new comment may sit below the fold
        observation = driver.do("scroll [down]")
    assert f"StaticText {comment!r}" in observation.text

    # Reloaded from the server, the vote and the comment are still there.
    observation = driver.do(f"goto [{post_url}]")
    assert _post_score(observation) == score + 1
    page_text = env.page.locator("body").inner_text()
    assert comment in page_text


def test_task_that_requires_login_starts_logged_in(fresh_sandbox, make_env) -> None:
    env = make_env()
    task = EpisodeTask(
        start_url=f"{fresh_sandbox.shop_url} |AND| {fresh_sandbox.forum_url}",
        sites=["shopping", "reddit"],
        require_login=True,
        storage_state="./.auth/reddit.shopping_state.json",  # a pair state, named as the reference names them
    )
    observation = env.reset(task)
    assert "StaticText 'Welcome, Emma Lopez!'" in observation.text
    observation = env.step("tab_focus [1]").observation
    assert has_line(observation, "link", "MarvelsGrantMan136") and has_line(observation, "button", "Log out")


def test_logins_follow_the_storage_state_not_the_sites(fresh_sandbox, make_env) -> None:
    """A reddit+shopping task whose storage state is reddit's starts logged in to the forum only."""
    env = make_env()
    task = EpisodeTask(
        start_url=f"{fresh_sandbox.shop_url} |AND| {fresh_sandbox.forum_url}",
        sites=["reddit", "shopping"],
        require_login=True,
        storage_state="./.auth/reddit_state.json",
    )
    observation = env.reset(task)
    assert "Welcome, Emma Lopez!" not in observation.text and has_line(observation, "link", "Sign In")
    observation = env.step("tab_focus [1]").observation
    assert has_line(observation, "link", "MarvelsGrantMan136") and has_line(observation, "button", "Log out")
    cookies = {cookie["name"] for cookie in env.context.cookies()}
    assert "forum_session" in cookies and "shop_session" not in cookies

    # No storage_state: no login at all, even with require_login set.
    task = EpisodeTask(start_url=fresh_sandbox.forum_url, sites=["reddit"], require_login=True, storage_state=None)
    observation = env.reset(task)
    assert not has_line(observation, "button", "Log out")
    assert "forum_session" not in {cookie["name"] for cookie in env.context.cookies()}


def _post_score(observation: Observation) -> int:
    """The score shown between the submission's vote buttons (the first vote form on the page)."""
    match = re.search(
        r"button '(?:Upvote|Retract upvote)'\n\t*\[\d+\] StaticText '([−\-]?\d+)'", observation.text
    )
    assert match, observation.text
    return int(match.group(1).replace("−", "-"))


def test_task_from_a_webarena_config_opens_logged_in_with_its_viewport(fresh_sandbox, make_env, tmp_path) -> None:
    from tasks.loading import load_tasks

    config = {
        "task_id": 7,
        "sites": ["shopping"],
        "require_login": True,
        "storage_state": "./.auth/shopping_state.json",
        "start_url": "__SHOPPING__/customer/account/",
        "geolocation": None,
        "intent": "What is the name on my account?",
        "viewport_size": {"width": 1024, "height": 640},
        "eval": {"eval_types": ["string_match"], "reference_answers": {"exact_match": "Emma Lopez"}},
    }
    path = tmp_path / "shop_tasks.json"
    path.write_text(json.dumps([config]))
    (task,) = load_tasks(path, settings=fresh_sandbox.settings)

    env = make_env()
    observation = env.reset(task)
    assert observation.url == f"{fresh_sandbox.shop_url}/customer/account/"  # logged in: no bounce to the form
    assert observation.viewport == (1024, 640) and observation.screenshot_array.shape == (640, 1024, 3)
    assert env.record.task_key == task.key == "shop_tasks:7"
