# shellcheck shell=sh
# Debian package sources derived from the host's own apt configuration, so that whatever
# fetches from the archive for mdprofile (the VM lab's kernels, make fresh-check's pristine
# root) goes through the mirror and proxy the host already uses, and no host name is
# written into the project.  Sourced by tests/vm/fetch.sh and tools/fresh-check.sh.
#
#   apt_sources_codename             the host's codename (bookworm on Debian 12)
#   apt_sources_derive SUITE [OPTS]  one-line sources: every host source of the host's
#                                    release (CODENAME, -updates, -security) with main,
#                                    renamed to SUITE; OPTS (e.g. arch=amd64) go into [ ]

apt_sources_codename() {
	# shellcheck disable=SC1091
	(. /etc/os-release 2>/dev/null && echo "${VERSION_CODENAME:-}")
}

# The host's binary Debian sources, one "URI SUITE COMPONENTS [|SIGNED-BY]" a line, from
# one-line .list files and deb822 .sources files.  Entries with Enabled: no, deb-src
# only, or options other than signed-by are read too; only their URI, suites,
# components and keyring matter.
apt_sources_host() {
	for f in /etc/apt/sources.list /etc/apt/sources.list.d/*.list; do
		[ -f "$f" ] || continue
		awk '
			/^[ \t]*deb[ \t]/ {
				sub(/^[ \t]*deb[ \t]+/, ""); key = ""
				if ($0 ~ /^\[/) {
					opts = substr($0, 2, index($0, "]") - 2); $0 = substr($0, index($0, "]") + 1)
					n = split(opts, o, /[ \t]+/)
					for (i = 1; i <= n; i++) if (o[i] ~ /^signed-by=/) key = substr(o[i], 11)
				}
				comps = ""; for (i = 3; i <= NF; i++) comps = comps " " $i
				print $1, $2, substr(comps, 2) (key == "" ? "" : "|" key)
			}' "$f"
	done
	for f in /etc/apt/sources.list.d/*.sources; do
		[ -f "$f" ] || continue
		awk '
			function flush(   n, s, i, u, nu) {
				if (types ~ /(^| )deb( |$)/ && enabled != "no" && uris != "" && suites != "") {
					nu = split(uris, u, / +/); n = split(suites, s, / +/)
					for (j = 1; j <= nu; j++) for (i = 1; i <= n; i++)
						print u[j], s[i], comps (key == "" ? "" : "|" key)
				}
				types = uris = suites = comps = key = enabled = ""
			}
			/^[ \t]*#/ { next }
			/^[ \t]*$/ { flush(); next }
			{
				f = tolower($1); v = $0; sub(/^[^:]*:[ \t]*/, "", v); sub(/[ \t]+$/, "", v)
				if (f == "types:") types = v
				else if (f == "uris:") uris = v
				else if (f == "suites:") suites = v
				else if (f == "components:") comps = v
				else if (f == "signed-by:") key = (v ~ /^\//) ? v : ""  # not an inline key block
				else if (f == "enabled:") enabled = tolower(v)
			}
			END { flush() }' "$f"
	done
}

apt_sources_derive() {
	apt_sources_host | awk -v host="$(apt_sources_codename)" -v want="$1" -v opts="${2:-}" '
		{
			key = ""; if (index($0, "|")) { key = substr($0, index($0, "|") + 1); $0 = substr($0, 1, index($0, "|") - 1) }
			uri = $1; s = $2; main = 0
			for (i = 3; i <= NF; i++) if ($i == "main") main = 1
			if (!main || host == "") next
			if (s == host) rest = ""
			else if (index(s, host "-") == 1) rest = substr(s, length(host) + 1)
			else next
			if (rest != "" && rest != "-updates" && rest != "-security") next
			o = opts; if (key != "") o = o (o == "" ? "" : " ") "signed-by=" key
			line = "deb " (o == "" ? "" : "[" o "] ") uri " " want rest " main"
			if (!seen[line]++) print line
		}'
}
