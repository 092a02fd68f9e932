# The two commands: `make run` and `make test`. Everything else is a step of those.
SHELL := /bin/bash
.DEFAULT_GOAL := help

VENV := .venv
PY := $(VENV)/bin/python
MANAGE := $(PY) manage.py
HOST ?= 127.0.0.1
PORT ?= 8000
# pytest workers: both cores by default (CI and developer machines have two). Not
# --dist worksteal: a worker that steals can run a test that needs the catalogue after a
# transactional test (pytest-django orders those last) has emptied its database.
WORKERS ?= 2
# Bytecode written, whatever the environment says: with PYTHONDONTWRITEBYTECODE set, every
# pytest worker compiles the project and rewrites the tests' asserts afresh, and so does every
# manage.py a test starts (about 0.6 s of CPU a start). The files go to git-ignored __pycache__/.
test test-sqlite test-postgres test-postgres-all test-browser: export PYTHONDONTWRITEBYTECODE :=

# A Python 3.12+ interpreter: the one pinned in .python-version, found directly or via pyenv.
PYTHON ?= $(shell for p in python3.13 $$HOME/.pyenv/versions/3.13*/bin/python3.13 \
	/usr/local/bin/python3.13 /usr/bin/python3.13 python3.12 \
	$$HOME/.pyenv/versions/3.12*/bin/python3.12 python3; do \
	if command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; sys.exit(sys.version_info < (3, 12))' >/dev/null 2>&1; \
	then command -v $$p; break; fi; done)

.PHONY: help install run serve serve-prod serve-asgi redis-tools nginx-tools migrate data load load-tables chaos backup restore test test-sqlite \
	test-postgres test-postgres-all test-browser test-tools vnu load-tools ocr-tools lint typecheck bench clean

help:
	@echo "make run    set up everything and serve http://$(HOST):$(PORT)"
	@echo "make test   set up and run lint, type checks, the suite on SQLite and its database tests on PostgreSQL"
	@echo "make install | migrate | data | serve | serve-prod | backup | restore FILE=... | bench | load | chaos | clean"

$(VENV)/.installed: pyproject.toml
	@if [ -z "$(PYTHON)" ]; then \
	  echo "Python 3.12 or newer is needed (3.13 recommended, see .python-version)."; \
	  echo "Install it, e.g. 'pyenv install 3.13' or 'apt-get install python3.13 python3.13-venv',"; \
	  echo "or point to it: make PYTHON=/path/to/python3.13 ..."; exit 1; fi
	@echo "Using $(PYTHON) ($$($(PYTHON) --version))"
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	@touch $@

# The rules engine compiled with mypyc (rules/compiled.py): the same games, about 3x faster.
# Optional: without a C compiler (or with ALLEGIANCE_COMPILE=0) the engine runs as plain
# Python, and an engine source edited after the build runs as source until the next build.
ENGINE_SOURCES := rules/compiled.py rules/build_engine.py rules/rng.py $(wildcard rules/game/*.py)
$(VENV)/.engine-built: $(VENV)/.installed $(ENGINE_SOURCES)
	@if [ "$${ALLEGIANCE_COMPILE:-1}" = 0 ]; then \
	  echo "ALLEGIANCE_COMPILE=0: the rules engine runs as plain Python"; \
	else echo "Compiling the rules engine with mypyc (under a minute on two cores; ALLEGIANCE_PGO=1: guided by a profile, twice that)"; mkdir -p build/mypyc; \
	  if ! ALLEGIANCE_ENGINE=python $(PY) -m rules.build_engine >build/mypyc/build.log 2>&1; then \
	    tail -n 20 build/mypyc/build.log; echo "warning: could not compile the rules engine" \
	      "(build/mypyc/build.log); it runs as plain Python, about 3x slower"; fi; fi
	@touch $@

install: $(VENV)/.installed $(VENV)/.engine-built

# Debian packages, installed when missing and we are root (ocr-tools, test-tools, load-tools).
APT_INSTALL = apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq
HAS_TESSERACT = ls /usr/share/tesseract-ocr/*/tessdata/eng.traineddata >/dev/null 2>&1

# Debian's Tesseract and its English data, for reading owners' card scans (docs/scans.md):
# installed when missing and we are root; otherwise scans are kept but not read, and the site
# says so.
ocr-tools:
	@if ! $(HAS_TESSERACT); then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's tesseract-ocr for reading card scans"; \
	    ($(APT_INSTALL) tesseract-ocr tesseract-ocr-eng) >/dev/null 2>&1 \
	      || echo "warning: could not install tesseract-ocr; card scans will not be read"; \
	  else echo "note: card scans will not be read without Tesseract" \
	    "(apt-get install tesseract-ocr tesseract-ocr-eng)"; fi; fi

migrate: install
	$(MANAGE) migrate --noinput

# Both catalogues and the sample decks; idempotent, so `make run` can be repeated.
data: migrate
	$(MANAGE) import_cards fixtures/cards/wof.json fixtures/cards/demo.json
	$(MANAGE) load_sample_decks fixtures/decklists/*.txt

run: ocr-tools data serve

# The web server and one background worker (it plays simulation runs and sends the accounts'
# mails: manage.py db_worker), under a supervisor that starts another when it dies (a crash,
# an out-of-memory kill), after 2 s, saying so on stderr. Both stop with the server; a worker
# stopped in the middle of a run loses nothing but a lease (docs/architecture.md), so it gets
# SIGTERM, then SIGKILL after 3 s.
WITH_WORKER = ( worker=; halt() { [ -n "$$worker" ] && kill $$worker 2>/dev/null; \
	  for i in $$(seq 30); do kill -0 $$worker 2>/dev/null || exit 0; sleep 0.1; done; \
	  kill -9 $$worker 2>/dev/null; exit 0; }; trap halt TERM; \
	  while :; do $(MANAGE) db_worker --no-reload --no-startup-delay & worker=$$!; \
	    wait $$worker; echo "The background worker stopped (exit status $$?): starting another in 2 s" >&2; \
	    sleep 2; done ) & supervisor=$$!; \
	stop() { kill $$supervisor 2>/dev/null || return 0; for i in $$(seq 40); do \
	  kill -0 $$supervisor 2>/dev/null || return 0; sleep 0.1; done; kill -9 $$supervisor 2>/dev/null; }; \
	trap 'stop; exit 130' INT TERM; trap stop EXIT;

serve:
	@echo "Serving http://$(HOST):$(PORT)/ with a background worker (Ctrl-C to stop both)"
	@$(WITH_WORKER) $(MANAGE) runserver $(HOST):$(PORT)

# Production-style: DEBUG off, hashed static files served by whitenoise, SERVE_WORKERS gunicorn
# servers of one ASGI worker each (HTTP and the tables' WebSockets; `-k asgi`) behind nginx on
# HOST:PORT, which sends every request and socket of a table to one server, so that server keeps
# the table's game in play (deploy/serve.py); the servers tell one another of a table's
# changes through Redis (channels-redis): REDIS_URL when set, otherwise a private redis-server
# on loopback (.ci/with-redis) for as long as the site runs. docs/deploy.md says how.
# Set DJANGO_SECRET_KEY to keep sessions across restarts; otherwise a fresh key is made.
# Plain HTTP on loopback, so no redirect to HTTPS (docs/deploy.md: behind a TLS proxy, leave
# DJANGO_SSL_REDIRECT unset). The same settings pass `check --deploy` (tests/test_deploy_settings.py).
SERVE_WORKERS ?= 3
serve-prod: export DJANGO_DEBUG = 0
serve-prod: export DJANGO_SECRET_KEY ?= $(shell $(PYTHON) -c 'import secrets; print(secrets.token_urlsafe(50))')
serve-prod: export DJANGO_SSL_REDIRECT ?= 0
# E-mails (verification links, password resets) go to the console unless EMAIL_HOST is set.
serve-prod: export DJANGO_EMAIL_CONSOLE ?= 1
# nginx in front appends the client's address to X-Forwarded-For (the throttles count it).
serve-prod: export DJANGO_NUM_PROXIES ?= 1
serve-prod: data redis-tools nginx-tools
	$(MANAGE) check --deploy --fail-level WARNING
	$(MANAGE) collectstatic --noinput --verbosity 0
	@if [ -n "$$REDIS_URL" ]; then $(MAKE) --no-print-directory serve-asgi; \
	else .ci/with-redis $(MAKE) --no-print-directory serve-asgi; fi

# A step of serve-prod (its settings come from there): the ASGI servers behind nginx, and the
# background worker.
serve-asgi:
	@echo "Serving http://$(HOST):$(PORT)/ with $(SERVE_WORKERS) ASGI servers behind nginx, Redis" \
	  "and a background worker (Ctrl-C to stop)"
	@$(WITH_WORKER) $(PY) -m deploy.serve $(HOST):$(PORT) $(SERVE_WORKERS)

# Debian's nginx for serve-prod's proxy: installed when missing and we are root, otherwise a
# clear message.
HAS_NGINX = command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ]
nginx-tools:
	@if ! { $(HAS_NGINX); }; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's nginx-light for the proxy"; \
	    ($(APT_INSTALL) nginx-light) >/dev/null 2>&1 \
	      || { echo "could not install nginx-light (apt-get install nginx-light)"; exit 1; }; \
	  else echo "make serve-prod needs Debian's nginx (apt-get install nginx-light)"; exit 1; fi; fi

# Debian's redis-server for serve-prod's channel layer (unless REDIS_URL names a Redis):
# installed when missing and we are root, otherwise a clear message.
HAS_REDIS = command -v redis-server >/dev/null 2>&1 || [ -x /usr/bin/redis-server ]
redis-tools:
	@if [ -z "$$REDIS_URL" ] && ! { $(HAS_REDIS); }; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's redis-server for the channel layer"; \
	    ($(APT_INSTALL) redis-server) >/dev/null 2>&1 \
	      || { echo "could not install redis-server (apt-get install redis-server)"; exit 1; }; \
	  else echo "make serve-prod needs Debian's redis-server (apt-get install redis-server)," \
	    "or REDIS_URL set to a Redis of yours"; exit 1; fi; fi

# The whole site (rows of every app and the media files) in one archive, from SQLite or
# PostgreSQL (DATABASE_URL); restore loads it into an empty database of either kind.
backup: migrate
	$(MANAGE) backup_data

restore: migrate
	@if [ -z "$(FILE)" ]; then echo "usage: make restore FILE=var/backups/allegiance-....tar.gz"; exit 2; fi
	$(MANAGE) restore_data "$(FILE)"

# ruff, the architecture's import contracts (pyproject.toml [tool.importlinter]: layers, pure
# packages, one RNG, no import circles), and dead code. Vulture for the dead code: ruff's rules
# reach unused imports, variables and arguments, not an unused function, class, method or
# property (pyproject.toml [tool.vulture]; what only looks unused is in deadcode_whitelist.py).
lint: $(VENV)/.installed
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports --no-cache
	$(VENV)/bin/vulture

typecheck: $(VENV)/.installed
	$(VENV)/bin/mypy .

test-sqlite: install vnu
	$(VENV)/bin/pytest -n $(WORKERS) -q

# A throw-away redis-server beside the PostgreSQL leg, for the tables' sockets on Redis across
# two server processes (tests/tables/test_redis_layer.py; they skip without redis-server).
WITH_TEST_REDIS = .ci/with-redis --optional --as ALLEGIANCE_TEST_REDIS_URL

# The tests that use the database (tests/database_use.py decides by the fixtures and markers
# each asks for): the others give the same result on either database, and the SQLite leg runs
# them with no database within reach. test-postgres-all runs the whole suite on PostgreSQL.
test-postgres: install vnu
	$(WITH_TEST_REDIS) .ci/with-postgres $(VENV)/bin/pytest -n $(WORKERS) -q --database-tests-only

test-postgres-all: install vnu
	$(WITH_TEST_REDIS) .ci/with-postgres $(VENV)/bin/pytest -n $(WORKERS) -q

# Debian's tools the tests use to look at what the app makes, installed together (one apt-get)
# when missing and we are root, as CI is: pdftoppm (poppler-utils) renders PDF pages, chromium
# drives the browser tests (never a browser download), Tesseract reads card scans, Java and npm
# run the Nu HTML checker, redis-server carries the tables' messages between two servers in the
# PostgreSQL leg (.ci/with-redis). `make test` runs this beside the engine's build and the checks, so
# the downloads cost no wall time of their own. Without a tool, the tests that need it skip
# and say why.
CHROMIUM ?= /usr/bin/chromium
test-tools:
	@missing=(); \
	command -v pdftoppm >/dev/null 2>&1 || missing+=(poppler-utils); \
	[ -x "$(CHROMIUM)" ] || missing+=(chromium); \
	$(HAS_TESSERACT) || missing+=(tesseract-ocr tesseract-ocr-eng); \
	command -v java >/dev/null 2>&1 || missing+=(default-jre-headless); \
	command -v npm >/dev/null 2>&1 || missing+=(npm); \
	$(HAS_REDIS) || missing+=(redis-server); \
	if [ "$${#missing[@]}" -gt 0 ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's $${missing[*]} for the tests"; \
	    ($(APT_INSTALL) "$${missing[@]}") >/dev/null 2>&1 \
	      || echo "warning: could not install $${missing[*]}; the tests that need them skip"; \
	  else echo "note: without $${missing[*]} (apt-get install as root) some tests skip"; fi; fi

# The Nu HTML checker for tests/sitewide/test_valid_html.py: the npm package vnu-jar (pinned in
# package.json, into the git-ignored node_modules/; its install script, which would download a
# Java, is not run), run by Debian's Java (test-tools). Without either the test skips and says
# why.
VNU_JAR := node_modules/vnu-jar/build/dist/vnu.jar
vnu: test-tools
	@if [ ! -f $(VNU_JAR) ]; then \
	  if command -v npm >/dev/null 2>&1; then \
	    npm ci --no-audit --no-fund --ignore-scripts >/dev/null \
	      || echo "warning: could not install vnu-jar; the HTML check will skip"; \
	  else echo "warning: npm is missing (apt-get install npm); the HTML check will skip"; fi; fi

# Their own run: a live server that commits, flushed after each test (docs/testing.md).
# A failing journey leaves a screenshot in tmp/artifacts/.
test-browser: install test-tools
	$(VENV)/bin/pytest -m browser tests/browser -q -n $(WORKERS)

# The checks need no compiled engine, so they run beside its build (each on a core of its own
# most of the time), and the Debian tools download meanwhile; each step's output is printed
# whole when it ends. The three test runs go one after the other: the browser tests beside the
# PostgreSQL leg took longer than both in turn (16 min 51 s in all against about 14 min).
test:
	$(MAKE) --no-print-directory -j4 --output-sync=target install lint typecheck test-tools
	$(MANAGE) makemigrations --check --dry-run
	$(MAKE) --no-print-directory test-sqlite
	$(MAKE) --no-print-directory test-postgres
	$(MAKE) --no-print-directory test-browser

bench: install
	$(PY) -m bench $(if $(ONLY),--only $(ONLY))

# The load run (docs/deploy.md "Scale-out"): a throw-away PostgreSQL, 2 gunicorn servers behind
# nginx and 2 goldfish workers on loopback, locust for LOAD_SECONDS with LOAD_USERS people;
# prints the figures per endpoint and checks that no deck write was lost. Exit 1 on any 5xx,
# failure or lost write. Shorter: make load LOAD_SECONDS=10 LOAD_USERS=10
LOAD_SECONDS ?= 60
LOAD_USERS ?= 50
$(VENV)/.installed-load: $(VENV)/.installed
	$(PY) -m pip install --quiet -e '.[dev,load]'
	@touch $@

# Debian's nginx (the light build) as the proxy, PostgreSQL 15 for .ci/with-postgres and
# redis-server for .ci/with-redis (the tables' part):
# installed when missing and we are root.
load-tools:
	@missing=""; command -v nginx >/dev/null 2>&1 || [ -x /usr/sbin/nginx ] || missing=" nginx-light"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || command -v initdb >/dev/null 2>&1 \
	  || missing="$$missing postgresql-15"; \
	$(HAS_REDIS) || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then echo "Installing Debian's$$missing for the load run"; \
	    ($(APT_INSTALL) $$missing) \
	      >/dev/null 2>&1 || { echo "could not install$$missing"; exit 1; }; \
	  else echo "make load needs:$$missing (apt-get install$$missing)"; exit 1; fi; fi

# Then the tables' part (docs/tables.md "Load"), also alone as `make load-tables`: LOAD_TABLES
# tables of 4 scripted people over WebSockets for LOAD_TABLES_SECONDS, on LOAD_TABLE_SERVERS (3)
# single-worker ASGI servers behind nginx routing by table (as serve-prod), Redis and PostgreSQL; prints the p95 from a move's POST to every
# other seat's `changed`, the moves lost or applied twice and the hidden cards seen. Exit 1 if
# either part fails. Shorter: make load-tables LOAD_TABLES=5 LOAD_TABLES_SECONDS=20
LOAD_TABLES ?= 50
LOAD_TABLES_SECONDS ?= 60
load: install $(VENV)/.installed-load load-tools
	@status=0; LOAD_SECONDS=$(LOAD_SECONDS) LOAD_USERS=$(LOAD_USERS) \
	  .ci/with-postgres $(PY) -m bench.load || status=$$?; \
	$(MAKE) --no-print-directory load-tables || status=$$?; exit $$status

load-tables: install $(VENV)/.installed-load load-tools
	LOAD_TABLES=$(LOAD_TABLES) LOAD_TABLES_SECONDS=$(LOAD_TABLES_SECONDS) \
	  .ci/with-redis .ci/with-postgres $(PY) -m bench.load.tables

# The fault run (docs/deploy.md "Faults: make chaos"): the load run's site, with people who also
# propose and vote on card edits, while one gunicorn worker gets SIGKILL and PostgreSQL is
# crashed and started again; then no acknowledged write may be lost or half applied and every
# goldfish run must end with the goldfish command's report. PostgreSQL with durable commits
# (PG_DURABLE=1), as a real one. Shorter: make chaos CHAOS_SECONDS=30 CHAOS_USERS=10
CHAOS_SECONDS ?= 60
CHAOS_USERS ?= 20
chaos: install $(VENV)/.installed-load load-tools
	PG_DURABLE=1 LOAD_SECONDS=$(CHAOS_SECONDS) LOAD_USERS=$(CHAOS_USERS) \
	  .ci/with-postgres $(PY) -m bench.load --chaos

clean:
	rm -rf $(VENV) var tmp build node_modules .pytest_cache .mypy_cache .ruff_cache .hypothesis \
	  rules/game/_compiled.sha256 rules/*.so rules/game/*.so
