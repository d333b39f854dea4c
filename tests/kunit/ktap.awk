# SPDX-License-Identifier: GPL-2.0-only
#
# ktap.awk: flatten the nested KTAP that KUnit prints into one line per
# test, for the TAP counters of the test harness (POSIX awk: runs under
# busybox in the VM and on the host).
#
# Input: kernel log lines (timestamps already stripped) holding KUnit
# output: suites at indent 0 ("ok 3 suite"), their cases at 4 spaces,
# the parameters of a parameterized case at 8 ("# Subtest:" headers one
# level deeper than the result they announce).  Other lines are ignored.
#
# Output, one per line:
#   ok <suite>: <case>[: <param>] [# SKIP ...]    a leaf test passed/skipped
#   not ok <suite>: <case>[: <param>]             a leaf test failed
#   not ok <name>: ...                            a parent failed with no
#                                                 failed leaf, ran fewer
#                                                 tests than its plan, or
#                                                 never finished
#   # <text>                                      a diagnostic line
#   suite <name>                                  a suite finished

function path(lvl, desc,	i, p) {
	p = ""
	for (i = 1; i <= lvl; i++)
		if (open[i])
			p = p sub_name[i] ": "
	return p desc
}

{
	sub(/\r$/, "")
	line = $0
	indent = match(line, /[^ ]/) - 1
	if (indent < 0)
		next
	lvl = int(indent / 4)
	text = substr(line, indent + 1)
}

text ~ /^# Subtest: / {
	name = substr(text, 12)
	sub_name[lvl] = name
	open[lvl] = 1
	nres[lvl] = 0
	nfail[lvl] = 0
	plan[lvl] = ""
	next
}

text ~ /^1\.\.[0-9]+$/ {
	if (open[lvl])
		plan[lvl] = substr(text, 4) + 0
	next
}

text ~ /^(not )?ok [0-9]+( |$)/ {
	failed = (text ~ /^not /)
	rest = text
	sub(/^(not )?ok [0-9]+ ?/, "", rest)
	sub(/^- /, "", rest)
	desc = rest
	directive = ""
	if (match(rest, / # /)) {
		desc = substr(rest, 1, RSTART - 1)
		directive = substr(rest, RSTART)
	}
	name = path(lvl, desc)
	child = lvl + 1
	if (open[child] && sub_name[child] == desc && nres[child] > 0) {
		# A parent: its leaves were reported already.
		if (plan[child] != "" && nres[child] != plan[child])
			print "not ok " name ": ran " nres[child] " of " plan[child] " tests"
		else if (failed && nfail[child] == 0)
			print "not ok " name ": failed (no failed test inside)"
		open[child] = 0
	} else {
		open[child] = 0
		print (failed ? "not ok " : "ok ") name directive
	}
	if (lvl == 0)
		print "suite " desc
	nres[lvl]++
	if (failed)
		nfail[lvl]++
	next
}

text ~ /^#/ {
	for (i = 1; i <= lvl; i++)
		if (open[i]) {
			print text
			break
		}
	next
}

END {
	for (i = 1; i <= 8; i++)
		if (open[i])
			print "not ok " path(i - 1, sub_name[i]) ": did not finish (" nres[i] " tests ran)"
}
