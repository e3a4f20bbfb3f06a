# status --output FILE (issue 37): the look replaces FILE whole, as a new file in its
# directory renamed over it, mode 0644, exactly what stdout would have shown, in every
# format; a FILE that cannot be written is refused before anything is read, and a write
# that fails leaves neither a half file nor a temporary behind.
fixture ds-dsm6-reshape
D="$ROOT/textfile"
mkdir "$D"
# no file in D but those named
only_in_d() {
	got=$(cd "$D" && ls -A | tr '\n' ' ')
	[ "$got" = "$1" ] || fail "$D holds '$got', expected '$1'"
}
for fmt in prometheus json; do
	run status --format "$fmt"
	expect_exit 0
	cp "$WORK/out" "$WORK/want.$fmt"
	printf 'old\n' >"$D/mdprofile.prom" && chmod 0600 "$D/mdprofile.prom"
	run_expect 0 - - status --format "$fmt" --output "$D/mdprofile.prom"
	cmp -s "$WORK/want.$fmt" "$D/mdprofile.prom" || fail "--format $fmt: the file is not stdout's"
	[ "$(stat -c %a "$D/mdprofile.prom")" = 644 ] || fail "--format $fmt: mode not 0644"
	only_in_d "mdprofile.prom "
done
# -o, and a path relative to the working directory (the source tree) through ..
rel=tests/../$(realpath --relative-to="$SRC" "$D")/rel.prom
run_expect 0 - - status --format prometheus -o "$rel"
cmp -s "$WORK/want.prometheus" "$D/rel.prom" || fail "-o $rel: the file is not stdout's"
rm "$D/rel.prom"

# Refused before anything is read: exit 2, nothing written.
run_expect 2 - output-no-dir status --format prometheus --output "$ROOT/nodir/mdprofile.prom"
[ ! -e "$ROOT/nodir" ] || fail "a missing directory was created"
run_expect 2 - output-dev-null status --output /dev/null
ln -s mdprofile.prom "$D/link.prom"
run_expect 2 - output-link status --output "$D/link.prom"
[ -L "$D/link.prom" ] || fail "the link was replaced"
rm "$D/link.prom"
run_expect 2 - output-trailing-slash status --output "$D/"
run_expect 2 - output-watch status --watch --output "$D/mdprofile.prom"

# A write that fails for real, after the temporary was made: FILE is a directory.
mkdir "$D/dir.prom"
run_expect 3 - output-is-dir status --format prometheus --output "$D/dir.prom"
only_in_d "dir.prom mdprofile.prom "
[ -z "$(ls -A "$D/dir.prom")" ] || fail "something was written into the directory"
cmp -s "$WORK/want.json" "$D/mdprofile.prom" || fail "a failed run changed another file"

# Another user's folder (here uid 65534's) is refused, unless FILE there is that user's:
# then it is replaced and stays theirs. Its folder is opened once (test_root.c shows a
# later write staying in it).
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$D"
	run_expect 2 - output-other-user status --format prometheus --output "$D/mdprofile.prom"
	cmp -s "$WORK/want.json" "$D/mdprofile.prom" || fail "another user's folder: written"
	chown 65534:65534 "$D/mdprofile.prom"
	run_expect 0 - - status --format prometheus --output "$D/mdprofile.prom"
	cmp -s "$WORK/want.prometheus" "$D/mdprofile.prom" || fail "that user's file: not replaced"
	[ "$(stat -c %u:%g:%a "$D/mdprofile.prom")" = 65534:65534:644 ] ||
		fail "that user's file is no longer theirs: $(stat -c %u:%g:%a "$D/mdprofile.prom")"
fi
