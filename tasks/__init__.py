"""Tasks as data: loading VideoWA/WebArena configs, and the sandbox world (sites, tutorials, tasks)."""
