# Bash completion by bash-completion's conventions (issue 37): file and directory names
# through its _filedir where it is loaded, else compgen with -o filenames (readline then
# quotes the name it inserts and descends into a directory instead of ending the word),
# --opt=value forms, "--format=" offered without a space, and explain's arrays from
# /proc/mdstat under the --root on the line.
command -v bash >/dev/null || { fail "bash is needed"; return 0; }
fixture ds-dsm6-reshape
. "$SRC/tests/cli/completion.sh"
mkdir -p "$WORK/cwd/a dir" "$WORK/cwd/ab/sub"
: >"$WORK/cwd/my file.prom"
: >"$WORK/cwd/a dir/in.yaml"
: >"$WORK/cwd/ab/in.yaml"

BC_SCRIPT=/usr/share/bash-completion/bash_completion
for BC in '' "$BC_SCRIPT"; do
	if [ -n "$BC" ] && [ ! -f "$BC" ]; then
		fail "$BC is missing: install bash-completion (tests/deps.sh)"
		break
	fi
	# A file name with a space comes back whole, for readline to quote.
	candidates status --output my
	expect_candidates <<'EOF2'
my file.prom
EOF2
	expect_compopt "-o filenames"
	# The = form: bash splits --output=my into --output, =, my.
	candidates status --output = my
	expect_candidates <<'EOF2'
my file.prom
EOF2
	expect_compopt "-o filenames"
	candidates explain --capture = ""
	expect_candidates <<'EOF2'
a dir
ab
my file.prom
EOF2
	# Every option's value as its table says (issue 47: auto --textfile completed nothing).
	candidates auto --textfile my
	expect_candidates <<'EOF2'
my file.prom
EOF2
	expect_compopt "-o filenames"
	candidates boot-script -o my
	expect_candidates <<'EOF2'
my file.prom
EOF2
	candidates bench --path a
	expect_candidates <<'EOF2'
a dir
ab
EOF2
	# Directories only where only a directory does, quoted and descended into.
	candidates --root a
	expect_candidates <<'EOF2'
a dir
ab
EOF2
	expect_compopt "-o filenames"
	candidates --profiles = a
	expect_candidates <<'EOF2'
a dir
ab
EOF2
	# A profile path.
	candidates apply ab/
	expect_candidates <<'EOF2'
ab/in.yaml
ab/sub
EOF2
	expect_compopt "-o filenames"
done
BC=
# Without bash-completion, the word as typed loses its quoting first. (bash-completion
# leaves that to readline, which does it only in an interactive shell.)
candidates apply 'a\ dir/'
expect_candidates <<'EOF2'
a dir/in.yaml
EOF2
candidates status --output 'my\ f'
expect_candidates <<'EOF2'
my file.prom
EOF2
candidates status --output "'my f"
expect_candidates <<'EOF2'
my file.prom
EOF2

# An option that takes a value is offered with its "=", the cursor left after it.
candidates status --form
expect_candidates <<'EOF2'
--format=
EOF2
expect_compopt "-o nospace"
candidates status --format = j
expect_candidates <<'EOF2'
json
EOF2
candidates status --wat
expect_candidates <<'EOF2'
--watch
EOF2
[ -s "$WORK/compopt" ] && fail "$LAST: compopt $(cat "$WORK/compopt")"

# explain's arrays: /proc/mdstat's, under the --root on the line, in either form.
candidates --root "$ROOT" explain ""
expect_candidates <<'EOF2'
md0
md1
md2
md3
EOF2
candidates --root = "$ROOT" explain --interval 2 md3
expect_candidates <<'EOF2'
md3
EOF2
candidates explain md3 --root "$SRC/tests/fixtures/ds220j-dsm7" md
expect_candidates <<'EOF2'
md0
md1
md2
EOF2
MDPROFILE_ROOT="$ROOT" candidates explain md2
expect_candidates <<'EOF2'
md2
EOF2
# Names read from mdstat are data, never expanded, and only md's own names are offered
# (issue 47, F08: a capture's line offered as it was went onto the command line as shell
# syntax, which ran at Enter).
printf 'md$(touch${IFS}PWNED) : active raid1 sda1[0]\nmd_d0 : active raid1 sdb1[0]\n' \
	>>"$ROOT/proc/mdstat"
candidates --root "$ROOT" explain 'md$'
expect_candidates <<'EOF2'
EOF2
candidates --root "$ROOT" explain 'md'
expect_candidates <<'EOF2'
md0
md1
md2
md3
md_d0
EOF2
[ -e "$WORK/cwd/PWNED" ] && fail "completing an array name ran a command from mdstat"
# Every word offered is quoted for the shell (printf %q), whatever its source.
bash -c '. "$1"; COMPREPLY=(); _mdprofile_offer "" < <(printf "%s\n" "a b" "\$(x)" "ok,1")
	printf "%s\n" "${COMPREPLY[@]}"' _ "$SRC/completion/mdprofile.bash" >"$WORK/got"
LAST="_mdprofile_offer"
expect_candidates <<'EOF2'
\$\(x\)
a\ b
ok,1
EOF2
# bench --compare: profiles comma-separated, the one after the last comma completed.
candidates bench --compare balanced,res
expect_candidates <<'EOF2'
balanced,reshape-fast
balanced,responsive
EOF2
candidates --root "$WORK/nonexistent" explain ""
expect_candidates <<'EOF2'
EOF2
