# What enable refuses before anything changes (exit 2, the tree byte for
# byte as it was, no tool run): a binary that is missing, relative, or one
# others could change (file or directory writable by group/others); under
# --root no --binary (this binary's path is the host's: boot-script
# --install refuses it too); a profile on stdin (the boot cannot read it
# again); an --auto profile that does not load; --json; a record of what is
# enabled that mdprofile did not write.
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
		_fail "a tool was run: $(cat "$ROOT/var/log/fake-services.log")"
	fi
}

run --services-backend none enable balanced --binary /volume1/@mdprofile/missing
expect_stderr <<'EOF'
mdprofile: refusing to enable: --binary /volume1/@mdprofile/missing: no such file; the boot script would fail at every boot
EOF
refused
run --services-backend none enable balanced --binary volume1/@mdprofile/mdprofile
expect_stderr <<'EOF'
mdprofile: --binary 'volume1/@mdprofile/mdprofile': the boot script needs an absolute path
EOF
refused
run --services-backend none enable balanced --binary /volume1/share/mdprofile
expect_stderr <<'EOF'
mdprofile: refusing to enable: --binary /volume1/share/mdprofile: directory @ROOT@/volume1/share is group/world-writable (mode 0777); others could change what the boot script runs as root
EOF
refused
chmod 0666 "$ROOT$B"
run --services-backend none enable balanced --binary "$B"
expect_stderr <<'EOF'
mdprofile: refusing to enable: --binary /volume1/@mdprofile/mdprofile: group/world-writable (mode 0666); others could change what the boot script runs as root
EOF
chmod 0755 "$ROOT$B"
refused
run --services-backend none enable balanced
expect_stderr <<'EOF'
mdprofile: under --root, give --binary PATH: mdprofile's path as the system in the tree sees it
EOF
refused
run boot-script --install balanced
expect_stderr <<'EOF'
mdprofile: under --root, give --binary PATH: mdprofile's path as the system in the tree sees it
EOF
refused
printf 'extends: balanced\n' | run --services-backend none enable - --binary "$B"
expect_stderr <<'EOF'
mdprofile: enable needs the profile by name or file, not on stdin: the boot applies it again
EOF
refused
run --services-backend none enable balanced --auto nosuch --binary "$B"
expect_stderr <<'EOF'
mdprofile: profile 'nosuch' not found (looked in @ROOT@/etc/mdprofile/profiles, @BIN@/profiles and the built-in profiles)
EOF
refused
run --services-backend none --json enable balanced --binary "$B"
expect_stderr <<'EOF'
mdprofile: enable reports as text: drop --json (status --json says what is enabled)
EOF
expect_exit 2
expect_unchanged
mkdir -p "$ROOT/etc/mdprofile"
echo 'profile=x' >"$ROOT/etc/mdprofile/enabled"
snapshot
run --services-backend none enable balanced --binary "$B"
expect_stderr <<'EOF'
mdprofile: /etc/mdprofile/enabled: not what mdprofile enable writes; remove it by hand
EOF
refused
run --services-backend none disable
expect_stderr <<'EOF'
mdprofile: /etc/mdprofile/enabled: not what mdprofile enable writes; remove it by hand
EOF
refused
