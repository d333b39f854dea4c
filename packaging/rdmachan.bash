# SPDX-License-Identifier: GPL-2.0-only
# bash completion for rdmachan(8): installed by "make install" as
# PREFIX/share/bash-completion/completions/rdmachan.
#
# Objects and commands come from the tool itself (rdmachan --list-words),
# a command's options from its --help (usage and option lines), and the live
# names from sysfs and the tool: RDMA devices (dev show),
# channels and listeners (chan show), exports (blk unexport), disks
# (blk unmap, remap), rdmachan interfaces (net del, show).
# RDMACHAN_SYSFS and RDMACHAN_DEVDIR (default /sys and /dev) let a test
# point it elsewhere.

# _rdmachan_first WORDS WORD: the first of WORDS that WORD begins (the
# tool takes a unique prefix), or WORD
_rdmachan_first()
{
	local w
	for w in $1; do
		if [[ $w == "$2"* ]]; then
			echo "$w"
			return
		fi
	done
	echo "$2"
}

# _rdmachan_names DIR [GLOB]: the names of DIR's entries (GLOB: *)
_rdmachan_names()
{
	local f
	for f in "$1"/${2:-*}; do
		[ -e "$f" ] && echo "${f##*/}"
	done
}

# _rdmachan_opts WORD...: the long options of "rdmachan WORD... --help":
# its usage lines and its option lines ("  -x, --name ..."), not the
# prose between them
_rdmachan_opts()
{
	"$tool" "$@" --help 2>&1 | awk '
		/^Usage:/ { u = 1; print; next }
		u && /^[[:space:]]/ { print; next }
		{ u = 0 }
		/^  (-[[:alnum:]], |    )--[a-z]/ { print $1 " " $2 }' |
		grep -oE -- '--[a-z][a-z0-9-]*' | sort -u
}

_rdmachan()
{
	local cur=${COMP_WORDS[COMP_CWORD]} prev='' tool=${COMP_WORDS[0]}
	local sys=${RDMACHAN_SYSFS:-/sys} devdir=${RDMACHAN_DEVDIR:-/dev}
	local i obj='' objidx=0 cmd='' cmdidx=0 words='' f
	[ "$COMP_CWORD" -gt 0 ] && prev=${COMP_WORDS[COMP_CWORD - 1]}
	COMPREPLY=()

	if [ "$prev" = --ctl ] || [ "$prev" = -b ] || [ "$prev" = --batch ]; then
		mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		return
	fi
	# the object: the first word after the global options
	for ((i = 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		--ctl | -b | --batch) i=$((i + 1)) ;;
		-*) ;;
		*) obj=${COMP_WORDS[i]} objidx=$i; break ;;
		esac
	done
	if [ -z "$obj" ]; then
		if [[ $cur == -* ]]; then
			words="-j --json -p --pretty -V --version -h --help --ctl
				-b --batch --force --list-words"
		else
			words=$("$tool" --list-words 2>/dev/null)
		fi
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	obj=$(_rdmachan_first "$("$tool" --list-words 2>/dev/null)" "$obj")
	for ((i = objidx + 1; i < COMP_CWORD; i++)); do
		case "${COMP_WORDS[i]}" in
		-*) ;;
		*) cmd=${COMP_WORDS[i]} cmdidx=$i; break ;;
		esac
	done
	if [ "$obj" = monitor ]; then
		# monitor: objects to watch, no commands
		if [[ $cur == -* ]]; then
			words="--help $(_rdmachan_opts "$obj")"
		else
			words="dev chan listener blk net all"
		fi
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	if [ -z "$cmd" ] || [ "$obj" = rping ]; then
		# rping: a program's options, no commands
		if [[ $cur == -* ]]; then
			words="--help $(_rdmachan_opts "$obj")"
		else
			words=$("$tool" --list-words "$obj" 2>/dev/null)
		fi
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	cmd=$(_rdmachan_first "$("$tool" --list-words "$obj" 2>/dev/null)" "$cmd")

	if [[ $cur == -* ]]; then
		words=$(_rdmachan_opts "$obj" "$cmd")
		mapfile -t COMPREPLY < <(compgen -W "$words --help" -- "$cur")
		return
	fi
	# the first argument of the command: a live name where it takes one
	if [ "$COMP_CWORD" = $((cmdidx + 1)) ]; then
		case "$obj $cmd" in
		"dev show") words=$(_rdmachan_names "$sys/class/infiniband") ;;
		"chan show") words=$(_rdmachan_names "$sys/class/rdmachan") ;;
		"blk show") words="exports maps" ;;
		"blk unexport")
			words=$("$tool" -j blk show exports 2>/dev/null |
				grep -oE '"name": *"[^"]*"' | sed 's/.*"\([^"]*\)"$/\1/')
			;;
		"blk unmap" | "blk remap")
			words=$(_rdmachan_names "$devdir" 'rcblk*' | sed "s|^|$devdir/|")
			;;
		"net del" | "net show")
			for f in "$sys"/class/net/*/rdmachan; do
				[ -d "$f" ] && f=${f%/rdmachan} && words="$words ${f##*/}"
			done
			;;
		"rdma atomic") words="fadd cswap" ;;
		"version show") words= ;;
		esac
		mapfile -t COMPREPLY < <(compgen -W "$words" -- "$cur")
		return
	fi
	case "$obj $cmd" in
	"net add")
		[ "$COMP_CWORD" = $((cmdidx + 2)) ] &&
			mapfile -t COMPREPLY < <(compgen -W "listen connect" -- "$cur")
		;;
	"blk export")
		[ "$COMP_CWORD" = $((cmdidx + 2)) ] &&
			mapfile -t COMPREPLY < <(compgen -f -- "$cur")
		;;
	esac
}
complete -F _rdmachan rdmachan
