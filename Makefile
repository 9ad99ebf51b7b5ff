# The two commands of the README: `make demo` (main job on the sandbox) and `make test`.
# Each installs what is missing first (scripts/bootstrap.sh), and is quick the second time.
.PHONY: demo test install clean-cache

PYTHON := .venv/bin/python

demo: install
	$(PYTHON) -m cli.main demo

test: install
	$(PYTHON) -m pytest -q

install:
	@bash scripts/bootstrap.sh

clean-cache:
	find cache -mindepth 1 ! -name README.md -exec rm -rf {} +
