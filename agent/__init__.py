"""The web policy and trajectory selection."""
