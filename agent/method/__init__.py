"""The method (`--policy video`): two-stage trajectory selection before each action, the whole-video ablation."""
