# SPDX-License-Identifier: GPL-2.0-only
#
# tests/vm/lib/ktap.sh: results as KTAP (sourced by /tests/lib.sh).
#
# Results go to fd 3 (the VM's second serial port, read by the host) as
# KTAP: "ok N - what" / "not ok N - what", diagnostics as "# ..." lines,
# and a closing plan "1..N" from done_testing.  They are echoed to the
# console too, so a person watching sees them.  A case checks with check,
# check_fail, check_eq and run_checks (a C helper's KTAP), and ends with
# done_testing, which fails the case on a kernel log with any of
# KLOG_BAD.

RESULTS=${RESULTS:-/dev/ttyS1}
exec 3>>"$RESULTS"

T_N=0
T_FAILED=0

t_result() {
	T_N=$((T_N + 1))
	echo "$1 $T_N - $2" >&3
	echo "$1 $T_N - $2"
}

ok() { t_result ok "$*"; }
not_ok() { T_FAILED=$((T_FAILED + 1)); t_result "not ok" "$*"; }

diag() {
	printf '%s\n' "$*" | sed 's/^/# /' >&3
	printf '%s\n' "$*" | sed 's/^/# /'
}

# check DESC CMD [ARGS...]: passes when CMD exits 0.
check() {
	_d=$1
	shift
	_out=$("$@" 2>&1)
	_rc=$?
	if [ "$_rc" = 0 ]; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "command: $* (exit $_rc)"
		diag "$_out"
	fi
}

# check_fail DESC REGEX CMD [ARGS...]: passes when CMD exits non-zero and
# its output (stdout and stderr) matches the extended regular expression.
check_fail() {
	_d=$1
	_re=$2
	shift 2
	if _out=$("$@" 2>&1); then
		not_ok "$_d"
		diag "command: $* succeeded, expected failure"
		diag "$_out"
	elif printf '%s\n' "$_out" | grep -Eq -- "$_re"; then
		ok "$_d"
	else
		not_ok "$_d"
		diag "command: $* failed without matching /$_re/"
		diag "$_out"
	fi
}

# check_eq DESC EXPECTED ACTUAL
check_eq() {
	if [ "$2" = "$3" ]; then
		ok "$1"
	else
		not_ok "$1"
		diag "expected: $2"
		diag "actual:   $3"
	fi
}

# run_checks CMD [ARGS...]: run a helper that reports in KTAP
# (tests/vm/helpers/ktap.h: "ok N - what", "not ok N - what # detail",
# "# ..." lines, a closing plan "1..N") and report each of its results as
# a test of this case, with the same title.  Its "# " lines and anything
# else it prints become diagnostics.  A helper that reports nothing,
# whose plan is missing or does not match its results, or that exits
# non-zero without a failed result, is a failure too.
run_checks() {
	read -r _t0 _ < /proc/uptime
	_out=$("$@" 2>&1)
	_rc=$?
	read -r _t1 _ < /proc/uptime
	_seen=0
	_failed=0
	_plan=
	while IFS= read -r _line; do
		case "$_line" in
		"ok "*) ok "${_line#ok [0-9]* - }"; _seen=$((_seen + 1)) ;;
		"not ok "*)
			not_ok "${_line#not ok [0-9]* - }"
			_seen=$((_seen + 1))
			_failed=1
			;;
		"1.."*) _plan=${_line#1..} ;;
		"KTAP version "*) ;;
		"# "*) diag "${_line#\# }" ;;
		*) [ -n "$_line" ] && diag "$_line" ;;
		esac
	done <<EOT
$_out
EOT
	if [ "$_seen" = 0 ] || [ "$_plan" != "$_seen" ] ||
	   { [ "$_rc" != 0 ] && [ "$_failed" = 0 ]; }; then
		not_ok "$1 ran to completion"
		diag "exit status $_rc, plan ${_plan:-none}, $_seen results"
	fi
	# what each step costs, for choosing where cases run (testing.rst)
	diag "$(basename "$1") ${2:-} took $(awk "BEGIN { printf \"%.1f\", $_t1 - $_t0 }") s"
}

# Lines in the kernel log that fail any test run (an OOM kill ends the
# case's processes: the report in the log says why).
KLOG_BAD='Out of memory|invoked oom-killer|BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|UBSAN:|KASAN:|suspected memory leak|circular locking|inconsistent lock state|refcount_t:|list_(add|del) corruption'

# The line done_testing adds to the kernel log once it checked it, and
# klog_unchecked: the log after the last such line (all of it without
# one), what fixture_reset checks between two cases of one VM.
KLOG_CHECKED='rdmachan-test: the log above was checked'
klog_unchecked() {
	dmesg | awk -v m="$KLOG_CHECKED" '{ l[NR] = $0 } index($0, m) { n = NR }
		END { for (i = n + 1; i <= NR; i++) print l[i] }'
}

# klog_clean TITLE CMD: a test that the kernel log CMD prints (dmesg,
# klog_unchecked) has none of KLOG_BAD; when it has, its first report (from
# a few lines before it) and the log's end follow as diagnostics.  Returns
# 1 then.
klog_clean() {
	if $2 | grep -qE "$KLOG_BAD"; then
		not_ok "$1"
		# the first report from its head, then how the log ends
		_kl=$($2 | grep -nE "$KLOG_BAD" | head -n 1 | cut -d: -f1)
		diag "$($2 | sed -n "$((_kl > 5 ? _kl - 5 : 1)),$((_kl + 60))p")"
		diag "..."
		diag "$($2 | tail -n 20)"
		return 1
	fi
	ok "$1"
}

# done_testing: check the kernel log and print the plan.  Every case ends
# with it.  The log is the case's own when it shares the VM with others
# (the debug tier): fixture_reset clears it between them.
done_testing() {
	if klog_clean "kernel log is clean (no bug, warning, oops, lockdep or KASAN report)" dmesg; then
		# what the module and the drivers said, for failures above
		[ "$T_FAILED" -eq 0 ] ||
			diag "$(dmesg | grep -E 'rdmachan|rxe|siw' | tail -n 40)"
	fi
	echo "$KLOG_CHECKED" > /dev/kmsg
	echo "1..$T_N" >&3
}
