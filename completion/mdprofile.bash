# bash completion for mdprofile: commands, options and profile names, all
# from the binary itself: the commands from `mdprofile help`, each command's
# own options from `mdprofile __options COMMAND`, the words an option takes
# from `mdprofile __values COMMAND --OPTION`, the profiles from
# `mdprofile list` with the --root and --profiles already on the line.
#
# Names read from files are data: they are read line by line and matched by
# prefix in bash, never passed through compgen -W, which would expand $(...),
# backticks and the like in them (a profile file named `$(cmd).yaml`).

# Add each line of stdin that starts with $1 to COMPREPLY.
_mdprofile_offer()
{
	local cur=$1 w
	while IFS= read -r w; do
		[[ -n $w && $w == "$cur"* ]] && COMPREPLY+=("$w")
	done
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

_mdprofile()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd='' w i
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
			((i++))
			;;
		--root=* | --profiles=*) where+=("$w") ;;
		--*=*) ;;
		-*)
			# The value of an option that takes one is no command.
			_mdprofile_takes_value "$w" "$cmd" "$bin" && ((i++))
			;;
		*) [[ -z $cmd ]] && cmd=$w ;;
		esac
	done

	# The value of an option: what it takes, or nothing to offer.
	case $prev in
	--root | --profiles | --path)
		mapfile -t COMPREPLY < <(compgen -d -- "$cur")
		return
		;;
	--binary | --output | -o)
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
		;;
	--compare | --auto)
		_mdprofile_offer "$cur" < <("$bin" "${where[@]}" -q list 2>/dev/null)
		return
		;;
	-*)
		# The words it takes, from the option tables (mdprofile __values).
		if _mdprofile_takes_value "$prev" "$cmd" "$bin"; then
			_mdprofile_offer "$cur" < <("$bin" __values "${cmd:---all}" "$prev" 2>/dev/null)
			return
		fi
		;;
	esac
	if [[ $cur == -* ]]; then
		_mdprofile_offer "$cur" < <("$bin" __options ${cmd:+"$cmd"} 2>/dev/null |
			while IFS= read -r w; do
				[[ $w == --* ]] && printf '%s\n' "${w%=}"
			done)
		return
	fi
	case $cmd in
	'' | help)
		_mdprofile_offer "$cur" < <(_mdprofile_commands "$bin")
		;;
	show | check | diff | apply | auto | boot-script | enable)
		if [[ $cur == */* ]]; then
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		else
			_mdprofile_offer "$cur" < <("$bin" "${where[@]}" -q list 2>/dev/null)
		fi
		;;
	esac
}
complete -F _mdprofile mdprofile
