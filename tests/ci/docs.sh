#!/usr/bin/env bash
# Build the documentation site into docs/_build/html, offline and warning-free.
#
#   tests/ci/docs.sh
#
# 1. antsibull-docs lint-collection-docs: the plugins' documentation and the
#    extra docs (docs/docsite) are valid.
# 2. docs/tools/check_module_docs.py: every module documents attributes
#    (check_mode, diff_mode, action_group), EXAMPLES and RETURN.
#    docs/tools/auth_messages.py --check: the troubleshooting page lists every
#    error message of the auth layer, and none that is gone.
# 3. antsibull-docs collection: the RST of every plugin, the collection index and
#    the guides of docs/docsite/rst, into .run/docs/rst; their ``code-block:: dot``
#    diagrams become ``graphviz`` directives there.
# 4. sphinx-build -W with docs/conf.py (graphviz for the diagrams, no intersphinx).
#
# The tools come from requirements-docs.txt (tests/ci/tools-venv.sh). Needs graphviz's `dot` (make system-deps).
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
command -v dot >/dev/null || { echo "docs: graphviz's dot is missing (make system-deps installs it)" >&2; exit 2; }
venv=$(tests/ci/tools-venv.sh docs requirements-docs.txt)
export PATH="$venv/bin:$PATH"

# The reliability guide is written from the outcomes the last test run recorded
# (tests/output/reliability.json, from make live); without a report the committed page stays.
python docs/tools/reliability_page.py

# The collection as ansible-doc finds it: a copy of what would ship (see mktree.py).
work=$root/.run/docs
mkdir -p "$work"
exec 9>"$work.lock"
flock 9
tree=$(python tests/ci/mktree.py --root "$root" --dest "$work/collections")
# The extra docs of the working tree are linted and built even before they are committed.
export ANSIBLE_COLLECTIONS_PATH=$work/collections
export ANSIBLE_LOCAL_TEMP=$work/tmp ANSIBLE_NOCOLOR=1

echo "docs: antsibull-docs lint-collection-docs"
# A failed check does not stop the build: one run shows every problem.
status=0
(cd "$tree" && antsibull-docs lint-collection-docs --plugin-docs .) || status=1

echo "docs: every module has attributes, EXAMPLES and RETURN"
python docs/tools/check_module_docs.py "$tree" || status=1

echo "docs: error messages of the auth layer"
python docs/tools/auth_messages.py --source "$tree/plugins/module_utils" \
    --check "$tree/docs/docsite/rst/guide_troubleshooting.rst" || status=1

echo "docs: antsibull-docs collection"
rst=$work/rst
rm -rf "$rst"
mkdir -p "$rst"
chmod og-w "$rst"
antsibull-docs --config-file docs/antsibull-docs.cfg collection \
    --use-current --squash-hierarchy --fail-on-error --cleanup everything \
    --dest-dir "$rst" automation.service

# The guides write their sequence diagrams as ``.. code-block:: dot`` so that
# the extra docs stay plain RST for antsibull-docs (and docs sites without
# graphviz show the source); this site draws them with sphinx.ext.graphviz.
find "$rst" -name '*.rst' -path '*docsite*' -exec sed -i 's/^\.\. code-block:: dot$/.. graphviz::/' {} +

# Labels of the Ansible documentation that the generated pages refer to
# (intersphinx would resolve them online).
cp docs/site/*.rst "$rst/"
python docs/tools/builtin_refs.py "$rst" >>"$rst/ansible_references.rst"

echo "docs: sphinx-build"
rm -rf docs/_build/html docs/_build/doctrees
sphinx-build -b html -c docs -W --keep-going -n -q -d docs/_build/doctrees "$rst" docs/_build/html || status=1
rm -rf docs/_build/doctrees
if [ "$status" = 0 ]; then
    echo "docs: built docs/_build/html/index.html"
else
    echo "docs: FAILED (see above); what could be built is in docs/_build/html" >&2
fi
exit "$status"
