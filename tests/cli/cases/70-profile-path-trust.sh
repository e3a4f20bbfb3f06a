# As root on the real root, a profile is taken from a path nobody but root
# can change: not only the file and its own directory, but every directory
# from / down (one others can write could swap the whole subtree between a
# check and the read; the file is read from the descriptor that was checked).
# Read-only commands warn; apply refuses before it takes the lock.
# tags: no-valgrind (not yet in make valgrind: passed under it)
[ "$(id -u)" = 0 ] || return 0
mkdir -p "$WORK/ww/sub"
chmod 0777 "$WORK/ww"
chmod 0755 "$WORK/ww/sub"
printf 'description: ok\n' >"$WORK/ww/sub/p.yaml"
chmod 0644 "$WORK/ww/sub/p.yaml"
run_noroot check "$WORK/ww/sub/p.yaml"
expect_exit 0
expect_stdout <<EOF
$WORK/ww/sub/p.yaml: ok
EOF
expect_stderr <<EOF
mdprofile: warning: $WORK/ww: profile directory: group/world-writable (mode 0777); read anyway; apply refuses it
EOF
# Only once the refusal is there: apply must never reach this machine's lock.
if [ "$FAILED" = 0 ]; then
	run_noroot apply "$WORK/ww/sub/p.yaml"
	expect_exit 2
	expect_stdout </dev/null
	expect_stderr <<EOF
mdprofile: $WORK/ww: refusing profile directory: group/world-writable (mode 0777)
EOF
fi

# A symbolic link on the way is refused too: it could be re-pointed.
chmod 0755 "$WORK/ww"
ln -s "$WORK/ww/sub" "$WORK/link"
run_noroot check "$WORK/link/p.yaml"
expect_exit 0
expect_stderr <<EOF
mdprofile: warning: $WORK/link: profile directory: it is a symbolic link; read anyway; apply refuses it
EOF

# A sticky directory (/tmp, where this test runs) is fine above a root-owned one.
run_noroot check "$WORK/ww/sub/p.yaml"
expect_exit 0
expect_stderr </dev/null
