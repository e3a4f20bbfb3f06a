# Bash completion (completion/mdprofile.bash), sourced in bash and asked for the
# candidates of a line, the last word being completed. Commands and profile
# names come from the binary itself.
# tags: heavy
command -v bash >/dev/null || { fail "bash is needed"; return 0; }
fixture ds-dsm6-reshape
. "$SRC/tests/cli/completion.sh"

# want NAME...: the shipped profiles' names (shipped_names) and NAMEs, sorted, into $WORK/want.c
# for expect_candidates to read (from a file: a check at the end of a pipe fails in a subshell).
want() {
	{
		shipped_names
		[ $# = 0 ] || printf '%s\n' "$@"
	} | sort >"$WORK/want.c"
}

candidates ""
expect_candidates <<'EOF2'
apply
auto
bench
boot-script
check
diff
disable
enable
explain
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
want
expect_candidates <"$WORK/want.c"
candidates apply -q resh
expect_candidates <<'EOF2'
reshape-fast
EOF2
candidates auto --on reshape ""
want
expect_candidates <"$WORK/want.c"
# Profiles from the --root and --profiles on the line.
mkdir -p "$ROOT/etc/mdprofile/profiles" "$WORK/mine"
echo 'description: x' >"$ROOT/etc/mdprofile/profiles/nightly.yaml"
echo 'description: y' >"$WORK/mine/mine.yaml"
candidates --root "$ROOT" --profiles "$WORK/mine" show ""
want mine nightly
expect_candidates <"$WORK/want.c"
candidates --ro
expect_candidates <<'EOF2'
--root=
EOF2
candidates diff --services-backend ds
expect_candidates <<'EOF2'
dsm6
dsm7
EOF2
# Each command completes its own options, not another's.
candidates apply --uni
expect_candidates <<'EOF2'
EOF2
candidates status --w
expect_candidates <<'EOF2'
--wait
--watch
EOF2
candidates apply --dr
expect_candidates <<'EOF2'
--dry-run
EOF2
candidates --ro
expect_candidates <<'EOF2'
--root=
EOF2
# An option's value: what it takes, not profile names.
candidates boot-script --target ""
expect_candidates <<'EOF2'
dsm
rc.d
systemd
EOF2
candidates boot-script --target = s
expect_candidates <<'EOF2'
systemd
EOF2
candidates enable --auto resh
expect_candidates <<'EOF2'
reshape-fast
EOF2
candidates status --format p
expect_candidates <<'EOF2'
prometheus
EOF2
candidates apply --interval ""
expect_candidates <<'EOF2'
EOF2
candidates --service-timeout 30 apply resh
expect_candidates <<'EOF2'
reshape-fast
EOF2
# Options come from the binary's tables (mdprofile __options): each one it
# does not offer for a command is one the command refuses.
for c in list apply status boot-script bench enable; do
	candidates "$c" --
	"$BIN" __options --all | grep '^--' | while IFS= read -r opt; do
		grep -qx -- "$opt" "$WORK/got" && continue
		case $opt in
		--size=) set -- --size 1GiB ;;
		--format=) set -- --format text ;;
		*=) set -- "${opt%=}" 1 ;;
		*) set -- "$opt" ;;
		esac
		run "$c" "$@"
		expect_exit 2
		grep -q "does not apply to '$c'" "$WORK/err" ||
			fail "completion leaves out $1 for $c, which $c takes"
	done
done
# Profile file names are data: the completion expands none of them, and
# list skips names that apply could never find.
mkdir -p "$ROOT/evil"
for n in '$(touch${IFS}PWNED)' '`touch${IFS}PWNED2`' 'ok'; do
	echo 'description: x' >"$ROOT/evil/$n.yaml"
done
# no_pwned: neither name ran as a command
no_pwned() {
	[ ! -e "$WORK/cwd/PWNED" ] && [ ! -e "$WORK/cwd/PWNED2" ] ||
		fail "completing a profile name ran a command from a file name"
}
candidates --profiles "$ROOT/evil" apply ""
no_pwned
want ok
expect_candidates <"$WORK/want.c"
candidates --profiles "$ROOT/evil" apply '$'
no_pwned
expect_candidates <<'EOF2'
EOF2
{
	printf '%s\n' ok nightly
	shipped_names
} >"$WORK/list"
run --profiles "$ROOT/evil" -q list
expect_exit 0
expect_stdout <"$WORK/list"
expect_stderr <<'EOF2'
mdprofile: warning: @ROOT@/evil/$(touch${IFS}PWNED).yaml: not a profile name (letters, digits, . _ -, at most 64): skipped
mdprofile: warning: @ROOT@/evil/`touch${IFS}PWNED2`.yaml: not a profile name (letters, digits, . _ -, at most 64): skipped
EOF2
# Every option the completion offers is one the binary takes, "=" after one that takes a value.
candidates --
sed -i 's/=$//' "$WORK/got"
while read -r opt; do
	case $opt in
	--root | --profiles | --services-backend | --service-timeout | --path | --size | --runs | \
		--compare | --duration)
		continue
		;;
	esac
	run help "$opt"
	grep -q "unknown option" "$WORK/err" && fail "completion offers $opt, which mdprofile does not take"
	# help takes every global option; one that takes a value is given none here
	case $RC in
	0) ;;
	2) grep -qx "mdprofile: option '$opt' needs an argument (see mdprofile --help)" "$WORK/err" ||
		fail "help $opt: $(cat "$WORK/err")" ;;
	*) fail "help $opt exited $RC: $(cat "$WORK/err")" ;;
	esac
	exit_checked
done <"$WORK/got"
