# The two commands of the README: `make demo` (main job on the sandbox) and `make test`.
# Each installs what is missing first (scripts/bootstrap.sh), and is quick the second time.
.PHONY: demo test install install-servers clean-cache

PYTHON := .venv/bin/python
# Test workers (pytest-xdist): 2 on the 2-core reference machines; TEST_WORKERS=0 runs the suite in one process.
TEST_WORKERS ?= 2

demo: install
	$(PYTHON) -m cli.main demo

# The test suite includes the real-server tier: it needs the local model servers (installed on first use).
# It ends with its 30 slowest tests and the 10 test files that held the most memory (tests/memory_watch.py, which fails
# a file past 5 GiB a worker); scripts/durations_table.py turns its JUnit file into docs/testing.md's tables.
test: install-servers
	VIDEODEMO_REQUIRE_REAL_SERVERS=1 $(PYTHON) -m pytest -q -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=30 \
		--junitxml=cache/last-test-run.xml

install:
	@bash scripts/bootstrap.sh

install-servers:
	@bash scripts/bootstrap.sh --servers

clean-cache:
	find cache -mindepth 1 ! -name README.md -exec rm -rf {} +
