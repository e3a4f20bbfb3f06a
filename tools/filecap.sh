#!/bin/sh
# Lint: no file outgrows its cap, in lines, so that each stays one a reader can hold:
#   cmd/*.c, cmd/*.h   400: cmd/ is thin, a command or a piece of output a file
#   src/*/*.c, src/*/*.h   1,000: a module past it is split along its seams, what its files share
#                      declared in an internal header (src/profile/profile_int.h, src/boot/boot_int.h)
#   README.md          200: the first page; the rest is in docs/
# The files over their cap when this lint came are listed below with their length then. A
# listed file may shrink, never grow past that length; once it is within its cap, or gone, its
# entry must go (the lint says so), so the list only shrinks. A file not listed is never over.
#   tools/filecap.sh
set -eu
# Over their cap when this lint came (issue 46), each with its length then: to be split.
# discover.c: to be split along its seams (mdstat's model, members and disks, tunables).
over='
src/md/discover.c 1548
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
