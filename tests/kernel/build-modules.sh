#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# build-modules.sh [--no-kunit] [--sparse] KDIR OUTDIR
#
# Build rdmachan.ko and the KUnit modules of tests/kunit (in one tree, so
# that rdmachan_chan_kunit.ko links against rdmachan.ko) against KDIR (the
# debug test kernel, see scripts/test-kernel.sh, or another installed
# kernel's headers); put the .ko in OUTDIR.  --no-kunit: rdmachan's
# three modules only (a kernel without CONFIG_KUNIT, Debian's);
# --sparse: sparse checks every file too (C=2), its warnings with the
# compiler's.
#
# An out-of-tree build writes its objects next to the sources, so the
# build runs in a private copy of the sources: the objects of the build
# for the Debian kernel in the checkout are left alone.  W=1; the full
# log is OUTDIR/build.log, its warnings OUTDIR/warnings.log.
set -euo pipefail

KUNIT=1
SPARSE=()
while [ $# -gt 2 ]; do
	case "$1" in
	--no-kunit) KUNIT=0 ;;
	--sparse) SPARSE=(C=2) ;;
	*) break ;;
	esac
	shift
done
[ $# = 2 ] || { sed -n '3,18p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 2; }
KDIR=$1
OUTDIR=$2
TOP=$(cd "$(dirname "$0")/../.." && pwd)

[ -f "$KDIR/Makefile" ] || { echo "build-modules.sh: $KDIR is no kernel build tree" >&2; exit 1; }
WORK=$(mktemp -d /tmp/rdmachan-debug-modules.XXXXXX)
trap 'rm -rf "$WORK"' EXIT

# Sources only: no objects of another build come along, nor the header
# of the feature probes (module/compat/Kbuild makes it for KDIR).
(cd "$TOP" && find VERSION module uapi tests/kunit -type f \
	\( -name '*.[ch]' -o -name Kbuild -o -name Makefile -o -name VERSION \) \
	! -path module/compat/rdmachan_have.h -print0 |
	cpio -0 -pdm --quiet "$WORK")
# tests/kunit includes module/compat.h: after module/, which makes its
# probe header first
if [ "$KUNIT" = 1 ]; then
	printf '%s\n' 'obj-m += module/' 'obj-m += tests/kunit/' \
		'$(obj)/tests/kunit: $(obj)/module' > "$WORK/Kbuild"
else
	printf '%s\n' 'obj-m += module/' > "$WORK/Kbuild"
fi

mkdir -p "$OUTDIR"
rm -f "$OUTDIR"/*.ko
if ! make -C "$KDIR" M="$WORK" W=1 "${SPARSE[@]}" -j"$(nproc)" modules > "$OUTDIR/build.log" 2>&1; then
	tail -n 40 "$OUTDIR/build.log" >&2
	echo "build-modules.sh: build against $KDIR failed (log: $OUTDIR/build.log)" >&2
	exit 1
fi
grep -E '(warning|error):' "$OUTDIR/build.log" | sed "s|$WORK/||" > "$OUTDIR/warnings.log" || true
find "$WORK" -name '*.ko' -exec cp {} "$OUTDIR/" \;
ls "$OUTDIR"/*.ko
