#!/bin/sh
# Lint: no file outgrows its cap, in lines, so that each stays one a reader can hold:
#   cmd/*.c, cmd/*.h   400: cmd/ is thin, a command or a piece of output a file
#   src/*/*.c, src/*/*.h   1,000: a module past it is split along its seams, what its files share
#                      declared in an internal header (src/profile/profile_int.h, src/boot/boot_int.h)
#   README.md          200: the first page; the rest is in docs/
# The files over their cap when this lint came (issue 46) were listed below with their length
# then: a listed file could shrink, never grow past that length, and its entry had to go once it
# was within its cap or gone (the lint says so). Every one has been split since: the list is
# empty and must stay so. A file that outgrows its cap is split along its seams, not listed.
#   tools/filecap.sh
set -eu
# Over their cap when this lint came (issue 46), each with its length then: "FILE LINES" a
# line. Empty, and it stays so.
over='
'
bad=0
cap_of() {
	case $1 in
	cmd/*) echo 400 ;;
	src/*) echo 1000 ;;
	README.md) echo 200 ;;
	esac
}
for f in cmd/*.c cmd/*.h src/*/*.c src/*/*.h README.md; do
	[ -f "$f" ] || continue
	n=$(wc -l <"$f")
	cap=$(cap_of "$f")
	was=$(echo "$over" | awk -v f="$f" '$1 == f { print $2 }')
	if [ -z "$was" ] && [ "$n" -gt "$cap" ]; then
		echo "filecap: $f is $n lines, over its cap of $cap: split it along its seams" >&2
		bad=1
	elif [ -n "$was" ] && [ "$n" -gt "$was" ]; then
		echo "filecap: $f is $n lines, more than the $was it had when listed (cap $cap):" \
			"it may only shrink" >&2
		bad=1
	elif [ -n "$was" ] && [ "$n" -le "$cap" ]; then
		echo "filecap: $f is $n lines, within its cap of $cap: remove it from the list in" \
			"tools/filecap.sh" >&2
		bad=1
	fi
done
for f in $(echo "$over" | awk 'NF { print $1 }'); do
	if [ ! -f "$f" ]; then
		echo "filecap: $f is gone: remove it from the list in tools/filecap.sh" >&2
		bad=1
	fi
done
exit $bad
