# Common part of the fake service managers, sourced by each of them.
#
# State of a service NAME: the file $MDPROFILE_ROOT/var/lib/fake-services/NAME
# holding running, stopped or paused; no file means the service manager does
# not know NAME. Knobs, by creating files beside it:
#   NAME.fail-pause    the pause/stop command fails (exit 1, with a message)
#   NAME.fail-resume   the resume/start command fails
#   NAME.hang          the pause/stop command hangs (sleep 1000); the pids of
#                      the shell and the sleep go to NAME.hang.pids
#   NAME.slow          the pause/stop command takes as many seconds as the file
#                      says, then succeeds; NAME.slow.started appears when it begins
# Every call is appended as "TOOL ARGS..." to
# $MDPROFILE_ROOT/var/log/fake-services.log.
#
# The fakes refuse to run without MDPROFILE_ROOT so that they can never
# touch the real /var.

FAKE_DIR=$MDPROFILE_ROOT/var/lib/fake-services
FAKE_LOG=$MDPROFILE_ROOT/var/log/fake-services.log

fake_log() {
	mkdir -p "${FAKE_LOG%/*}" && (IFS=' '; printf '%s\n' "$*") >>"$FAKE_LOG"
}

# A name the fakes can use as a file name.
fake_valid() {
	case $1 in
	'' | . | .. | */* | *.fail-* | *.hang* | *.slow*) return 1 ;;
	esac
	return 0
}

# Prints running, stopped, paused or missing.
fake_state() {
	if fake_valid "$1" && [ -f "$FAKE_DIR/$1" ]; then
		cat "$FAKE_DIR/$1"
	else
		echo missing
	fi
}

fake_set() {
	printf '%s\n' "$2" >"$FAKE_DIR/$1"
}

# fake_knob NAME KNOB: whether the test asked for KNOB (fail-pause, ...).
fake_knob() {
	[ -e "$FAKE_DIR/$1.$2" ]
}

# The pause/stop is slow: tests signal or kill mdprofile while it runs.
fake_slow() {
	fake_knob "$1" slow || return 0
	: >"$FAKE_DIR/$1.slow.started"
	sleep "$(cat "$FAKE_DIR/$1.slow")"
}

fake_hang() {
	sleep 1000 &
	echo "$$ $!" >"$FAKE_DIR/$1.hang.pids"
	wait
	exit 1
}
