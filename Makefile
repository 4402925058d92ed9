# Development tasks for the automation.service collection. `make help` lists them.

PYTHON ?= python3.11
VENV ?= .venv
RUN := .run
COLLECTIONS := $(RUN)/collections
COLLECTION_LINK := $(COLLECTIONS)/ansible_collections/automation/service
STAMP := $(VENV)/.requirements-dev.stamp
OIDC_IDP := tests/idp/oidc
OIDC_STAMP := $(OIDC_IDP)/node_modules/.npm-ci.stamp
PYTEST_ARGS ?=
SANITY_ARGS ?=
INTEGRATION_ARGS ?=
BENCH_ARGS ?=
# make record: the layout of the service recorded (awx or gateway), and the targets (default: every one
# its layout replays).
LAYOUT ?= awx
RECORD_TARGETS ?=

# Every recipe uses the project's virtualenv first, and finds the collection
# through the symlink that `collection-path` makes.
export PATH := $(abspath $(VENV))/bin:$(PATH)
export ANSIBLE_COLLECTIONS_PATH := $(abspath $(COLLECTIONS))
export VENV := $(abspath $(VENV))
# Python keeps the bytecode of what it compiles (__pycache__, ignored by git, the copies the tests
# make and the build) even where the environment asks it not to: every task's worker, job and
# service process would otherwise compile the collection's and the service's code again
# (measured: about 15% of the processor time of the integration targets).
unexport PYTHONDONTWRITEBYTECODE

UNITS_ARGS ?=
# make live: what pytest is given (default: every live test).
LIVE_ARGS ?= tests/live
# The ansible-core versions of the matrix that CI runs: the oldest and the newest
# supported (make matrix runs them all).
MATRIX_CI ?= 2.16 2.21
MATRIX ?=

# make test runs its steps TEST_JOBS at a time (tests/ci/run_steps.py): each time one ends,
# the next of TEST_STEPS starts. Most steps wait on a service or a job part of their time, so
# three at a time keep two cores busy. The list goes longest first, so that the shortest steps
# come last and fill the lanes to the end.
# The integration targets a real service can run are replayed against the recorded answers of real
# services (tests/recorded/: replay in AWX's layout, replay-gateway in the platform gateway's): they
# run on the reference service through the recording proxy, and every answer it gives is compared
# with the real service's recorded answer to the same request (tests/diffcheck/recording.py). The
# others (the ones that run jobs, and sso) run on the reference service in each layout
# (integration-unchecked, integration-gateway-unchecked): so every target meets the reference
# service in both layouts once (tests/ci/targets.py says which run where; make integration runs them
# all).
TEST_STEPS := live replay-gateway replay integration-gateway-unchecked pytest matrix-ci hub integration-unchecked \
    sanity docs lint importer units schema-check changelog-lint ee
TEST_JOBS ?= 3

.DEFAULT_GOAL := help
.PHONY: help venv system-deps idp-packages collection-path demo test $(TEST_STEPS) integration integration-gateway record diffcheck build clean bench matrix

help:  ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | sed 's/:.*## /\t/' | expand -t 20

venv: $(STAMP)  ## create .venv with requirements-dev.txt (again only when that file changes)

# The virtualenv is kept in the machine's cache, as the matrix's are (tests/ci/cached-venv.sh: keyed by
# the interpreter and requirements-dev.txt), and .venv links to it: a fresh clone on a machine that ran
# the tests before does not install it again. A .venv that is a directory of its own is kept as it is.
$(STAMP): requirements-dev.txt | system-deps
	@if [ -d $(VENV) ] && [ ! -L $(VENV) ]; then \
	    $(VENV)/bin/python -m pip install --quiet --disable-pip-version-check -r requirements-dev.txt; \
	else \
	    ln -sfn "$$(tests/ci/cached-venv.sh dev $(PYTHON) -r requirements-dev.txt)" $(VENV); \
	fi
	touch $@

system-deps:  ## install the Debian packages the tests and the demo need (xmlsec1, graphviz, nodejs, npm, slapd; libldap-dev and libsasl2-dev for python-ldap) that are missing, as root or with sudo -n; else print the apt-get line
	@tests/ci/system-deps.sh

idp-packages: $(OIDC_STAMP)  ## npm ci for the OIDC test identity provider (tests/idp/oidc), again only when its package-lock.json changes

$(OIDC_STAMP): $(OIDC_IDP)/package-lock.json $(OIDC_IDP)/package.json | system-deps
	cd $(OIDC_IDP) && npm ci --no-audit --no-fund --loglevel=error
	touch $@

collection-path:  ## make .run/collections/ansible_collections/automation/service point at this tree
	@mkdir -p $(dir $(COLLECTION_LINK))
	@if [ -e $(COLLECTION_LINK) ] && [ ! -L $(COLLECTION_LINK) ]; then \
	    echo "$(COLLECTION_LINK) exists and is not a symlink" >&2; exit 1; fi
	@ln -sfn ../../../.. $(COLLECTION_LINK)
	@echo "ANSIBLE_COLLECTIONS_PATH=$(COLLECTIONS)"

compat: venv  ## generate the redirect collections awx.awx, ansible.controller, ansible.platform, ansible.eda (to the eda_* modules) and ansible.hub into .run/compat (tests/live/compat.py); put .run/compat first on ANSIBLE_COLLECTIONS_PATH to run roles that name them against this collection
	@python tests/live/compat.py --dest $(RUN)/compat

demo: venv system-deps idp-packages collection-path  ## start the reference service, run examples/demo.yml against it, stop it
	tests/ci/demo.sh

test: venv system-deps idp-packages collection-path  ## the whole suite (what CI runs), with a summary table at the end
	@# tests/unit (under ansible-test: units) and tests/live (plain pytest: live) run once, not in the pytest step too.
	@# (--ignore does not apply to testpaths, which pytest takes as given paths: name the others instead)
	@PYTEST_ARGS="$(PYTEST_ARGS) tests/service/tests tests/ci/tests tests/idp/tests tests/diffcheck/tests tests/schema/tests" python tests/ci/run_steps.py --make "$(MAKE)" \
	    --jobs $(TEST_JOBS) $(TEST_STEPS)

pytest: venv system-deps idp-packages collection-path  ## every Python suite with plain pytest (pytest.ini: testpaths): unit and live tests, the reference service's, the CI scripts'
	python -m pytest $(PYTEST_ARGS)

sanity: venv  ## ansible-test sanity, on a copy under .run/ansible-test
	tests/ci/sanity.sh $(SANITY_ARGS)

units: venv  ## ansible-test units on a copy under .run/ansible-test: the tests without a service (tests/unit); results in tests/output/units/
	tests/ci/units.sh $(UNITS_ARGS)

live: venv system-deps idp-packages collection-path  ## the live tests (tests/live) with plain pytest, one at a time: against the reference service, which their fixtures start, with real ansible-playbook; LIVE_ARGS for some (make live LIVE_ARGS=tests/live/test_compat.py); junit in tests/output/live/
	python -m pytest -p no:cacheprovider --junit-xml tests/output/live/junit.xml $(LIVE_ARGS)

integration: venv system-deps idp-packages  ## ansible-test integration, against a reference service started for the run (every target but the Hub's: make hub runs those)
	tests/ci/integration.sh --continue-on-error --exclude hub/ $(INTEGRATION_ARGS)

# make test runs the AWX layout's targets (replay, integration-unchecked) under the oldest ansible-core of
# the matrix (AWX_CORE) and the gateway layout's under the newest (GATEWAY_CORE): each is that version's
# integration run, so the matrix runs only sanity under both (matrix-ci).
AWX_CORE ?= $(firstword $(MATRIX_CI))
integration-unchecked: venv system-deps idp-packages  ## the integration targets that are not replayed (tests/ci/targets.py unchecked: the ones that run jobs, and sso), against a reference service, under ansible-core AWX_CORE: make test's run in the AWX layout
	VENV=$$(tests/ci/matrix.sh --venv $(AWX_CORE)) ANSIBLE_TEST_WORK=$(abspath $(RUN))/ansible-test/integration-unchecked \
	    tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py unchecked) $(INTEGRATION_ARGS)

# Every target runs on the platform gateway's layout as well, but those tests/integration/gateway.yml
# leaves out (instance and import: the gateway's layout has no second service). In make test, those
# recorded on a real gateway are replayed (replay-gateway), the others run on the reference service's
# gateway layout (integration-gateway-unchecked). Both use the newest ansible-core of the matrix
# (GATEWAY_CORE): they are that version's integration run too, so the matrix runs only sanity under it
# (matrix-ci).
GATEWAY_TARGETS ?=
GATEWAY_CORE ?= $(lastword $(MATRIX_CI))
GATEWAY_ENV = VENV=$$(tests/ci/matrix.sh --venv $(GATEWAY_CORE)) \
	INTEGRATION_LAYOUT=gateway INTEGRATION_SERVICE_DIR=$(abspath $(RUN))/integration-gateway-service \
	ANSIBLE_TEST_WORK=$(abspath $(RUN))/ansible-test/integration-gateway TEST_OUTPUT=$(CURDIR)/tests/output/integration-gateway
integration-gateway: venv system-deps idp-packages  ## the integration targets (GATEWAY_TARGETS, default all that layout runs: tests/ci/targets.py gateway) against a reference service in the platform gateway's layout (svcctl start --layout gateway), under ansible-core GATEWAY_CORE
	$(GATEWAY_ENV) tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py gateway $(GATEWAY_TARGETS)) $(INTEGRATION_ARGS)

integration-gateway-unchecked: venv system-deps idp-packages  ## the integration targets of the gateway's layout that are not replayed (tests/ci/targets.py gateway-unchecked), against a reference service in that layout: make test's run there
	$(GATEWAY_ENV) tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py gateway-unchecked) $(INTEGRATION_ARGS)

replay: venv system-deps idp-packages  ## the integration targets a real AWX answered (tests/ci/targets.py checked), against a reference service through the recording proxy, under ansible-core AWX_CORE; every answer compared with the recorded one (tests/recorded/awx-*; report in tests/output/replay/report.md)
	DIFFCHECK_VENV=$$(tests/ci/matrix.sh --venv $(AWX_CORE)) tests/diffcheck/run.sh replay --layout awx

replay-gateway: venv system-deps idp-packages  ## the same in the platform gateway's layout (tests/recorded/gateway-*, targets gateway-checked), under ansible-core GATEWAY_CORE
	DIFFCHECK_VENV=$$(tests/ci/matrix.sh --venv $(GATEWAY_CORE)) tests/diffcheck/run.sh replay --layout gateway

# The targets run under the ansible-core their layout's replay runs them with.
LAYOUT_VENV = $$(tests/ci/matrix.sh --venv $(if $(filter gateway,$(LAYOUT)),$(GATEWAY_CORE),$(AWX_CORE)))
record: venv system-deps idp-packages  ## record a real service's answers to the integration targets: make record SERVICE_URL=... SERVICE_USERNAME=... SERVICE_PASSWORD=... [SERVICE_CA_PATH=...] [LAYOUT=awx|gateway] [RECORD_TARGETS=...]; writes tests/recorded/<layout>-<version>/ (the targets create and delete objects there)
	DIFFCHECK_VENV=$(LAYOUT_VENV) tests/diffcheck/run.sh record --layout $(LAYOUT) $(RECORD_TARGETS)

diffcheck: venv system-deps idp-packages  ## a live comparison: the integration targets against the service SERVICE_URL, SERVICE_USERNAME, SERVICE_PASSWORD [SERVICE_CA_PATH] describe, each request sent to a reference service too (LAYOUT, RECORD_TARGETS as for record; report in tests/output/diffcheck/)
	DIFFCHECK_VENV=$(LAYOUT_VENV) tests/diffcheck/run.sh diff --layout $(LAYOUT) $(RECORD_TARGETS)

schema-check: venv system-deps  ## the reference service's gateway layout held against the platform's published gateway schemas (../shared/platform-api/gateway-2.7.json and 2.6; tests/schema/check.py), and EDA's API behind it against eda-2.7.json and 2.6: every path answered, every field as published, OPTIONS as the request bodies say; a difference is explained in tests/schema/known-gateway.yml or known-eda.yml or fails the step; reports in tests/output/schema/
	tests/schema/run.sh

lint: venv collection-path  ## ansible-lint (production profile)
	ansible-lint

changelog-lint: venv  ## antsibull-changelog lint
	antsibull-changelog lint

bench: venv system-deps idp-packages collection-path  ## benchmark beside awx.awx (writes benchmarks/RESULTS.md, results.png; about 45 min at the default N = 50, 3 runs, both layouts)
	python -m pip install --quiet --disable-pip-version-check -r benchmarks/requirements.txt
	python -m benchmarks.bench $(BENCH_ARGS)

docs: venv system-deps  ## lint the docs (antsibull-docs) and build the HTML site into docs/_build/html (offline; needs graphviz)
	tests/ci/docs.sh

importer: venv  ## build the artifact and run galaxy-importer on it; any WARNING:/ERROR: line fails
	tests/ci/importer.sh

ee: venv  ## ansible-builder: introspect the collection's EE requirements, create an EE build context
	tests/ci/ee.sh

matrix: venv system-deps idp-packages  ## sanity + integration under every supported ansible-core (MATRIX="2.16 2.21" for some)
	tests/ci/matrix.sh $(MATRIX)

matrix-ci: venv system-deps idp-packages  ## sanity under the matrix's oldest and newest ansible-core (MATRIX_CI), as CI runs it (their integration runs are the AWX layout's and the gateway layout's)
	MATRIX_STEPS_$(subst .,_,$(AWX_CORE))=sanity MATRIX_STEPS_$(subst .,_,$(GATEWAY_CORE))=sanity tests/ci/matrix.sh $(MATRIX_CI)

# A real Automation Hub (galaxy-ng from PyPI, tests/hub/README.md). make test's hub step starts one of its own
# for the step, in a temporary directory, and stops it (tests/hub/run.sh).
.PHONY: hub hub-test hub-start hub-stop
HUB_DIR ?= $(RUN)/hub
HUB_ARGS ?=
HUB_TARGETS ?=
hub: venv system-deps collection-path  ## make test's hub step: start a real Automation Hub for the step, run the integration targets whose aliases say hub (tests/ci/targets.py hub; HUB_TARGETS for some) in one ansible-test run against it, then pytest over tests/hub/tests, then stop it (tests/hub/run.sh)
	tests/hub/run.sh $(HUB_TARGETS)

hub-test: hub  ## the hub step alone (the same as make hub)

hub-start: venv  ## start a real Automation Hub (galaxy-ng 4.9.2 with PostgreSQL, API, content app, one worker) on loopback in HUB_DIR (default .run/hub; HUB_ARGS=--fresh for a new database), its virtualenv and migrated database from the machine's cache (made there the first time); prints HUB_* export lines for eval
	@python tests/hub/hubctl.py start --dir $(HUB_DIR) $(HUB_ARGS)

hub-stop:  ## stop what make hub-start started in HUB_DIR
	@python tests/hub/hubctl.py stop --dir $(HUB_DIR)

build: venv  ## build the collection artifact (automation-service-<version>.tar.gz)
	ansible-galaxy collection build --force .

clean:  ## stop services (and Hubs) started under .run, remove .run, test output, caches, built artifacts (keeps .venv)
	@for d in $(RUN)/demo $(RUN)/integration-service $(RUN)/integration-service-second $(RUN)/replay/service $(RUN)/replay-gateway/service $(RUN)/diff/service $(RUN)/diff-gateway/service $(RUN)/service $(RUN)/matrix/service-*; do \
	    if [ -d "$$d" ] && [ -e tests/service/svcctl ]; then tests/ci/svcctl.sh stop --dir "$$d" || true; fi; \
	done
	@for d in $(RUN)/hub $(RUN)/hub-tests $(RUN)/hub-gateway; do \
	    if [ -d "$$d" ]; then python tests/hub/hubctl.py stop --dir "$$d" || true; fi; \
	done
	rm -rf $(RUN) tests/output .pytest_cache changelogs/.plugin-cache.yaml automation-service-*.tar.gz docs/_build
	find . -path ./.venv -prune -o -name __pycache__ -type d -exec rm -rf {} +
