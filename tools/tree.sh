#!/bin/sh
# Lint: the tree's own hygiene.
#  - Every entry at its top is one of the known ones below, so a stray file (a command's
#    output saved by a mistyped redirection, `status >1`) is refused before it is committed.
#    A new top-level file or directory goes into the list.
#  - No file cites notes that are not in the repository (a design document, a research folder, the
#    project's ../shared notes): what they hold is said in the repository's own words.
# Tracked files and untracked ones git does not ignore are checked (build/ and ./mdprofile are
# ignored).
#   tools/tree.sh
set -eu
known='.ci .clang-format .gitignore CHANGELOG.md COPYING Makefile README.md VERSION
ansible cmd completion debian docs man profiles prometheus schema src systemd tests tools'
if ! git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	echo "tree: not a git checkout: not checked"
	exit 0
fi
bad=0
for e in $(git ls-files --cached --others --exclude-standard | sed 's|/.*||' | sort -u); do
	if ! echo "$known" | tr ' ' '\n' | grep -qxF -- "$e"; then
		echo "tree: '$e' is no known top-level entry (tools/tree.sh lists them): a stray file?" >&2
		bad=1
	fi
done
# the pattern in pieces, so that this file does not match itself
notes='design''\.md|research''/|\.\./shared''/'
cited=$(git ls-files --cached --others --exclude-standard -z |
	xargs -0 grep -snIE "$notes" -- || :)
if [ -n "$cited" ]; then
	printf '%s\n' "$cited" >&2
	echo "tree: the lines above cite notes that are not in the repository: say it in its own words" >&2
	bad=1
fi
exit $bad
