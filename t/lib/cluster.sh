# t/lib/cluster.sh: the mixed load and the races of the cluster tests
# (t/cluster/, and t/1110 against one stack), beside t/lib/tap.sh. The caller
# defines sql QUERY (tab-separated, against the database the service
# writes: on a cluster, a node that waits for what the cluster committed),
# and sets $top.
#   load_start OUT ARGS...   t/tools/cluster-load.mjs ARGS... --out OUT in the
#                            background ($load_pid); succeeds once it runs
#                            (profiles made), fails if it died first
#   load_stop                SIGTERM, then wait for its summary
#   load_checks OUT [MAXERR%]  the Must-show checks of one summary, as TAP
#                            (11 tests): free reads at most MAXERR% (default
#                            1) errors; every paid read 200, each with its own
#                            settlement, one USDC transfer from its payer in
#                            a successful receipt, the payers' spending the
#                            sum of the reads' amounts, each read's (payer,
#                            nonce) settled with its transaction in
#                            x402_payments and no other settled row of those
#                            payers; every publication 201, one stored fact
#                            per publication (none lost), none for a
#                            settlement twice and none the load did not ack
#   race_link ARGS... / race_pay ARGS...   t/tools/race.mjs link|pay ARGS...:
#                            its JSON line in $race
# Addresses, nonces and hashes in the summaries are lower case 0x hex.
load_pid=

load_start() {
	local out=$1; shift
	rm -f "$out" "$out.stdout"
	node "$top/t/tools/cluster-load.mjs" "$@" --out "$out" > "$out.stdout" 2> "$out.stderr" &
	load_pid=$!
	local n=0
	until grep -q running "$out.stdout" 2>/dev/null || ! kill -0 "$load_pid" 2>/dev/null || [ $n -ge 600 ]; do
		n=$((n + 1)); sleep 0.1
	done
	grep -q running "$out.stdout" 2>/dev/null
}

load_stop() {
	[ -n "$load_pid" ] || return 1
	kill -TERM "$load_pid" 2>/dev/null
	wait "$load_pid"
	local rc=$?
	load_pid=
	return $rc
}

# hexlist JQ_PATHS: a comma-separated SQL list of UNHEX(...) of the hex
# strings the jq program prints from $summary, or NULL when there are none.
hexlist() {
	local l
	l=$(jq -r "$1" <<<"$summary" | sed -n 's/^0x\([0-9a-f]*\)$/UNHEX('"'"'\1'"'"')/p' | paste -sd,)
	echo "${l:-NULL}"
}

load_checks() {
	local summary maxerr=${2:-1} fr fe pr pok pubs pok2 pids v
	summary=$(cat "$1")
	fr=$(jq .free.requests <<<"$summary"); fe=$(jq .free.errors <<<"$summary")
	ok "$([ "$fr" -gt 0 ] && [ $((fe * 100)) -le $((fr * maxerr)) ]; echo $?)" \
		"free reads: $fe error(s) in $fr, at most $maxerr% ($(jq -c .free.byStatus <<<"$summary"))"
	pr=$(jq .paid.requests <<<"$summary"); pok=$(jq .paid.ok <<<"$summary")
	ok "$([ "$pr" -gt 0 ] && [ "$pok" = "$pr" ]; echo $?)" \
		"paid reads: all $pr answered 200 with a settlement ($(jq -c .paid.byStatus <<<"$summary"), $(jq .paid.retried <<<"$summary") retries)"
	[ "$pok" = "$pr" ] || jq -c '.paid.reads[] | select(.status != 200 or .tx == null)' <<<"$summary" | head -n 5 |
		sed 's/^/#   /' >&2
	is "$(jq '[.paid.reads[].tx | select(.)] | (length - (unique | length))' <<<"$summary")" 0 \
		"  each paid read has a settlement of its own"
	is "$(jq '[.chain.receipts[] | select(.status != "0x1" or .transfers != 1)] | length' <<<"$summary"),$(jq '.chain.receipts | length' <<<"$summary")" \
		"0,$pok" "  each settlement's receipt succeeded with one USDC transfer from its payer (chain)"
	v=$(jq -r '[.paid.reads[] | select(.status == 200) | .amount | tonumber] | add // 0' <<<"$summary")
	is "$(jq -r '[.chain.payers[].spent | tonumber] | add // 0' <<<"$summary")" "$v" \
		"  the payers spent the sum of their paid reads, no more (charged once each)"
	# In lists of 200 (one statement's text is one argument of the client,
	# at most 128 KiB).
	v=0
	while read -r chunk; do
		v=$((v + $(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled' AND (payer, auth_nonce, tx_hash) IN ($chunk)")))
	done < <(jq -r '.paid.reads[] | select(.status == 200) | "(UNHEX(\"\(.payer[2:])\"),UNHEX(\"\(.nonce[2:])\"),UNHEX(\"\(.tx[2:])\"))"' \
		<<<"$summary" | tr '"' "'" |
		awk 'NR % 200 == 1 { if (NR > 1) print s; s = $0; next } { s = s "," $0 } END { if (NR) print s }')
	is "$v" "$pok" \
		"  each paid read's payment is settled in x402_payments with its transaction"
	is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled' AND payer IN ($(
		hexlist '.chain.payers | keys[]'))")" "$pok" "  and no other payment of those payers is settled"
	pubs=$(jq .publications.requests <<<"$summary"); pok2=$(jq .publications.ok <<<"$summary")
	pids=$(jq -r '.profiles[]' <<<"$summary" | tr -d - | sed "s/.*/UNHEX('&')/" | paste -sd,)
	pids=${pids:-NULL}
	ok "$([ "$pubs" -gt 0 ] && [ "$pok2" = "$pubs" ] && [ "$pubs" = "$pok" ]; echo $?)" \
		"publications: all $pubs (one per paid read) answered 201 ($(jq -c .publications.byStatus <<<"$summary"))"
	is "$(sql "SELECT COUNT(*) FROM profile_activity WHERE activity_id IN ($(hexlist '.publications.items[].id'))")" \
		"$(jq '[.publications.items[].id | select(.)] | unique | length' <<<"$summary")" \
		"  every acknowledged publication is stored (none lost)"
	is "$(sql "SELECT COUNT(*) - COUNT(DISTINCT tx_hash) FROM profile_activity
		WHERE profile_id IN ($pids)")" 0 \
		"  no settlement is stored twice (none duplicated)"
	is "$(sql "SELECT COUNT(*) FROM profile_activity
		WHERE profile_id IN ($pids)")" \
		"$pok2" "  the load's profiles hold exactly its acknowledged publications"
}

race_link() { race=$(node "$top/t/tools/race.mjs" link "$@"); }
race_pay() { race=$(node "$top/t/tools/race.mjs" pay "$@"); }

# ---- on a cluster (tools/run-cluster-tests): the prelude of t/cluster/*.t
#   cluster_env       $cl (tools/cluster), its env (CLUSTER_*), $URL, $RPC,
#                     $USDC (the local chain's), sql on node $SQL_NODE (default
#                     1) after the cluster's earlier commits, $WAIT (seconds a
#                     condition is polled for: WAYMARK_CLUSTER_WAIT, default
#                     90) and $POLL (seconds between polls: WAYMARK_CLUSTER_POLL,
#                     default 0.2)
#   nsql N QUERY      one query on node N (database waymark), after the
#                     cluster's earlier commits
#   poll CMD...       until CMD succeeds, at most $WAIT seconds; fails if it never did
#   health_field JQ   jq -r JQ on /health through nginx (empty when no answer)
#   settled           how many x402_payments rows are settled
#   test_key NAME     a private key of its own for NAME (any key pays: an
#                     authorization needs no gas), the same in every run
cluster_env() {
	cl=$top/tools/cluster
	eval "$("$cl" env)"
	URL=$WAYMARK_TEST_URL
	RPC=$("$WAYMARK_BUILD/waymark" -c "$CLUSTER_CONF" config get rpc_url)
	USDC=$(jq -r .usdc "$CLUSTER_VAR/chain.json")
	STATE=$CLUSTER_VAR/chain.json
	WAIT=${WAYMARK_CLUSTER_WAIT:-90}
	POLL=${WAYMARK_CLUSTER_POLL:-0.2}
	# Defined here, not on sourcing: against one stack, t/lib/chain.sh's sql stays.
	sql() { nsql "${SQL_NODE:-1}" "$1"; }
}
nsql() { "$cl" sql "$1" "SET SESSION wsrep_sync_wait = 15; USE waymark; $2"; }
poll() {
	local end=$((SECONDS + WAIT))
	until "$@"; do
		[ $SECONDS -lt $end ] || return 1
		sleep "$POLL"
	done
}
health_field() { curl -s -m 5 "$URL/health" | jq -r "$1" 2>/dev/null; }
settled() { sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'"; }
test_key() { printf '0x%s' "$(printf 'waymark cluster test %s' "$1" | sha256sum | cut -c1-64)"; }
