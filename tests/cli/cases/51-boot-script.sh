# boot-script: the generated script pins array names to UUIDs, carries the
# profile, passes shellcheck for every target on every fixture, and refuses
# anything that could change what it runs.
export SOURCE_DATE_EPOCH=1767225600
fixture ds-dsm6-reshape
mkdir -p "$ROOT/p" "$ROOT/q\$(reboot)"
cat >"$ROOT/p/small.yaml" <<'EOF'
arrays:
  - match: {names: [md2, md3], levels: [raid5]}
    stripe_cache_size: 4096
  - match: {levels: [raid5]}
    read_ahead: 4MiB
services:
  pause: [synoindexd]
EOF
cp "$ROOT/p/small.yaml" "$WORK/small.yaml"
snapshot
run boot-script --target rc.d --binary /volume1/@mdprofile/mdprofile --wait-arrays 30 \
	--recheck-after 0 "$ROOT/p/small.yaml"
expect_exit 0
expect_stderr <<'EOF'
EOF
expect_unchanged
sed -n '1,/^}$/p' "$WORK/out" >"$WORK/head"
cp "$WORK/head" "$WORK/out"
expect_stdout <<'EOF'
#!/bin/sh
# mdprofile boot script (target rc.d): applies profile small at every boot.
#
# profile:   small, pinned below: extends flattened, array names replaced
#            by the UUIDs they had when this was generated
# from:      @ROOT@/p/small.yaml
# generated: 2026-01-01T00:00:00Z by mdprofile 0.1.0
# binary:    /volume1/@mdprofile/mdprofile
# arrays:    6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d (md2 when generated)
#            f0e1d2c3b4a5968778695a4b3c2d1e0f (md3 when generated)
# services:  none paused (generate with --with-services to pause them)
#
# At boot it waits up to 30 s for these arrays to be assembled, applies the
# profile with 'mdprofile apply -'.
# Every step goes to syslog (tag mdprofile) and to stdout. Exit code 0:
# everything was set; 1: a pinned array was not assembled in time (the
# rest was set); 2, 3, 4: those of 'mdprofile apply' (see mdprofile --help).
#
# Install: as /usr/local/etc/rc.d/mdprofile-small.sh, mode 0755, owned by root
#   (run with start at boot; stop does nothing; status runs diff).
# Remove:  delete that file.
# Values set stay until the next reboot or 'mdprofile revert'.

PATH='/usr/syno/sbin:/usr/syno/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin'
LC_ALL=C
LANG=C
export PATH LC_ALL LANG
cd / || exit 2

mdp='/volume1/@mdprofile/mdprofile'
name='small'
wait_s=30
recheck_s=0
uuids='6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d f0e1d2c3b4a5968778695a4b3c2d1e0f'

# The profile this script applies.
profile() {
	cat <<'MDPROFILE_PINNED_PROFILE'
---
arrays:
- match:
    levels:
    - raid5
    uuids:
    - 6a1b0c7d2e3f4a5b8c9d0e1f2a3b4c5d
    - f0e1d2c3b4a5968778695a4b3c2d1e0f
  stripe_cache_size: 4096
- match:
    levels:
    - raid5
  read_ahead: 4MiB
...
MDPROFILE_PINNED_PROFILE
}
EOF
# --with-services keeps the services; the dsm target ends by running main.
run boot-script --with-services --binary /b/mdprofile "$ROOT/p/small.yaml"
expect_exit 0
grep -q '^  - name: synoindexd$' "$WORK/out" || _fail "--with-services dropped the service"
[ "$(tail -n 1 "$WORK/out")" = main ] || _fail "a dsm script does not end in main"
grep -q '(target dsm)' "$WORK/out" || _fail "DSM (etc.defaults/VERSION) is not the default target"

# Checked by shellcheck, as sh and as bash, for every target on every fixture.
for fx in ds-dsm6-reshape ds220j-dsm7 server-raid6-raid10; do
	fixture "$fx"
	for t in dsm rc.d systemd; do
		for p in balanced reshape-fast low-ram; do
			run boot-script --target "$t" "$p"
			expect_exit 0
			for sh in sh bash; do
				shellcheck -s "$sh" "$WORK/out" >"$WORK/sc" 2>&1 ||
					_fail "shellcheck -s $sh: $t $p on $fx: $(head -5 "$WORK/sc")"
			done
		done
	done
done

# -o writes the file atomically, mode 0755, and says what is left to do.
fixture ds-dsm6-reshape
mkdir -p "$ROOT/p" "$ROOT/q\$(reboot)"
cp "$WORK/small.yaml" "$ROOT/p/small.yaml"
run boot-script balanced -o "$WORK/boot.sh" --binary /volume1/@mdprofile/mdprofile
expect_exit 0
sed -i "s|$WORK|@WORK@|g" "$WORK/out"
expect_stdout <<'EOF'
wrote @WORK@/boot.sh
to run it at every boot, in DSM:
Control Panel > Task Scheduler > Create > Triggered Task > User-defined script
General: Task: mdprofile, User: root, Event: Boot-up, Enabled
Task Settings: Run command: bash @WORK@/boot.sh
EOF
[ "$(stat -c %a "$WORK/boot.sh")" = 755 ] || _fail "-o FILE is not mode 0755"
for f in "$WORK"/boot.sh.tmp*; do
	[ -e "$f" ] && _fail "-o left its temporary file $f"
done

# -o through a link replaces the file it points to, and keeps the link; -q
# leaves out the "wrote" line and the steps.
cp "$WORK/boot.sh" "$WORK/boot.want"
echo old >"$WORK/target.sh"
ln -sf target.sh "$WORK/link.sh"
run -q boot-script balanced -o "$WORK/link.sh" --binary /volume1/@mdprofile/mdprofile
expect_exit 0
expect_stdout </dev/null
[ -L "$WORK/link.sh" ] || _fail "-o replaced the link itself"
cmp -s "$WORK/target.sh" "$WORK/boot.want" || _fail "-o through a link: the target is not the script"
# A FIFO or a device (/dev/null here, through a link so that a regression
# replaces the link, not the machine's /dev/null) is written into, as a
# shell's > would; a rename over it would replace the node.
ln -sf /dev/null "$WORK/null"
run -q boot-script balanced -o "$WORK/null"
expect_exit 0
[ -L "$WORK/null" ] && [ -c /dev/null ] || _fail "-o replaced /dev/null (or the link to it)"
mkfifo "$WORK/fifo"
# timeout: with the old rename the reader would wait for a writer forever.
timeout 20 cat "$WORK/fifo" >"$WORK/fifo.out" &
run -q boot-script balanced -o "$WORK/fifo" --binary /volume1/@mdprofile/mdprofile
expect_exit 0
wait
[ -p "$WORK/fifo" ] || _fail "-o replaced the FIFO"
cmp -s "$WORK/fifo.out" "$WORK/boot.want" || _fail "-o into a FIFO: the reader did not get the script"

# Names that are not on this system, or have no known UUID, cannot be pinned.
printf 'arrays:\n  - match: {names: [md9]}\n    read_ahead: 1MiB\n  - match: {names: [md1]}\n    read_ahead: 1MiB\n' >"$ROOT/p/gone.yaml"
printf 'arrays:\n  - match: {names: [md2], uuids: ["f0e1d2c3b4a5968778695a4b3c2d1e0f"]}\n    read_ahead: 1MiB\n' >"$ROOT/p/disagree.yaml"
cp "$ROOT/p/small.yaml" "$ROOT/q\$(reboot)/ok.yaml"
cp "$ROOT/p/small.yaml" "$ROOT/p/it's.yaml"
printf 'description: "x\\nMDPROFILE_PINNED_PROFILE\\n$(reboot) `id`"\n' >"$ROOT/p/desc.yaml"
snapshot
run boot-script "$ROOT/p/gone.yaml"
expect_exit 2
expect_stdout <<'EOF'
EOF
expect_stderr <<'EOF'
mdprofile: @ROOT@/p/gone.yaml:2:5: rule 1 names array md9, which is not on this system: it cannot be pinned to a UUID
mdprofile: @ROOT@/p/gone.yaml:4:5: rule 2 names array md1, whose UUID is unknown (see 'mdprofile status -v'): it cannot be pinned
EOF
# A rule whose names and UUIDs disagree would match nothing at boot.
run boot-script "$ROOT/p/disagree.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: @ROOT@/p/disagree.yaml:2:5: rule 1 matches no array here: none of its names has one of its UUIDs
EOF

# Anything that could inject into the script is refused, and nothing is written.
for bin in '/v/$(reboot)/mdprofile' "/v/it's/mdprofile" '/v/`id`' '/v/a b'; do
	run boot-script balanced --binary "$bin" -o "$WORK/never.sh"
	expect_exit 2
	expect_stderr <<EOF
mdprofile: cannot put the binary path '$bin' into a boot script: only letters, digits and / . _ - + @ : , = are allowed
EOF
done
run boot-script balanced --binary "$(printf '/v/a\nreboot')"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: cannot put the binary path '/v/a\x0areboot' into a boot script: only letters, digits and / . _ - + @ : , = are allowed
EOF
run boot-script balanced --binary mdprofile
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --binary 'mdprofile': the boot script needs an absolute path
EOF
run boot-script "$ROOT/q\$(reboot)/ok.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: cannot put the profile path '@ROOT@/q$(reboot)/ok.yaml' into a boot script: quotes, $, backticks, backslashes and control characters such as newlines are not allowed
EOF
run boot-script "$ROOT/p/it's.yaml"
expect_exit 2
expect_stderr <<'EOF'
mdprofile: cannot put the profile name 'it's' into a boot script: a profile name is letters, digits, '.', '_' and '-', not starting with '.' or '-', at most 64
mdprofile: cannot put the profile path '@ROOT@/p/it's.yaml' into a boot script: quotes, $, backticks, backslashes and control characters such as newlines are not allowed
EOF
[ -e "$WORK/never.sh" ] && _fail "a refused script was written"
expect_unchanged

# Profile text is inert in the script: a description holding the delimiter and $(...)
# comes out of profile() as the pinned text, unexpanded.
run boot-script "$ROOT/p/desc.yaml" --binary /b/mdprofile
expect_exit 0
sed -n "/^profile() {/,/^}/p" "$WORK/out" >"$WORK/fn.sh"
printf 'profile\n' >>"$WORK/fn.sh"
sh "$WORK/fn.sh" >"$WORK/desc.out"
run show --yaml "$ROOT/p/desc.yaml"
expect_exit 0
sed 1d "$WORK/out" | cmp -s - "$WORK/desc.out" || _fail "the embedded profile is not the pinned text"

# Usage errors.
run boot-script balanced --target upstart
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --target 'upstart': expected dsm, rc.d or systemd
EOF
run boot-script balanced --wait-arrays 5m
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --wait-arrays '5m': expected seconds, 0..86400
EOF
run boot-script balanced --json
expect_exit 2
run diff balanced --target dsm
expect_exit 2
expect_stderr <<'EOF'
mdprofile: --target does not apply to 'diff'
usage: mdprofile [options] diff [PROFILE]
EOF
