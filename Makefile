# The two commands of the README: `make demo` (main job on the sandbox) and `make test`.
# Each installs what is missing first (scripts/bootstrap.sh), and is quick the second time.
.PHONY: demo test install install-servers clean-cache

PYTHON := .venv/bin/python

demo: install
	$(PYTHON) -m cli.main demo

# The test suite includes the real-server tier: it needs the local model servers (installed on first use).
test: install-servers
	VIDEODEMO_REQUIRE_REAL_SERVERS=1 $(PYTHON) -m pytest -q

install:
	@bash scripts/bootstrap.sh

install-servers:
	@bash scripts/bootstrap.sh --servers

clean-cache:
	find cache -mindepth 1 ! -name README.md -exec rm -rf {} +
