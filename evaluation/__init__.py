"""Browser environment, evaluators, task runner and reports."""
