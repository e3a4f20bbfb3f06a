# As root on the real root, profiles others can edit are refused: whoever
# can write them could make root write md settings.
[ "$(id -u)" = 0 ] || return 0
mkdir -p "$WORK/p"
chmod 0755 "$WORK/p"
printf 'description: ok\n' >"$WORK/p/ok.yaml"
chmod 0644 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 0
chmod 0666 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/ok.yaml: refusing profile: group/world-writable (mode 0666)
EOF
chmod 0644 "$WORK/p/ok.yaml"
chown 1000 "$WORK/p/ok.yaml"
run_noroot check "$WORK/p/ok.yaml"
expect_exit 2
expect_stderr <<EOF
mdprofile: $WORK/p/ok.yaml: refusing profile: not owned by root (uid 1000)
EOF
