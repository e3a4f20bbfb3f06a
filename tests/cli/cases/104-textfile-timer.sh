# The textfile export's systemd units (issue 37): systemd accepts them, each says where
# its documentation is, and the service's command writes mdprofile.prom as status
# --format prometheus prints it.
fixture ds220j-dsm7
mkdir "$WORK/units" "$ROOT/textfile"
for u in mdprofile-textfile.service mdprofile-textfile.timer; do
	# as make install writes them, the binary under test in the place of BINDIR's
	sed -e "s|@BINDIR@/mdprofile|$MDP|" -e "s|@DOCDIR@|$SRC/docs|" "$SRC/systemd/$u" >"$WORK/units/$u"
	grep -q '^Documentation=man:mdprofile(8)$' "$WORK/units/$u" || fail "$u: no Documentation="
done
if command -v systemd-analyze >/dev/null; then
	# --man=no: man:mdprofile(8) is the repository's man/mdprofile.8, not installed here
	# and a warning about them (an unknown key) fails too: verify exits 0 on it
	if ! (cd "$WORK/units" && systemd-analyze verify --man=no mdprofile-textfile.timer \
		mdprofile-textfile.service) >"$WORK/verify" 2>&1 ||
		grep -q mdprofile-textfile "$WORK/verify"; then
		fail "systemd-analyze verify: $(cat "$WORK/verify")"
	fi
fi
grep -qx 'OnCalendar=minutely' "$WORK/units/mdprofile-textfile.timer" || fail "the timer is not minutely"
# The service's command, on the fixture, its file in a scratch directory.
cmd=$(sed -n 's|^ExecStart=||p' "$WORK/units/mdprofile-textfile.service")
case $cmd in
"$MDP status --format prometheus --output /var/lib/prometheus/node-exporter/mdprofile.prom") ;;
*) fail "ExecStart=$cmd" ;;
esac
args=$(printf '%s\n' "${cmd#"$MDP "}" | sed "s|/var/lib/prometheus/node-exporter/|$ROOT/textfile/|")
# shellcheck disable=SC2086 # the command's words, as systemd splits them (none is quoted)
run_expect 0 - - $args
run status --format prometheus
expect_exit 0
cmp -s "$WORK/out" "$ROOT/textfile/mdprofile.prom" || fail "the service's file is not status's"
