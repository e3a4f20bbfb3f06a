#!/bin/sh
# Install the fake service managers into a fixture root and seed states.
#
#   install.sh ROOT dsm6|dsm7|systemd|esynoscheduler|dsmlog [NAME=running|stopped|paused ...]
#   install.sh ROOT smartctl [DISK=WORDS ...]
#
# dsm6:    ROOT/usr/syno/sbin/synoservice, and ROOT/etc.defaults/VERSION
#          with majorversion="6" unless there is one
# dsm7:    ROOT/usr/syno/bin/synosystemctl and ROOT/usr/syno/bin/synopkg,
#          ROOT/usr/bin/systemctl (DSM 7 runs systemd), and majorversion="7"
#          minorversion="2" likewise ("pkg:NAME=..." seeds package NAME);
#          write VERSION first for another synopkg generation
# systemd: ROOT/bin/systemctl and the directory ROOT/run/systemd/system
# esynoscheduler: ROOT/usr/syno/sbin/esynoscheduler (DSM's Task Scheduler
#          command line), its tasks in ROOT/var/lib/fake-esynoscheduler
# dsmlog:  ROOT/usr/syno/bin/synologset1 (Log Center) and synodsmnotify
#          (DSM's notifications)
# smartctl: ROOT/usr/sbin/smartctl; DISK=WORDS describes a disk to it (commas
#          for spaces: "sdc=ata,pending=8", see tests/fakes/smartctl)
# STATE is running, stopped, paused, broken, or stopped:REASON (stopped by
# DSM for REASON, F4). States go to ROOT/var/lib/fake-services/NAME; the call log
# ROOT/var/log/fake-services.log is created empty if absent.
set -eu

usage() {
	echo "usage: install.sh ROOT dsm6|dsm7|systemd|esynoscheduler|dsmlog [NAME=STATE ...] | smartctl [DISK=WORDS ...]" >&2
	exit 2
}

[ $# -ge 2 ] || usage
root=$1
kind=$2
shift 2
here=$(cd "$(dirname "$0")" && pwd)

# mdprofile runs a tool under a root only when the caller names the tree in
# MDPROFILE_ROOT_EXEC (the harness does, where it installs these) and the
# tool, its directories and the tree are owned by root or the caller and not
# group/world-writable (src/base/root.h): give them modes that pass whatever the umask.
chmod go-w "$root"
tool() {
	mkdir -p "$root/$2"
	d=$2
	while [ "$d" != . ] && [ "$d" != / ]; do
		chmod 0755 "$root/$d"
		d=$(dirname "$d")
	done
	cp "$here/$1" "$root/$2/$1"
	chmod 0755 "$root/$2/$1"
}

version() {
	mkdir -p "$root/etc.defaults"
	[ -e "$root/etc.defaults/VERSION" ] ||
		printf 'majorversion="%s"\nminorversion="%s"\n' "$1" "$2" >"$root/etc.defaults/VERSION"
}

case $kind in
dsm6) tool synoservice usr/syno/sbin && version 6 2 ;;
dsm7)
	tool synosystemctl usr/syno/bin && tool synopkg usr/syno/bin && tool systemctl usr/bin
	version 7 2
	;;
systemd) tool systemctl bin && mkdir -p "$root/run/systemd/system" ;;
esynoscheduler) tool esynoscheduler usr/syno/sbin ;;
dsmlog) tool synologset1 usr/syno/bin && tool synodsmnotify usr/syno/bin ;;
smartctl)
	tool smartctl usr/sbin
	mkdir -p "$root/var/lib/fake-smart"
	;;
*) usage ;;
esac

mkdir -p "$root/usr/lib/fake-services" "$root/var/lib/fake-services" "$root/var/log"
cp "$here/lib.sh" "$root/usr/lib/fake-services/lib.sh"
[ -e "$root/var/log/fake-services.log" ] || : >"$root/var/log/fake-services.log"

for arg; do
	if [ "$kind" = smartctl ]; then
		# DISK=WORDS: the disk's line for the fake (commas for spaces), "sdc=ata,pending=8"
		name=${arg%%=*}
		case $name in '' | */* | . | ..) usage ;; esac
		printf '%s\n' "${arg#*=}" | tr ',' ' ' >"$root/var/lib/fake-smart/$name"
		continue
	fi
	name=${arg%%=*}
	state=${arg#*=}
	name=${name#pkg:}
	case $name in '' | */* | . | ..) usage ;; esac
	case $state in
	running | stopped | paused | broken) ;;
	stopped:?* | paused:?*) printf '%s\n' "${state#*:}" >"$root/var/lib/fake-services/$name.reasons" ;;
	*) usage ;;
	esac
	printf '%s\n' "${state%%:*}" >"$root/var/lib/fake-services/$name"
done
