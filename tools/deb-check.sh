#!/bin/sh
# make deb-check: the Debian package installs, runs, and leaves nothing when purged.
#
#   sh tools/deb-check.sh DEB
#
# As root, on a machine where mdprofile is not otherwise installed (make fresh-check runs it
# in its pristine root): apt-get installs DEB with its dependencies, `mdprofile --version`,
# `list` and `status` run from /usr/bin, and so does the textfile service's command; the
# packaged boot units are there, not enabled; then with a record of an enable and the script
# the packaged units run (as `mdprofile enable` writes them: no md here to apply to)
# apt-get removes it: the prerm's `mdprofile disable` must have removed both; then
# apt-get purges it: every file the package listed must be gone, and so must
# /usr/share/mdprofile, /usr/share/doc/mdprofile, /etc/mdprofile and /var/lib/mdprofile.
set -eu

[ $# -eq 1 ] || { echo "usage: deb-check.sh DEB" >&2; exit 2; }
deb=$(cd "$(dirname "$1")" && pwd)/$(basename "$1")
say() { echo "deb-check: $*"; }
die() {
	echo "deb-check: $*" >&2
	exit 1
}
[ "$(id -u)" -eq 0 ] || die "needs root (it installs and purges the package)"
if dpkg-query -W -f='${Status}' mdprofile 2>/dev/null | grep -q 'ok installed'; then
	die "mdprofile is already installed as a package here: not touching it"
fi
[ ! -e /usr/bin/mdprofile ] || die "/usr/bin/mdprofile exists and is no package's: not overwriting it"

log=${TMPDIR:-/tmp}/mdprofile-deb-check.log
export DEBIAN_FRONTEND=noninteractive
apt-get install -y -q --no-install-recommends "$deb" >"$log" 2>&1 || {
	tail -n 30 "$log" >&2
	die "apt-get could not install $deb (the whole output is in $log)"
}
files=$(dpkg -L mdprofile)
purge() { apt-get purge -y -q mdprofile >>"$log" 2>&1; }

v=$(/usr/bin/mdprofile --version) || { purge; die "mdprofile --version failed"; }
version=$(dpkg-query -W -f='${Version}' mdprofile)
case $v in
"mdprofile $version "* | "mdprofile $version") ;;
*) purge; die "--version says '$v', the package is $version" ;;
esac
names=$(/usr/bin/mdprofile list) || { purge; die "mdprofile list failed"; }
# every profile of the source tree's profiles/, listed and installed as a file
for f in "$(dirname "$0")"/../profiles/*.yaml; do
	p=$(basename "$f" .yaml)
	printf '%s\n' "$names" | grep -q "^$p\b" || { purge; die "list lacks $p: $names"; }
	printf '%s\n' "$files" | grep -qx "/usr/share/mdprofile/profiles/$p.yaml" ||
		{ purge; die "the package lacks /usr/share/mdprofile/profiles/$p.yaml"; }
done
# the shipped profiles are read from the package's directory, not only the built-in copies
/usr/bin/mdprofile -v show reshape-fast | grep -q '/usr/share/mdprofile/profiles/reshape-fast.yaml' ||
	{ purge; die "show reshape-fast does not read /usr/share/mdprofile/profiles"; }
# where md is not loaded status says so and exits 3 (mdprofile(8), EXIT STATUS)
rc=0
/usr/bin/mdprofile status >"$log.status" 2>&1 || rc=$?
want=0
[ -e /proc/mdstat ] || want=3
if [ "$rc" -ne "$want" ] ||
	{ [ "$want" -eq 3 ] && ! grep -q '^mdprofile: md is not loaded' "$log.status"; }; then
	purge
	cat "$log.status" >&2
	die "mdprofile status failed (exit $rc)"
fi
# The textfile service's own command, its file put in a scratch directory.
unit=/lib/systemd/system/mdprofile-textfile.service
if ! [ -s "$unit" ] || ! [ -s /lib/systemd/system/mdprofile-textfile.timer ]; then
	purge
	die "no mdprofile-textfile.service and .timer"
fi
tf=$(mktemp -d)
cmd=$(sed -n 's|^ExecStart=||p' "$unit" | sed "s|/var/lib/prometheus/node-exporter/|$tf/|")
rc=0
sh -c "$cmd" >"$log.textfile" 2>&1 || rc=$?
if [ "$rc" -ne "$want" ] ||
	{ [ "$want" -eq 0 ] && ! grep -q '^mdprofile_journal_readable 1$' "$tf/mdprofile.prom"; }; then
	rm -rf "$tf"
	purge
	cat "$log.textfile" >&2
	die "the textfile service's command ($cmd) exited $rc, not $want, or wrote no mdprofile.prom"
fi
rm -rf "$tf"
# Each unit's Documentation=file:// opens: the file is there, uncompressed. The docs are
# the users' (no architecture.md or hacking.md).
# shellcheck disable=SC2013 # paths, one a line, without spaces
for f in $(sed -n 's|^Documentation=file://||p' "$unit" /lib/systemd/system/mdprofile-textfile.timer); do
	[ -f "$f" ] || { purge; die "a unit's Documentation=file://$f is no file"; }
done
[ ! -e /usr/share/doc/mdprofile/hacking.md ] || { purge; die "the developer docs are installed"; }
man -w mdprofile >/dev/null 2>&1 || [ -s /usr/share/man/man8/mdprofile.8.gz ] ||
	{ purge; die "no man page"; }

# The boot units the package owns (mdprofile enable enables them, the package does not).
for u in mdprofile.service mdprofile-auto.service; do
	head -n 1 "/lib/systemd/system/$u" 2>/dev/null | grep -q '^# mdprofile: the packaged ' ||
		{ purge; die "no packaged /lib/systemd/system/$u"; }
	[ ! -e "/etc/systemd/system/multi-user.target.wants/$u" ] || { purge; die "the package enabled $u"; }
done
# What enable records and writes (src/boot/boot.c) where the package owns the units, for a
# profile whose units the owner enables: disable must remove the script they run.
mkdir -p /etc/mdprofile/profiles
printf '%s\n' '# mdprofile enable: what is enabled; mdprofile disable removes it' profile=balanced \
	auto= target=systemd binary=/usr/bin/mdprofile task=no units=no unit_files=packaged \
	>/etc/mdprofile/enabled
printf '#!/bin/sh\n# mdprofile boot script (target systemd)\n' >/etc/mdprofile/boot.sh
mkdir -p /var/lib/mdprofile/checkpoint # a check's place (purge removes it)
echo 'description: the administrator'"'"'s' >/etc/mdprofile/profiles/mine.yaml
apt-get remove -y -q mdprofile >>"$log" 2>&1 || { tail -n 30 "$log" >&2; die "apt-get remove failed"; }
[ ! -e /etc/mdprofile/enabled ] || { purge; die "remove left /etc/mdprofile/enabled: the prerm did not disable"; }
[ ! -e /etc/mdprofile/boot.sh ] || { purge; die "remove left /etc/mdprofile/boot.sh: disable did not remove it"; }
[ -e /etc/mdprofile/profiles/mine.yaml ] || die "remove took the administrator's profiles (purge's job)"
purge || { tail -n 30 "$log" >&2; die "apt-get purge failed"; }
left=
for f in $files; do
	# a directory dpkg lists (/lib, a link to usr/lib on a merged-/usr system) is not ours
	[ -d "$f" ] && continue
	[ -f "$f" ] || [ -L "$f" ] && left="$left $f"
done
for d in /usr/share/mdprofile /usr/share/doc/mdprofile /etc/mdprofile /var/lib/mdprofile; do
	[ -e "$d" ] && left="$left $d"
done
[ -z "$left" ] || die "purge left:$left"
dpkg-query -W -f='${Status}' mdprofile 2>/dev/null | grep -q 'ok installed' &&
	die "dpkg still lists mdprofile as installed"
say "installed $(basename "$deb") ($v), ran list, show, status and the textfile service's command, removed (enable undone), purged: nothing left"
