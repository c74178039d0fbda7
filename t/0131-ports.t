#!/usr/bin/env bash
# The suite's port table, t/ports: no offset belongs to two test files, every
# offset a test file names is in its own line, a chain stack's anvil stays
# inside the suite's block of ports, and a stack started at an offset that
# is not its file's fails at once (t/lib/chain.sh). Test files run at once
# in any order (tools/run-tests), so two that shared a port would meet by
# chance, not by name order.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)

# check DIR: the table DIR/ports against the test files DIR/*.t; prints
# one line per problem. One awk over all of them: the table first, then
# the offsets each file names (PORT_BASE + N; a stack at N, paid_stack
# using N + 1 too and activity_stack N + 1 and N + 2; the base itself).
check() {
	awk '
	function use(f, o) { used[f SUBSEP o] = 1 }
	FNR == 1 { f = FILENAME; sub(/.*\//, "", f) }
	f == "ports" {
		if ($0 ~ /^#/ || NF < 2) next
		for (i = 2; i <= NF; i++) {
			n = split($i, r, "-"); hi = n > 1 ? r[2] : r[1]
			for (o = r[1] + 0; o <= hi + 0; o++) {
				if (o in owner) print "offset " o " is in the lines of " owner[o] " and " $1
				owner[o] = $1; mine[$1 SUBSEP o] = 1
			}
		}
		next
	}
	f == "0131-ports.t" { next }   # its planted cases below
	{
		line = $0
		while (match(line, /PORT_BASE *\+ *[0-9]+/)) {
			s = substr(line, RSTART, RLENGTH); sub(/.*\+ */, "", s); use(f, s + 0)
			line = substr(line, RSTART + RLENGTH)
		}
		if (match($0, /(chain|paid|activity)_stack +[a-z0-9_-]+ +[0-9]+/)) {
			split(substr($0, RSTART, RLENGTH), w, / +/); o = w[3] + 0; use(f, o)
			if (w[1] != "chain_stack") use(f, o + 1)
			if (w[1] == "activity_stack") use(f, o + 2)
			if (o + 465 > 649) print f ": a chain stack at offset " o " puts its anvil past the block (offset 184 and up)"
		}
		if ($0 ~ /LISTEN=[^ ]*:\$WAYMARK_TEST_PORT_BASE([^A-Za-z0-9_]|$)/) use(f, 0)
	}
	END {
		for (k in used) { split(k, p, SUBSEP); if (!((p[1] SUBSEP p[2]) in mine)) print p[1] ": offset " p[2] " is not in its line of t/ports" }
	}' "$1/ports" "$1"/*.t | sort -u
}

out=$(check "$top/t")
is "$out" "" "t/ports: no offset twice, and every test file keeps to its own"
like "$(grep -cvE '^#|^$' "$top/t/ports")" '^[1-9][0-9]+$' "  the table has a line for each test file with ports"

# The check fails on a planted collision and on an offset outside a file's line.
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
cp "$top/t/ports" "$tmp/ports"
printf '#!/usr/bin/env bash\nchain_stack x 140\n' > "$tmp/9990-a.t"
printf '#!/usr/bin/env bash\npaid_stack y 141\n' > "$tmp/9991-b.t"
printf '9990-a.t 140\n9991-b.t 141-142\n' >> "$tmp/ports"
like "$(check "$tmp")" "offset 140 is in the lines of 0975-tip-reads.t and 9990-a.t" "a planted shared offset is found"
printf '#!/usr/bin/env bash\nx=$((WAYMARK_TEST_PORT_BASE + 3))\n' > "$tmp/9992-c.t"
like "$(check "$tmp")" "9992-c.t: offset 3 is not in its line" "an offset a file does not own is found"

# At run time: a stack at an offset that is not its file's is refused.
out=$(cd "$tmp" && printf '. %q/t/lib/chain.sh\nchain_stack planted 150\n' "$top" > 9993-d.t &&
	WAYMARK_VAR=$tmp/var bash 9993-d.t 2>&1); rc=$?
is "$rc" 1 "chain_stack at an offset of another file's exits 1 before starting anything"
like "$out" "offset 150 is not 9993-d.t's" "  saying why"
ok "$([ ! -e "$tmp/var-planted" ] && echo 0 || echo 1)" "  and made no stack"
done_testing
