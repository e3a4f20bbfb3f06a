#!/bin/sh
# Lint: every function a header of src/ declares (mdp_*) is used somewhere besides its
# definition: in src/, cmd/, the tests or tools/. One that is only defined is dead code, to be
# removed with its declaration (static functions are -Wunused-function's).
#   tools/unused.sh
set -eu
tmp=${TMPDIR:-/tmp}/mdp-unused.$$
trap 'rm -f "$tmp"' EXIT
# how often the C sources name each mdp_ word: a declared function named once is only defined
cat src/*/*.c cmd/*.c tests/unit/*.c tests/fuzz/*.c tests/seams/*.c tools/*.c 2>/dev/null |
	grep -ow 'mdp_[a-z0-9_]*' | sort | uniq -c >"$tmp"
bad=0
for f in $(grep -hE '^[a-z].*\bmdp_[a-z0-9_]+\(' src/*/*.h | grep -oE '\bmdp_[a-z0-9_]+\(' |
	tr -d '(' | sort -u); do
	n=$(awk -v f="$f" '$2 == f { print $1 }' "$tmp")
	if [ "${n:-0}" -le 1 ]; then
		echo "unused: $f is declared in src/ and nothing calls it: remove it" >&2
		bad=1
	fi
done
exit $bad
