# t/lib/chain.sh: a stack of the test's own with a local chain.
#   chain_stack NAME OFFSET   start it (WAYMARK_* overrides may be exported first)
#   rpc METHOD PARAMS         JSON-RPC to its anvil; prints .result
#   sql QUERY                 one query against its MariaDB, tab-separated
#   send ARGS...              chain/send.mjs against it (prints JSON lines)
#   wait_indexed BLOCK        until the checkpoint reaches BLOCK (10 s at most)
#   rpc_record PORT           t/tools/rpc-record.mjs in front of its anvil on PORT:
#                             RECORD_URL is the proxy, RECORD_PID its process
#   rpc_calls METHOD          how many METHOD calls the proxy has forwarded
#   rpc_delay MS              the proxy holds every later request MS ms (0: none)
top=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)   # this file is t/lib/chain.sh
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"

# port_ok OFFSET: whether t/ports gives OFFSET to this test file.
port_ok() {
	awk -v f="$(basename "$0")" -v o="$1" '!/^#/ && $1 == f { for (i = 2; i <= NF; i++) {
		n = split($i, r, "-"); if (o >= r[1] && o <= (n > 1 ? r[2] : r[1])) found = 1 } }
		END { exit !found }' "$top/t/ports"
}

chain_stack() {
	if ! port_ok "$2"; then
		echo "chain_stack: port offset $2 is not $(basename "$0")'s in t/ports" >&2
		exit 1
	fi
	export WAYMARK_VAR=$WAYMARK_VAR-$1
	export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + $2))
	export WAYMARK_ANVIL_PORT=$((WAYMARK_TEST_PORT_BASE + 465 + $2))
	RPC=http://127.0.0.1:$WAYMARK_ANVIL_PORT
	URL=http://$WAYMARK_LISTEN
	STATE=$WAYMARK_VAR/chain.json
	rm -rf "$WAYMARK_VAR"
	trap '"$top/tools/stack" stop >/dev/null 2>&1' EXIT
	"$top/tools/stack" start >/dev/null
}

rpc() {
	local data="{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"$1\",\"params\":$2}" status body headers
	if [ -n "${wm_builtins:-}" ]; then   # t/lib/tap.sh
		wm_http POST "$RPC" -H 'Content-Type: application/json' --data-binary "$data"
		jq -c .result <<<"$body"
	else
		curl -s -H 'Content-Type: application/json' -d "$data" "$RPC" | jq -c .result
	fi
}

sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }

send() { node "$top/chain/send.mjs" --rpc "$RPC" --state "$STATE" "$@"; }

checkpoint() { sql "SELECT MIN(block_number) FROM indexer_checkpoints"; }

wait_indexed() {
	local n=0
	until [ "$(checkpoint)" -ge "$1" ] 2>/dev/null || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
	[ "$(checkpoint)" -ge "$1" ] 2>/dev/null
}

rpc_record() {
	RECORD_URL=http://127.0.0.1:$1
	node "$top/t/tools/rpc-record.mjs" --upstream "$RPC" --port "$1" > "$WAYMARK_VAR/record.out" \
		2>> "$WAYMARK_VAR/log/record.log" &
	RECORD_PID=$!
	local n=0
	until grep -q listening "$WAYMARK_VAR/record.out" 2>/dev/null || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
	grep -q listening "$WAYMARK_VAR/record.out"
}
rpc_calls() { local status body headers; wreq GET "$RECORD_URL/calls"; jq -r --arg m "$1" '.[$m] // 0' <<<"$body"; }
rpc_delay() { local status body headers; wreq POST "$RECORD_URL/delay/$1"; }

head_block() { printf '%d' "$(rpc eth_blockNumber '[]' | tr -d '"')"; }

# Anvil's public test keys #7 and #8, and two payTo wallets, for tippers.
KEY7=0x4bbbf85ce3377467afe5d46f804f221813b2bb87f24d81f60f1fcdbf7cbf4356
KEY8=0xdbda1821b80551c9d65939329250298aa3472ba22feea921c0cf5d620ea67b97
PAY_A=0x1111111111111111111111111111111111111111
PAY_B=0x2222222222222222222222222222222222222222
NET_C=0x3333333333333333333333333333333333333333
ROUTE_1=0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73
ROUTE_2=0x35ca36eb3066899ffbe2cd47c08d312b6276ebc87a2027a8f06096c1199734e7

# SQL that recomputes the aggregates from the rows and diffs them with the
# stored ones: prints nothing when they agree.
aggregate_diff() {
	sql "SELECT HEX(s.route_id) FROM route_recognition_stats s LEFT JOIN (
		SELECT chain_id, route_id, COUNT(*) c, COUNT(DISTINCT tipper) t, SUM(endpoint_usdc) e,
		       SUM(network_usdc) n, SUM(boon_burned) b, MIN(block_time) f, MAX(block_time) l,
		       MAX(block_number) lb FROM routed_boons GROUP BY chain_id, route_id) r
		ON r.chain_id = s.chain_id AND r.route_id = s.route_id
		WHERE r.route_id IS NULL OR s.recognition_count <> r.c OR s.tipper_count <> r.t
		   OR s.endpoint_usdc <> r.e OR s.network_usdc <> r.n OR s.total_usdc <> r.e + r.n
		   OR s.boon_burned <> r.b OR s.first_block_time <> r.f OR s.latest_block_time <> r.l
		   OR s.latest_block_number <> r.lb
		UNION ALL SELECT HEX(route_id) FROM routed_boons b WHERE NOT EXISTS (
		   SELECT 1 FROM route_recognition_stats s WHERE s.chain_id = b.chain_id AND s.route_id = b.route_id)
		UNION ALL SELECT CONCAT('wallet ', HEX(w.wallet), ' ', w.role) FROM wallet_roles w WHERE w.recognition_count <> (
		   SELECT COUNT(*) FROM routed_boons b WHERE b.chain_id = w.chain_id AND (
		     (w.role = 'tipper' AND b.tipper = w.wallet) OR
		     (w.role = 'endpoint' AND b.endpoint_pay_to = w.wallet AND b.endpoint_usdc > 0) OR
		     (w.role = 'network' AND b.network_pay_to = w.wallet AND b.network_usdc > 0)))
		UNION ALL SELECT CONCAT('missing tipper role ', HEX(b.tipper)) FROM routed_boons b WHERE NOT EXISTS (
		   SELECT 1 FROM wallet_roles w WHERE w.wallet = b.tipper AND w.role = 'tipper')"
}

# tips.mjs against the stack (prints JSON lines).
tips() { local c=$1; shift; node "$top/chain/tips.mjs" "$c" --rpc "$RPC" --state "$STATE" "$@"; }

# Anvil's public test keys #1..#6 (the demo seed uses them too).
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d
KEY2=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a
KEY3=0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
KEY4=0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a
KEY5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba
KEY6=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e

# SQL that recomputes every tip table from tip_events (the record) in a way
# of its own and prints each row that differs from the stored one: nothing
# when they agree.
tips_diff() {
	sql "
	-- one tips row per creating event, and nothing else
	SELECT CONCAT('tips count ', (SELECT COUNT(*) FROM tips), ' <> creations ', COUNT(*)) FROM tip_events
	  WHERE event IN ('Tip', 'TipEscrowed', 'TipAgent', 'PrivateTip', 'PrivateTipEscrowed')
	  HAVING COUNT(*) <> (SELECT COUNT(*) FROM tips)
	UNION ALL
	SELECT CONCAT('tip ', c.tip_id) FROM tip_events c
	  LEFT JOIN tips t ON t.chain_id = c.chain_id AND t.tip_id = c.tip_id
	  LEFT JOIN tip_events cl ON cl.chain_id = c.chain_id AND cl.tip_id = c.tip_id AND cl.event = 'EscrowedClaimed'
	  LEFT JOIN tip_events rf ON rf.chain_id = c.chain_id AND rf.tip_id = c.tip_id AND rf.event = 'EscrowedRefunded'
	  WHERE c.event IN ('Tip', 'TipEscrowed', 'TipAgent', 'PrivateTip', 'PrivateTipEscrowed') AND (
	    t.tip_id IS NULL
	    OR t.status <> (CASE WHEN cl.tx_hash IS NOT NULL THEN 'claimed' WHEN rf.tx_hash IS NOT NULL THEN 'refunded'
	                         WHEN c.event IN ('TipEscrowed', 'PrivateTipEscrowed') THEN 'escrowed' ELSE 'pushed' END)
	    OR t.tipper <> c.actor OR t.handle_hash <> c.handle_hash OR t.handle <> c.display_handle
	    OR t.is_private <> (c.event LIKE 'Private%')
	    OR NOT (t.usdc_amount <=> IF(c.event LIKE 'Private%', NULL, c.usdc_amount))
	    OR NOT (t.note <=> IF(c.event LIKE 'Private%', NULL, IFNULL(c.note, '')))
	    OR NOT (t.recipient <=> IF(rf.tx_hash IS NOT NULL, NULL, IFNULL(cl.wallet, c.wallet)))
	    OR t.kind <> IF(LEFT(c.display_handle, 6) = 'agent:', 'agent', 'handle')
	    OR (t.kind = 'agent' AND NOT (t.agent_id <=> SUBSTRING(c.display_handle, 7)))
	    OR t.boon_burned <> IF(c.event LIKE 'Private%', 500000000000000000000000, 0)
	       + IF(t.mint_attestation, 3000000000000000000000000, 0))
	UNION ALL
	-- per handle
	SELECT CONCAT('handle ', t.handle) FROM (
	    SELECT chain_id, handle_hash, MAX(handle) handle, COUNT(*) n, SUM(is_private) p, COUNT(DISTINCT tipper) tp,
	      SUM(CASE WHEN status = 'pushed' THEN 1 ELSE 0 END) np, SUM(CASE WHEN status = 'escrowed' THEN 1 ELSE 0 END) ne,
	      SUM(CASE WHEN status = 'claimed' THEN 1 ELSE 0 END) nc, SUM(CASE WHEN status = 'refunded' THEN 1 ELSE 0 END) nr,
	      SUM(CASE WHEN is_private = 0 AND status <> 'refunded' THEN usdc_amount ELSE 0 END) tot,
	      SUM(CASE WHEN is_private = 0 AND status = 'pushed' THEN usdc_amount ELSE 0 END) pu,
	      SUM(CASE WHEN is_private = 0 AND status = 'escrowed' THEN usdc_amount ELSE 0 END) es,
	      SUM(CASE WHEN is_private = 0 AND status = 'claimed' THEN usdc_amount ELSE 0 END) cl,
	      SUM(CASE WHEN is_private = 0 AND status = 'refunded' THEN usdc_amount ELSE 0 END) rf,
	      MIN(block_time) f, MAX(block_time) l
	    FROM tips GROUP BY chain_id, handle_hash) t
	  LEFT JOIN handle_tip_stats h ON h.chain_id = t.chain_id AND h.handle_hash = t.handle_hash
	  WHERE h.handle_hash IS NULL OR h.tips_received <> t.n OR h.private_received <> t.p OR h.tipper_count <> t.tp
	    OR h.pushed_count <> t.np OR h.escrowed_count <> t.ne OR h.claimed_count <> t.nc OR h.refunded_count <> t.nr
	    OR h.total_usdc <> t.tot OR h.pushed_usdc <> t.pu OR h.escrowed_usdc <> t.es OR h.claimed_usdc <> t.cl
	    OR h.refunded_usdc <> t.rf OR h.received_usdc <> t.pu + t.cl OR h.first_tip_at <> t.f OR h.last_tip_at <> t.l
	UNION ALL
	SELECT CONCAT('stale handle row ', h.handle) FROM handle_tip_stats h WHERE NOT EXISTS (
	    SELECT 1 FROM tips t WHERE t.chain_id = h.chain_id AND t.handle_hash = h.handle_hash)
	UNION ALL
	-- per wallet (sent, and paid to it)
	SELECT CONCAT('wallet ', HEX(w.wallet)) FROM wallet_tip_stats w WHERE
	    w.tips_sent <> (SELECT COUNT(*) FROM tips t WHERE t.chain_id = w.chain_id AND t.tipper = w.wallet)
	    OR w.private_sent <> (SELECT COUNT(*) FROM tips t WHERE t.chain_id = w.chain_id AND t.tipper = w.wallet AND t.is_private)
	    OR w.handles_tipped <> (SELECT COUNT(DISTINCT handle_hash) FROM tips t WHERE t.chain_id = w.chain_id AND t.tipper = w.wallet)
	    OR w.sent_usdc <> (SELECT IFNULL(SUM(usdc_amount), 0) FROM tips t WHERE t.chain_id = w.chain_id
	                       AND t.tipper = w.wallet AND t.status <> 'refunded')
	    OR w.refunded_usdc <> (SELECT IFNULL(SUM(usdc_amount), 0) FROM tips t WHERE t.chain_id = w.chain_id
	                       AND t.tipper = w.wallet AND t.status = 'refunded')
	    OR w.tips_paid <> (SELECT COUNT(*) FROM tips t WHERE t.chain_id = w.chain_id AND t.recipient = w.wallet)
	    OR w.paid_usdc <> (SELECT IFNULL(SUM(usdc_amount), 0) FROM tips t WHERE t.chain_id = w.chain_id AND t.recipient = w.wallet)
	UNION ALL
	SELECT CONCAT('missing wallet row ', HEX(x.w)) FROM (SELECT chain_id, tipper w FROM tips UNION
	    SELECT chain_id, recipient FROM tips WHERE recipient IS NOT NULL) x
	  WHERE NOT EXISTS (SELECT 1 FROM wallet_tip_stats s WHERE s.chain_id = x.chain_id AND s.wallet = x.w)
	UNION ALL
	-- per chain
	SELECT 'chain totals' FROM tip_chain_stats c WHERE
	    c.tips <> (SELECT COUNT(*) FROM tips t WHERE t.chain_id = c.chain_id)
	    OR c.private_tips <> (SELECT COUNT(*) FROM tips t WHERE t.chain_id = c.chain_id AND t.is_private)
	    OR c.tippers <> (SELECT COUNT(DISTINCT tipper) FROM tips t WHERE t.chain_id = c.chain_id)
	    OR c.recipients <> (SELECT COUNT(DISTINCT handle_hash) FROM tips t WHERE t.chain_id = c.chain_id)
	    OR c.total_usdc <> (SELECT IFNULL(SUM(usdc_amount), 0) FROM tips t WHERE t.chain_id = c.chain_id AND t.status <> 'refunded')
	    OR c.refunded_usdc <> (SELECT IFNULL(SUM(usdc_amount), 0) FROM tips t WHERE t.chain_id = c.chain_id AND t.status = 'refunded')
	    OR c.attestations <> (SELECT COUNT(*) FROM tip_events e WHERE e.chain_id = c.chain_id AND e.event = 'AttestationMinted')
	       - (SELECT COUNT(*) FROM tip_events e WHERE e.chain_id = c.chain_id AND e.event = 'AttestationBurned')
	    OR c.linked_handles <> (SELECT COUNT(DISTINCT handle_hash) FROM tip_events e WHERE e.chain_id = c.chain_id AND e.event = 'Linked')
	    OR c.agents <> (SELECT COUNT(*) FROM tip_events e WHERE e.chain_id = c.chain_id AND e.event = 'AgentRegistered')
	UNION ALL
	-- links: the wallet of the last Linked/Relinked
	SELECT CONCAT('link ', HEX(l.handle_hash)) FROM handle_links l WHERE l.wallet <> (
	    SELECT e.wallet FROM tip_events e WHERE e.chain_id = l.chain_id AND e.handle_hash = l.handle_hash
	      AND e.event IN ('Linked', 'Relinked') ORDER BY e.block_number DESC, e.log_index DESC LIMIT 1)
	UNION ALL
	SELECT CONCAT('missing link ', HEX(e.handle_hash)) FROM tip_events e WHERE e.event = 'Linked' AND NOT EXISTS (
	    SELECT 1 FROM handle_links l WHERE l.chain_id = e.chain_id AND l.handle_hash = e.handle_hash)
	UNION ALL
	-- agents: payout = the agent wallet, else the owner
	SELECT CONCAT('agent ', a.agent_id) FROM agents a WHERE a.payout_wallet <> IFNULL(a.agent_wallet, a.owner)
	UNION ALL
	-- no private amount anywhere
	SELECT CONCAT('private amount kept for tip ', e.tip_id) FROM tip_events e
	  WHERE e.usdc_amount IS NOT NULL AND EXISTS (SELECT 1 FROM tip_events p WHERE p.chain_id = e.chain_id
	    AND p.tip_id = e.tip_id AND p.event IN ('PrivateTip', 'PrivateTipEscrowed'))"
}
