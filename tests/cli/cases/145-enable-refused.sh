# What enable refuses before anything changes (exit 2, the tree byte for
# byte as it was, no tool run): a binary that is missing, relative, or one
# others could change (file or directory writable by group/others); under
# --root no --binary (this binary's path is the host's: boot-script
# --install refuses it too); a profile on stdin (the boot cannot read it
# again); an --auto profile that does not load; --json; a record of what is
# enabled that mdprofile did not write.
# tags: heavy
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
fakes esynoscheduler
B=/volume1/@mdprofile/mdprofile
mkdir -p "$ROOT/volume1/@mdprofile" "$ROOT/volume1/share"
printf '#!/bin/sh\n' >"$ROOT$B"
cp -p "$ROOT$B" "$ROOT/volume1/share/mdprofile"
chmod 0755 "$ROOT/volume1" "$ROOT/volume1/@mdprofile" "$ROOT$B" "$ROOT/volume1/share/mdprofile"
chmod 0777 "$ROOT/volume1/share"
snapshot

refused() {
	expect_exit 2
	expect_stdout </dev/null
	expect_unchanged
	if [ -s "$ROOT/var/log/fake-services.log" ]; then
		fail "a tool was run: $(cat "$ROOT/var/log/fake-services.log")"
	fi
}

run --services-backend none enable balanced --binary /volume1/@mdprofile/missing
expect_stderr services-backend-none-enable-balanced
refused
run --services-backend none enable balanced --binary volume1/@mdprofile/mdprofile
expect_stderr services-backend-none-enable-balanced.2
refused
run --services-backend none enable balanced --binary /volume1/share/mdprofile
expect_stderr services-backend-none-enable-balanced.3
refused
chmod 0666 "$ROOT$B"
run --services-backend none enable balanced --binary "$B"
expect_stderr services-backend-none-enable-balanced.4
chmod 0755 "$ROOT$B"
refused
run --services-backend none enable balanced
expect_stderr services-backend-none-enable-balanced.5
refused
run boot-script --install balanced
expect_stderr boot-script-install-balanced
refused
printf 'extends: balanced\n' | run --services-backend none enable - --binary "$B"
expect_stderr boot-script-install-balanced.2
refused
run --services-backend none enable balanced --auto nosuch --binary "$B"
expect_stderr services-backend-none-enable-balanced.6
refused
# a watcher over the profile enabled itself would take the boot's layer away (F02)
run --services-backend none enable balanced --auto balanced --binary "$B"
expect_stderr <<'EOF2'
mdprofile: --auto balanced is the profile enabled itself: the watcher would have nothing to add; give it a faster profile, or leave --auto out
EOF2
refused
run --services-backend none --json enable balanced --binary "$B"
expect_stderr services-backend-none-json-enable
expect_exit 2
expect_unchanged
mkdir -p "$ROOT/etc/mdprofile"
echo 'profile=x' >"$ROOT/etc/mdprofile/enabled"
snapshot
run --services-backend none enable balanced --binary "$B"
expect_stderr services-backend-none-enable-balanced.7
refused
run --services-backend none disable
expect_stderr services-backend-none-disable
refused

# Neither DSM nor systemd (sysvinit, OpenRC): nothing runs DSM 6's rc.d directory,
# so enable refuses rather than say "enabled" for nothing (issue 34).
fixture server-raid6-raid10
rm -rf "${ROOT:?}/run/systemd"
mkdir -p "$ROOT/usr/local/bin"
printf '#!/bin/sh\n' >"$ROOT/usr/local/bin/mdprofile"
chmod 0755 "$ROOT/usr/local/bin/mdprofile"
snapshot
run --services-backend none enable balanced --binary /usr/local/bin/mdprofile
expect_stderr <<'EOF2'
mdprofile: this system runs neither DSM nor systemd: nothing here runs /usr/local/etc/rc.d at boot, so enable has nothing to install; nothing was changed
mdprofile: write a script with 'mdprofile boot-script PROFILE' and run it from this system's own boot (an init script, /etc/rc.local)
EOF2
refused
