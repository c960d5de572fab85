# Weft: the two commands in the README are `make demo` and `make test`.
SHELL := /bin/bash
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: demo test install web chromium neo4j-start neo4j-stop lint schema clean

$(BIN)/weft: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test]'
	touch $(BIN)/weft

install: $(BIN)/weft ## virtualenv with the project and its test tools

server/static/vendor/cytoscape.min.js: web/package.json web/package-lock.json web/copy-vendor.mjs
	npm ci --prefix web --no-audit --no-fund --loglevel=error

web: server/static/vendor/cytoscape.min.js ## the page's npm packages, copied into server/static/vendor

chromium: ## Debian's Chromium, for the browser test of the network page
	@command -v chromium >/dev/null || { \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -qq && apt-get install -y -qq chromium >/dev/null; \
	  else echo "install Debian's chromium package (sudo apt-get install chromium)"; exit 1; fi; }

neo4j-start: install ## fetch (first time) and start the local Neo4j on NEO4J_URI's port
	$(BIN)/weft neo4j start

neo4j-stop: install
	$(BIN)/weft neo4j stop

demo: web neo4j-start ## local Neo4j + the bundled OpenAlex sample + the server with GraphiQL
	$(BIN)/weft migrate
	$(BIN)/weft load openalex demo/data/openalex
	@cat demo/EXAMPLES.md
	@echo "GraphiQL: http://$(HOST):$(PORT)/graphql"
	$(BIN)/weft serve --host $(HOST) --port $(PORT)

test: install web chromium ## the whole suite against a real Neo4j (started and stopped by the tests)
	$(BIN)/ruff check .
	$(BIN)/pytest -q -p no:cacheprovider $(PYTEST_ARGS)

lint: install
	$(BIN)/ruff check .

schema: install ## re-export schema.graphql from the code
	$(BIN)/weft export-schema > schema.graphql

clean:
	rm -rf $(VENV) .neo4j build *.egg-info
