# boot-script: the generated script pins array names to UUIDs, carries the
# profile, passes shellcheck for every target on every fixture, and refuses
# anything that could change what it runs.
# tags: heavy
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
expect_no_stderr
expect_unchanged
sed -n '1,/^}$/p' "$WORK/out" >"$WORK/head"
cp "$WORK/head" "$WORK/out"
expect_stdout boot-script-target-rc.d-binary
# --with-services keeps the services; the dsm target ends by running main.
run boot-script --with-services --binary /b/mdprofile "$ROOT/p/small.yaml"
expect_exit 0
grep -q '^  - name: synoindexd$' "$WORK/out" || fail "--with-services dropped the service"
[ "$(tail -n 1 "$WORK/out")" = main ] || fail "a dsm script does not end in main"
grep -q '(target dsm)' "$WORK/out" || fail "DSM (etc.defaults/VERSION) is not the default target"

# Checked by shellcheck, as sh and as bash, for every target on every fixture.
for fx in ds-dsm6-reshape ds220j-dsm7 server-raid6-raid10; do
	fixture "$fx"
	for t in dsm rc.d systemd; do
		for p in balanced reshape-fast low-ram; do
			run boot-script --target "$t" "$p"
			expect_exit 0
			for sh in sh bash; do
				shellcheck -s "$sh" "$WORK/out" >"$WORK/sc" 2>&1 ||
					fail "shellcheck -s $sh: $t $p on $fx: $(head -5 "$WORK/sc")"
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
expect_stdout boot-script-balanced-o-boot.sh
[ "$(stat -c %a "$WORK/boot.sh")" = 755 ] || fail "-o FILE is not mode 0755"
for f in "$WORK"/boot.sh.tmp*; do
	[ -e "$f" ] && fail "-o left its temporary file $f"
done

# -o through a link replaces the file it points to, and keeps the link; -q
# leaves out the "wrote" line and the steps.
cp "$WORK/boot.sh" "$WORK/boot.want"
echo old >"$WORK/target.sh"
ln -sf target.sh "$WORK/link.sh"
run_expect 0 - . -q boot-script balanced -o "$WORK/link.sh" --binary /volume1/@mdprofile/mdprofile
[ -L "$WORK/link.sh" ] || fail "-o replaced the link itself"
cmp -s "$WORK/target.sh" "$WORK/boot.want" || fail "-o through a link: the target is not the script"
# A FIFO or a device (/dev/null here, through a link so that a regression
# replaces the link, not the machine's /dev/null) is written into, as a
# shell's > would; a rename over it would replace the node.
ln -sf /dev/null "$WORK/null"
run -q boot-script balanced -o "$WORK/null"
expect_exit 0
[ -L "$WORK/null" ] && [ -c /dev/null ] || fail "-o replaced /dev/null (or the link to it)"
mkfifo "$WORK/fifo"
# timeout: with the old rename the reader would wait for a writer forever.
timeout 20 cat "$WORK/fifo" >"$WORK/fifo.out" &
run -q boot-script balanced -o "$WORK/fifo" --binary /volume1/@mdprofile/mdprofile
expect_exit 0
wait
[ -p "$WORK/fifo" ] || fail "-o replaced the FIFO"
cmp -s "$WORK/fifo.out" "$WORK/boot.want" || fail "-o into a FIFO: the reader did not get the script"

# Names that are not on this system, or have no known UUID, cannot be pinned.
printf 'arrays:\n  - match: {names: [md9]}\n    read_ahead: 1MiB\n  - match: {names: [md1]}\n    read_ahead: 1MiB\n' >"$ROOT/p/gone.yaml"
printf 'arrays:\n  - match: {names: [md2], uuids: ["f0e1d2c3b4a5968778695a4b3c2d1e0f"]}\n    read_ahead: 1MiB\n' >"$ROOT/p/disagree.yaml"
cp "$ROOT/p/small.yaml" "$ROOT/q\$(reboot)/ok.yaml"
cp "$ROOT/p/small.yaml" "$ROOT/p/it's.yaml"
printf 'description: "x\\nMDPROFILE_PINNED_PROFILE\\n$(reboot) `id`"\n' >"$ROOT/p/desc.yaml"
snapshot
run_expect 2 - boot-script-pgone.yaml boot-script "$ROOT/p/gone.yaml"
# A rule whose names and UUIDs disagree would match nothing at boot.
run_expect 2 . boot-script-pdisagree.yaml boot-script "$ROOT/p/disagree.yaml"

# Anything that could inject into the script is refused, and nothing is written.
for bin in '/v/$(reboot)/mdprofile' "/v/it's/mdprofile" '/v/`id`' '/v/a b'; do
	run boot-script balanced --binary "$bin" -o "$WORK/never.sh"
	expect_exit 2
	expect_stderr <<EOF
mdprofile: cannot put the binary path '$bin' into a boot script: only letters, digits and / . _ - + @ : , = are allowed
EOF
done
run_expect 2 . boot-script-balanced-binary-printf boot-script balanced --binary "$(printf '/v/a\nreboot')"
run_expect 2 . boot-script-balanced-binary-mdprofile boot-script balanced --binary mdprofile
run_expect 2 . boot-script-qrebootok.yaml boot-script "$ROOT/q\$(reboot)/ok.yaml"
run_expect 2 . boot-script-pit-s.yaml boot-script "$ROOT/p/it's.yaml"
[ -e "$WORK/never.sh" ] && fail "a refused script was written"
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
sed 1d "$WORK/out" | cmp -s - "$WORK/desc.out" || fail "the embedded profile is not the pinned text"

# Usage errors.
run_expect 2 . boot-script-balanced-target-upstart boot-script balanced --target upstart
run_expect 2 . boot-script-balanced-wait-arrays-5m boot-script balanced --wait-arrays 5m
run boot-script balanced --json
expect_exit 2
run_expect 2 . diff-balanced-target-dsm diff balanced --target dsm
