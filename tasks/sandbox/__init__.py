"""The embedded default: sandbox sites, recorded tutorials and tasks in the VideoWA format."""
