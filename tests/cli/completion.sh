# shellcheck shell=sh
# The bash completion's CLI cases' helpers (62-completion, 105-completion-files): source
# completion/mdprofile.bash in bash and ask it for the candidates of a line, the last word
# being completed.

# The binary as the completion runs it (through MDP_WRAP for a cross build).
BIN="$WORK/bin/mdprofile"
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${MDP_WRAP:-}" "$MDP" >"$BIN"
chmod +x "$BIN"

# The completion runs in $WORK/cwd: a name that ran a command would leave a file there.
# compopt, which works only while bash completes, records its options in $WORK/compopt;
# with BC set to bash-completion's script, that is loaded first (its _filedir is used).
mkdir -p "$WORK/cwd"
candidates() {
	: >"$WORK/compopt"
	(cd "$WORK/cwd" && bash -c 'bc=$1 log=$2; shift 2; [ -z "$bc" ] || . "$bc"
		compopt() { local IFS=" "; printf "%s\n" "$*" >>"$log"; }
		. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mdprofile
		((${#COMPREPLY[@]} == 0)) || printf "%s\n" "${COMPREPLY[@]}"' _ "${BC:-}" "$WORK/compopt" \
		"$SRC/completion/mdprofile.bash" "$BIN" "$@" \
		>"$WORK/got" 2>"$WORK/err") || fail "completion of '$*' failed: $(cat "$WORK/err")"
	[ -s "$WORK/err" ] && fail "completion of '$*' wrote to stderr: $(cat "$WORK/err")"
	LAST="completion of '$*'"
}

# compopt was told $1 (-o filenames: readline quotes the names and ends a directory with
# a "/", not a space; -o nospace)
expect_compopt() {
	grep -qx -- "$1" "$WORK/compopt" || fail "$LAST: compopt $1 not called ($(cat "$WORK/compopt"))"
}

expect_candidates() {
	cat >"$WORK/want"
	sort "$WORK/got" | cmp -s "$WORK/want" - || {
		fail "$LAST: got $(sort "$WORK/got" | tr '\n' ' ')"
	}
}

