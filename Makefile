# Weft: the two commands in the README are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test runtime install web chromium neo4j-start neo4j-stop lint typecheck schema bench-tools bench-p2 clean

# One venv. `make demo` installs the runtime only; `make test` (and lint) upgrade the same venv with the
# test, lint, spark and storage extras (README, "Quick start", says what each downloads).
# The top-level folders install as weft.* through setuptools' editable import hook; setuptools
# warns about that hook on every editable install, and only that warning is silenced.
EDITABLE := PYTHONWARNINGS='ignore:Editable installation' $(BIN)/pip install -q -e

$(VENV)/.runtime: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(EDITABLE) .
	touch $@

$(VENV)/.extras: $(VENV)/.runtime
	$(EDITABLE) '.[test,lint,spark,storage]'
	touch $@

runtime: $(VENV)/.runtime ## virtualenv with the project and its runtime dependencies (what `make demo` needs)

install: $(VENV)/.extras ## the same virtualenv with the test, lint, spark and storage extras too

server/static/vendor/cytoscape.min.js: web/package.json web/package-lock.json web/copy-vendor.mjs
	npm ci --prefix web --no-audit --no-fund --loglevel=error

web: server/static/vendor/cytoscape.min.js ## the page's npm packages, copied into server/static/vendor

bench/node_modules/autocannon/package.json: bench/package.json bench/package-lock.json
	npm ci --prefix bench --no-audit --no-fund --loglevel=error

bench-tools: bench/node_modules/autocannon/package.json ## autocannon (pinned in bench/package-lock.json), bench/serve.py's load generator

bench-p2: install ## issue 53's P2 on NEO4J_URI's graph: GraphQL p50 / lean raw Cypher p50, response cache off
	$(BIN)/python -m bench.serve p2 --uri $${NEO4J_URI:-bolt://127.0.0.1:7687} --no-peer --rounds $${ROUNDS:-20} --weft-port $${BENCH_PORT:-8791}

chromium: ## Debian's Chromium, for the browser test of the network page
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "install Debian's chromium package (sudo apt-get install chromium)"; exit 1; fi; }

neo4j-start: runtime ## fetch (first time) and start the local Neo4j on NEO4J_URI's port
	$(BIN)/weft neo4j start

neo4j-stop: runtime
	$(BIN)/weft neo4j stop

demo: web neo4j-start ## local Neo4j + the bundled OpenAlex sample + the server with GraphiQL
	$(BIN)/weft migrate
	$(BIN)/weft load openalex demo/data/openalex --embed
	@sed 's|127.0.0.1:8000|$(HOST):$(PORT)|g' demo/EXAMPLES.md
	@echo "The site: http://$(HOST):$(PORT)/"
	@echo "GraphiQL: http://$(HOST):$(PORT)/graphql"
	$(BIN)/weft serve --host $(HOST) --port $(PORT)

# TEST_WORKERS=0 (the default) runs the suite in this one process. TEST_WORKERS=N runs it in N pytest-xdist
# processes, each with its own Neo4j (tests/conftest.py: NEO4J_URI's port, then + 10 per worker, or
# WEFT_TEST_WORKER_PORTS). Two workers on two cores measured slower (25.5 min against 18) and broke the
# module state of test_sync_openalex, so they stay opt-in (bench/RESULTS.md, "CI time").
TEST_WORKERS ?= 0

test: install web chromium lint ## lint, then the whole suite against a real Neo4j (started and stopped by the tests)
	$(BIN)/pytest -q -p no:cacheprovider --durations=20 -n $(TEST_WORKERS) --dist loadgroup --no-loadscope-reorder $(PYTEST_ARGS)

lint: install ## ruff (rules and format) and pyright (strict on graph/, queries/, loaders/, schema/, server/)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(MAKE) --no-print-directory typecheck

typecheck: install ## pyright on the weft.* packages, mirrored under build/typecheck (see pyproject.toml)
	mkdir -p build/typecheck/weft && find build/typecheck -xtype l -delete
	for d in graph schema loaders server queries; do cp -rsf "$(CURDIR)/$$d" build/typecheck/weft/; done
	$(BIN)/pyright --project "$(CURDIR)"

schema: install ## re-export schema.graphql from the code
	$(BIN)/weft export-schema > schema.graphql

clean:
	rm -rf $(VENV) .neo4j build *.egg-info
