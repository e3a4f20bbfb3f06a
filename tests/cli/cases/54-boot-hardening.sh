# boot-script where others could change what root runs at boot: names that
# 'apply --name' refuses, -o into places others can write or through links
# they own, -o to /dev/stdout on a pipe, a --binary that is missing or not
# root's alone, a profile others can write, --uninstall of a profile that
# is gone, and files mdprofile did not write.
# tags: heavy
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
B=/volume1/@mdprofile/mdprofile
mkdir -p "$ROOT/volume1/@mdprofile" "$ROOT/p"
printf '#!/bin/sh\n' >"$ROOT$B"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile" "$ROOT$B"
me=$(id -u)
work() { sed -i "s|$WORK|@WORK@|g" "$WORK/out" "$WORK/err"; }

# The script runs 'apply --name NAME': a name --name refuses is refused now, not at every boot.
for n in 'fast+safe' 'nas@home' 'a=b' '.x'; do
	printf 'description: x\n' >"$ROOT/p/$n.yaml"
	run boot-script "$ROOT/p/$n.yaml" --binary "$B"
	expect_exit 2
	expect_stderr <<EOF
mdprofile: cannot put the profile name '$n' into a boot script: a profile name is letters, digits, '.', '_' and '-', not starting with '.' or '-', at most 64
EOF
done

# -o: a file planted at NAME.tmp is neither reused nor touched; the script
# is the caller's, mode 0755 whatever the umask.
mkdir "$WORK/o"
chmod 0755 "$WORK/o"
printf 'planted\n' >"$WORK/o/boot.sh.tmp"
chmod 0666 "$WORK/o/boot.sh.tmp"
[ "$me" != 0 ] || chown 65534 "$WORK/o/boot.sh.tmp"
mask=$(umask)
umask 077
run -q boot-script balanced --binary "$B" -o "$WORK/o/boot.sh"
umask "$mask"
expect_exit 0
expect_stderr </dev/null
[ "$(stat -c '%a %u' "$WORK/o/boot.sh")" = "755 $me" ] ||
	fail "-o: the script is $(stat -c '%a %u' "$WORK/o/boot.sh"), not 755 $me"
[ "$(cat "$WORK/o/boot.sh.tmp")" = planted ] || fail "-o wrote into the planted NAME.tmp"
run boot-script balanced --binary "$B"
expect_exit 0
cmp -s "$WORK/out" "$WORK/o/boot.sh" || fail "-o did not write the script"
cp "$WORK/out" "$WORK/script"

# A directory others can write (sticky or not) is refused, before anything is written.
for mode in 0777 1777 0775; do
	mkdir "$WORK/ww$mode"
	chmod "$mode" "$WORK/ww$mode"
	run boot-script balanced --binary "$B" -o "$WORK/ww$mode/boot.sh"
	expect_exit 2
	work
	expect_stderr <<EOF
mdprofile: refusing to write @WORK@/ww$mode/boot.sh: directory @WORK@/ww$mode is group/world-writable (mode $mode); others could change what runs as root at boot
EOF
	[ -z "$(ls -A "$WORK/ww$mode")" ] || fail "a refused -o wrote into $mode"
done
# So is a link there, whoever owns it and wherever it leads.
printf 'secret\n' >"$WORK/o/shadow"
ln -s ../o/shadow "$WORK/ww0777/boot.sh"
run boot-script balanced --binary "$B" -o "$WORK/ww0777/boot.sh"
expect_exit 2
[ "$(cat "$WORK/o/shadow")" = secret ] || fail "-o replaced what a link in a 0777 directory names"
# And a link someone else owns, even in a directory that is root's.
if [ "$me" = 0 ]; then
	ln -s shadow "$WORK/o/theirs.sh"
	chown -h 65534 "$WORK/o/theirs.sh"
	run boot-script balanced --binary "$B" -o "$WORK/o/theirs.sh"
	expect_exit 2
	work
	expect_stderr boot-script-balanced-binary-o
	[ "$(cat "$WORK/o/shadow")" = secret ] || fail "-o followed another user's link"
fi

# -o /dev/stdout with stdout a pipe: /proc/self/fd/1 names "pipe:[N]", which
# does not resolve. The pipe gets the script; the link stays a link.
ln -s /proc/self/fd/1 "$WORK/o/stdout"
{
	${MDP_WRAP:-} "$MDP" --root "$ROOT" -q boot-script balanced --binary "$B" -o "$WORK/o/stdout" 2>"$WORK/err"
	echo $? >"$WORK/rc"
} | cat >"$WORK/piped"
[ "$(cat "$WORK/rc")" = 0 ] || fail "-o /dev/stdout on a pipe exited $(cat "$WORK/rc"): $(cat "$WORK/err")"
[ -L "$WORK/o/stdout" ] || fail "-o replaced the /dev/stdout link"
cmp -s "$WORK/piped" "$WORK/script" || fail "-o /dev/stdout: the pipe did not get the script"
# A dangling link is not created through, nor replaced.
ln -s nothere "$WORK/o/dangling"
run boot-script balanced --binary "$B" -o "$WORK/o/dangling"
expect_exit 3
work
expect_stderr boot-script-balanced-binary-o.2
[ -L "$WORK/o/dangling" ] && [ ! -e "$WORK/o/nothere" ] || fail "-o wrote through a dangling link"

# --binary: -o warns about one that is missing or others can change; --install refuses it.
run_expect 0 . q-boot-script-balanced-binary -q boot-script balanced --binary /volume1/@mdprofile/nothere -o "$WORK/o/w.sh"
run_expect 2 . boot-script-install-balanced-binary boot-script --install balanced --binary /volume1/@mdprofile/nothere
chmod 0777 "$ROOT$B"
run_expect 2 . boot-script-install-balanced-binary.2 boot-script --install balanced --binary "$B"
chmod 0755 "$ROOT$B"
if [ "$me" = 0 ]; then
	chown 65534 "$ROOT$B"
	run_expect 2 . boot-script-install-target-rc.d boot-script --install --target rc.d balanced --binary "$B"
	chown 0 "$ROOT$B"
fi
[ ! -e "$ROOT/volume1/@mdprofile/mdprofile-balanced.sh" ] && [ ! -e "$ROOT/usr/local/etc/rc.d" ] ||
	fail "a refused --install wrote files"

# --uninstall needs only the name: the profile may be gone.
printf 'description: soon gone\n' >"$ROOT/p/soon.yaml"
run boot-script --install --target rc.d --binary "$B" "$ROOT/p/soon.yaml"
expect_exit 0
rm "$ROOT/p/soon.yaml"
run_expect 0 boot-script-uninstall-target-rc.d . boot-script --uninstall --target rc.d "$ROOT/p/soon.yaml"
run boot-script --install --target rc.d --binary "$B" balanced
expect_exit 0
run_expect 0 boot-script-uninstall-target-rc.d.2 . boot-script --uninstall --target rc.d balanced --profiles "$WORK/nowhere"
# Only files mdprofile wrote: one without its header stays.
printf '#!/bin/sh\necho mine\n' >"$ROOT/usr/local/etc/rc.d/mdprofile-mine.sh"
run_expect 3 . boot-script-uninstall-target-rc.d boot-script --uninstall --target rc.d mine
[ -f "$ROOT/usr/local/etc/rc.d/mdprofile-mine.sh" ] || fail "--uninstall removed a file it did not write"
run_expect 2 . boot-script-uninstall-target-rc.d.2 boot-script --uninstall --target rc.d 'fast+safe'

# As root on the real root, a profile others can write is refused by -o and
# --install as apply refuses it (printing the script only warns). The
# profile sets nothing and the files go to $WORK.
if [ "$me" = 0 ]; then
	mkdir "$WORK/pp"
	chmod 0755 "$WORK/pp"
	printf 'description: ww\n' >"$WORK/pp/ww.yaml"
	chmod 0666 "$WORK/pp/ww.yaml"
	run_noroot boot-script "$WORK/pp/ww.yaml" --binary /usr/bin/true -o "$WORK/o/ww.sh"
	expect_exit 2
	expect_stderr <<EOF
mdprofile: $WORK/pp/ww.yaml: refusing profile: group/world-writable (mode 0666)
EOF
	run_noroot boot-script "$WORK/pp/ww.yaml" --install --target dsm --binary "$WORK/o/mdprofile"
	expect_exit 2
	expect_stderr <<EOF
mdprofile: $WORK/pp/ww.yaml: refusing profile: group/world-writable (mode 0666)
EOF
	[ ! -e "$WORK/o/ww.sh" ] && [ ! -e "$WORK/o/mdprofile-ww.sh" ] || fail "a refused profile was written"
	run_noroot boot-script "$WORK/pp/ww.yaml" --binary /usr/bin/true
	expect_exit 0
	expect_stderr <<EOF
mdprofile: warning: $WORK/pp/ww.yaml: group/world-writable (mode 0666); read anyway; apply refuses it
EOF
fi

# The journal is replaced the same way: a FIFO at its old temporary name
# (journal.tmp) is not opened, so revert does not hang on it.
fixture ds-dsm6-reshape
printf 'arrays:\n  - match: all\n    read_ahead: 1MiB\n' >"$WORK/ra.yaml"
run apply "$WORK/ra.yaml"
expect_exit 0
mkfifo "$ROOT/run/mdprofile/journal.tmp"
wrap=${MDP_WRAP:-}
# KILL: revert holds the stop signals while it writes the journal.
MDP_WRAP="timeout -s KILL 60 $wrap"
run revert
MDP_WRAP=$wrap
expect_exit 0
[ -p "$ROOT/run/mdprofile/journal.tmp" ] || fail "revert replaced the FIFO at journal.tmp"
