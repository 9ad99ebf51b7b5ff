"""`agentoccam.prompt_source: original` (`--harness agentoccam`): the policy sends AgentOccam's own prompt, read at
run time from the user's checkout (`agentoccam.checkout`) and put together as its actor does.

The checkout here is a stand-in the test writes: files at the original's paths, in its shapes (the actor dict,
one specification file per section and command, the f-strings of AgentOccam.py in the same methods), holding our
own words, so every byte asserted can only have come from these files. Asserted from the scripted server's log:
the system prompt is the stand-in's template filled with its files, no STEP section goes out, the history is the
stand-in's entry format numbered within the active plan (its plan only off the root plan, no outcome lines), the
warnings are the stand-in's; without a checkout the run stops in one line with exit code 2.
"""

from __future__ import annotations

import textwrap
from pathlib import Path
from types import SimpleNamespace

import pytest

from agent.base.agentoccam.agent import AgentOccamAgent
from foundation.errors import UserError
from model_access.scripted_server import ScriptedServer
from tests.agent.test_agentoccam import _page_observation, _settings, _system_text, _task, _user_text, occam
from tests.agent.world import record

PROMPTS = "AgentOccam/prompts"
WITH_PLANNING = (
    "STAND-IN ACTOR, planning allowed.\nReply so:\n{output_specifications}\nPlans:\n{planning_specifications}\n"
    "Page:\n{navigation_specifications}"
)
WITHOUT_PLANNING = (
    "STAND-IN ACTOR, no planning.\nReply so:\n{output_specifications}\nPage:\n{navigation_specifications}"
)
INPUT = "<<{input}>>"
OUTPUT = {
    "interaction_history_summary": "Sum up the past in a line.",
    "observation_description": "Say what the page holds.",
    "reason": "Say why.",
    "action": "The command.",
    "observation_highlight": "Ids that matter, by commas.",
}
NAVIGATION = {
    "click": "click [id]: press it.",
    "type": "type [id] [content] [press_enter_after=0|1]: fill it.",
    "stop": "stop [answer]: finish with the answer.",
    "note": "note [content]: remember a fact.\n",  # a trailing newline is kept, as the original's reading keeps it
    "go_back": "go_back: the page before.",
    "go_home": "go_home: the site list.",
    "scroll": "scroll [down|up]: move.",
}
PLANNING = {"branch": "branch [parent] [intent]: a sub-plan.", "prune": "prune [plan] [reason]: go back to a plan."}
# AgentOccam.py in the original's shape: the texts stand where its code writes them (which method, which names
# they fill); nothing here runs.
CODE = '''
class Agent:
    def get_output_specifications(self):
        return "\\n".join([f"== {o.upper()} ==\\n" + "".join(open(o).readlines()) for o in self.config.output])


class Actor(Agent):
    def get_previous_plans(self, verbose=False):
        def visible(node, verbose=False):
            if node.id == self.active_node.id:
                basic = "\\t" * node.level + f"({node.id}) *now* {node.text}"
            else:
                basic = "\\t" * node.level + f"({node.id}) {node.text}"
            if basic and len(node.resume_reason) > 0:
                basic += f" | back here {len(node.resume_reason)}x:"
                for i, reason in enumerate(node.resume_reason):
                    basic += f" ({i}) {reason}"
            if verbose and basic:
                for i, note in enumerate(node.note):
                    basic += "\\n" + "\\t" * node.level + f"memo#{i} {note}"
            return basic

    def get_active_plan(self):
        return f"({self.active_node.id}) {self.active_node.text}"

    def get_interaction_history(self):
        previous_observation.append({"text": "Unchanged since then.", "image": None})
        message += f"~{step}~\\nSAW:\\n{obs}\\nUNDER:\\n{plan}\\nWHY:\\n{reason}\\nDID:\\n{action}\\n~/{step}~\\n"
        message += f"~{step}~\\nSAW:\\n{obs}\\nWHY:\\n{reason}\\nDID:\\n{action}\\n~/{step}~\\n"

    def get_online_input(self, criticism_elements):
        input_list.append(("text", f"# {input_type.upper()}\\n{input_content}\\n"))
        input_list.append(("text", f"# {input_type.upper()}\\n"))

    def get_actor_instruction(self, examples=None):
        instruction += f"\\n\\nStand-in: step {self.config.others.max_steps} is the last."

    def take_note(self, action, note_as_action=True):
        self.active_node.note.append(f"at {self.get_step()}: {note}")

    def planning(self, action):
        try:
            raise ValueError(f"Invalid node id {node_id}: {action}.")
        except Exception as e:
            flaw_node.note.append(f"Stand-in: `{action}` is no plan command.")

    def predict_action(self, criticism_elements):
        self.call_model_with_message(
            system_prompt=instruction + "\\nStand-in: the note `{}` again.".format(getattr(self, "note_buffer", ""))
        )
        self.call_model_with_message(
            system_prompt=instruction + "\\nStand-in: `{}` cannot run.".format(invalid_action_str)
        )


class AgentOccam:
    def init_actor(self):
        self.root = f"Stand-in goal: {self.objective}"
'''


def write_stand_in(root: Path) -> Path:
    """A folder in the layout of an AgentOccam checkout, in our words."""
    prompts = root / PROMPTS
    for kind, files in (("output", OUTPUT), ("navigation", NAVIGATION), ("planning", PLANNING)):
        (prompts / f"{kind}_specifications").mkdir(parents=True)
        for name, text in files.items():
            (prompts / f"{kind}_specifications" / f"{name}.txt").write_text(text)
    actor = {"instruction_template": {"with_planning": WITH_PLANNING, "without_planning": WITHOUT_PLANNING},
             "input_template": INPUT}  # fmt: skip
    (prompts / "AgentOccam_prompt.py").write_text(f"actor = {actor!r}\ncritic = {{}}\n")
    (root / "AgentOccam" / "AgentOccam.py").write_text(textwrap.dedent(CODE))
    return root


def system(planning: bool = True, commands: tuple[str, ...] = ("click", "type", "stop", "note", "go_back")) -> str:
    """The stand-in's system prompt as its actor fills it."""
    output = "\n".join(f"== {name.replace('_', ' ').upper()} ==\n{text}" for name, text in OUTPUT.items())
    text = (WITH_PLANNING if planning else WITHOUT_PLANNING).replace("{output_specifications}", output)
    text = text.replace("{planning_specifications}", "\n".join(f"- {PLANNING[n]}" for n in ("branch", "prune")))
    return text.replace("{navigation_specifications}", "\n".join(f"- {NAVIGATION[n]}" for n in commands))


@pytest.fixture(scope="module")
def stand_in(tmp_path_factory) -> Path:
    return write_stand_in(tmp_path_factory.mktemp("checkout") / "AgentOccam-main")


def test_the_harness_sends_the_checkout_s_prompt_in_its_actor_s_assembly(run_agent, sandbox_tasks, stand_in) -> None:
    intent = sandbox_tasks[20].intent
    reason = "This moves the task forward."
    replies = [
        occam("note [Orders live under My Account]"),
        occam("branch [0] [Find order 000000024]"),
        occam("note [Open My Orders next]"),
        occam("click [99999999]"),  # no such id: asked again with the stand-in's warning, no step
        occam("stop [$106.97]"),
    ]
    rules = [{"contains": "STAND-IN ACTOR", "reply": reply, "times": 1} for reply in replies]
    # Scored against the task's own block: the stand-in checkout has no task file of AgentOccam's.
    run = run_agent(rules, "20", "--policy", "agentoccam", "--harness", "agentoccam",
                    "--set", f"agentoccam.checkout={stand_in}",
                    "--set", "evaluation.agentoccam_task_file=none")  # fmt: skip
    assert run.exit_code == 0, run.stdout
    assert record(run.out, 20)["steps"] == 4 and record(run.out, 20)["score"] == 1.0
    bodies = [{"messages": request.messages} for request in run.requests]
    assert len(bodies) == 5
    assert [_system_text(body) for body in bodies[:4]] == [system()] * 4  # byte for byte the files' text
    assert _system_text(bodies[4]) == system() + "\nStand-in: `click [99999999]` cannot run."
    assert _user_text(bodies[4]) == _user_text(bodies[3])  # the warning in the system prompt alone (reask_note)
    users = [_user_text(body) for body in bodies]
    assert all(text.startswith(f"<<# OBJECTIVE\n{intent}\n# PREVIOUS PLANS\n") for text in users), users[0][:200]
    assert all(text.endswith("\n>>") for text in users)
    assert not any("STEP" in text.split("# CURRENT OBSERVATION\n")[0] for text in users)  # no STEP section
    assert not any("RESULT" in text or "Give your response" in text for text in users)  # none of ours
    root = f"Stand-in goal: {intent}"

    def before_page(text: str) -> str:
        return text.split("# CURRENT OBSERVATION\n")[0].removeprefix(f"<<# OBJECTIVE\n{intent}\n")

    assert before_page(users[0]) == f"# PREVIOUS PLANS\n(0) *now* {root}\n"  # no history yet: no section
    note = "note [Orders live under My Account]"
    assert before_page(users[1]) == (
        f"# PREVIOUS PLANS\n(0) *now* {root}\nmemo#0 at 0: Orders live under My Account\n"
        f"# INTERACTION HISTORY\n~0~\nSAW:\nUnchanged since then.\nWHY:\n{reason}\nDID:\n{note}\n~/0~\n"
    )  # under the root plan its entry names no plan
    assert before_page(users[2]) == (  # the new plan has no steps yet
        f"# PREVIOUS PLANS\n(0) {root}\nmemo#0 at 0: Orders live under My Account\n"
        "\t(1) *now* Find order 000000024\n"
    )
    entry = (
        f"~0~\nSAW:\nUnchanged since then.\nUNDER:\n(1) Find order 000000024\nWHY:\n{reason}\n"
        "DID:\nnote [Open My Orders next]\n~/0~\n"
    )
    assert before_page(users[3]).endswith(
        "\t(1) *now* Find order 000000024\n\tmemo#0 at 2: Open My Orders next\n# INTERACTION HISTORY\n" + entry
    )  # numbered within the active plan, from 0; the note keeps its step counted from 0
    assert users[4] == users[3]  # a re-ask changes only the system prompt


def test_without_a_checkout_the_harness_stops_in_one_line(run_agent, capsys) -> None:
    run = run_agent([], "20", "--policy", "agentoccam", "--harness", "agentoccam")
    said = capsys.readouterr().err.strip()
    assert run.exit_code == 2 and not run.requests
    assert said.count("\n") == 0, said
    assert said.startswith("error: agentoccam.prompt_source is original but agentoccam.checkout is not set: ")
    assert "--set agentoccam.checkout=/path/to/AgentOccam" in said and "agentoccam.prompt_source=ours" in said


def _original(test_settings, server, checkout: Path, **options) -> AgentOccamAgent:
    settings = _settings(test_settings, server)
    settings.agentoccam.prompt_source, settings.agentoccam.checkout = "original", str(checkout)
    for name, value in options.items():
        setattr(settings.agentoccam, name, value)
    return AgentOccamAgent(settings)


def test_a_missing_file_or_text_of_the_checkout_is_one_line_naming_it(test_settings, tmp_path) -> None:
    no_server = SimpleNamespace(base_url="http://127.0.0.1:9")  # nothing is asked
    checkout = write_stand_in(tmp_path / "AgentOccam")
    (checkout / PROMPTS / "navigation_specifications" / "go_back.txt").unlink()
    missing = r"^agentoccam.checkout: .*/navigation_specifications/go_back.txt does not exist"
    with pytest.raises(UserError, match=missing):
        _original(test_settings, no_server, checkout)
    (checkout / PROMPTS / "navigation_specifications" / "go_back.txt").write_text("go_back: back.")
    code = checkout / "AgentOccam" / "AgentOccam.py"
    code.write_text(code.read_text().replace("(invalid_action_str)", "(action_str)"))  # the warning moved
    with pytest.raises(UserError, match="AgentOccam.py has no text filling invalid_action_str in Actor.predict_action"):
        _original(test_settings, no_server, checkout)
    with pytest.raises(UserError, match=r"agentoccam.checkout: .*/nowhere is not a folder"):
        _original(test_settings, no_server, tmp_path / "nowhere")
    settings = _settings(test_settings, no_server)
    settings.agentoccam.prompt_source = "theirs"
    with pytest.raises(UserError, match="agentoccam.prompt_source is 'theirs'; use one of ours, original"):
        AgentOccamAgent(settings)


def test_a_repeated_note_keeps_its_warning_and_a_resumed_plan_shows_its_reason(test_settings, stand_in) -> None:
    """As its predict_action: once a reply repeats the last note, every re-ask of that step carries the note's
    warning, even after an invalid reply; the plan tree shows a prune's reason in the stand-in's words; without
    planning commands the other template is used."""
    replies = [
        occam("note [Order 24 is on page 2]"),
        occam("note [Order 24 is on page 2]"),  # the same note: asked again
        occam("click [77]"),  # invalid, but the warning stays the note's
        occam("branch [0] [Open page 2]"),
        occam("prune [0] [page 2 is empty]"),
        occam("stop [N/A]"),
    ]
    with ScriptedServer({"name": "policy", "replies": replies}) as server:
        policy = _original(test_settings, server, stand_in, reask_note="system")  # AgentOccam's place
        try:
            policy.reset(_task(1))
            while len(server.requests("/chat/completions")) < len(replies):
                policy.act(_page_observation())
        finally:
            policy.close()
        bodies = [entry["body"] for entry in server.requests("/chat/completions")]
    assert all(_system_text(body).startswith(system()) for body in bodies)
    warned = [_system_text(body).removeprefix(system()) for body in bodies]
    again = "\nStand-in: the note `Order 24 is on page 2` again."
    assert warned == ["", "", again, again, "", ""]
    plans = _user_text(bodies[5]).split("# PREVIOUS PLANS\n")[1].split("\n# ")[0]
    assert plans == f"(0) *now* Stand-in goal: {_task(1).intent} | back here 1x: (0) page 2 is empty"
    with ScriptedServer({"name": "policy", "replies": [occam("stop [N/A]")]}) as server:
        policy = _original(test_settings, server, stand_in, planning=False)
        try:
            policy.reset(_task(1))
            policy.act(_page_observation())
        finally:
            policy.close()
        (entry,) = server.requests("/chat/completions")
    assert _system_text(entry["body"]) == system(planning=False)


def test_a_plan_command_it_cannot_apply_leaves_the_checkout_s_note(test_settings, stand_in) -> None:
    """AgentOccam.py:696-699: the note on the active plan is its own sentence filled with the whole ACTION (here the
    stand-in's, read from the checkout); ours (prompt_source ours) keeps our sentence."""
    replies = [occam("branch [x] [Search the orders]\nclick [2]"), occam("stop [N/A]")]
    with ScriptedServer({"name": "policy", "replies": replies}) as server:
        policy = _original(test_settings, server, stand_in)
        try:
            policy.reset(_task(1))
            for _ in replies:
                policy.act(_page_observation())
        finally:
            policy.close()
        bodies = [entry["body"] for entry in server.requests("/chat/completions")]
    plans = _user_text(bodies[1]).split("# PREVIOUS PLANS\n")[1].split("\n# ")[0]
    assert plans == (
        f"(0) *now* Stand-in goal: {_task(1).intent}\n"
        "memo#0 Stand-in: `branch [x] [Search the orders]\nclick [2]` is no plan command."
    )
