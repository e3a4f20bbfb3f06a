# bash completion for mdprofile: commands, options and profile names. The
# commands and the profiles come from the binary itself (mdprofile help,
# mdprofile list), so they are always the ones it has; profiles are listed
# with the --root and --profiles already on the line.

_mdprofile_commands()
{
	"$1" help 2>/dev/null |
		awk '/^commands:/ { c = 1; next } c && /^$/ { exit } c && /^  [a-z]/ { print $1 }'
}

_mdprofile()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev=${COMP_WORDS[COMP_CWORD - 1]}
	local bin=${COMP_WORDS[0]} cmd= w i
	local -a where=()

	case $prev in
	--root | --profiles | --path)
		COMPREPLY=($(compgen -d -- "$cur"))
		return
		;;
	--services-backend)
		COMPREPLY=($(compgen -W "dsm6 dsm7 systemd none" -- "$cur"))
		return
		;;
	--service-timeout | --size | --runs | --duration | --compare)
		return
		;;
	esac
	for ((i = 1; i < COMP_CWORD; i++)); do
		w=${COMP_WORDS[i]}
		case $w in
		--root | --profiles)
			where+=("$w" "${COMP_WORDS[i + 1]}")
			((i++))
			;;
		--root=* | --profiles=*) where+=("$w") ;;
		--services-backend | --service-timeout | --path | --size | --runs | --compare | \
			--duration | --target | --binary | --wait-arrays | --recheck-after | -o | \
			--name) ((i++)) ;;
		-*) ;;
		*) [[ -z $cmd ]] && cmd=$w ;;
		esac
	done
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W "--root --profiles --json --verbose --quiet --wait
			--services-backend --service-timeout --help --version --dry-run --yaml
			--path --size --runs --compare --op-only --duration --target --binary
			--wait-arrays --recheck-after --with-services --install --uninstall
			--name" -- "$cur"))
		return
	fi
	case $cmd in
	'')
		COMPREPLY=($(compgen -W "$(_mdprofile_commands "$bin")" -- "$cur"))
		;;
	help)
		COMPREPLY=($(compgen -W "$(_mdprofile_commands "$bin")" -- "$cur"))
		;;
	show | check | diff | apply | boot-script)
		if [[ $cur == */* ]]; then
			COMPREPLY=($(compgen -f -- "$cur"))
		else
			COMPREPLY=($(compgen -W "$("$bin" "${where[@]}" list 2>/dev/null |
				awk '{ print $1 }')" -- "$cur"))
		fi
		;;
	esac
}
complete -F _mdprofile mdprofile
