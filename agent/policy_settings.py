"""The settings each of the agent's policies reads, declared with its registration (agent/registration.py).

They make the run's identity beside the harness's own (evaluation/running/run_identity.py): a run that changes one
of them is another run, with another default folder, and a run that changes a setting its policy never reads
resumes. A setting a policy comes to read belongs here, or runs that differ in it share a folder.

Left out on purpose: where models are served and which role answers (`models.*`, `selection.role`,
`video_context.summary_role`, `question_role`), and files and folders (`agent.index_dir`, `agent.som_font`,
`agent.videowa_prompt_file`, `agentoccam.checkout`, VideoWA's question and summary files): they say where, not what.
"""

from __future__ import annotations

# What every base agent reads (agent/base): its history, the page's picture, its reply's length without videos.
_BASE = ("agent.history_length", "agent.use_screenshot", "agent.no_video_max_tokens")
# AgentOccam (agent/base/agentoccam): its observation, action space, planning and reply reading.
_AGENTOCCAM = (
    "agentoccam.whole_page", "agentoccam.refine", "agentoccam.observation_max_lines", "agentoccam.unrefined_max_lines",
    "agentoccam.observation_token_budget", "agentoccam.root_line", "agentoccam.states", "agentoccam.characters",
    "agentoccam.drop_identical_neighbours", "agentoccam.actions", "agentoccam.planning", "agentoccam.type_clears_field",
    "agentoccam.planning_takes_step", "agentoccam.max_planning_in_a_row", "agentoccam.max_invalid_reasks",
    "agentoccam.observe_after_failed_action", "agentoccam.reply_grammar", "agentoccam.parser",
    "agentoccam.stop_answer", "agentoccam.history_observation_steps", "agentoccam.show_url_and_tabs",
    "agentoccam.prompt_source", "agentoccam.reask_note", "agentoccam.cut_marker", "agentoccam.table_rows",
    "agentoccam.highlight_ids", "agentoccam.same_page_name_ids", "agentoccam.prune_hides", "agentoccam.pruning",
    "agentoccam.menu_typing",
)  # fmt: skip
# The base agent `agent.base_agent` picks (AgentOccam or ReAct, which reads nothing beyond _BASE).
_ON_BASE_AGENT = ("agent.base_agent", *_BASE, *_AGENTOCCAM)
# The ablation flags: which material from the videos is shown (agent/videos/modes.py).
_MODE = ("agent.use_videos", "agent.trajectory_selection", "agent.visual", "agent.transcript_only")
# How a tutorial video is seen: frames, transcript, the factual question over it (agent/videos/context.py, question.py).
_VIDEO_CONTEXT = (
    "video_context.frames_per_second", "video_context.max_frames", "video_context.image_max_side",
    "video_context.frame_channel_order", "video_context.frame_format", "video_context.transcript_max_chars",
    "video_context.intermediate_answer", "video_context.intermediate_prompt", "video_context.reference_quirks",
)  # fmt: skip

# Stage 1's model-free ranking (agent/videos/stage1_ranking.py): the replay's selection, and the method's pre-cut.
_STAGE1_RANKING = (
    "replay.objective_weight", "replay.length_bonus", "replay.length_bonus_cap", "replay.narration_weight",
    "replay.start_page_weight", "replay.evidence_weight", "replay.evidence_gate", "replay.evidence_gain",
    "replay.evidence_cost", "replay.evidence_by_kind", "replay.task_verb_controls", "replay.match_abstracted",
    "replay.pool_by_objective_cosine",
)  # fmt: skip

AGENTOCCAM = (*_BASE, *_AGENTOCCAM)
REACT = _BASE
BASE = _ON_BASE_AGENT
# The method (agent/method): the base agent, the mode, two-stage selection, the oracles it reads.
VIDEO = (
    *_ON_BASE_AGENT, *_MODE, "agent.videos_per_task", "agent.demonstration_image_max_side",
    "agent.demonstration_mark_points", "agent.transcript_max_chars", "video_context.intermediate_from",
    "selection.candidates_per_video", "selection.stage1_pool_per_video", "selection.stage1_precut",
    "selection.precut_ranking", *_STAGE1_RANKING, "selection.continuation", "selection.stage2_screens",
    "selection.shared_opening",
    "selection.stage1_objectives_first", "selection.skip_unchanged", "selection.demonstrations",
    "selection.stage2_verdicts",
    "oracle.labels", "oracle.selection", "oracle.solutions",
    *_VIDEO_CONTEXT,
)  # fmt: skip
# VideoWA's baselines (agent/videowa_baselines): the base agent with the video's frames or its summary.
FRAMES = (*_ON_BASE_AGENT, "agent.videos_per_task", "oracle.labels", *_VIDEO_CONTEXT)
SUMMARY = (*FRAMES, "video_context.summary_prompt")
# The model-free replay (agent/replay): embedding selection, grounding, the oracles.
REPLAY = (
    "agent.use_videos", "agent.trajectory_selection", "agent.transcript_only",
    "selection.candidates_per_video", "selection.stage1_pool_per_video", "selection.demonstrations",
    *_STAGE1_RANKING, "replay.grounding_min_similarity", "replay.substitution_min_similarity",
    "replay.selection_min_similarity", "replay.underway_by_evidence", "replay.grounding_weight",
    "replay.continue_while", "replay.follow_undoing_detours", "replay.start_past_keys", "replay.reach_before_acting",
    "replay.select_after_end", "replay.stage1_pool", "replay.back_for_undone",
    "oracle.labels", "oracle.selection", "oracle.grounding", "oracle.values", "oracle.solutions",
)  # fmt: skip
