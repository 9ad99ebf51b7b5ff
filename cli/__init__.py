"""The `videodemo` command line: one entry with subcommands, plus `process-videos`."""
