#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# completion-test.sh: the bash completion (packaging/rdmachan.bash)
# driven as bash drives it (COMP_WORDS, COMP_CWORD, then COMPREPLY)
# with the built tool, against a fake sysfs and /dev (RDMACHAN_SYSFS,
# RDMACHAN_DEVDIR), as KTAP.  Expects "make tool" to have run.
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
TOOL=$TOP/userspace-tool/rdmachan
WORK=$(mktemp -d /tmp/rdmachan-completion.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
# shellcheck source=packaging/rdmachan.bash
. "$TOP/packaging/rdmachan.bash"

# a fake sysfs: two RDMA devices, a channel and a listener, an rdmachan
# interface beside another one, and a mapped disk
export RDMACHAN_SYSFS=$WORK/sys RDMACHAN_DEVDIR=$WORK/dev
mkdir -p "$WORK"/sys/class/infiniband/{rxe0,rxe1} \
	"$WORK"/sys/class/rdmachan/{chan3,listener1} \
	"$WORK"/sys/class/net/rcn0/rdmachan "$WORK"/sys/class/net/eth0 "$WORK/dev"
touch "$WORK/dev/rcblk0" "$WORK/dev/sda"

# shellcheck source=tests/tap-host.sh
. "$TOP/tests/tap-host.sh"

# complete WORD...: COMPREPLY for the last WORD after rdmachan, as bash
# asks for it
complete_words() {
	COMP_WORDS=("$TOOL" "$@")
	COMP_CWORD=$#
	_rdmachan
}

# comp WANT WORD...: completing the last WORD (after rdmachan) gives WANT
comp() {
	local want=$1 got
	shift
	complete_words "$@"
	got=$(printf '%s\n' "${COMPREPLY[@]}" | sort | tr '\n' ' ')
	got=${got% }
	[ "$got" = "$want" ]
	ok $? "rdmachan $* -> $want" "got: $got"
}

# comp_has WANT WORD...: the completions include every word of WANT
comp_has() {
	local want=$1 w missing=
	shift
	complete_words "$@"
	# a here-string, not a pipe: grep -q ends early, and pipefail would
	# count the printf it cut off as a failure
	for w in $want; do
		grep -qxF -- "$w" <<< "$(printf '%s\n' "${COMPREPLY[@]}")" ||
			missing="$missing $w"
	done
	[ -z "$missing" ]
	ok $? "rdmachan $* offers $want" "missing:$missing"
}

comp "blk chan config dev dgram help monitor mr net rdma rping version" ""
comp "blk" b
comp "chan" -j ch
comp "chan" --ctl /dev/x ch
comp_has "--json --pretty --version --ctl --batch --force" -
comp "$WORK/dev/rcblk0" -b "$WORK/dev/rc"
comp "bench connect help listen ping recv send show" chan ""
comp "export help map remap show unexport unmap" blk ""
comp "map" blk ma
comp "help list show" dev ""
comp "help show" version ""
comp "help restore save show" config ""
comp "--dry-run" config restore --d
comp_has "--echo --sink --target --kernel --region --conns --poll" chan listen --
comp_has "--queues --depth --ro --src" blk map --
comp_has "--size --access" mr reg --
comp "--op" chan bench --o
comp_has "--server --client --count --size --src --validate --wait" rping --
comp "blk" monitor b
comp "chan" monitor dev ch
comp_has "--count --help" monitor --
comp "--server --size --src" rping -c 192.0.2.1 --s
comp "dgram" dg
comp "bench echo help ping recv send" dgram ""
comp "send" dgram se
comp_has "--src --count --size --burst --validate --wait" dgram ping --
comp "--busy-poll --count --depth --help --kernel" dgram echo --
comp "--op" dgram bench 192.0.2.1 --o
comp "--sink --src" dgram recv --s
comp "--qpn" dgram send 192.0.2.1 --q
comp "--size --src" dgram send --s
comp "rxe0 rxe1" dev show ""
comp "rxe1" dev sh rxe1
comp "chan3 listener1" chan show ""
comp "exports maps" blk show ""
comp "$WORK/dev/rcblk0" blk unmap ""
comp "$WORK/dev/rcblk0" blk remap ""
comp "rcn0" net del ""
comp "rcn0" net show ""
comp "connect listen" net add rcn9 ""
comp "cswap fadd" rdma atomic ""
comp "$WORK/dev/rcblk0" blk export disk "$WORK/dev/rc"
# every command of every object has the --help its options come from,
# and each option completed there is one the command's help describes
# on an option line or in its usage
bad=
for obj in $("$TOOL" --list-words); do
	[ "$obj" = help ] && continue
	for cmd in $("$TOOL" --list-words "$obj"); do
		[ "$cmd" = help ] && continue
		"$TOOL" "$obj" "$cmd" --help > "$WORK/help" 2>&1 || bad="$bad $obj/$cmd(--help exits $?)"
		complete_words "$obj" "$cmd" --
		for o in "${COMPREPLY[@]}"; do
			[ "$o" = --help ] && continue
			grep -qE -- "(^|[[ ,|])$o([] =|,]|$)" "$WORK/help" || bad="$bad $obj/$cmd$o"
		done
	done
done
[ -z "$bad" ]
ok $? "every command has --help, and completes only the options it describes" "$bad"
echo "1..$n"
