#!/bin/sh
# Print the licence notices of the libraries a static mdprofile binary contains,
# as the Debian packages that provided them state them (their copyright files).
#
#   sh tools/third-party.sh CC      e.g. gcc, aarch64-linux-gnu-gcc
#
# The static build links libcyaml, libyaml and the C library (Makefile: $(STATIC)
# rule); whichever archive CC would link is traced to its package with dpkg -S, so
# each architecture's notice names what really went into its binary.
set -eu
cc=${1:?usage: third-party.sh CC}

cat <<HEAD
Third-party software in this mdprofile binary

mdprofile itself is free software under the GNU General Public License, version 2
or (at your option) any later version: see COPYING. The static binary also
contains the libraries below, each under its own licence, reproduced from the
Debian packages it was built with. The GNU C Library is under the LGPL 2.1 or
later: mdprofile's complete source and the build instructions in its README let
you relink the binary with a modified C library. Parts of the GCC runtime
(libgcc) are covered by the GCC Runtime Library Exception.
HEAD
for lib in libcyaml.a libyaml.a libc.a; do
	file=$(realpath "$("$cc" -print-file-name="$lib")")
	[ -f "$file" ] || { echo "third-party: $cc links no $lib" >&2; exit 1; }
	pkg=$(dpkg -S "$file" | head -n 1 | cut -d: -f1)
	copyright=/usr/share/doc/$pkg/copyright
	[ -f "$copyright" ] || { echo "third-party: $pkg has no $copyright" >&2; exit 1; }
	printf '\n==== %s, from Debian package %s %s\n\n' "$lib" "$pkg" \
		"$(dpkg-query -W -f='${Version}\n' "$pkg" | head -n 1)"
	cat "$copyright"
done
