#!/bin/sh
# Fetch a guest kernel and its md modules from Debian's archive into tests/vm/cache/KERNEL/.
#
#   VM_KERNEL=6.1|5.10 fetch.sh        (default 6.1)
#
# The lab boots a real Debian kernel (not the host's) so results do not depend on
# whatever the build machine runs: 6.1 is Debian 12's (bookworm), 5.10 Debian 11's
# (bullseye), the series DSM 7.2 runs on several platforms.  The package lists come from
# a private apt configuration in the cache dir (its own sources list, state and cache,
# passed with -o to apt-get update/download), so the host's sources and what it installs
# stay as they are; the mirror URLs are the host's own (/etc/apt/sources.list and
# sources.list.d/*.list or deb822 *.sources) with the suite renamed, so the fetch goes
# through the same mirror and proxy as the host's apt.  Everything lands in the cache
# dir; a second run with a complete cache does nothing, so vm-check can call this
# unconditionally.
#
# Environment:
#   VM_KERNEL       6.1 or 5.10
#   VM_CACHE        cache dir (default tests/vm/cache/$VM_KERNEL)
#   VM_APT_SOURCES  a sources.list (one-line format) to use instead of the derived one
#
# Result (cache dir):
#   vmlinuz             the kernel
#   modules/*.ko        uncompressed modules, plus modules/load.order (insmod order)
#   kver                the kernel release, e.g. 6.1.0-57-amd64
#   apt/                the private apt configuration, lists and state
#   deb/                the downloaded image package
set -eu

here=$(cd "$(dirname "$0")" && pwd)
kernel=${VM_KERNEL:-6.1}
# The Debian suite whose linux-image-amd64 is the series asked for.
case $kernel in
6.1) suite=bookworm ;;
5.10) suite=bullseye ;;
*)
	echo "vm-fetch: VM_KERNEL=$kernel: not a lab kernel (6.1 or 5.10)" >&2
	exit 2
	;;
esac
cache=${VM_CACHE:-$here/cache/$kernel}

# Modules the guest needs; their dependencies are added from modules.dep.
# crc32c_generic is only a soft dependency of libcrc32c (no modules.dep entry),
# and libcrc32c (needed by raid456) fails to load without a crc32c provider.
# ext4 (which mounts ext2 too) is for the bench scenario's filesystems on md.
# ata_piix, sd_mod and nvme: the disks that answer SMART (qemu's ide-hd on the pc
# machine's PIIX IDE, and its nvme), for smartctl in 96-smart; modules in both kernels.
want="crc32c_generic md-mod raid0 raid1 raid10 raid456 virtio_blk virtio_pci ext4 ata_piix sd_mod nvme"

die() { echo "vm-fetch: $*" >&2; exit 1; }

cache_complete() {
	[ -s "$cache/vmlinuz" ] && [ -s "$cache/modules/load.order" ] && [ -s "$cache/kver" ] || return 1
	# A cache fetched for a shorter list is refreshed.
	for m in $want; do
		grep -qx "$m.ko" "$cache/modules/load.order" || return 1
	done
}

# ---- the private apt configuration ---------------------------------------------

# The host's Debian sources, renamed to $suite (tools/apt-sources.sh).
# shellcheck source=tools/apt-sources.sh
. "$here/../../tools/apt-sources.sh"

derive_sources() {
	apt_sources_derive "$suite" arch=amd64
}

apt_opts() {
	a=$cache/apt
	echo "-o Dir::Etc::SourceList=$a/sources.list -o Dir::Etc::SourceParts=$a/sources.list.d" \
		"-o Dir::State=$a/state -o Dir::Cache=$a/cache -o Dir::State::status=$a/state/status" \
		"-o APT::Architecture=amd64 -o APT::Architectures=amd64$sandbox"
}

# Write the private configuration (once) and fetch its package lists.
apt_update() {
	a=$cache/apt
	mkdir -p "$a/sources.list.d" "$a/state/lists/partial" "$a/cache/archives/partial"
	: >"$a/state/status"
	if [ -n "${VM_APT_SOURCES:-}" ]; then
		cp "$VM_APT_SOURCES" "$a/sources.list"
	else
		derive_sources >"$a/sources.list.tmp"
		if [ ! -s "$a/sources.list.tmp" ]; then
			# Not a Debian host, or sources we cannot read: Debian's own mirror.
			echo "vm-fetch: no Debian $(apt_sources_codename) sources found in /etc/apt; using deb.debian.org"
			printf 'deb [arch=amd64] http://deb.debian.org/debian %s main\n' \
				"$suite" "$suite-updates" >"$a/sources.list.tmp"
			printf 'deb [arch=amd64] http://deb.debian.org/debian-security %s-security main\n' \
				"$suite" >>"$a/sources.list.tmp"
		fi
		mv "$a/sources.list.tmp" "$a/sources.list"
	fi
	echo "vm-fetch: package lists of $suite from:"
	sed 's/^/vm-fetch:   /' "$a/sources.list"
	# shellcheck disable=SC2046
	apt-get $(apt_opts) -qq update ||
		die "apt-get update of the private $suite lists failed (is the Debian archive reachable?)"
}

# The meta package linux-image-amd64 depends on exactly one real image package
# (the candidate version: the newest of the suite and its -security/-updates).
image_pkg() {
	# shellcheck disable=SC2046
	apt-cache $(apt_opts) depends linux-image-amd64 2>/dev/null |
		sed -n 's/^ *Depends: \(linux-image-[0-9].*-amd64\)$/\1/p' | head -n 1
}

# download PKG: into deb/ (apt-get download writes into the current directory).
download() {
	mkdir -p "$cache/deb"
	( cd "$cache/deb" && ls "$1"_*.deb >/dev/null 2>&1 ) && return 0
	# shellcheck disable=SC2046
	( cd "$cache/deb" && apt-get $(apt_opts) -q download "$1" )
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
	# The one-kernel lab kept its cache in tests/vm/cache itself; that copy is unused now.
	if [ -z "${VM_CACHE:-}" ] && [ -f "$here/cache/kver" ]; then
		echo "vm-fetch: removing the old single-kernel cache in $here/cache"
		rm -rf "$here/cache/vmlinuz" "$here/cache/kver" "$here/cache/modules" \
			"$here/cache/deb" "$here/cache/x"
	fi
	if cache_complete; then
		echo "vm-fetch: $kernel: cache complete ($(cat "$cache/kver"))"
		return 0
	fi
	command -v apt-get >/dev/null || die "apt-get not found: this lab fetches from Debian's archive"
	command -v xz >/dev/null || die "xz not found (install xz-utils)"
	PATH=$PATH:/sbin:/usr/sbin
	command -v depmod >/dev/null || die "depmod not found (install kmod)"
	# apt-get as root hands downloads to the _apt user, who may not be able to write
	# into the cache dir; the private configuration is ours anyway.
	sandbox=
	[ "$(id -u)" != 0 ] || sandbox=" -o APT::Sandbox::User=root"
	pkg=
	[ -s "$cache/apt/sources.list" ] && pkg=$(image_pkg)
	if [ -z "$pkg" ]; then
		apt_update
		pkg=$(image_pkg)
	fi
	[ -n "$pkg" ] || die "cannot resolve $suite's linux-image-amd64 from $cache/apt"
	case $pkg in
	linux-image-"$kernel".[0-9]*) ;;
	*) die "$suite's linux-image-amd64 depends on $pkg, not a $kernel kernel" ;;
	esac
	kver=${pkg#linux-image-}
	echo "vm-fetch: $pkg"
	if ! download "$pkg"; then
		# Lists from an earlier fetch may name a version the archive no longer has.
		apt_update
		pkg=$(image_pkg)
		kver=${pkg#linux-image-}
		download "$pkg" || die "apt-get download $pkg failed (is the Debian archive reachable?)"
	fi
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
