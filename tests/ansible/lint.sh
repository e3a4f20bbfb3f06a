#!/bin/sh
# Static checks of the Ansible collection ansible/ (mdprofile.nas):
# - ansible-lint (Debian's) on the collection and on the test playbooks;
# - ansible-doc in text mode, as a person reads it, on both modules and the role;
# - ansible-test sanity, the tests that run offline. validate-modules (DOCUMENTATION,
#   EXAMPLES and RETURN against each module's argument spec) runs with Debian's
#   python3-voluptuous: its virtualenv is made here, with the system's packages, before
#   ansible-test would try to download pip into it. The others that install their own
#   requirements with pip (ansible-doc, import, pep8, pylint, runtime-metadata,
#   yamllint) cannot run offline. The compile test runs on every Python it finds, 2.7
#   included, so a construct Python 2.7 (DSM 6) cannot parse fails here.
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
# The collection carries its licence as a file (ansible-test copies the collection alone, so
# a link to ../COPYING breaks there): the same text as the project's.
cmp -s "$SRC/COPYING" "$SRC/ansible/COPYING" || {
	echo "ansible-check: ansible/COPYING differs from COPYING: cp COPYING ansible/COPYING" >&2
	exit 1
}
lint "$SRC/ansible"
lint "$SRC" tests/ansible/install.yml tests/ansible/install-verify.yml tests/ansible/profile.yml \
	tests/ansible/enable.yml tests/ansible/install-disable.yml
echo "ansible-lint: clean"

# Text mode fails where --json does not: a description item that YAML reads as a mapping.
doc() {
	if ! ansible-doc -t "$@" >"$TOP/doc.txt" 2>"$TOP/doc.err" || [ -s "$TOP/doc.err" ]; then
		cat "$TOP/doc.err" >&2
		echo "ansible-doc -t $*: failed" >&2
		exit 1
	fi
}
doc module mdprofile.nas.profile mdprofile.nas.status
[ "$(grep -c '^RETURN VALUES:' "$TOP/doc.txt")" -eq 2 ] || {
	echo "ansible-doc: a module's RETURN is missing" >&2
	exit 1
}
doc role mdprofile.nas.install
echo "ansible-doc: both modules and the role render in text mode"

cp -a "$SRC/ansible" "$TOP/s/ansible_collections/mdprofile/nas"
# Every Python interpreter here, for the compile test: PATH's and pyenv's.
path=$PATH
for d in "${PYENV_ROOT:-${HOME:-}/.pyenv}"/versions/*/bin; do
	[ -d "$d" ] && path=$path:$d
done
# validate-modules' virtualenv where ansible-test looks for it (the controller's Python,
# a hash of its requirements), with the system's packages and the marker that says it is
# complete; one ansible-test made itself (online) is kept.
venv=$(cd "$TOP/s/ansible_collections/mdprofile/nas" && /usr/bin/python3 - <<'PY'
import os, sys
from ansible_test._internal.commands.sanity import hash_pip_commands
from ansible_test._internal.host_configs import NativePythonConfig
from ansible_test._internal.python_requirements import collect_requirements
version = "%d.%d" % sys.version_info[:2]
commands = collect_requirements(
    python=NativePythonConfig(version=version, path=sys.executable), controller=True,
    virtualenv=False, command=None, ansible=False, cryptography=False, coverage=False,
    minimize=False, sanity="validate-modules")
print(os.path.expanduser(os.path.join("~/.ansible/test/venv/sanity.validate-modules", version,
                                      hash_pip_commands(commands))))
PY
) || {
	echo "ansible-check: cannot find where ansible-test keeps validate-modules' virtualenv" >&2
	exit 1
}
/usr/bin/python3 -c 'import voluptuous' 2>/dev/null || {
	echo "ansible-check: python3-voluptuous is missing: make deps installs it" >&2
	exit 1
}
if [ ! -e "$venv/marker.txt" ]; then
	rm -rf "$venv"
	/usr/bin/python3 -m venv --without-pip --system-site-packages "$venv"
	echo '[]' >"$venv/meta.install.json"
	/usr/bin/python3 -c 'import yaml; print(str(yaml.__with_libyaml__).lower())' >"$venv/meta.yaml.json"
	: >"$venv/marker.txt"
fi
skip="ansible-doc import pep8 pylint runtime-metadata yamllint"
args=
for t in $skip; do args="$args --skip-test $t"; done
# shellcheck disable=SC2086
(cd "$TOP/s/ansible_collections/mdprofile/nas" &&
	PATH=$path ansible-test sanity --color no $args >"$TOP/sanity.log" 2>&1) || {
	grep -v 'locale\|could not be found' "$TOP/sanity.log" >&2
	exit 1
}
pys=$(sed -n 's/^Running sanity test "compile" on Python \(.*\)$/\1/p' "$TOP/sanity.log" | tr '\n' ' ')
grep -q '^Running sanity test "validate-modules"' "$TOP/sanity.log" || {
	echo "ansible-test sanity: validate-modules did not run" >&2
	exit 1
}
echo "ansible-test sanity: clean, validate-modules included; compile on Python ${pys% }; not run offline: $skip"
