#!/usr/bin/env bash
# One indexer at a time (indexer/lease.h; docs/ARCHITECTURE.md, Indexer):
# several indexers against one database, a 4 s lease (20 s in a sanitizer
# build, whose transaction of 500 events can outlast 4 s on a loaded
# machine, and lose the lease at its fence each time). Exactly one holds
# the lease and indexes; SIGKILL of the holder in the middle of a backfill
# and the standby takes over; SIGSTOP of the next holder past its lease,
# a third takes over, and after SIGCONT the paused one commits nothing
# (every checkpoint write is traced to its connection by a trigger) and
# stands by; SIGTERM releases the lease at once. After more events, the
# rows are exactly the chain's logs: none twice, none missing.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
lease=4000
[ -n "${WAYMARK_TEST_SANITIZER:-}" ] && lease=20000
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0 WAYMARK_INDEXER_LEASE_MS=$lease
chain_stack lease 14

lease_holder() { sql "SELECT holder FROM indexer_lease WHERE expires_at > UTC_TIMESTAMP(3)"; }
# until COMMAND succeeds, 180 s at most (polling, never a fixed wait; a
# ThreadSanitizer build indexes the 22,000 events several times slower)
until_ok() { local n=0; until "$@" || [ $n -ge 9000 ]; do n=$((n + 1)); sleep 0.02; done; "$@"; }
until_ok eval '[ -n "$(lease_holder)" ]'
like "$(lease_holder)" "^$(hostname -s | cut -c1-40):stack-[0-9a-f]{12}\$" \
	"the stack's indexer holds the lease under the stack's name for it, host:stack-hash ($(lease_holder))"
"$top/tools/stack" indexer-stop
grep -q 'lease: released' "$WAYMARK_VAR/log/indexer.log"
ok $? "the stack's indexer released the lease when it stopped (SIGTERM)"
holder_is() { [ "$(lease_holder)" = "$1" ]; }
says() { grep -q -- "$2" "$WAYMARK_VAR/log/ix-$1.log"; }
start_ix() { # start_ix ID [VAR=value...]: an indexer of its own, its PID in pid_ID
	local id=$1; shift
	env WAYMARK_CONFIG="$WAYMARK_VAR/waymark.conf" WAYMARK_INDEXER_ID="ix-$id" "$@" \
		"$WAYMARK_BUILD/waymark-indexer" >> "$WAYMARK_VAR/log/ix-$id.log" 2>&1 &
	eval "pid_$id=$!"
}
gone() { ! kill -0 "$1" 2>/dev/null; }

# A backfill of 20,000 recognitions, one block (500 events) per transaction.
emit=$(node "$top/chain/bench-emit.mjs" --rpc "$RPC" --state "$STATE" --events 20000)
from=$(jq -r .fromBlock <<<"$emit"); to=$(jq -r .toBlock <<<"$emit")
export WAYMARK_COMPANION_ADDRESS=$(jq -r .emitter <<<"$emit")
export WAYMARK_COMPANION_START_BLOCK=$from WAYMARK_INDEXER_BLOCK_RANGE=1
sql "DELETE FROM indexer_checkpoints"
routed_cp() { sql "SELECT IFNULL(MAX(block_number), 0) FROM indexer_checkpoints WHERE contract = UNHEX('${WAYMARK_COMPANION_ADDRESS#0x}')"; }
# Every committed checkpoint move, with the connection that made it.
sql "CREATE TABLE lease_audit (n INT AUTO_INCREMENT PRIMARY KEY, conn BIGINT UNSIGNED, block BIGINT,
	at DATETIME(3)) ENGINE=InnoDB;
	CREATE TRIGGER lease_audit AFTER UPDATE ON indexer_checkpoints FOR EACH ROW
	INSERT INTO lease_audit (conn, block, at) VALUES (CONNECTION_ID(), NEW.block_number, UTC_TIMESTAMP(3))"

start_ix a
until_ok holder_is ix-a; ok $? "indexer a takes the free lease"
start_ix b
until_ok says b 'ix-b stands by: ix-a holds the lease'; ok $? "indexer b stands by, naming the holder"
until_ok eval '[ "$(routed_cp)" -ge $((from + 4)) ]'; ok $? "the holder indexes (checkpoint $(routed_cp))"
says a 'ix-a holds the indexer lease'; ok $? "a logs that it holds the lease"
! says b 'ix-b holds'; ok $? "b never held it"
is "$(sql "SELECT COUNT(DISTINCT conn) FROM lease_audit")" 1 "one connection moved the checkpoints"

# SIGKILL the holder in the middle of the backfill.
cp=$(routed_cp)
ok "$([ "$cp" -lt "$to" ] && echo 0 || echo 1)" "the backfill is under way at the kill (block $cp of $to)"
kill -KILL "$pid_a"; until_ok gone "$pid_a"
until_ok holder_is ix-b; ok $? "after SIGKILL of a, b takes the lease over once it expired"
until_ok says b 'ix-b holds the indexer lease'; ok $? "b logs that it holds the lease"
until_ok eval '[ "$(routed_cp)" -gt "$cp" ]'; ok $? "b indexes on from the checkpoint a left"

# SIGSTOP the holder past its lease; a third indexer takes over.
start_ix c
until_ok says c 'ix-c stands by: ix-b holds'; ok $? "indexer c stands by"
kill -STOP "$pid_b"
stopped_at=$(sql "SELECT UTC_TIMESTAMP(3)")
until_ok holder_is ix-c; ok $? "b paused (SIGSTOP) past its lease: c takes it over"
kill -CONT "$pid_b"
until_ok says b 'lost the indexer lease'; ok $? "b, resumed, finds its lease lost"
until_ok says b 'ix-b stands by: ix-c holds'; ok $? "b stands by"
# More chain activity: 2,000 recognitions more, indexed by c.
more=$(node "$top/chain/bench-emit.mjs" --rpc "$RPC" --state "$STATE" --events 2000)
last=$(jq -r .toBlock <<<"$more")
until_ok eval '[ "$(routed_cp)" -ge "$last" ]'; ok $? "the new events are indexed up to block $last"
# A statement runs before its commit: b's last fenced one, if b was
# paused between it and its commit, is older than the pause.
is "$(sql "SELECT COUNT(DISTINCT conn) FROM lease_audit WHERE at > '$stopped_at'")" 1 \
	"since b was paused one connection (c's) moved the checkpoints: b committed nothing"
is "$(lease_holder)" ix-c "c still holds the lease"
is "$(grep -c 'ix-b holds' "$WAYMARK_VAR/log/ix-b.log")" 1 "b held it only once"

# Exactly once, no gap: the rows are the chain's logs.
is "$(sql "SELECT COUNT(*) FROM routed_boons")" 22000 "exactly 22,000 rows"
rpc eth_getLogs "[{\"address\":\"$WAYMARK_COMPANION_ADDRESS\",\"fromBlock\":\"$(printf '0x%x' "$from")\",\"toBlock\":\"$(printf '0x%x' "$last")\"}]" |
	jq -r '.[] | "\(.transactionHash) \(.logIndex)"' | sort > "$WAYMARK_VAR/chain-logs"
sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash))), CONCAT('0x', LOWER(HEX(log_index))) FROM routed_boons" |
	tr '\t' ' ' | sort > "$WAYMARK_VAR/db-rows"
is "$(wc -l < "$WAYMARK_VAR/chain-logs")" 22000 "the chain has 22,000 logs"
diff -q "$WAYMARK_VAR/chain-logs" "$WAYMARK_VAR/db-rows" >/dev/null
ok $? "the rows are exactly the chain's logs (transaction hash, log index)"
is "$(aggregate_diff)" "" "aggregates equal a recomputation from the rows"
h=$(curl -s "$URL/health")
is "$(jq -r .indexer.lease.holder <<<"$h")" ix-c "/health names the holder"
ok "$(jq -e --argjson l "$lease" '.indexer.lease.expiresIn > 0 and .indexer.lease.expiresIn <= $l' <<<"$h" >/dev/null && echo 0 || echo 1)" \
	"/health: the lease expires within the lease time ($(jq -c .indexer.lease <<<"$h"))"

# SIGTERM releases at once: with a 60 s lease, the next takes over without waiting it out.
kill -TERM "$pid_b" "$pid_c"; until_ok gone "$pid_b"; until_ok gone "$pid_c"
start_ix d WAYMARK_INDEXER_LEASE_MS=60000
until_ok holder_is ix-d; ok $? "indexer d (60 s leases) takes the free lease"
start_ix e
until_ok says e 'ix-e stands by: ix-d holds'; ok $? "indexer e stands by"
kill -TERM "$pid_d"; until_ok gone "$pid_d"
says d 'lease: released'; ok $? "d logs the release"
is "$(sql "SELECT COUNT(*) FROM indexer_lease WHERE expires_at > UTC_TIMESTAMP(3) AND holder = 'ix-d'")" 0 \
	"d's lease ended with its process, not 60 s later"
until_ok holder_is ix-e; ok $? "e takes the released lease"
kill -TERM "$pid_e"; until_ok gone "$pid_e"
h=$(curl -s "$URL/health")
is_json "$(jq -c .indexer.lease <<<"$h")" '{"holder":null,"expiresIn":null}' "/health: no holder once the last indexer stopped"
done_testing
