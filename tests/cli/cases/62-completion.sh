# Bash completion (completion/mdprofile.bash), sourced in bash and asked for the
# candidates of a line, the last word being completed. Commands and profile
# names come from the binary itself.
command -v bash >/dev/null || { _fail "bash is needed"; return 0; }
fixture ds-dsm6-reshape
# The binary as the completion runs it (through MDP_WRAP for a cross build).
BIN="$WORK/bin/mdprofile"
mkdir -p "$WORK/bin"
printf '#!/bin/sh\nexec %s "%s" "$@"\n' "${MDP_WRAP:-}" "$MDP" >"$BIN"
chmod +x "$BIN"

candidates() {
	bash -c '. "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _mdprofile
		printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/completion/mdprofile.bash" "$BIN" "$@" \
		>"$WORK/got" 2>"$WORK/err" || _fail "completion of '$*' failed: $(cat "$WORK/err")"
	[ -s "$WORK/err" ] && _fail "completion of '$*' wrote to stderr: $(cat "$WORK/err")"
	LAST="completion of '$*'"
}

expect_candidates() {
	cat >"$WORK/want"
	sort "$WORK/got" | cmp -s "$WORK/want" - || {
		_fail "$LAST: got $(sort "$WORK/got" | tr '\n' ' ')"
	}
}

candidates ""
expect_candidates <<'EOF2'
apply
bench
boot-script
check
diff
help
list
recover
revert
show
status
EOF2
candidates --json sh
expect_candidates <<'EOF2'
show
EOF2
candidates help re
expect_candidates <<'EOF2'
recover
revert
EOF2
candidates diff ""
expect_candidates <<'EOF2'
balanced
kernel-defaults
low-ram
reshape-fast
EOF2
candidates apply -q r
expect_candidates <<'EOF2'
reshape-fast
EOF2
# Profiles from the --root and --profiles on the line.
mkdir -p "$ROOT/etc/mdprofile/profiles" "$WORK/mine"
echo 'description: x' >"$ROOT/etc/mdprofile/profiles/nightly.yaml"
echo 'description: y' >"$WORK/mine/mine.yaml"
candidates --root "$ROOT" --profiles "$WORK/mine" show ""
expect_candidates <<'EOF2'
balanced
kernel-defaults
low-ram
mine
nightly
reshape-fast
EOF2
candidates --ro
expect_candidates <<'EOF2'
--root
EOF2
candidates diff --services-backend ds
expect_candidates <<'EOF2'
dsm6
dsm7
EOF2
# Every option the completion offers is one the binary takes.
candidates --
while read -r opt; do
	case $opt in
	--root | --profiles | --services-backend | --service-timeout | --path | --size | --runs | \
		--compare | --duration)
		continue
		;;
	esac
	run help "$opt"
	grep -q "unknown option" "$WORK/err" && _fail "completion offers $opt, which mdprofile does not take"
done <"$WORK/got"
