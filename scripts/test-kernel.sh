#!/bin/bash
# SPDX-License-Identifier: GPL-2.0-only
#
# test-kernel.sh [--print-dir]
#
# Build (once, then cached) a small debug kernel for the test VM from
# Debian's linux-source-6.1: "make allnoconfig" + tests/kernel/debug.config
# (KASAN, lockdep, kmemleak, fault injection, KUnit, soft-RoCE, siw,
# nvme-rdma/nvmet-rdma, ...), with the fixes of tests/kernel/patches/*.patch
# applied in order (kernel bugs the tests would otherwise trip over; each
# says why), and print its directory DIR on stdout:
#
#   DIR/build/arch/x86/boot/bzImage    the kernel (qemu -kernel)
#   DIR/build                          KDIR: make -C DIR/build M=$PWD modules
#   DIR/modroot/lib/modules/KVER       its modules, with modules.dep:
#                                      modprobe -d DIR/modroot -S KVER ...
#   DIR/kernelrelease                  KVER (make -s kernelrelease)
#   DIR/build.log                      the log of the last build
#
# DIR is ${RDMACHAN_CACHE:-~/.cache/rdmachan}/test-kernel-KEY, KEY a hash of
# debug.config, the patches, the linux-source-6.1 package version and this
# script, so a change to any of them builds a new kernel (old directories
# are left: remove them by hand).  An interrupted build is taken up again
# where it stopped (make is incremental); DIR/.built is written only on
# success.
#
#   --print-dir   only print DIR, without building; exit 1 if it is not
#                 built (yet).
#
# Progress goes to stderr.  Needs bc bison flex libelf-dev libssl-dev
# (make deps); no dwarves (no debug info, no BTF).
set -euo pipefail

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SELF=$TOP/scripts/test-kernel.sh
FRAGMENT=$TOP/tests/kernel/debug.config
PATCHES=$TOP/tests/kernel/patches
CACHE=${RDMACHAN_CACHE:-$HOME/.cache/rdmachan}

msg() { echo "test-kernel: $*" >&2; }
die() { msg "error: $*"; exit 1; }

PRINT_ONLY=0
while [ $# -gt 0 ]; do
	case "$1" in
	--print-dir) PRINT_ONLY=1 ;;
	-h|--help) sed -n '3,28p' "$SELF" | sed 's/^# \{0,1\}//'; exit 0 ;;
	*) die "unknown argument '$1' (see --help)" ;;
	esac
	shift
done

[ -f "$FRAGMENT" ] || die "$FRAGMENT missing"
[ -f /usr/src/linux-source-6.1.tar.xz ] ||
	die "/usr/src/linux-source-6.1.tar.xz missing (run: make deps)"
VERSION=$(dpkg-query -W -f='${Version}' linux-source-6.1) ||
	die "linux-source-6.1 is not installed (run: make deps)"
shopt -s nullglob
PATCH_FILES=("$PATCHES"/*.patch)
shopt -u nullglob
KEY=$({ cat "$FRAGMENT"; echo "linux-source-6.1 $VERSION"; cat "$SELF";
	for p in "${PATCH_FILES[@]}"; do echo "${p##*/}"; cat "$p"; done; } |
	sha256sum | cut -c1-12)
DIR=$CACHE/test-kernel-$KEY
SRC=$DIR/src
BUILD=$DIR/build
MODROOT=$DIR/modroot
LOG=$DIR/build.log
STAMP=$DIR/.built

built() { [ -f "$STAMP" ] && [ "$(cat "$STAMP")" = "$KEY" ]; }

if [ "$PRINT_ONLY" = 1 ]; then
	echo "$DIR"
	built || { msg "$DIR is not built yet (run: scripts/test-kernel.sh)"; exit 1; }
	exit 0
fi

if built; then
	echo "$DIR"
	exit 0
fi

for tool in gcc make bc bison flex perl cpio depmod patch; do
	command -v "$tool" >/dev/null 2>&1 || [ -x "/sbin/$tool" ] ||
		die "'$tool' not found (run: make deps)"
done
[ -f /usr/include/libelf.h ] || die "libelf-dev missing (run: make deps)"
[ -f /usr/include/openssl/ssl.h ] || die "libssl-dev missing (run: make deps)"

mkdir -p "$CACHE"
exec 9> "$CACHE/test-kernel-$KEY.lock"
if ! flock -n 9; then
	msg "another test-kernel.sh is building $DIR; waiting for it"
	flock 9
fi
# The other run may have finished it meanwhile.
if built; then
	echo "$DIR"
	exit 0
fi

mkdir -p "$DIR"
: > "$LOG"
msg "building the debug test kernel in $DIR (log: $LOG)"
start=$(date +%s)

# run STEP CMD...: run CMD with its output in the log; on failure show
# the end of the log and stop.
run() {
	local step=$1
	shift
	msg "$step"
	echo "### $step: $*" >> "$LOG"
	if ! "$@" >> "$LOG" 2>&1; then
		tail -n 40 "$LOG" | sed 's/^/  | /' >&2
		die "$step failed (full log: $LOG)"
	fi
}

# 1. Source: a hard-linked copy of the shared pristine tree, so that this
# KDIR keeps working when the shared tree is unpacked again, and nothing
# here ever writes into the shared one (make O= writes only to BUILD).
if [ ! -f "$SRC/.rdmachan-copied" ]; then
	SHARED=$("$TOP/scripts/kernel-source.sh")
	[ -f "$SHARED/Makefile" ] || die "kernel-source.sh gave no tree ($SHARED)"
	if [ -e "$SHARED/.config" ] || [ -e "$SHARED/include/config" ]; then
		die "$SHARED is not pristine (an in-tree build ran there): remove it and retry"
	fi
	rm -rf "$SRC" "$SRC.tmp"
	msg "copying $SHARED"
	cp -al "$SHARED" "$SRC.tmp" 2>/dev/null || {
		rm -rf "$SRC.tmp"
		cp -a "$SHARED" "$SRC.tmp"
	}
	for p in "${PATCH_FILES[@]}"; do
		# the tree is hard-linked to the shared one: unshare what
		# the patch touches before patching it
		while IFS= read -r f; do
			[ -f "$SRC.tmp/$f" ] || continue
			cp -p "$SRC.tmp/$f" "$SRC.tmp/$f.unshare"
			mv "$SRC.tmp/$f.unshare" "$SRC.tmp/$f"
		done < <(sed -n 's|^+++ b/\([^[:space:]]*\).*|\1|p' "$p")
		run "applying ${p##*/}" patch -p1 --no-backup-if-mismatch \
			-d "$SRC.tmp" -i "$p"
	done
	echo "$VERSION" > "$SRC.tmp/.rdmachan-copied"
	mv "$SRC.tmp" "$SRC"
fi

MAKE=(make -C "$SRC" O="$BUILD")

# 2. Configuration: allnoconfig + the fragment + olddefconfig.  make is
# incremental even when .config is rewritten with the same contents.
mkdir -p "$BUILD"
run "allnoconfig" "${MAKE[@]}" allnoconfig
run "merging $FRAGMENT" \
	"$SRC/scripts/kconfig/merge_config.sh" -m -O "$BUILD" "$BUILD/.config" "$FRAGMENT"
run "olddefconfig" "${MAKE[@]}" olddefconfig

# Every option of the fragment must have come out as written there:
# merge_config/olddefconfig drop silently what lacks a dependency.
missing=()
while IFS= read -r line; do
	case "$line" in
	CONFIG_*=*)
		sym=${line%%=*}
		want=$line
		;;
	"# CONFIG_"*" is not set")
		sym=${line#\# }
		sym=${sym%% *}
		want=
		;;
	*) continue ;;
	esac
	have=$(grep -E "^($sym=|# $sym is not set$)" "$BUILD/.config" || true)
	if [ -n "$want" ]; then
		[ "$have" = "$want" ] && continue
	else
		case "$have" in "" | "# $sym is not set") continue ;; esac
	fi
	missing+=("${want:-# $sym is not set} (got: ${have:-absent})")
done < "$FRAGMENT"
if [ ${#missing[@]} -gt 0 ]; then
	msg "error: ${#missing[@]} option(s) of $FRAGMENT did not end up as requested"
	msg "(a dependency is missing from the fragment, or a choice/select overrides it):"
	printf '  %s\n' "${missing[@]}" >&2
	exit 1
fi
msg "configuration checked: every option of debug.config is set as requested"

# 3. Build.
JOBS=$(nproc)
run "make -j$JOBS bzImage modules (takes a while)" \
	"${MAKE[@]}" -j"$JOBS" bzImage modules
KVER=$("${MAKE[@]}" -s kernelrelease)
[ -n "$KVER" ] || die "make kernelrelease printed nothing"

# 4. Modules under MODROOT/lib/modules/KVER, with depmod's indexes.
DEPMOD=$(command -v depmod || echo /sbin/depmod)
rm -rf "$MODROOT"
run "modules_install into $MODROOT" \
	"${MAKE[@]}" modules_install INSTALL_MOD_PATH="$MODROOT" DEPMOD="$DEPMOD"
[ -f "$MODROOT/lib/modules/$KVER/modules.dep" ] ||
	die "modules_install wrote no modules.dep for $KVER"
# The links into the build tree are not wanted in an initramfs.
rm -f "$MODROOT/lib/modules/$KVER/build" "$MODROOT/lib/modules/$KVER/source"
modprobe -d "$MODROOT" -S "$KVER" --show-depends rdma_rxe >> "$LOG" 2>&1 ||
	die "modprobe -d $MODROOT -S $KVER cannot resolve rdma_rxe"

# 5. BUILD must work as KDIR for out-of-tree modules: build one.
HELLO=$(mktemp -d /tmp/test-kernel-hello.XXXXXX)
trap 'rm -rf "$HELLO"' EXIT
cat > "$HELLO/hello.c" <<'EOF'
// SPDX-License-Identifier: GPL-2.0-only
#include <linux/module.h>
static int __init hello_init(void) { pr_info("hello\n"); return 0; }
static void __exit hello_exit(void) { }
module_init(hello_init);
module_exit(hello_exit);
MODULE_LICENSE("GPL");
EOF
echo 'obj-m := hello.o' > "$HELLO/Kbuild"
run "building an out-of-tree module against $BUILD" \
	make -C "$BUILD" M="$HELLO" modules
vermagic=$(modinfo -F vermagic "$HELLO/hello.ko")
[ "${vermagic%% *}" = "$KVER" ] ||
	die "out-of-tree module has vermagic '$vermagic', expected $KVER"

echo "$KVER" > "$DIR/kernelrelease"
echo "$KEY" > "$STAMP"
msg "built $KVER in $(( $(date +%s) - start )) s"
msg "  kernel:  $BUILD/arch/x86/boot/bzImage"
msg "  KDIR:    $BUILD"
msg "  modules: $MODROOT/lib/modules/$KVER"
echo "$DIR"
