# Every mdprofile command that a message, a hint, a fix line, the man pages or the docs tell
# someone to run exists: each "'mdprofile WORD" in the C sources (messages quote commands so),
# each "`mdprofile WORD" and each example line "mdprofile WORD" in the man pages, README and
# docs, and each one printed by the status, drift and recovery paths below, names a command
# of 'mdprofile help'.
# tags: no-valgrind (not yet in make valgrind: passed under it)
run_noroot help
expect_exit 0
commands=$(awk '/^commands:/ { on = 1; next } on && /^$/ { exit }
	on && /^  [a-z]/ { print $1 }' "$WORK/out" | tr '\n' ' ')
[ -n "$commands" ] || fail "no commands in 'mdprofile help'"
named="$WORK/named"
: >"$named"
(cd "$SRC" && grep -noE "['\"]mdprofile [a-z][a-z-]*" cmd/*.c src/*.c) >>"$named" || true
(cd "$SRC" && grep -noE '`mdprofile [a-z][a-z-]*' README.md docs/*.md) \
	>>"$named" || true
(cd "$SRC" && grep -noE '^ +(sudo )?mdprofile [a-z][a-z-]*' README.md docs/*.md) >>"$named" ||
	true
(cd "$SRC" && grep -noE '^\.(Nm|Ic) mdprofile [a-z][a-z-]*|mdprofile [a-z][a-z-]*' \
	man/mdprofile.8 | grep -E '^[^:]*:[0-9]+:\.' || true) >>"$named"

# What the commands themselves print on paths that give advice: an active profile with
# drift, a killed apply, nothing to revert.
fixture ds-dsm6-reshape
run --services-backend none apply balanced
expect_exit 0
cat "$WORK/out" "$WORK/err" >"$WORK/printed"
echo 4096 >"$ROOT/sys/block/md2/md/stripe_cache_size"
run status
expect_exit 0
cat "$WORK/out" "$WORK/err" >>"$WORK/printed"
run diff
expect_exit 1
cat "$WORK/out" "$WORK/err" >>"$WORK/printed"
run --services-backend none revert
expect_exit 0
run revert
expect_exit 0
cat "$WORK/out" "$WORK/err" >>"$WORK/printed"
grep -noE "mdprofile [a-z][a-z-]*" "$WORK/printed" | sed 's/^/printed:/' >>"$named" || true

[ -s "$named" ] || fail "found no command named anywhere (the patterns are broken)"
while IFS= read -r line; do
	word=${line##* }
	case " $commands " in
	*" $word "*) ;;
	*) fail "names 'mdprofile $word', not a command: $line" ;;
	esac
done <"$named"
