"""A sandbox task played in a real BrowserGym environment (system Chromium), scored by our evaluators."""

from __future__ import annotations

# Log in, pick two options of native <select> menus, add to cart: program_html reads the cart afterwards.
TASK = "videodemo.shop.7"


def test_the_reference_solution_earns_reward_1_and_stopping_earns_0(bridge) -> None:
    solved, stopped = bridge("episode", TASK, "--policy", "scripted,stop")["episodes"]
    assert solved["reward"] == 1.0 and solved["done"], solved
    assert solved["status"] == "passed"
    assert any(action.startswith("select_option(") for action in solved["actions"]), solved["actions"]
    assert solved["actions"][-1].startswith("send_msg_to_user(")
    # The same task again: its setup reset the shop, so the cart the solution filled is empty again.
    assert stopped["reward"] == 0.0 and stopped["done"] and stopped["steps"] == 1
    assert stopped["status"] == "failed"
