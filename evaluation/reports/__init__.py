"""What run folders say: summaries, task pages, runs side by side with paired statistics, costs, charts, the tidy export and the `report` command on top."""
