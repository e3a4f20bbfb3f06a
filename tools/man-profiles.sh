#!/bin/sh
# The built-in profiles' names as mdoc lines for mdprofile(8) ("a, b and c."), one .Cm a
# name, from the shipped profile files (the ones tools/embed-profiles.sh builds in), so
# that the page lists every profile `list` shows.
#   sh tools/man-profiles.sh profiles/*.yaml
set -eu
n=$#
i=0
for f in "$@"; do
	i=$((i + 1))
	name=$(basename "$f" .yaml)
	if [ "$i" -eq "$n" ]; then
		[ "$n" -gt 1 ] && echo and
		echo ".Cm $name ."
	elif [ "$i" -eq $((n - 1)) ]; then
		echo ".Cm $name"
	else
		echo ".Cm $name ,"
	fi
done
