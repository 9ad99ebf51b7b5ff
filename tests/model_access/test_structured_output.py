"""Structured output: every reply schema beside its prompt, the request fields each server reads, and the
client sending a schema only when the role asks for it and counting replies that break it."""

from __future__ import annotations

from pathlib import Path

import pytest

from foundation.errors import UserError
from model_access.client import ModelClient
from model_access.messages import user_message
from model_access.reply_grammar import grammar_for
from model_access.reply_schema import load_reply_schema
from model_access.structured_output import LLAMA_CPP, LLAMA_CPP_PYTHON, OPENAI, SGLANG, TRANSFORMERS, VLLM, ServerKind
from model_access.structured_output import request_fields, resolve_mode

ROOT = Path(__file__).resolve().parents[2]
SCHEMAS = sorted(p for p in ROOT.glob("*/**/prompts/*.schema.json") if ".venv" not in p.parts)


def test_every_structured_reply_has_a_strict_schema_beside_its_prompt_and_a_grammar() -> None:
    names = {p.name.removesuffix(".schema.json") for p in SCHEMAS}
    # the method's selection, the processing stages, retrieval's filters and the judge
    assert {"select_continuation", "select_stage1", "select_stage2_question", "labeling", "merging",
            "action_filtering", "trajectory_check", "trajectory_question", "coarse", "verification",
            "judge_grade_user"} <= names  # fmt: skip
    for path in SCHEMAS:
        assert (path.parent / f"{path.name.removesuffix('.schema.json')}.txt").is_file(), path
        schema = load_reply_schema(path).schema

        def strict(node: object) -> None:
            if isinstance(node, dict):
                if node.get("type") == "object":  # OpenAI's strict mode: all listed, nothing else
                    assert node["additionalProperties"] is False and set(node["required"]) == set(node["properties"])
                for value in node.values():
                    strict(value)
            elif isinstance(node, list):
                for value in node:
                    strict(value)

        strict(schema)
        assert grammar_for(schema, path.name).startswith("root ::= ")


SELECTION = load_reply_schema(ROOT / "agent/method/prompts/select_stage2_question.schema.json")


@pytest.mark.parametrize(
    ("kind", "mode", "expected_fields"),
    [
        (ServerKind(OPENAI), "json_schema", {"response_format"}),
        (ServerKind(VLLM, "0.11.0"), "grammar", {"structured_outputs"}),
        (ServerKind(VLLM, "0.9.2"), "grammar", {"guided_grammar"}),
        (ServerKind(LLAMA_CPP), "grammar", {"grammar"}),
        (ServerKind(LLAMA_CPP_PYTHON), "grammar", {"grammar"}),
        (ServerKind(SGLANG), "grammar", {"ebnf"}),
        (ServerKind(TRANSFORMERS), "json_schema", set()),
        (ServerKind(VLLM), "off", set()),
    ],
)
def test_each_server_gets_the_field_it_reads(kind, mode, expected_fields) -> None:
    assert set(request_fields(mode, kind, SELECTION)) == expected_fields


def test_json_schema_shapes_and_what_auto_means_per_server() -> None:
    openai_shape = request_fields("json_schema", ServerKind(VLLM), SELECTION)["response_format"]
    assert openai_shape["type"] == "json_schema" and openai_shape["json_schema"]["strict"] is True
    assert openai_shape["json_schema"]["name"] == "select_stage2_question"
    # llama-cpp-python's server refuses type json_schema; it takes a schema beside json_object
    assert request_fields("json_schema", ServerKind(LLAMA_CPP_PYTHON), SELECTION)["response_format"] == {
        "type": "json_object", "schema": SELECTION.schema,
    }  # fmt: skip
    assert resolve_mode("auto", ServerKind(LLAMA_CPP)) == "json_schema"
    assert resolve_mode("auto", ServerKind(TRANSFORMERS)) == "off"
    with pytest.raises(UserError, match="OpenAI API takes no grammar"):
        request_fields("grammar", ServerKind(OPENAI), SELECTION)


@pytest.mark.parametrize("mode", ["off", "auto", "grammar"])
def test_the_client_sends_the_schema_only_when_asked_and_counts_a_reply_that_breaks_it(
    mode, model_settings, scripted, point_role
) -> None:
    server = scripted(['{"choice": 2, "reason": "closest start"}', "I would take the second one."])
    point_role(model_settings, "policy", server)
    model_settings.models.policy.structured_output = mode
    with ModelClient(model_settings) as client:
        kept = client.chat("policy", [user_message("Which?")], stage="selection_stage2", reply_schema=SELECTION)
        broke = client.chat("policy", [user_message("Which now?")], stage="selection_stage2", reply_schema=SELECTION)
        usage = client.ledger.usage("selection_stage2")
    sent = [entry["body"] for entry in server.requests()]
    if mode == "off":
        assert all("response_format" not in body and "grammar" not in body for body in sent)
        assert usage.constrained == 0 and not broke.schema_violation
        return
    field = {"auto": "response_format", "grammar": "grammar"}[mode]
    assert all(field in body for body in sent)  # the scripted server's kind takes both forms
    assert kept.constrained and kept.schema_violation == ""
    assert "in the model's reply" in broke.schema_violation  # prose where JSON was asked for
    assert (usage.constrained, usage.schema_violations) == (2, 1)
