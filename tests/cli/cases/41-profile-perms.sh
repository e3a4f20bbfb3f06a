# As root on the real root, a profile others can edit is refused by every
# command that changes the system (whoever can write it could make root write
# md settings); commands that only read warn and read it anyway. The profile
# sets nothing, so even a failing test cannot change this machine.
# tags: no-valgrind (not yet in make valgrind: passed under it)
[ "$(id -u)" = 0 ] || return 0
mkdir -p "$WORK/p"
chmod 0755 "$WORK/p"
printf 'description: ok\n' >"$WORK/p/ok.yaml"
chmod 0644 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 0
chmod 0666 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 0
expect_stdout <<EOF
$WORK/p/ok.yaml: ok
EOF
expect_stderr <<EOF
mdprofile: warning: $WORK/p/ok.yaml: group/world-writable (mode 0666); read anyway; apply refuses it
EOF
# -q keeps warnings: they need the owner's attention.
run_noroot check "$WORK/p/ok.yaml" -q
expect_exit 0
expect_stdout </dev/null
expect_stderr <<EOF
mdprofile: warning: $WORK/p/ok.yaml: group/world-writable (mode 0666); read anyway; apply refuses it
EOF
run_noroot show "$WORK/p/ok.yaml" -q
expect_exit 0
run_noroot apply "$WORK/p/ok.yaml"
expect_exit 2
expect_no_stdout
expect_stderr <<EOF
mdprofile: $WORK/p/ok.yaml: refusing profile: group/world-writable (mode 0666)
EOF
chmod 0644 "$WORK/p/ok.yaml"
chown 1000 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 0
expect_stderr <<EOF
mdprofile: warning: $WORK/p/ok.yaml: not owned by root (uid 1000); read anyway; apply refuses it
EOF
run_noroot apply --dry-run "$WORK/p/ok.yaml"
expect_exit "$(host_md_exit)"
run_noroot apply "$WORK/p/ok.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/ok.yaml: refusing profile: not owned by root (uid 1000)
EOF
