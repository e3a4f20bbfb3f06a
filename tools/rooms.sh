#!/bin/sh
# Lint: src/ is in rooms, one folder each, and the rooms stand on floors (docs/architecture.md
# draws them).  A file may include a header of its own room or the door of a room on a lower
# floor, never one above it or beside it on its floor: data flows one way, and a room can be
# read, tested and changed knowing only the floors below.  cmd/ stands above every room and
# goes in through the doors too.  A room's door is src/ROOM/mdp_ROOM.h: it includes the room's
# public headers; its *_int.h are for the room's own files (and its unit tests) alone.
#
#   sh tools/rooms.sh        exit 1 naming each include that climbs or passes a door, and any
#                            file or folder of src/ that is in no room of the table below
#
# The floors, from the ground up (rooms on one floor, comma-separated, know nothing of each
# other):
#   1 base      root, resolve, exec, diag, text, num, ident, clock, grow: what every room uses
#   2 md        the live md system: discovery, mdstat, tunables, iostat, the watch, SMART
#   3 profile   the YAML format: loading, values, extends, listing, pinning
#   4 txn       plan, journal, services, the transaction and its one apply
#   5 boot      boot scripts, units, the Task Scheduler, enable and the keeper
#   5 watcher   the watcher's loop, its engaging and its latency goal
#   6 explain   explain's rules, samples and runs, the probe, bench
#   6 status    status's model of arrays, operations and layers
set -eu
cd "$(dirname "$0")/.."
# Functions a door declares while work on its room is under way elsewhere (kept short, emptied
# at each landing).
INSIDE=""
floors="base:1 md:2 profile:3 txn:4 boot:5 watcher:5 explain:6 status:6"

floor_of() {
	for rf in $floors; do
		[ "${rf%%:*}" = "$1" ] && { echo "${rf#*:}"; return; }
	done
	echo 0
}

bad=0
for f in src/*; do
	if [ -d "$f" ]; then
		[ "$(floor_of "${f#src/}")" != 0 ] || { echo "rooms: $f is no room of tools/rooms.sh's floors" >&2; bad=1; }
	else
		echo "rooms: $f stands in no room: put it in one of src/*/" >&2
		bad=1
	fi
done

# room_of_header NAME: the room whose folder holds NAME (a header's name is unique in src/).
room_of_header() {
	set -- src/*/"$1"
	[ -e "$1" ] || return 0
	[ $# -eq 1 ] || { echo "rooms: $* share a name" >&2; echo "?"; return; }
	r=${1#src/}
	echo "${r%%/*}"
}

for f in src/*/*.[ch] cmd/*.[ch]; do
	case $f in
	cmd/*) mine=cmd myfloor=99 ;;
	*)
		mine=${f#src/}
		mine=${mine%%/*}
		myfloor=$(floor_of "$mine")
		;;
	esac
	# shellcheck disable=SC2013 # a header name is one word
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$f"); do
		case $h in */*)
			echo "rooms: $f includes \"$h\": name a header alone, the rooms are on the include path" >&2
			bad=1
			continue
			;;
		esac
		r=$(room_of_header "$h")
		if [ -z "$r" ]; then # cmd/'s own headers, system ones
			[ "$mine" = cmd ] || [ ! -e "cmd/$h" ] || {
				echo "rooms: $f includes $h of cmd/: the library never reaches up into the command line" >&2
				bad=1
			}
			continue
		fi
		[ "$r" != "$mine" ] || continue
		if [ "$h" != "mdp_$r.h" ]; then
			echo "rooms: $f includes $h of $r: another room goes in through its door, mdp_$r.h" >&2
			bad=1
		elif [ "$r" = "?" ] || [ "$(floor_of "$r")" -ge "$myfloor" ]; then
			echo "rooms: $f ($mine, floor $myfloor) includes $h of $r (floor $(floor_of "$r")): an include may only go down a floor" >&2
			bad=1
		fi
	done
done
# A door opens only on what is used through it: a function a room's public header declares is
# called from another room or from cmd/; one the room's own files alone call is declared in its
# *_int.h.  (A declaration is a line that starts with its type at column 0, as clang-format
# writes them.)
for door in src/*/mdp_*.h; do
	room=${door%/*}
	others=
	for f in src/*/*.[ch] cmd/*.[ch]; do
		case $f in "$room"/*) ;; *) others="$others $f" ;; esac
	done
	# shellcheck disable=SC2013 # a header name is one word
	for h in $(sed -n 's/^#include "\([^"]*\)".*/\1/p' "$door"); do
		for fn in $(sed -n '/^typedef/d; s/^[a-z][^(]*[ *]\(mdp_[a-z0-9_]*\)(.*/\1/p' "$room/$h"); do
			case " $INSIDE " in *" $fn "*) continue ;; esac
			# shellcheck disable=SC2086 # file names without blanks, one word each
			grep -qw "$fn" $others && continue
			echo "rooms: $room/$h declares $fn, which only $room/ calls: declare it in the room's *_int.h" >&2
			bad=1
		done
	done
done
n=0
for _ in src/*/; do n=$((n + 1)); done
[ $bad = 0 ] && echo "rooms: $n rooms on their floors, every include goes down a floor through a door, every door's function used through it"
exit $bad
