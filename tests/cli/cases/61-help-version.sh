# --version, help and help COMMAND: exit 0, on stdout; a wrong name is a usage error.
# tags: heavy (every command's help and options against the man page)
fixture ds-dsm6-reshape
V=$(cat "$SRC/VERSION")
# The build kind the binary reports is the one it is: an ELF interpreter means dynamic.
if readelf -l "$MDP" | grep -q 'program interpreter'; then
	kind=dynamic
else
	kind=static
fi
run_noroot --version
expect_exit 0
grep -Eqx "mdprofile $V \\($kind, (libudev|sysfs walk)\\)" "$WORK/out" ||
	_fail "--version: $(cat "$WORK/out")"
expect_stderr <<'EOF2'
EOF2
# --version wins wherever it stands, before any other work.
run_noroot apply --version --root /nonexistent
expect_exit 0
grep -q "^mdprofile $V " "$WORK/out" || _fail "apply --version: $(cat "$WORK/out")"

run_noroot help
expect_exit 0
head -1 "$WORK/out" | grep -q '^usage: mdprofile ' || _fail "help: $(head -1 "$WORK/out")"
for c in list show check diff apply revert recover status help; do
	grep -q "^  $c" "$WORK/out" || _fail "help does not list $c"
done
expect_stderr <<'EOF2'
EOF2
# help and no command at all give the same text, one on stdout with 0, one on stderr with 2.
cp "$WORK/out" "$WORK/help"
run_noroot
expect_exit 2
cmp -s "$WORK/err" "$WORK/help" || _fail "mdprofile alone does not print the help text"

run help diff
expect_exit 0
expect_stdout <<'EOF2'
usage: mdprofile [options] diff [--name NAME] [PROFILE]
  show what PROFILE would change (no PROFILE: drift from the active one)
EOF2
expect_stderr <<'EOF2'
EOF2
# COMMAND --help says the same.
cp "$WORK/out" "$WORK/help"
run diff --help
expect_exit 0
cmp -s "$WORK/out" "$WORK/help" || _fail "diff --help differs from help diff"
for c in list show check apply revert recover status help; do
	run help "$c"
	expect_exit 0
	head -1 "$WORK/out" | grep -q "^usage: mdprofile \\[options\\] $c" || _fail "help $c"
done

run help frobnicate
expect_exit 2
expect_stdout <<'EOF2'
EOF2
expect_stderr <<'EOF2'
mdprofile: help: unknown command 'frobnicate' (see mdprofile --help)
EOF2
run help diff apply
expect_exit 2
expect_stderr <<'EOF2'
usage: mdprofile [options] help [COMMAND]
EOF2

# Every option of every command's table is in its help and in mdprofile(8), so
# that help, completion (from the tables) and the man page cannot drift apart.
CMDS="list show check diff apply revert recover status auto enable disable boot-script explain bench"
run_noroot __options
expect_exit 0
G=" $(tr '\n' ' ' <"$WORK/out") "
for c in $CMDS; do
	run_noroot help "$c"
	expect_exit 0
	cp "$WORK/out" "$WORK/help.$c"
	run_noroot __options "$c"
	expect_exit 0
	while IFS= read -r o; do
		case $G in *" $o "*) continue ;; esac
		n=${o%=}
		case $n in --*) ;; *) continue ;; esac
		grep -q -- "$n" "$WORK/help.$c" || _fail "help $c does not name $n"
		grep -q -- "Fl -${n#--}" "$SRC/man/mdprofile.8" || _fail "mdprofile(8) does not name $c's $n"
	done <"$WORK/out"
done
