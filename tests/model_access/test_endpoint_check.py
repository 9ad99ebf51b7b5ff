"""The pre-run check tells a busy server (connected, no reply yet) from a dead one (issue 39, item 4)."""

from __future__ import annotations

import logging
import socket

import pytest

from model_access.client import ModelClient
from model_access.health import EndpointDown, check_endpoint


def test_a_server_that_takes_the_connection_but_does_not_answer_is_busy_not_dead(model_settings, caplog):
    # A listening socket that never reads: the connection is made, no reply ever comes (a server busy generating).
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)
        model_settings.models.policy.base_url = f"http://127.0.0.1:{busy.getsockname()[1]}/v1"
        model_settings.models.policy.model = "m"
        model_settings.models.check_timeout_s = 0.5
        with ModelClient(model_settings) as client, caplog.at_level(logging.WARNING):
            check_endpoint(client, "policy")  # goes on
    warning = caplog.text
    assert "has not answered" in warning and "models.check_timeout_s" in warning and "start its server" not in warning


def test_a_server_that_refuses_the_connection_stops_the_command(model_settings):
    with socket.socket() as free:
        free.bind(("127.0.0.1", 0))
        port = free.getsockname()[1]  # closed again: nothing listens there
    model_settings.models.policy.base_url = f"http://127.0.0.1:{port}/v1"
    model_settings.models.policy.model = "m"
    with ModelClient(model_settings) as client, pytest.raises(EndpointDown) as down:
        check_endpoint(client, "policy")
    assert "does not answer" in str(down.value) and "start its server" in str(down.value)


def test_models_check_calls_a_busy_server_busy(model_settings):
    from model_access.role_check import FAIL, check_role

    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen(8)
        model_settings.models.llm.base_url = f"http://127.0.0.1:{busy.getsockname()[1]}/v1"
        model_settings.models.llm.model = "m"
        model_settings.models.llm.timeout_s = 1.0
        model_settings.models.check_timeout_s = 0.3
        with ModelClient(model_settings) as client:
            check = check_role(client, "llm")
    texts = [finding.text for finding in check.findings]
    assert any("looks busy" in text and "models.check_timeout_s" in text for text in texts), texts
    assert not any("start its server" in text for text in texts)
    assert check.level == FAIL  # its chat reply did not come either: said as a timeout, not as a dead server
