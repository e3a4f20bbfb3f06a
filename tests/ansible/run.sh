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
command -v ansible-playbook >/dev/null || {
	echo "ansible-check: ansible-playbook is missing: make deps installs ansible-core" >&2
	exit 1
}
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
	ANSIBLE_STDOUT_CALLBACK=default ANSIBLE_FORKS=4 ANSIBLE_PIPELINING=1
export ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=halt_on_error=1
# Every tree the fake tools go into is named in MDPROFILE_ROOT_EXEC: mdprofile runs a tree's
# programs only then (the modules pass the environment on).
export MDPROFILE_ROOT_EXEC=
fakes() {
	sh "$SRC/tests/fakes/install.sh" "$@" >/dev/null
	case :$MDPROFILE_ROOT_EXEC: in *":$1:"*) ;; *) MDPROFILE_ROOT_EXEC=$MDPROFILE_ROOT_EXEC:$1 ;; esac
}
fail=0

# A fresh copy of a fixture with fake service managers: fixture DIR NAME KIND STATE...
fixture() {
	dir=$1 name=$2
	shift 2
	rm -rf "$dir"
	cp -a "$SRC/tests/fixtures/$name" "$dir"
	fakes "$dir" "$@"
}

# ansible-playbook ARGS..., its output in $TOP/log; a failed play fails the suite.
play() {
	name=$1
	shift
	if ansible-playbook "$@" >"$TOP/log" 2>&1; then
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
	play "profile and status modules (target Python $pyver)" -i localhost, -c local "$HERE/profile.yml" \
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

# enabled: true / false (mdprofile enable, disable) on a DSM fixture with the fake
# esynoscheduler, the boot binary a stand-in in the tree.
fixture "$TOP/root-en" ds-dsm6-reshape esynoscheduler
mkdir -p "$TOP/root-en/volume1/@mdprofile"
printf '#!/bin/sh\n' >"$TOP/root-en/volume1/@mdprofile/mdprofile"
chmod 0755 "$TOP/root-en/volume1" "$TOP/root-en/volume1/@mdprofile" "$TOP/root-en/volume1/@mdprofile/mdprofile"
play "profile module, enabled" -i localhost, -c local "$HERE/enable.yml" \
	-e ansible_python_interpreter=/usr/bin/python3 -e mdp="$TOP/bin/mdprofile" -e root="$TOP/root-en"

py2=
for p in ${PYTHON2:-} $(command -v python2.7 || true) "${PYENV_ROOT:-${HOME:-}/.pyenv}"/versions/2.7*/bin/python2.7; do
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

# ---- the install role: four hosts, each a fixture root, installed twice ----
V=$(cat "$SRC/VERSION")
B=$TOP/build
mkdir -p "$B/static" "$B/aarch64" "$B/armhf" "$TOP/dist/t/mdprofile-$V-x86_64" "$TOP/dist-bad" "$TOP/p"
cp "$TOP/static/mdprofile" "$B/static/mdprofile"
# The ARM builds only have to be told apart: the hosts that get them run nothing.
printf '#!/bin/sh\n# stands for build/aarch64/mdprofile\n' >"$B/aarch64/mdprofile"
printf '#!/bin/sh\n# stands for build/armhf/mdprofile\n' >"$B/armhf/mdprofile"
# A tarball laid out as make dist lays it out, with its SHA256SUMS; and one that lies.
cp "$TOP/static/mdprofile" "$TOP/dist/t/mdprofile-$V-x86_64/mdprofile"
tar -C "$TOP/dist/t" -czf "$TOP/dist/mdprofile-$V-x86_64.tar.gz" "mdprofile-$V-x86_64"
rm -rf "$TOP/dist/t"
(cd "$TOP/dist" && sha256sum ./*.tar.gz | sed 's| \./| |' >SHA256SUMS)
cp "$TOP/dist/mdprofile-$V-x86_64.tar.gz" "$TOP/dist-bad/"
# The first digit of the sum changed for sure (a sum that began with 0 stayed right: the
# tarball changes with every build, and one in sixteen passed the check).
sed 's/^0/1/;t;s/^./0/' "$TOP/dist/SHA256SUMS" >"$TOP/dist-bad/SHA256SUMS"
cmp -s "$TOP/dist/SHA256SUMS" "$TOP/dist-bad/SHA256SUMS" && { echo "ansible: the bad SHA256SUMS is right" >&2; exit 1; }
printf 'description: nightly scrub\nextends: balanced\n' >"$TOP/p/nightly.yaml"
for h in dsm srv arm armv7; do rm -rf "$TOP/i-$h"; done
cp -a "$SRC/tests/fixtures/ds-dsm6-reshape" "$TOP/i-dsm"
cp -a "$SRC/tests/fixtures/server-raid6-raid10" "$TOP/i-srv"
mkdir -p "$TOP/i-arm" "$TOP/i-armv7"
for h in dsm srv arm armv7; do chmod 0755 "$TOP/i-$h"; done
mkdir -m 0755 "$TOP/i-dsm/volume1" "$TOP/i-armv7/volume1"
# enable creates the DSM task and enables the systemd units with the fakes.
fakes "$TOP/i-dsm" esynoscheduler
fakes "$TOP/i-srv" systemd
cat >"$TOP/inventory.yml" <<INV
all:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    mdprofile_build_dir: $B
    dist_version: "$V"
    bad_dist_dir: $TOP/dist-bad
  hosts:
    dsm:
      mdprofile_root: $TOP/i-dsm
      mdprofile_profiles: [$TOP/p/nightly.yaml]
      mdprofile_boot_profile: nightly
      expect_dir: /volume1/@mdprofile
      expect_source: $B/static/mdprofile
      expect_profiles_dir: /volume1/@mdprofile/profiles
      expect_boot: /volume1/@mdprofile/mdprofile.sh
    server:
      mdprofile_root: $TOP/i-srv
      mdprofile_build_dir: ""
      mdprofile_dist_dir: $TOP/dist
      mdprofile_dist_version: "$V"
      mdprofile_dist_unpack_dir: $TOP/unpacked
      mdprofile_boot_profile: balanced
      expect_dir: /usr/local/bin
      expect_source: $B/static/mdprofile
      expect_profiles_dir: ""
      expect_boot: /usr/local/lib/mdprofile/mdprofile.sh
    arm:
      mdprofile_root: $TOP/i-arm
      mdprofile_dsm: false
      mdprofile_arch: aarch64
      mdprofile_profiles: [$TOP/p/nightly.yaml]
      expect_dir: /usr/local/bin
      expect_source: $B/aarch64/mdprofile
      expect_profiles_dir: /usr/local/share/mdprofile/profiles
      expect_boot: ""
    armv7:
      mdprofile_root: $TOP/i-armv7
      mdprofile_dsm: true
      mdprofile_arch: armv7l
      expect_dir: /volume1/@mdprofile
      expect_source: $B/armhf/mdprofile
      expect_profiles_dir: ""
      expect_boot: ""
INV

# recap HOST: the PLAY RECAP counts of HOST in the last log, "ok=N changed=N ... failed=N".
recap() {
	sed -n "s/^$1 *: \(ok=[0-9]* *changed=[0-9]*\) .*\(failed=[0-9]*\).*/\1 \2/p" "$TOP/log" | tr -s ' '
}
# expect_recap RUN HOST CHANGED: HOST changed exactly CHANGED things, failed none.
expect_recap() {
	got=$(recap "$2")
	case $got in
	"ok="*" changed=$3 failed=0") ;;
	*)
		echo "FAIL ansible: install role, $1: $2 recap '$got', expected changed=$3 failed=0" >&2
		fail=1
		;;
	esac
}

# --check first, on a fresh controller and a fresh host: it unpacks the tarball on the
# controller (to a directory of its own here, so that the first run still unpacks) and
# changes nothing on server. Changed: directories, binary, unpack directory, tarball
# (enable is skipped, the binary not being there yet).
tree=$(sh "$HERE/tree-digest.sh" "$TOP/i-srv")
play "install role, check mode on a fresh controller" -i "$TOP/inventory.yml" "$HERE/install.yml" \
	--limit server --check -e mdprofile_dist_unpack_dir="$TOP/unpacked-check"
expect_recap "check mode" server 4
[ "$(sh "$HERE/tree-digest.sh" "$TOP/i-srv")" = "$tree" ] || {
	echo "FAIL ansible: install role: check mode changed server" >&2
	fail=1
}
ls "$TOP/unpacked-check"/*/"mdprofile-$V-x86_64/mdprofile" >/dev/null 2>&1 || {
	echo "FAIL ansible: install role: check mode did not unpack the tarball on the controller" >&2
	fail=1
}
play "install role, first run" -i "$TOP/inventory.yml" "$HERE/install.yml"
# Changed tasks, a loop counting once. dsm: directories, binary, profile, enable;
# server: directories, binary, unpack directory, tarball, enable; arm:
# directories, binary, profile; armv7: directories, binary.
expect_recap "first run" dsm 4
expect_recap "first run" server 5
expect_recap "first run" arm 3
expect_recap "first run" armv7 2
play "install role, second run" -i "$TOP/inventory.yml" "$HERE/install.yml"
for h in dsm server arm armv7; do expect_recap "second run" $h 0; done
play "install role, what it put down" -i "$TOP/inventory.yml" "$HERE/install-verify.yml"
# A changed profile changes the values and the boot script: enabled again.
before=$(sha256sum <"$TOP/i-dsm/volume1/@mdprofile/mdprofile.sh")
printf 'description: nightly scrub\nextends: low-ram\n' >"$TOP/p/nightly.yaml"
play "install role, a changed profile" -i "$TOP/inventory.yml" "$HERE/install.yml" --limit dsm
expect_recap "a changed profile" dsm 2
[ "$before" != "$(sha256sum <"$TOP/i-dsm/volume1/@mdprofile/mdprofile.sh")" ] || {
	echo "FAIL ansible: install role: the boot script was not generated again" >&2
	fail=1
}
# mdprofile_boot_profile empty: nightly is disabled, the only change (the play asserts
# what is left).
play "install role, an empty boot profile" -i "$TOP/inventory.yml" "$HERE/install-disable.yml"
expect_recap "an empty boot profile" dsm 1

# ---- the README's example playbook, as shipped in the collection ----
# busy reshapes md3 (8 GiB of RAM: reshape-fast); idle has nothing running. When busy's
# profile is in force (its journal exists) the reshape "finishes": md3 goes idle, as the
# kernel would show it. busy must then be the fixture with md3 idle, byte for byte.
fixture "$TOP/e-busy" ds-dsm6-reshape dsm6 synoindexd=running
fixture "$TOP/e-idle" ds220j-dsm7 dsm7 synoindexd=running
cp -a "$TOP/e-busy" "$TOP/e-busy-done"
echo idle >"$TOP/e-busy-done/sys/block/md3/md/sync_action"
want_busy=$(sh "$HERE/tree-digest.sh" "$TOP/e-busy-done")
want_idle=$(sh "$HERE/tree-digest.sh" "$TOP/e-idle")
(
	i=0
	while [ ! -e "$TOP/e-busy/run/mdprofile/journal" ] && [ $i -lt 600 ]; do
		sleep 0.1
		i=$((i + 1))
	done
	echo idle >"$TOP/e-busy/sys/block/md3/md/sync_action"
) &
flipper=$!
cat >"$TOP/example.yml" <<INV
nas:
  vars:
    ansible_connection: local
    ansible_python_interpreter: /usr/bin/python3
    mdprofile_binary: $TOP/bin/mdprofile
  hosts:
    busy: {mdprofile_root: $TOP/e-busy}
    idle: {mdprofile_root: $TOP/e-idle}
INV
play "example playbook mdprofile.nas.rebuild_fast" -i "$TOP/example.yml" mdprofile.nas.rebuild_fast \
	-e poll_delay=1 -e poll_retries=60
wait "$flipper"
# busy: apply and revert; idle: nothing.
expect_recap "example playbook" busy 2
expect_recap "example playbook" idle 0
[ "$(sh "$HERE/tree-digest.sh" "$TOP/e-busy")" = "$want_busy" ] || {
	echo "FAIL ansible: example playbook: busy is not back to its values from before" >&2
	fail=1
}
[ "$(sh "$HERE/tree-digest.sh" "$TOP/e-idle")" = "$want_idle" ] || {
	echo "FAIL ansible: example playbook: idle was changed" >&2
	fail=1
}

[ "$fail" -eq 0 ]
