"""VideoWA's own video agents (`--policy frames`, `--policy summary`) on the method's base agent."""
