#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# man-test.sh: the man pages against the tool, as KTAP.  Expects "make
# tool" to have run; writes the pages itself, with scripts/man-pages.py
# from Documentation/tool.rst (as "make man" does), into a scratch
# directory.  Checks that:
#
# * the generator runs, and writes rdmachan.8 and exactly one
#   rdmachan-OBJECT.8 for each object of "rdmachan --list-words" (no
#   page for an object the tool lacks);
# * each page renders with groff -t -ww -man -Tutf8, and with man-db's
#   "man --warnings -l" where man is installed, with nothing on stderr;
# * rdmachan(8) names every object, has every option of "rdmachan
#   --help" (the short and the long ones of its option lines) and names
#   every object's page in SEE ALSO;
# * each object's page has every command of "rdmachan --list-words
#   OBJECT" (an object without commands: its name) in its SYNOPSIS, and every option of each command's --help
#   (its usage lines, and the options that begin its option lines, as
#   packaging/rdmachan.bash reads them) in its text.
#
# A word is found as a whole word of the page rendered as plain text,
# wide enough that no line breaks inside one.  "help" (the word, and
# -h/--help of every command) is described once, in rdmachan(8).
set -uo pipefail

TOP=$(cd "$(dirname "$0")/.." && pwd)
TOOL=$TOP/userspace-tool/rdmachan
WORK=$(mktemp -d /tmp/rdmachan-man.XXXXXX)
trap 'rm -rf "$WORK"' EXIT
export LC_ALL=C.UTF-8 MANWIDTH=80 MANPAGER=cat PAGER=cat

# shellcheck source=tests/tap-host.sh
. "$TOP/tests/tap-host.sh"

MAN=$WORK/man

# text PAGE: PAGE as plain text, on lines too long to break
text() {
	groff -t -man -Tutf8 -rLL=2000n -P-cbou "$MAN/$1.8" 2> /dev/null
}

# section PAGE TITLE: the text of one section of PAGE
section() {
	text "$1" | awk -v t="$2" '$0 == t { f = 1; next } /^[^[:space:]]/ { f = 0 } f'
}

# has WORD: WORD is a word of stdin (not part of a longer word or option)
has() {
	grep -qE -- "(^|[^-[:alnum:]_])$1([^-[:alnum:]_]|\$)"
}

# options OBJECT [COMMAND]: the options of a --help, one a line: those
# of the usage lines and those that begin its option lines; not -h,
# --help
options() {
	"$TOOL" "$@" --help 2>&1 | awk '
		/^Usage:/ { u = 1; print; next }
		u && /^[[:space:]]/ { print; next }
		{ u = 0 }
		/^  (-[[:alnum:]][, ]|    --)/ { print ($1 ~ /,$/) ? $1 " " $2 : $1 }' |
		grep -oE -- '(^|[^-[:alnum:]])--?[[:alnum:]][[:alnum:]-]*' |
		sed 's/^[^-]*//' | grep -vxE -- '-h|--help' | sort -u
}

"$TOP/scripts/man-pages.py" "$MAN" > "$WORK/gen.log" 2>&1
ok $? "scripts/man-pages.py writes the pages from Documentation/tool.rst" \
	"$(tail -n 3 "$WORK/gen.log" | tr '\n' ' ')"

mapfile -t OBJECTS < <("$TOOL" --list-words | grep -vx help)
[ "${#OBJECTS[@]}" -gt 0 ]
ok $? "rdmachan --list-words lists the objects" "is the tool built (make tool)?"

want=$(printf 'rdmachan\n'; printf 'rdmachan-%s\n' "${OBJECTS[@]}")
got=
for f in "$MAN"/*.8; do
	[ -e "$f" ] && f=${f##*/} && got="$got${f%.8}"$'\n'
done
diff <(sort <<< "$want") <(sort <<< "${got%$'\n'}") > "$WORK/diff"
ok $? "a page for rdmachan and for each object, no other" \
	"$(tr '\n' ' ' < "$WORK/diff")"

for page in $want; do
	[ -f "$MAN/$page.8" ] || continue
	groff -t -ww -man -Tutf8 "$MAN/$page.8" > /dev/null 2> "$WORK/err"
	rc=$?
	[ "$rc" = 0 ] && [ ! -s "$WORK/err" ]
	ok $? "$page(8) renders with groff -ww without a warning" \
		"exit $rc: $(head -n 3 "$WORK/err" | tr '\n' ' ')"
	if command -v man > /dev/null; then
		man --warnings -l "$MAN/$page.8" > /dev/null 2> "$WORK/err"
		rc=$?
		[ "$rc" = 0 ] && [ ! -s "$WORK/err" ]
		ok $? "$page(8) renders with man --warnings -l without a warning" \
			"exit $rc: $(head -n 3 "$WORK/err" | tr '\n' ' ')"
	else
		ok 0 "$page(8) renders with man --warnings -l # SKIP man-db is not installed"
	fi
done

# rdmachan(8): the objects, the tool's options, every page in SEE ALSO
if [ -f "$MAN/rdmachan.8" ]; then
	text rdmachan > "$WORK/page"
	missing=
	for w in "${OBJECTS[@]}" $(options); do
		has "$w" < "$WORK/page" || missing="$missing $w"
	done
	[ -z "$missing" ]
	ok $? "rdmachan(8) has every object and every option of rdmachan --help" \
		"missing:$missing"
	section rdmachan "SEE ALSO" > "$WORK/see"
	missing=
	for o in "${OBJECTS[@]}"; do
		grep -qF "rdmachan-$o(8)" "$WORK/see" || missing="$missing rdmachan-$o(8)"
	done
	[ -z "$missing" ]
	ok $? "rdmachan(8) names every object's page in SEE ALSO" "missing:$missing"
fi

# each object's page: its commands in the SYNOPSIS, their options
for o in "${OBJECTS[@]}"; do
	[ -f "$MAN/rdmachan-$o.8" ] || continue
	text "rdmachan-$o" > "$WORK/page"
	section "rdmachan-$o" SYNOPSIS > "$WORK/synopsis"
	cmds=$("$TOOL" --list-words "$o" | grep -vx help)
	missing=
	# an object without commands (rping: a program's options) is its own
	for c in ${cmds:-$o}; do
		has "$c" < "$WORK/synopsis" || missing="$missing $c"
	done
	[ -z "$missing" ]
	ok $? "rdmachan-$o(8) has every command of $o in its SYNOPSIS" \
		"missing:$missing"
	missing=
	for c in ${cmds:-""}; do
		for w in $(options "$o" $c); do
			has "$w" < "$WORK/page" || missing="$missing $c$w"
		done
	done
	[ -z "$missing" ]
	ok $? "rdmachan-$o(8) has every option of each command's --help" \
		"missing:$missing"
done
echo "1..$n"
