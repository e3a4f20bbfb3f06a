# bash completion for mdprofile: commands, options and profile names, all
# from the binary itself: the commands from `mdprofile help`, each command's
# own options from `mdprofile __options COMMAND`, what an option's value is
# from `mdprofile __values COMMAND --OPTION` (the words it takes, or :file,
# :dir, :profile, :profiles), the profiles from `mdprofile list` with the
# --root and --profiles already on the line, the arrays explain takes from
# /proc/mdstat under that --root (md names only: [a-z0-9_] after "md").
#
# File and directory names follow bash-completion's conventions: its _filedir
# where bash-completion is loaded, else compgen with -o filenames, so that
# readline quotes the name it inserts and descends into a directory (a "/"
# and no space) instead of ending the word there.
#
# Names read from files are data: they are read line by line and matched by
# prefix in bash, never passed through compgen -W, which would expand $(...),
# backticks and the like in them (a profile file named `$(cmd).yaml`); and
# every word offered is quoted (printf %q): readline inserts it as it is,
# and the line runs when Enter is pressed.

# Add each line of stdin that starts with $1 to COMPREPLY, quoted for the shell
# (printf %q) unless it holds only characters the shell takes as they are.
_mdprofile_offer()
{
	local cur=$1 w q
	while IFS= read -r w; do
		[[ -n $w && $w == "$cur"* ]] || continue
		q=$w
		[[ $w =~ [^A-Za-z0-9._,:=/+@%-] ]] && printf -v q '%q' "$w"
		COMPREPLY+=("$q")
	done
	# offered: whether the last word matched is no failure (the caller returns on 0)
	return 0
}

# File names (directories only with -d) for the word being completed, $cur of
# the caller: bash-completion's _filedir, or compgen on the word as typed
# without its quoting (a leading quote, backslash escapes).
_mdprofile_files()
{
	local w='' i c
	if declare -F _filedir >/dev/null; then
		_filedir "$@"
		return
	fi
	for ((i = 0; i < ${#cur}; i++)); do
		c=${cur:i:1}
		if [[ $c == \\ ]]; then
			((i++))
			c=${cur:i:1}
		elif [[ $i == 0 && ($c == "'" || $c == '"') ]]; then
			continue
		fi
		w+=$c
	done
	[[ $w == "~"* ]] && w=$HOME${w#"~"}
	compopt -o filenames 2>/dev/null
	if [[ ${1:-} == -d ]]; then
		mapfile -t COMPREPLY < <(compgen -d -- "$w")
	else
		mapfile -t COMPREPLY < <(compgen -f -- "$w")
	fi
}

# The arrays of $1/proc/mdstat (the root's), one a line: md's own names only
# (md, then [a-z0-9_]: what mdprofile takes), never other text of a capture's.
_mdprofile_arrays()
{
	local line
	while IFS= read -r line; do
		[[ $line =~ ^(md[a-z0-9_]+)\ :\  ]] && printf '%s\n' "${BASH_REMATCH[1]}"
	done <"$1/proc/mdstat"
} 2>/dev/null

# The profiles `list` finds with the --root and --profiles on the line ($where).
_mdprofile_profiles()
{
	"$bin" "${where[@]}" -q list 2>/dev/null
}

_mdprofile_commands()
{
	"$1" help 2>/dev/null |
		awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c && /^  [a-z]/ { print $1 }'
}

# Whether option $1 takes a value, for command $2 (every option before the
# command); $3 is the binary.
_mdprofile_takes_value()
{
	local o
	while IFS= read -r o; do
		[[ $o == "$1=" ]] && return 0
	done < <("$3" __options "${2:---all}" 2>/dev/null)
	return 1
}

# The value of option $prev (of $cmd) from $cur into COMPREPLY, as the option
# tables say it is (mdprofile __values): a file, a directory, a profile,
# profiles comma-separated (the one after the last comma), or one of its
# words; nothing for a free value. 0, or 1 when $prev takes no value.
_mdprofile_value()
{
	local -a vals
	local head
	[[ $prev == -* ]] || return 1
	_mdprofile_takes_value "$prev" "$cmd" "$bin" || return 1
	mapfile -t vals < <("$bin" __values "${cmd:---all}" "$prev" 2>/dev/null)
	case ${vals[0]-} in
	:file) _mdprofile_files ;;
	:dir) _mdprofile_files -d ;;
	:profile) _mdprofile_offer "$cur" < <(_mdprofile_profiles) ;;
	:profiles)
		head=
		[[ $cur == *,* ]] && head=${cur%,*},
		_mdprofile_offer "$cur" < <(_mdprofile_profiles | while IFS= read -r w; do
			printf '%s\n' "$head$w"
		done)
		;;
	*) _mdprofile_offer "$cur" < <(printf '%s\n' "${vals[@]}") ;;
	esac
	return 0
}

_mdprofile()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd='' root=${MDPROFILE_ROOT:-} w i
	local -a where=() words=()

	COMPREPLY=()
	# --opt=value: bash splits it at "=" (COMP_WORDBREAKS); complete the value.
	if [[ $cur == = ]]; then
		cur=
	elif [[ $prev == = && $COMP_CWORD -ge 2 ]]; then
		prev=${COMP_WORDS[COMP_CWORD - 2]}
	fi
	# The words before the cursor, "--opt" "=" "value" joined back into one.
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		if [[ $w == = && ${#words[@]} -gt 0 ]]; then
			words[${#words[@]} - 1]+="="
			if ((i + 1 < COMP_CWORD)); then
				((i++))
				words[${#words[@]} - 1]+=${COMP_WORDS[i]}
			fi
			continue
		fi
		words+=("$w")
	done
	# The command, and the --root/--profiles that pick the profile directories.
	for ((i = 0; i < ${#words[@]}; i++)); do
		w=${words[i]}
		case $w in
		--root | --profiles)
			where+=("$w" "${words[i + 1]}")
			[[ $w == --root ]] && root=${words[i + 1]}
			((i++))
			;;
		--root=* | --profiles=*)
			where+=("$w")
			[[ $w == --root=* ]] && root=${w#--root=}
			;;
		--*=*) ;;
		-*)
			# The value of an option that takes one is no command.
			_mdprofile_takes_value "$w" "$cmd" "$bin" && ((i++))
			;;
		*) [[ -z $cmd ]] && cmd=$w ;;
		esac
	done

	# The value of an option: what it takes, or nothing to offer.
	_mdprofile_value && return
	if [[ $cur == -* ]]; then
		# "--format=" for an option that takes a value, the cursor left after the "="
		_mdprofile_offer "$cur" < <("$bin" __options ${cmd:+"$cmd"} 2>/dev/null |
			while IFS= read -r w; do
				[[ $w == --* ]] && printf '%s\n' "$w"
			done)
		[[ ${#COMPREPLY[@]} == 1 && ${COMPREPLY[0]} == *= ]] && compopt -o nospace 2>/dev/null
		return
	fi
	case $cmd in
	'' | help)
		_mdprofile_offer "$cur" < <(_mdprofile_commands "$bin")
		;;
	show | check | diff | apply | auto | boot-script | enable)
		if [[ $cur == */* || $cur == [.~]* ]]; then
			_mdprofile_files
		else
			_mdprofile_offer "$cur" < <(_mdprofile_profiles)
		fi
		;;
	explain)
		[[ $root == "~"* ]] && root=$HOME${root#"~"}
		_mdprofile_offer "$cur" < <(_mdprofile_arrays "$root")
		;;
	esac
}
complete -F _mdprofile mdprofile
