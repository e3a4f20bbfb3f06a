#!/bin/sh
# The Ansible collection ansible/ (mdprofile.nas) run by the ansible-playbook Debian
# ships, with a local connection, against copies of the CLI tests' fixture roots.
#   sh tests/ansible/run.sh BINARY SEAM_BINARY STATIC_BINARY
# BINARY runs the profile and status modules; SEAM_BINARY (a build with the
# MDPROFILE_FAULT seam, build/san) makes the failures; STATIC_BINARY is what the
# install role installs. Each binary is copied alone, so the built-in profiles are used.
# Where a Python 2.7 is found (PYTHON2, else python2.7 in PATH or pyenv's), the module
# playbook runs a second time with it as the target's interpreter.
set -eu
SRC=$(cd "$(dirname "$0")/../.." && pwd)
HERE=$SRC/tests/ansible
TOP=$(mktemp -d)
trap 'rm -rf "$TOP"' EXIT
mkdir -p "$TOP/bin" "$TOP/seam" "$TOP/static" "$TOP/home" "$TOP/tmp" "$TOP/c/ansible_collections/mdprofile"
cp "$1" "$TOP/bin/mdprofile"
cp "$2" "$TOP/seam/mdprofile"
cp "$3" "$TOP/static/mdprofile"
ln -s "$SRC/ansible" "$TOP/c/ansible_collections/mdprofile/nas"
: >"$TOP/ansible.cfg"

export ANSIBLE_COLLECTIONS_PATH="$TOP/c" ANSIBLE_HOME="$TOP/home" ANSIBLE_LOCAL_TEMP="$TOP/tmp" \
	ANSIBLE_REMOTE_TEMP="$TOP/tmp" ANSIBLE_CONFIG="$TOP/ansible.cfg" ANSIBLE_NOCOLOR=1 \
	ANSIBLE_RETRY_FILES_ENABLED=0 ANSIBLE_LOCALHOST_WARNING=0 ANSIBLE_INVENTORY_UNPARSED_WARNING=0 \
	ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_FORKS=4
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1
fail=0

# A fresh copy of a fixture with fake service managers: fixture DIR NAME KIND STATE...
fixture() {
	dir=$1 name=$2
	shift 2
	rm -rf "$dir"
	cp -a "$SRC/tests/fixtures/$name" "$dir"
	sh "$SRC/tests/fakes/install.sh" "$dir" "$@" >/dev/null
}

# ansible-playbook ARGS..., its output in $TOP/log; a failed play fails the suite.
play() {
	name=$1
	shift
	if ansible-playbook -i localhost, -c local "$@" >"$TOP/log" 2>&1; then
		echo "ansible: $name: ok"
	else
		echo "FAIL ansible: $name" >&2
		sed 's/^/    /' "$TOP/log" >&2
		fail=1
	fi
}

profile_play() {
	py=$1
	pyver=$("$py" -c 'import sys; print("%d.%d" % sys.version_info[:2])')
	fixture "$TOP/root" ds-dsm6-reshape dsm6 synoindexd=running
	fixture "$TOP/root4" ds220j-dsm7 dsm7 pkg:SynologyPhotos=running synoindexd=running
	mkdir -p "$TOP/root4/etc/mdprofile/profiles"
	printf 'services:\n  pause: [pkg:SynologyPhotos, synoindexd]\n' \
		>"$TOP/root4/etc/mdprofile/profiles/photos.yaml"
	play "profile and status modules (target Python $pyver)" "$HERE/profile.yml" \
		-e ansible_python_interpreter="$py" -e python_version="$pyver" -e mdp="$TOP/bin/mdprofile" \
		-e seam_mdp="$TOP/seam/mdprofile" -e root="$TOP/root" -e root4="$TOP/root4" \
		-e bad_profile="$SRC/tests/profiles/bad/01-unknown-key-did-you-mean.yaml" \
		-e digest="$HERE/tree-digest.sh" -e fakes="$SRC/tests/fakes/install.sh"
}

profile_play /usr/bin/python3
# --diff output of check mode, as a person sees it: one before/after pair per value.
awk '/^TASK \[Check mode: reshape-fast would change\]/ {on = 1; next}
	on && /^TASK / {exit} on' "$TOP/log" | grep -v '^$' >"$TOP/diff.got" || true
if ! diff -u "$HERE/check-diff.expected" "$TOP/diff.got" >"$TOP/diff.out"; then
	echo "FAIL ansible: --diff output of check mode differs (-expected +actual):" >&2
	sed 's/^/    /' "$TOP/diff.out" >&2
	fail=1
fi

py2=
for p in ${PYTHON2:-} $(command -v python2.7 || true) /root/.pyenv/versions/2.7*/bin/python2.7; do
	if "$p" -c 'import sys; sys.exit(sys.version_info[:2] != (2, 7))' 2>/dev/null; then
		py2=$p
		break
	fi
done
if [ -n "$py2" ]; then
	profile_play "$py2"
else
	echo "ansible: no python2.7 here: the modules were not run under Python 2.7"
fi

[ "$fail" -eq 0 ]
