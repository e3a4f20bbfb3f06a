#!/bin/sh
# Fetch the guest's kernel and md modules from Debian's archive into tests/vm/cache/.
#
# The lab boots the real Debian kernel (not the host's) so results do not depend on
# whatever the build machine runs.  Everything lands in the cache dir; a second run
# with a complete cache does nothing, so vm-check can call this unconditionally.
#
# Result (cache/):
#   vmlinuz             the kernel
#   modules/*.ko        uncompressed modules, plus modules/load.order (insmod order)
#   kver                the kernel release, e.g. 6.1.0-57-amd64
set -eu

here=$(cd "$(dirname "$0")" && pwd)
cache=${VM_CACHE:-$here/cache}

# Modules the guest needs; their dependencies are added from modules.dep.
# crc32c_generic is only a soft dependency of libcrc32c (no modules.dep entry),
# and libcrc32c (needed by raid456) fails to load without a crc32c provider.
# ext4 (which mounts ext2 too) is for the bench scenario's filesystems on md.
want="crc32c_generic md-mod raid0 raid1 raid10 raid456 virtio_blk virtio_pci ext4"

die() { echo "vm-fetch: $*" >&2; exit 1; }

cache_complete() {
	[ -s "$cache/vmlinuz" ] && [ -s "$cache/modules/load.order" ] && [ -s "$cache/kver" ] || return 1
	# A cache fetched for a shorter list is refreshed.
	for m in $want; do
		grep -qx "$m.ko" "$cache/modules/load.order" || return 1
	done
}

# The meta package linux-image-amd64 depends on exactly one real image package.
image_pkg() {
	apt-cache depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1
}

download() {
	pkg=$1
	mkdir -p "$cache/deb"
	( cd "$cache/deb" && ls "$pkg"_*.deb >/dev/null 2>&1 ) && return 0
	# apt-get download writes into the current directory; _apt needs to write there
	# when run as root, so fall back to running it unsandboxed.
	( cd "$cache/deb" && apt-get download -q "$pkg" ) ||
		( cd "$cache/deb" && apt-get -o APT::Sandbox::User=root download -q "$pkg" ) ||
		( apt-get update -qq && cd "$cache/deb" &&
			apt-get -o APT::Sandbox::User=root download -q "$pkg" ) ||
		die "apt-get download $pkg failed (is the Debian archive reachable? try apt-get update)"
}

# Print the transitive closure of module paths (relative to lib/modules/KVER) for
# the names in $want, dependencies first, each once.
closure() {
	dep=$1
	for m in $want; do
		resolve "$dep" "$m"
	done | awk '!seen[$0]++'
}

# One module: dependencies (recursively), then the module itself.  The body is a
# subshell so the recursion does not clobber the caller's variables.
resolve() (
	dep=$1
	name=$(echo "$2" | tr '_' '-')
	# modules.dep lists kernel/.../name.ko[.xz]: dep1 dep2 ...; '-' and '_' are equivalent.
	line=$(awk -v n="$name" '{
		p = $1; sub(":$", "", p); b = p; sub(".*/", "", b); sub("\\.ko.*$", "", b)
		gsub("_", "-", b); if (b == n) { print; exit } }' "$dep")
	[ -n "$line" ] || die "module $2 not in modules.dep (built in?)"
	path=${line%%:*}
	for d in ${line#*:}; do
		b=${d##*/}
		resolve "$dep" "${b%%.ko*}"
	done
	echo "$path"
)

main() {
	if cache_complete; then
		echo "vm-fetch: cache complete ($(cat "$cache/kver"))"
		return 0
	fi
	command -v apt-get >/dev/null || die "apt-get not found: this lab fetches from Debian's archive"
	command -v xz >/dev/null || die "xz not found (install xz-utils)"
	PATH=$PATH:/sbin:/usr/sbin
	command -v depmod >/dev/null || die "depmod not found (install kmod)"
	pkg=$(image_pkg)
	if [ -z "$pkg" ]; then
		# Package lists may be empty on a fresh machine where nothing was missing.
		echo "vm-fetch: refreshing package lists"
		apt-get update -qq || die "apt-get update failed (is the Debian archive reachable?)"
		pkg=$(image_pkg)
	fi
	[ -n "$pkg" ] || die "cannot resolve linux-image-amd64 from the package lists"
	kver=${pkg#linux-image-}
	echo "vm-fetch: $pkg"
	download "$pkg"
	rm -rf "$cache/x" "$cache/modules"
	dpkg -x "$cache/deb/$pkg"_*.deb "$cache/x"
	moddir=$cache/x/lib/modules/$kver
	# The package does not ship modules.dep (postinst runs depmod); build it here.
	[ -f "$moddir/modules.dep" ] || depmod -b "$cache/x" "$kver" ||
		die "depmod failed (install kmod)"
	mkdir -p "$cache/modules"
	: >"$cache/modules/load.order"
	for p in $(closure "$moddir/modules.dep"); do
		copy_module "$moddir/$p"
	done
	cp "$cache/x/boot/vmlinuz-$kver" "$cache/vmlinuz"
	rm -rf "$cache/x"
	echo "$kver" >"$cache/kver"
	echo "vm-fetch: $(wc -l <"$cache/modules/load.order") modules for $kver"
}

# busybox insmod does not read compressed modules, so store them plain.
copy_module() {
	src=$1
	base=${src##*/}
	case $base in
	*.ko.xz) xz -dc "$src" >"$cache/modules/${base%.xz}"; base=${base%.xz} ;;
	*.ko.zst) zstd -qdc "$src" >"$cache/modules/${base%.zst}"; base=${base%.zst} ;;
	*.ko) cp "$src" "$cache/modules/$base" ;;
	*) die "unexpected module file $src" ;;
	esac
	echo "$base" >>"$cache/modules/load.order"
}

main "$@"
