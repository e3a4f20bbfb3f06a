#!/bin/sh
# Static checks of the Ansible collection ansible/ (mdprofile.nas):
# - ansible-lint (Debian's) on the collection and on the test playbooks;
# - ansible-doc renders both modules' DOCUMENTATION, EXAMPLES and RETURN;
# - ansible-test sanity, the tests that run offline. Those that install their own
#   requirements with pip into a virtualenv (ansible-doc, import, pep8, pylint,
#   runtime-metadata, validate-modules, yamllint) cannot: Debian's ansible-test downloads
#   pip for them. The compile test runs on every Python it finds, 2.7 included, so a
#   construct Python 2.7 (DSM 6) cannot parse fails here.
set -eu
for t in ansible-lint ansible-doc ansible-test; do
	command -v $t >/dev/null || {
		echo "ansible-check: $t is missing: make deps installs ansible-core and ansible-lint" >&2
		exit 1
	}
done
SRC=$(cd "$(dirname "$0")/../.." && pwd)
TOP=$(mktemp -d)
trap 'rm -rf "$TOP"' EXIT
mkdir -p "$TOP/c/ansible_collections/mdprofile" "$TOP/s/ansible_collections/mdprofile"
ln -s "$SRC/ansible" "$TOP/c/ansible_collections/mdprofile/nas"
export ANSIBLE_COLLECTIONS_PATH="$TOP/c" ANSIBLE_NOCOLOR=1 NO_COLOR=1

# ansible-lint warns that it cannot load the collection's modules to check their options
# (it installs the collection into a cache of its own); the modules' own tests do that.
lint() {
	(cd "$1" && shift && ansible-lint --offline -q --nocolor "$@") >"$TOP/lint.log" 2>&1 || {
		grep -v '^WARNING  Unable to' "$TOP/lint.log" >&2
		exit 1
	}
}
lint "$SRC/ansible"
lint "$SRC" tests/ansible/install.yml tests/ansible/install-verify.yml tests/ansible/profile.yml \
	tests/ansible/enable.yml
echo "ansible-lint: clean"

for m in profile status; do
	ansible-doc -t module --json "mdprofile.nas.$m" >"$TOP/doc.json" 2>"$TOP/doc.err" || {
		cat "$TOP/doc.err" >&2
		exit 1
	}
	python3 - "$TOP/doc.json" "mdprofile.nas.$m" <<'PY'
import json, sys
import yaml
doc = json.load(open(sys.argv[1]))[sys.argv[2]]
for part in ("doc", "examples", "return"):
    if not doc.get(part):
        sys.exit("ansible-doc %s: no %s" % (sys.argv[2], part))
yaml.safe_load(doc["examples"])
PY
done
echo "ansible-doc: both modules documented"

cp -a "$SRC/ansible" "$TOP/s/ansible_collections/mdprofile/nas"
# Every Python interpreter here, for the compile test: PATH's and pyenv's.
path=$PATH
for d in "${PYENV_ROOT:-${HOME:-}/.pyenv}"/versions/*/bin; do
	[ -d "$d" ] && path=$path:$d
done
skip="ansible-doc import pep8 pylint runtime-metadata validate-modules yamllint"
args=
for t in $skip; do args="$args --skip-test $t"; done
# shellcheck disable=SC2086
(cd "$TOP/s/ansible_collections/mdprofile/nas" &&
	PATH=$path ansible-test sanity --color no $args >"$TOP/sanity.log" 2>&1) || {
	grep -v 'locale\|could not be found' "$TOP/sanity.log" >&2
	exit 1
}
pys=$(sed -n 's/^Running sanity test "compile" on Python \(.*\)$/\1/p' "$TOP/sanity.log" | tr '\n' ' ')
echo "ansible-test sanity: clean; compile on Python ${pys% }; not run offline: $skip"
