# mdprofile __values COMMAND --OPTION: what an option's value is, from the
# option tables, for the bash completion (which types no list or kind itself):
# the words it takes, or what it names (:file, :dir, :profile, :profiles).
run_noroot __values status --format
expect_exit 0
expect_stdout <<'EOF2'
text
json
prometheus
EOF2
run_noroot __values apply --origin
expect_exit 0
expect_stdout <<'EOF2'
hand
boot
EOF2
run_noroot __values boot-script --target
expect_exit 0
expect_stdout <<'EOF2'
dsm
systemd
rc.d
EOF2
run_noroot __values auto --on
expect_exit 0
expect_stdout <<'EOF2'
resync
recovery
reshape
check
repair
EOF2
run_noroot __values --all --services-backend
expect_exit 0
expect_stdout <<'EOF2'
dsm6
dsm7
systemd
none
EOF2
# Every option that names something says what (issue 47: auto --textfile completed nothing).
for o in "show --root :dir" "--all --profiles :dir" "auto --textfile :file" \
	"status --output :file" "status -o :file" "boot-script -o :file" "enable --binary :file" \
	"explain --capture :file" "bench --path :dir" "enable --auto :profile" \
	"bench --compare :profiles"; do
	# shellcheck disable=SC2086 # COMMAND OPTION KIND
	set -- $o
	run_noroot __values "$1" "$2"
	expect_exit 0
	[ "$(cat "$WORK/out")" = "$3" ] || fail "__values $1 $2: '$(cat "$WORK/out")', not $3"
done
# A free value has no words; an option of another command none here.
run_noroot __values apply --name
expect_exit 0
expect_stdout <<'EOF2'
EOF2
run_noroot __values bench --runs
expect_exit 0
expect_stdout <<'EOF2'
EOF2
run_noroot __values show --format
expect_exit 0
expect_stdout <<'EOF2'
EOF2
run_noroot __values nosuch --format
expect_exit 2
