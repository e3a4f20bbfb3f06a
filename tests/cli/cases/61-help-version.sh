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
	fail "--version: $(cat "$WORK/out")"
expect_stderr <<'EOF2'
EOF2
# --version wins wherever it stands, before any other work.
run_noroot apply --version --root /nonexistent
expect_exit 0
grep -q "^mdprofile $V " "$WORK/out" || fail "apply --version: $(cat "$WORK/out")"

run_noroot help
expect_exit 0
head -1 "$WORK/out" | grep -q '^usage: mdprofile ' || fail "help: $(head -1 "$WORK/out")"
for c in list show check diff apply revert recover status help; do
	grep -q "^  $c" "$WORK/out" || fail "help does not list $c"
done
expect_stderr <<'EOF2'
EOF2
# help and no command at all give the same text, one on stdout with 0, one on stderr with 2.
cp "$WORK/out" "$WORK/help"
run_noroot
expect_exit 2
cmp -s "$WORK/err" "$WORK/help" || fail "mdprofile alone does not print the help text"

run help diff
expect_exit 0
expect_stdout <<'EOF2'
usage: mdprofile [options] diff [--name NAME] [PROFILE]
  show what PROFILE would change (no PROFILE: drift from the active one)

      --name NAME         the name of a profile read from stdin (PROFILE '-'),
                          in messages, the journal and status; default stdin
EOF2
expect_stderr <<'EOF2'
EOF2
# COMMAND --help says the same.
cp "$WORK/out" "$WORK/help"
run diff --help
expect_exit 0
cmp -s "$WORK/out" "$WORK/help" || fail "diff --help differs from help diff"
for c in list show check apply revert recover status help; do
	run help "$c"
	expect_exit 0
	head -1 "$WORK/out" | grep -q "^usage: mdprofile \\[options\\] $c" || fail "help $c"
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

# help, the completion (__options) and mdprofile(8) list the same options for
# every command, and every option has its help: help and __options are made
# from the same table, the man page by hand, so that it cannot drift apart.
# The options a help text lists, one a line (--name, -c), then "nohelp --name"
# for one without its help, on its line or the next in the help column.
help_opts() {
	awk '
	function flush() { if (pending != "") print "nohelp " pending; pending = "" }
	/^(  -[a-zA-Z], |      )--[a-z]/ {
		flush()
		line = $0
		sub(/^ +/, "", line)
		if (line ~ /^-[a-zA-Z], /) {
			print substr(line, 1, 2)
			line = substr(line, 5)
		}
		name = line
		sub(/ .*/, "", name)
		print name
		i = index(line, "  ")
		if (!i || substr(line, i) ~ /^ *$/)
			pending = name
		next
	}
	pending != "" && /^                          [^ ]/ { pending = ""; next }
	{ flush() }
	END { flush() }' "$1" | sort -u
}
# The long options of man/mdprofile.8's COMMANDS entries for $1: their .It lines
# (the entry's synopsis), or "body" for the text after them.
man_opts() {
	awk -v want="$1" -v part="${2:-head}" '
	/^\.Sh / { in_cmds = ($2 == "COMMANDS"); depth = 0; next }
	!in_cmds { next }
	/^\.Bl/ { depth++; next }
	/^\.El/ { depth--; next }
	depth == 1 && /^\.It / {
		name = ""; head = 1; xo = ($2 == "Xo")
		if ($2 == "Cm") name = $3
		if (!xo) { if (name == want && part == "head") print; head = 0 }
		next
	}
	xo && name == "" && /^\.Cm / { name = $2; next }
	xo && /^\.Xc/ { xo = 0; head = 0; next }
	name == want && (head ? "head" : "body") == part { print }' "$SRC/man/mdprofile.8" |
		grep -o 'Fl -[a-z][a-z-]*' | sed 's/^Fl /-/' | sort -u
}
run_noroot __options
expect_exit 0
sed 's/=$//' "$WORK/out" | sort -u >"$WORK/global"
run_noroot help
expect_exit 0
help_opts "$WORK/out" >"$WORK/help.global"
grep '^nohelp' "$WORK/help.global" && fail "help: an option without its help"
cmp -s "$WORK/global" "$WORK/help.global" || fail "help and __options list other global options"
CMDS=$(awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c && /^  [a-z]/ { print $1 }' "$WORK/out")
[ "$(echo "$CMDS" | wc -l)" -ge 15 ] || fail "help lists only: $CMDS"
# The global options are mdprofile(8)'s OPTIONS.
sed -n '/^\.Sh OPTIONS/,/^\.Sh /p' "$SRC/man/mdprofile.8" | grep -o 'Fl -[a-z][a-z-]*' |
	sed 's/^Fl /-/' | sort -u >"$WORK/man.global"
grep -- '^--' "$WORK/global" | grep -vxF -f "$WORK/man.global" | sed 's/^/mdprofile(8) OPTIONS lacks /' |
	while read -r l; do fail "$l"; done
for c in $CMDS; do
	run_noroot help "$c"
	expect_exit 0
	help_opts "$WORK/out" >"$WORK/help.$c"
	grep '^nohelp' "$WORK/help.$c" && fail "help $c: an option without its help"
	run_noroot __options "$c"
	expect_exit 0
	sed 's/=$//' "$WORK/out" | grep -vxF -f "$WORK/global" | sort -u >"$WORK/opts.$c"
	cmp -s "$WORK/opts.$c" "$WORK/help.$c" ||
		fail "help $c and __options $c disagree: $(diff "$WORK/opts.$c" "$WORK/help.$c" | grep '^[<>]' | tr '\n' ' ')"
	sed -n '/^--/p' "$WORK/opts.$c" >"$WORK/long.$c"
	man_opts "$c" >"$WORK/man.$c"
	cmp -s "$WORK/long.$c" "$WORK/man.$c" ||
		fail "mdprofile(8)'s $c and __options $c disagree: $(diff "$WORK/long.$c" "$WORK/man.$c" | grep '^[<>]' | tr '\n' ' ')"
done
