# SPDX-License-Identifier: GPL-2.0-only
# shellcheck shell=bash
#
# lib-host.sh: what the host's test runners share, sourced by
# tests/run-all.sh (the stock tier) and tests/run-debug.sh (the debug
# tier), so that both count, judge a console and choose cases the same way:
#
#   pass / fail / summary   the counters and the closing line
#                           "N passed, N failed"
#   count_tap               the results of a TAP or KTAP file
#   count_cases             the results of a VM, one KTAP block per guest
#                           script
#   KERNEL_ERRORS           what a VM's console must not show
#   vm_report               both of them for one VM run
#   vm_cases, case_skips    which case runs on which kernel, over which
#                           RDMA driver: each case's requires()
#   run_jobs                VMs side by side, RDMACHAN_JOBS of them
#
# The caller sets TOP (the checkout) and uses bash.

PASSED=0
FAILED=0
FAILED_NAMES=()
# the first kernel report of each VM whose console showed one, repeated
# by summary: a CI log that keeps only the output's end still shows it
KREPORTS=()

pass() { PASSED=$((PASSED + 1)); echo "ok - $1"; }
fail() { FAILED=$((FAILED + 1)); FAILED_NAMES+=("$1"); echo "not ok - $1"; }

# fail_diag LINE [I]: a diagnostic of the last failure ("# ..." after
# its "not ok"), or of failure I (counted from 0), up to 8 of them,
# repeated under its name by summary.  In one of run_jobs's jobs
# (IN_JOB set), also a "#diag: LINE" line of its output, which recount
# gives the job's last failure in the caller.
fail_diag() {
	local i=${2:-$((${#FAILED_NAMES[@]} - 1))}
	[ -z "${IN_JOB:-}" ] || [ -n "${2:-}" ] || printf '#diag: %s\n' "$1"
	[ "$i" -ge 0 ] && [ "$i" -lt "${#FAILED_NAMES[@]}" ] || return 0
	[ "$(printf '%s' "${FAILED_NAMES[$i]}" | grep -c '^')" -le 8 ] || return 0
	FAILED_NAMES[i]+=$'\n    '"$1"
}

# summary: the names of the failures, the kernel reports, then the
# closing line; returns 1 when anything failed.  The reports come last,
# next to the closing line, so that a log's tail (all CI may show of it)
# has the first report of each VM.
summary() {
	if [ "${#FAILED_NAMES[@]}" -gt 0 ]; then
		echo
		echo "Failed:"
		printf '  %s\n' "${FAILED_NAMES[@]}"
	fi
	if [ "${#KREPORTS[@]}" -gt 0 ]; then
		echo
		echo "Kernel reports:"
		printf '%s\n' "${KREPORTS[@]}"
	fi
	echo
	echo "$PASSED passed, $FAILED failed"
	[ "$FAILED" = 0 ]
}

# count_tap NAME FILE: count "ok"/"not ok" lines of a TAP/KTAP file,
# printing them prefixed with NAME; returns 1 if the plan is missing or
# does not match the number of results.
count_tap() {
	local name=$1 file=$2 line n=0 plan=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"ok "*) pass "$name: ${line#ok }"; n=$((n + 1)) ;;
		"not ok "*) fail "$name: ${line#not ok }"; n=$((n + 1)) ;;
		"1.."*) plan=${line#1..} ;;
		esac
	done < "$file"
	[ -n "$plan" ] && [ "$plan" = "$n" ]
}

# count_cases NAME FILE WANT: count the "ok"/"not ok" lines of a VM's
# results, which hold one KTAP block per guest script between "# case X
# begin" and "# case X end" lines (tests/vm/init); each block must end
# with its plan.  Results are printed as NAME/X (NAME alone for the
# script named as NAME's last part).  WANT: the scripts the VM was to
# run, space-separated, in order.  Returns 1 if a block is missing,
# unfinished or short.
count_cases() {
	local name=$1 file=$2 want=$3 line seg='' n=0 plan='' rc=0 label seen='' last=''
	local failing=
	while IFS= read -r line; do
		line=${line%$'\r'}
		case "$line" in
		"# case "*) failing= ;;&
		"#"*) [ -z "$failing" ] || fail_diag "$line" ;;&
		"# case "*" begin")
			seg=${line#\# case }
			seg=${seg% begin}
			n=0
			plan=
			seen="$seen $seg"
			;;
		"# case "*" end"*)
			if [ -z "$plan" ] || [ "$plan" != "$n" ]; then
				fail "$name: $seg ran to completion (plan '${plan:-none}', $n results)"
				rc=1
			fi
			seg=
			;;
		"ok "* | "not ok "*)
			last=$line
			label=$name
			[ "$seg" = "${name##*/}" ] || label="$name/$seg"
			failing=
			case "$line" in
			"ok "*) pass "$label: ${line#ok }" ;;
			*) fail "$label: ${line#not ok }"; failing=1 ;;
			esac
			n=$((n + 1))
			;;
		"1.."*) plan=${line#1..} ;;
		esac
	done < "$file"
	if [ -n "$seg" ]; then
		fail "$name: $seg ran to completion (the VM stopped in it)"
		fail_diag "# its last result: ${last:-none}"
		rc=1
	fi
	if [ "$seen" != " $want" ]; then
		fail "$name: every guest script ran (ran:${seen:- none}; wanted: $want)"
		rc=1
	fi
	return "$rc"
}

# Kernel errors a VM's console must not show, on either kernel.  The
# lockdep and kmemleak reports can only come from the debug kernel
# (Debian's has neither CONFIG_PROVE_LOCKING nor CONFIG_DEBUG_KMEMLEAK),
# and no test title or diagnostic of ours contains any of these words,
# so one pattern serves both tiers.  (The guest's done_testing checks the
# kernel log with its own list, KLOG_BAD in tests/vm/lib.sh.)
KERNEL_ERRORS='Out of memory|Kernel panic|BUG:|WARNING:|Oops|general protection|hung_task|blocked for more than|detected stalls|self-detected stall|soft lockup|KASAN:|UBSAN:|possible circular locking|inconsistent lock state|suspected memory leak'

# console_errors FILE: the lines of a console log that show a kernel error
console_errors() {
	grep -aE "$KERNEL_ERRORS" "$1"
}

# first_report FILE: the first kernel error of a console log with the
# lines around it (a warning's or hung task's trace follows it), at most
# 30, indented
first_report() {
	grep -anE "$KERNEL_ERRORS" "$1" | head -n 1 | cut -d: -f1 |
		while read -r n; do
			sed -n "$((n > 3 ? n - 3 : 1)),$((n + 26))p" "$1"
		done | tr -d '\r' | cut -c1-200 | sed 's/^/    /'
}

# boot_errors DIR: kernel errors printed before the guest's first test
# result, i.e. while the kernel booted, before rdmachan or any test was
# there
boot_errors() {
	awk '/^(not )?ok / { exit } { print }' "$1/console.log" |
		grep -aE "$KERNEL_ERRORS"
}

# watchdog_tasks CONSOLE: the tasks of the guest watchdog's dump in
# CONSOLE (tests/vm/init's hang_dump), those blocked (D) or running (R)
# first: a hang's culprit before the scripts that wait on it
watchdog_tasks() {
	awk '/^# rdmachan watchdog: the VM/ { on = 1; next }
		/^# rdmachan watchdog: end of dump/ { on = 0 }
		!on { next }
		/^# task / { n++; hot[n] = / state [DR]:/ }
		n { text[n] = text[n] $0 "\n" }
		END {
			for (i = 1; i <= n; i++) if (hot[i]) printf "%s", text[i]
			for (i = 1; i <= n; i++) if (!hot[i]) printf "%s", text[i]
		}' "$1"
}

# watchdog_waiters CONSOLE: of the watchdog's dump in CONSOLE, each task
# but the guest's shells (init, sh) and sleeps, a line each with its
# innermost kernel frames, at most 6: where a VM that timed out waited,
# for the summary (CI may keep only a log's end)
watchdog_waiters() {
	watchdog_tasks "$1" | awk '
		/^# task / {
			if (t != "") print t
			t = ""
			if ($4 ~ /^\((init|sh|sleep)\)$/) next
			h = substr($0, index($0, " state ") + 7)
			sub(/ +$/, "", h)
			t = "# waits: " $4 " " substr(h, 1, 60); f = 0; next }
		t != "" && f < 4 && /^\[<0>\]/ { t = t (f++ ? " < " : " in ") $2 }
		END { if (t != "") print t }' | head -n 6
}

# vm_report NAME DIR RC WANT: the results of the VM run in DIR (qemu's
# exit status RC, the guest scripts WANT as for count_cases), then its
# console; on a failure the diagnostics and the console's end.
vm_report() {
	local name=$1 dir=$2 rc=$3 want=$4 before=$FAILED bad l
	if ! count_cases "$name" "$dir/results.ktap" "$want"; then
		fail "$name: VM ran to completion (qemu exit $rc)"
		while IFS= read -r l; do
			fail_diag "$l"
		done < <(watchdog_waiters "$dir/console.log")
	fi
	bad=$(console_errors "$dir/console.log")
	if [ -n "$bad" ]; then
		fail "$name: console shows no kernel error"
		echo "$bad" | head -n 20 | sed 's/^/    /'
		KREPORTS+=("  $name ($dir/console.log):")
		mapfile -t -O "${#KREPORTS[@]}" KREPORTS < <(first_report "$dir/console.log")
	fi
	if [ "$FAILED" != "$before" ]; then
		# a VM its timeout killed: the tasks the guest's watchdog found
		# (tests/vm/init), which the console's end may not reach; first,
		# as a report cut short keeps its head
		if grep -aq '^# rdmachan watchdog: end of dump' "$dir/console.log"; then
			echo "    --- the watchdog's tasks ($dir/console.log)"
			watchdog_tasks "$dir/console.log" | head -n 100 |
				sed 's/^/    /'
		fi
		grep -a '^#' "$dir/results.ktap" | head -n 60 | sed 's/^/    /'
		echo "    --- console tail ($dir/console.log)"
		tail -n 40 "$dir/console.log" | sed 's/^/    /'
	fi
}

# ---- Which case runs where ---------------------------------------------
#
# A VM case is tests/vm/cases/NAME.sh.  It runs on two kernels (stock:
# Debian 12's 6.1; debug: scripts/test-kernel.sh's, from the same
# source) over rxe unless its requires() says otherwise, as blktests'
# tests do: a function at the top of the case, its braces at the start of
# their lines, calling only
#
#   _have_kernel KERNEL...  it runs on these kernels only (debug: KASAN,
#                           lockdep, kmemleak, failslab, KUnit; 6.12:
#                           Debian's 6.12, where make check runs only the
#                           cases that name it, Documentation/testing.rst)
#   _have_rdma DRIVER...    it runs over these soft-RDMA drivers (rxe,
#                           siw); without it, over rxe only
#   _not_on ENV...          it is left out in these environments
#                           (KERNEL/RDMA, e.g. debug/rxe): another run of
#                           it covers what this one would (testing.rst,
#                           "Where each case runs, and what it costs")
#   _not_a_test WHY         it is not run by the runners at all
#   _two_hosts              it runs on two VMs, a server and a client
#                           (tests/vm/run-pair.sh), not on one
#
# The host reads requires() out of the file and runs it here; the guest
# only defines it.  The environments: stock/rxe (tests/run-all.sh),
# debug/rxe and debug/siw (tests/run-debug.sh; Debian's kernel has no
# siw).

# case_skips CASE KERNEL RDMA: why CASE does not run on KERNEL over RDMA,
# one reason a line; nothing when it runs there.
case_skips() {
	local file=$TOP/tests/vm/cases/$1.sh kernel=$2 rdma=$3
	if [ ! -f "$file" ]; then
		echo "no case tests/vm/cases/$1.sh"
		return
	fi
	# shellcheck disable=SC2317 # requires() calls the _have_* functions
	(
		SKIP_REASONS=()
		RDMA_SAID=
		KERNEL_SAID=
		_have_kernel() {
			KERNEL_SAID=1
			[[ " $* " == *" $kernel "* ]] ||
				SKIP_REASONS+=("needs the ${*// / or } kernel")
		}
		_have_rdma() {
			RDMA_SAID=1
			[[ " $* " == *" $rdma "* ]] ||
				SKIP_REASONS+=("runs over ${*// / and } only")
		}
		_not_on() {
			[[ " $* " != *" $kernel/$rdma "* ]] ||
				SKIP_REASONS+=("left out on $kernel/$rdma: another run covers it")
		}
		_not_a_test() { SKIP_REASONS+=("not a test: $*"); }
		# the debug kernel has no NIC driver (testing.rst, "Two hosts")
		_two_hosts() {
			[ "$kernel" != debug ] ||
				SKIP_REASONS+=("runs on two VMs, Debian's kernel only")
		}
		eval "$(sed -n '/^requires() {/,/^}/p' "$file")"
		if declare -F requires >/dev/null; then
			requires
		fi
		[ -n "$RDMA_SAID" ] || [ "$rdma" = rxe ] ||
			SKIP_REASONS+=("runs over rxe only")
		[ -n "$KERNEL_SAID" ] || [ "$kernel" != 6.12 ] ||
			SKIP_REASONS+=("runs on Debian's 6.1 and the debug kernel only")
		[ "${#SKIP_REASONS[@]}" = 0 ] || printf '%s\n' "${SKIP_REASONS[@]}"
	)
}

# case_two_hosts CASE: CASE runs on two VMs (its requires() calls
# _two_hosts)
case_two_hosts() {
	# shellcheck disable=SC2317 # requires() calls the _have_* functions
	(
		TWO=1
		_have_kernel() { :; }
		_have_rdma() { :; }
		_not_on() { :; }
		_not_a_test() { :; }
		_two_hosts() { TWO=0; }
		eval "$(sed -n '/^requires() {/,/^}/p' "$TOP/tests/vm/cases/$1.sh")"
		declare -F requires >/dev/null && requires
		exit "$TWO"
	)
}

# pair_report NAME DIR RC CASE: the results of a run of the two-VM
# fixture in DIR (run-pair.sh's exit status RC): the client's as
# vm_report's, then the server's: of its last boot the same way (as
# NAME/server), of the boots before it (killed by the case) the console
pair_report() {
	local name=$1 dir=$2 rc=$3 c=$4 boots n bad
	vm_report "$name" "$dir" "$rc" "$c"
	boots=$(cat "$dir/server-boots" 2>/dev/null || echo 0)
	if [ "$boots" = 0 ]; then
		fail "$name: the server VM booted"
		tail -n 20 "$dir/pair.log" 2>/dev/null | sed 's/^/    /'
		return
	fi
	for n in $(seq 1 "$boots"); do
		if [ "$n" = "$boots" ]; then
			vm_report "$name/server" "$dir/server-$n" "(boot $n)" "$c"
			continue
		fi
		bad=$(console_errors "$dir/server-$n/console.log")
		if [ -z "$bad" ]; then
			pass "$name/server: boot $n (killed) showed no kernel error"
		else
			fail "$name/server: boot $n (killed) showed no kernel error"
			echo "$bad" | head -n 20 | sed 's/^/    /'
		fi
	done
}

# vm_cases KERNEL RDMA: the cases that run on KERNEL over RDMA, in name
# order, one a line
vm_cases() {
	local f c
	for f in "$TOP"/tests/vm/cases/*.sh; do
		c=${f##*/}
		c=${c%.sh}
		[ -n "$(case_skips "$c" "$1" "$2")" ] || echo "$c"
	done
}

# case_named LABEL CASE KERNEL RDMA: CASE, named on a runner's command
# line, runs on KERNEL over RDMA (0); else (1) a name that is no case
# fails, as LABEL, and a case whose requires() keeps it off is left out
# with a line that says why
case_named() {
	local label=$1 why
	why=$(case_skips "$2" "$3" "$4")
	if [ ! -f "$TOP/tests/vm/cases/$2.sh" ]; then
		fail "$label: is a case ($why)"
	elif [ -n "$why" ]; then
		echo "# $label: not run on this tier: ${why%%$'\n'*} (its requires())"
	else
		return 0
	fi
	return 1
}

# ---- VMs side by side --------------------------------------------------
#
# A VM under TCG keeps about one of the machine's cores busy on average
# (its cases wait on timers, on the peer, on a kmemleak scan of one CPU),
# so a runner boots JOBS of them at once: RDMACHAN_JOBS, default 2, the
# cores of this project's machines; 1 runs them one after the other.
# Three on two cores made the longest cases (cpu_hotplug, net_basic)
# overrun their VM's bound.
# Each VM has its own directory, console and fixture; nothing of one is
# seen by the other (Documentation/testing.rst, "VMs side by side").
JOBS=${RDMACHAN_JOBS:-2}

# recount FILE: a job's output, its "ok - " and "not ok - " lines counted
# here as pass and fail, its "#diag: " lines as fail_diag's, the rest
# printed as it is
recount() {
	local line
	while IFS= read -r line; do
		case "$line" in
		"ok - "*) pass "${line#ok - }" ;;
		"not ok - "*) fail "${line#not ok - }" ;;
		"#diag: "*) fail_diag "${line#\#diag: }" ;;
		*) printf '%s\n' "$line" ;;
		esac
	done < "$1"
}

# run_jobs_reap: the next of run_jobs's running jobs to end (its
# running[], pid -> output file, and args[], pid -> ARG; a job's FILE.end
# says it ended): its report, and it leaves running[].  Not "wait -n": a
# non-interactive bash drops a background job that ended from its job
# table when it starts another, and "wait -n" then fails with "no such
# job" for it (a busy loop), while "wait PID" still finds its status.  A job whose subshell was killed
# before it wrote FILE.end is done once its process is gone, and fails.
run_jobs_reap() {
	local pid
	while :; do
		for pid in "${!running[@]}"; do
			if [ -e "${running[$pid]}.end" ] ||
			   ! kill -0 "$pid" 2>/dev/null; then
				wait "$pid"
				recount "${running[$pid]}"
				[ -e "${running[$pid]}.end" ] ||
					fail "$fn ${args[$pid]}: its subshell ended before its report did (killed)"
				unset "running[$pid]" "args[$pid]"
				return
			fi
		done
		sleep 1
	done
}

# run_jobs FUNC ARG...: FUNC ARG for each ARG in turn, JOBS of them at
# once, each in a subshell of its own whose output is kept in a file,
# then printed and counted here (recount) when it ends, in the order they
# end (to the second).  FUNC reports with pass and fail, as it would in
# this shell.
run_jobs() {
	local fn=$1 tmp i=0 arg
	local -A running=() args=()
	shift
	tmp=$(mktemp -d) || return 1
	for arg; do
		while [ "${#running[@]}" -ge "$JOBS" ]; do
			run_jobs_reap
		done
		( IN_JOB=1; "$fn" "$arg" > "$tmp/$i" 2>&1; : > "$tmp/$i.end" ) &
		running[$!]=$tmp/$i
		args[$!]=$arg
		i=$((i + 1))
	done
	while [ "${#running[@]}" -gt 0 ]; do
		run_jobs_reap
	done
	rm -rf "$tmp"
}
