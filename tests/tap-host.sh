# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# tap-host.sh: numbered KTAP results for the host-side test scripts
# (install-test.sh, dkms-test.sh, completion-test.sh, man-test.sh),
# sourced by them.
# ok STATUS DESC [DIAG]: result n+1, "ok" when STATUS is 0, otherwise
# "not ok" with DIAG after "#"; the script prints "1..$n" at its end.
n=0
ok() {
	n=$((n + 1))
	if [ "$1" = 0 ]; then
		echo "ok $n - $2"
	else
		echo "not ok $n - $2${3:+ # $3}"
	fi
}
