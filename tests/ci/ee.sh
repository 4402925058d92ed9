#!/usr/bin/env bash
# Check the collection for execution environments (AWX, Automation Platform).
#
#   tests/ci/ee.sh
#
# 1. ansible-builder introspect reads meta/execution-environment.yml of the
#    installed collection and must find its Python requirements (meta/ee-requirements.txt,
#    which lists requests).
# 2. ansible-builder create writes the build context of an execution environment
#    that installs this collection's artifact; no image is built (no container engine).
# Tools: requirements-importer.txt, in a virtualenv of the machine's cache (tests/ci/tools-venv.sh). Output in .run/ee/.
set -euo pipefail

root=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
cd "$root"
venv=$(tests/ci/tools-venv.sh importer requirements-importer.txt)
export PATH="$venv/bin:$PATH"

work=$root/.run/ee
rm -rf "$work"
mkdir -p "$work/collections"
ansible-galaxy collection build --force --output-path "$work" . >/dev/null
artifact=$(ls "$work"/automation-service-*.tar.gz)
ANSIBLE_COLLECTIONS_PATH=$work/collections ansible-galaxy collection install --no-deps -p "$work/collections" "$artifact" >/dev/null

echo "ee: ansible-builder introspect"
ansible-builder introspect --sanitize "$work/collections" | tee "$work/introspect.txt"
for req in $(grep -vE '^\s*(#|$)' meta/ee-requirements.txt | sed 's/[<>=!~;[ ].*//'); do
    grep -qiE "^\s*-\s*'?$req\b" "$work/introspect.txt" || {
        echo "ee: introspection did not find $req of meta/ee-requirements.txt" >&2
        exit 1
    }
done

echo "ee: ansible-builder create"
mkdir -p "$work/definition"
cp "$artifact" "$work/definition/"
cat >"$work/definition/execution-environment.yml" <<YAML
---
version: 3
images:
  base_image:
    name: quay.io/ansible/awx-ee:latest
dependencies:
  galaxy:
    collections:
      - name: /build/collections/$(basename "$artifact")
        type: file
additional_build_files:
  - src: $(basename "$artifact")
    dest: collections
additional_build_steps:
  prepend_galaxy:
    - COPY _build/collections/ /build/collections/
YAML
(cd "$work/definition" && ansible-builder create --file execution-environment.yml --context "$work/context" \
    --output-filename Containerfile -v 1)
test -s "$work/context/Containerfile"
test -s "$work/context/_build/collections/$(basename "$artifact")"
grep -q "$(basename "$artifact")" "$work/context/_build/requirements.yml"
echo "ee: build context in $work/context: Containerfile, the artifact, requirements.yml"
