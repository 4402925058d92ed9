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
AWX_SUITE_ARGS ?=
BENCH_ARGS ?=
# The port of the real AWX (make real-service-start); empty: its own default, 18143.
REAL_SERVICE_PORT ?=
REALAWX := tests/realawx/realawx
# svcctl start's arguments for the gateway in front of the real AWX (make real-gateway-start).
REAL_GATEWAY_ARGS ?=

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
# The ansible-core versions of the matrix that CI runs: the oldest and the newest
# supported (make matrix runs them all).
MATRIX_CI ?= 2.16 2.21
MATRIX ?=

# make test runs its steps TEST_JOBS at a time (tests/ci/run_steps.py): each time one ends,
# the next of TEST_STEPS starts. Most steps wait on a service or a job part of their time, so
# three at a time keep two cores busy. The list goes longest first, after real-service (which
# builds the real AWX when the cache lacks it): the two checks on the real AWX, which wait for that
# build, then the reference service's runs (the third of the first three, which does not wait);
# the live tests of the gateway's AWX as soon as its check is done with it, so that the shortest
# steps come last and fill the lanes to the end. The steps that use the real AWX take turns
# through tests/realawx/realawx hold: real-checked and awx-suite-real-recorded on the first AWX of
# the build, gateway-checked and real-gateway-live on its second (REALAWX_INSTANCE=gateway, behind
# the project's gateway), so that the two layouts' checks run side by side; real-gateway-live's
# migration test also holds the first for its last minute.
# Our integration targets run on the real AWX through the differential check (real-checked:
# integration-real and diffcheck in one run: each request goes to the real AWX, whose answer the
# target gets, and to the reference service, whose answer must match), on the reference service
# in the platform gateway's layout through that layout's check (gateway-checked: the real AWX behind
# the project's gateway, and the reference service's gateway layout), and, those the checks do not
# send to the reference service (the ones that run jobs, and sso), on the reference service in each
# layout (integration-unchecked, integration-gateway-unchecked): so every target meets the reference
# service in both layouts once, without a run repeating what a check already compared
# (tests/ci/targets.py says which run where; make integration runs them all). awx.awx's own
# integration targets run with awx.awx and with ours on the reference service
# (awx-suite-reference), and with ours on the real AWX beside awx.awx's result recorded there
# (awx-suite-real-recorded: both are fixed at 24.6.1, so that result cannot change; make
# awx-suite-real records it again).
TEST_STEPS := real-service real-checked gateway-checked integration-unchecked awx-suite-reference units \
    integration-gateway-unchecked real-gateway-live matrix-ci pytest docs sanity awx-suite-real-recorded importer lint \
    changelog-lint ee
TEST_JOBS ?= 3

.DEFAULT_GOAL := help
.PHONY: help venv system-deps idp-packages collection-path demo test $(TEST_STEPS) integration integration-gateway integration-real diffcheck awx-suite awx-suite-reference awx-suite-real awx-suite-real-recorded build clean bench matrix real-service real-service-start real-service-stop real-service-reset real-gateway-start real-gateway-stop

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

compat: venv  ## generate the redirect collections awx.awx, ansible.controller and ansible.platform into .run/compat (tests/live/compat.py); put .run/compat first on ANSIBLE_COLLECTIONS_PATH to run roles that name them against this collection
	@python tests/live/compat.py --dest $(RUN)/compat

demo: venv system-deps idp-packages collection-path  ## start the reference service, run examples/demo.yml against it, stop it
	tests/ci/demo.sh

test: venv system-deps idp-packages collection-path  ## the whole suite (what CI runs), with a summary table at the end
	@# tests/unit and tests/live run once, under ansible-test (the units step), not in the pytest step too.
	@# (--ignore does not apply to testpaths, which pytest takes as given paths: name the others instead)
	@PYTEST_ARGS="$(PYTEST_ARGS) tests/service/tests tests/ci/tests tests/idp/tests tests/diffcheck/tests" python tests/ci/run_steps.py --make "$(MAKE)" \
	    --jobs $(TEST_JOBS) $(TEST_STEPS)

pytest: venv system-deps idp-packages collection-path  ## every Python suite with plain pytest (pytest.ini: testpaths): unit and live tests, the reference service's, the CI scripts'
	python -m pytest $(PYTEST_ARGS)

sanity: venv  ## ansible-test sanity, on a copy under .run/ansible-test
	tests/ci/sanity.sh $(SANITY_ARGS)

units: venv system-deps idp-packages  ## ansible-test units on a copy under .run/ansible-test: tests/unit (no service) and tests/live (against the reference service; tests/unit/live in the copy)
	tests/ci/units.sh $(UNITS_ARGS)

integration: venv system-deps idp-packages  ## ansible-test integration, against a reference service started for the run
	tests/ci/integration.sh --continue-on-error $(INTEGRATION_ARGS)

integration-unchecked: venv system-deps idp-packages  ## the integration targets the differential check does not send to the reference service (tests/ci/targets.py unchecked: the ones that run jobs, and sso), against a reference service: make test's run in the AWX layout
	tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py unchecked) $(INTEGRATION_ARGS)

# Every target runs on the platform gateway's layout as well, but those tests/integration/gateway.yml
# leaves out (instance and import: the gateway's layout has no second service). In make test, those
# that the real AWX can run go through the differential check of that layout (gateway-checked: the
# real AWX behind the project's gateway, and the reference service's gateway layout), the others on
# the reference service's gateway layout (integration-gateway-unchecked). Both use the newest
# ansible-core of the matrix (GATEWAY_CORE): they are that version's integration run too, so the
# matrix runs only sanity under it (matrix-ci).
GATEWAY_TARGETS ?=
GATEWAY_CORE ?= $(lastword $(MATRIX_CI))
GATEWAY_ENV = VENV=$$(tests/ci/matrix.sh --venv $(GATEWAY_CORE)) \
	INTEGRATION_LAYOUT=gateway INTEGRATION_SERVICE_DIR=$(abspath $(RUN))/integration-gateway-service \
	ANSIBLE_TEST_WORK=$(abspath $(RUN))/ansible-test/integration-gateway TEST_OUTPUT=$(CURDIR)/tests/output/integration-gateway
integration-gateway: venv system-deps idp-packages  ## the integration targets (GATEWAY_TARGETS, default all that layout runs: tests/ci/targets.py gateway) against a reference service in the platform gateway's layout (svcctl start --layout gateway), under ansible-core GATEWAY_CORE
	$(GATEWAY_ENV) tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py gateway $(GATEWAY_TARGETS)) $(INTEGRATION_ARGS)

integration-gateway-unchecked: venv system-deps idp-packages  ## the integration targets of the gateway's layout that its differential check does not send to the reference service (tests/ci/targets.py gateway-unchecked), against a reference service in that layout: make test's run there
	$(GATEWAY_ENV) tests/ci/integration.sh --continue-on-error $$(python tests/ci/targets.py gateway-unchecked) $(INTEGRATION_ARGS)

gateway-checked: venv system-deps idp-packages real-service  ## the differential check of the gateway's layout: the integration targets (tests/ci/targets.py gateway-checked) through a proxy to the real AWX behind the project's gateway (the install's instance "gateway") and to the reference service's gateway layout, under ansible-core GATEWAY_CORE
	REALAWX_INSTANCE=gateway DIFFCHECK_VENV=$$(tests/ci/matrix.sh --venv $(GATEWAY_CORE)) tests/diffcheck/run.sh --layout gateway $(GATEWAY_TARGETS)

integration-real: venv system-deps idp-packages real-service  ## the integration targets that need no job execution, against the real AWX test bed
	tests/ci/integration-real.sh $(INTEGRATION_ARGS)

real-checked: venv system-deps idp-packages real-service  ## integration-real through the differential check (diffcheck), then the targets diffcheck leaves out (sso) directly: what make test runs on the real AWX
	tests/ci/real-checked.sh

diffcheck: venv system-deps real-service  ## the integration-real targets through a proxy that also asks a reference service; compares the answers (tests/output/diffcheck/report.md; DIFFCHECK_ARGS: target names)
	tests/diffcheck/run.sh $(DIFFCHECK_ARGS)

awx-suite: awx-suite-reference awx-suite-real  ## awx.awx's own integration targets with awx.awx and with ours (prefix rewritten), on both services; a table each

awx-suite-reference: venv collection-path real-service  ## awx.awx's integration targets with awx.awx and with ours on the reference service (AWX_SUITE_ARGS: target names)
	tests/awx_suite/run.sh reference $(AWX_SUITE_ARGS)

awx-suite-real: venv collection-path real-service  ## awx.awx's integration targets with awx.awx and with ours on the real AWX (AWX_SUITE_ARGS: target names)
	tests/awx_suite/run.sh real $(AWX_SUITE_ARGS)

awx-suite-real-recorded: venv collection-path real-service  ## awx.awx's integration targets with ours on the real AWX, beside awx.awx's result recorded there (tests/awx_suite/targets.yml)
	tests/awx_suite/run.sh real --awx-recorded $(AWX_SUITE_ARGS)

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

matrix-ci: venv system-deps idp-packages  ## the matrix's oldest and newest ansible-core (MATRIX_CI), as CI runs it (the newest one's integration run is integration-gateway's)
	MATRIX_AWX_SUITE_COVERS=1 MATRIX_STEPS_$(subst .,_,$(GATEWAY_CORE))=sanity tests/ci/matrix.sh $(MATRIX_CI)

real-service: venv  ## build a real AWX 24.6.1 from source into a cache outside the clone (as root; about 13 min the first time, seconds after)
	@$(REALAWX) build

real-service-start: real-service  ## start the real AWX (https://127.0.0.1:18143, or REAL_SERVICE_PORT); prints SERVICE_* export lines
	@$(REALAWX) start $(if $(REAL_SERVICE_PORT),--port $(REAL_SERVICE_PORT))

real-service-stop:  ## stop the real AWX
	@$(REALAWX) stop

real-service-reset:  ## put the real AWX's freshly provisioned database back (about 15 s)
	@$(REALAWX) reset

real-gateway-start: real-service  ## start the real AWX behind a platform gateway (the reference gateway on https://127.0.0.1:18144, or REAL_GATEWAY_PORT, forwarding /api/controller/ with a signed X-DAB-JW-TOKEN; REAL_GATEWAY_ARGS: svcctl start's, such as --with-idp); prints the gateway's SERVICE_* export lines
	@tests/realawx/gateway start $(REAL_GATEWAY_ARGS)

real-gateway-live: venv system-deps collection-path real-service  ## the live tests of the real AWX behind the gateway (tests/live/test_real_gateway.py), holding the real AWX
	REALAWX_INSTANCE=gateway tests/realawx/realawx hold python -m pytest -p no:cacheprovider tests/live/test_real_gateway.py

real-gateway-stop:  ## stop the gateway and the real AWX behind it; puts the real AWX's usual settings and provisioned database back
	@tests/realawx/gateway stop

build: venv  ## build the collection artifact (automation-service-<version>.tar.gz)
	ansible-galaxy collection build --force .

clean:  ## stop services started under .run, remove .run, test output, caches, built artifacts (keeps .venv and the real AWX)
	@for d in $(RUN)/demo $(RUN)/integration-service $(RUN)/integration-service-second $(RUN)/diffcheck/service $(RUN)/diffcheck-gateway/service $(RUN)/diffcheck-gateway/real-gateway $(RUN)/service $(RUN)/matrix/service-*; do \
	    if [ -d "$$d" ] && [ -e tests/service/svcctl ]; then tests/ci/svcctl.sh stop --dir "$$d" || true; fi; \
	done
	rm -rf $(RUN) tests/output .pytest_cache changelogs/.plugin-cache.yaml automation-service-*.tar.gz docs/_build
	find . -path ./.venv -prune -o -name __pycache__ -type d -exec rm -rf {} +
