#!/usr/bin/env bash
# The free handle reads, the points policy, the board and a wallet's sent
# totals through the real stack on a local chain: tips of every kind sent
# with chain/tips.mjs (public, private, escrowed then claimed, pushed to
# linked handles, to an agent, refunded after the delay, a circular pair,
# a self-tip through escrow, dust, repeats on one day and the next), read
# once the indexer has them. Every answer is checked against t/schemas;
# the points of every handle and wallet are recomputed independently from
# tip_events (t/tools/points-recompute.mjs) and must equal the endpoints';
# so must each tip's own senderPoints and recipientPoints in the receipt of
# every tip transaction, which add up to those totals; the self-tip and the
# circular pair earn nothing; private amounts appear nowhere; an invalid
# handle is 400 naming the field. The points and profile answers carry
# exactly the members the interface lists for them, nothing more, and the
# policy says in prose what they leave out (docs/PROTOCOL.md, Handle
# reads). The test stack's board_ttl_ms is 0: every board read shows a
# changed index at once.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0
chain_stack points 130
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
keys() { node -e 'const {generatePrivateKey,privateKeyToAccount}=require(process.argv[1]);
	for (let i = 0; i < +process.argv[2]; i++) { const k = generatePrivateKey(); console.log(k, privateKeyToAccount(k).address); }' \
	"$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
tips() { node "$top/chain/tips.mjs" "$1" --rpc "$RPC" --state "$STATE" "${@:2}"; }
last=0
t() { # t COMMAND ARGS...: one transaction; remembers its block; prints its tipId or agentId
	local out; out=$(tips "$@") || { diag "tips.mjs $1 failed: $out"; return 1; }
	last=$(jq -r .blockNumber <<<"$out" | tail -n1)
	jq -r '.tipId // .agentId // empty' <<<"$out" | tail -n1
}

mapfile -t K < <(keys 6)
key() { cut -d' ' -f1 <<<"${K[$1]}"; }
adr() { cut -d' ' -f2 <<<"${K[$1]}"; }
A=$(key 0) B=$(key 1) C=$(key 2) D=$(key 3) E=$(key 4)
AA=$(adr 0) BA=$(adr 1) CA=$(adr 2) DA=$(adr 3) EA=$(adr 4)

# ---- the tips
t tip --from-key "$B" --handle github:alpha >/dev/null                      # B's first: earns
t tip --from-key "$B" --handle github:alpha >/dev/null                      # same pair, same day
t tip --from-key "$C" --handle github:alpha --private --amount 777777 --note "secret thanks" >/dev/null
t tip --from-key "$C" --handle github:alpha --amount 300000 >/dev/null     # same day again
t link --handle x:cyc1 --wallet "$EA" >/dev/null
t link --handle x:cyc2 --wallet "$BA" >/dev/null
t tip --from-key "$E" --handle x:cyc2 >/dev/null                            # E -> B's handle
t tip --from-key "$B" --handle x:cyc1 >/dev/null                            # B -> E's handle: a circle
t tip --from-key "$C" --handle x:cyc1 >/dev/null                            # a third wallet
t tip --from-key "$C" --handle x:cyc2 --amount 5000 >/dev/null              # dust
t tip --from-key "$D" --handle github:selfie >/dev/null                     # escrowed...
t link-claim --handle github:selfie --wallet "$DA" >/dev/null               # ...claimed by D: a self-tip
agent=$(t register --from-key "$A")
like "$agent" '^[1-9][0-9]*$' "an agent is registered (agent:$agent, owner A)"
t tip-agent --from-key "$B" --agent "$agent" >/dev/null
t tip-agent --from-key "$C" --agent "$agent" --private --amount 666666 >/dev/null
t advance-time --seconds 90000 >/dev/null
t tip --from-key "$B" --handle github:alpha >/dev/null                      # the next day: rank 2
refund=$(t tip --from-key "$B" --handle github:refundme)
t advance-time --seconds $((181 * 86400)) >/dev/null
t refund --from-key "$B" --tip "$refund" >/dev/null
t tip --from-key "$A" --handle github:late >/dev/null                       # moves the index clock
like "$last" '^[0-9]+$' "every tip, link, claim and refund was mined"
wait_indexed "$last"; ok $? "the indexer reaches block $last"
is "$(sql "SELECT COUNT(*), SUM(is_private), SUM(status = 'refunded'), SUM(status = 'claimed') FROM tips")" \
	"$(printf '14\t2\t1\t1')" "14 tips indexed: 2 private, 1 refunded, 1 claimed"

# ---- points: the endpoint equals the independent recomputation
handles=(github:alpha x:cyc1 x:cyc2 github:selfie "agent:$agent" github:refundme github:late github:nobody)
events=$(sql "SELECT event, IFNULL(tip_id, ''), block_number, log_index, block_time, LOWER(HEX(handle_hash)),
	agent_id, LOWER(HEX(actor)), LOWER(HEX(wallet)), usdc_amount, display_handle FROM tip_events")
recomputed=$(printf '%s\n' "$events" | node "$tools/points-recompute.mjs" \
	$(printf -- '--handle %s ' "${handles[@]}") --wallet "$BA" --wallet "$CA" --wallet "$DA" --wallet "$EA")
like "$(jq -r .asOf <<<"$recomputed")" '^[1-9][0-9]+$' "the recomputation's index clock"
all_bodies=
# The interface's members, sorted: the points answer, the profile answer and its profile object.
points_keys=$(jq -rn '["version", "handle", "points", "decayedPoints", "receivedPoints", "sentPoints",
	"sentPointsSource", "boonsSent", "boonsReceived", "linkedWallet", "policyVersion"] | sort | join(",")')
profile_keys=$(jq -rn '["version", "handle", "points", "receivedPoints", "sentPoints", "boonsReceived",
	"boonsSent", "profile"] | sort | join(",")')
profile_profile_keys=$(jq -rn '["handle", "linkedWallet", "totalReceived", "totalSent", "pushedAmount",
	"escrowedAmount", "claimedAmount", "firstTipAt", "lastTipAt"] | sort | join(",")')
for h in "${handles[@]}"; do
	req GET "/api/v1/handles/$h/points"
	is "$status" 200 "points of $h: 200"
	valid handle-points.json "$body" "points of $h (schema)"
	all_bodies+=$body
	want=$(jq -c --arg h "$h" '.handles[$h] | [.points, .decayedPoints, .receivedPoints, .sentPoints]' <<<"$recomputed")
	is "$(jqr '[.points, .decayedPoints, .receivedPoints, .sentPoints] | @json')" "$want" \
		"points of $h equal the recomputation from tip_events: $want"
	is "$(jqr 'keys | join(",")')" "$points_keys" "points of $h: exactly the interface's members"
done

req GET /api/v1/handles/github:alpha/points
is "$(jqr '[.receivedPoints, .sentPoints, .sentPointsSource, .linkedWallet, .boonsReceived] | @json')" \
	'["25000","0","unlinked",null,5]' \
	"github:alpha: B 10 + C 10 (private) + B again the next day 5; repeats the same day earn nothing; unlinked"
alpha=$body
is "$(jq '(.decayedPoints | tonumber) < (.points | tonumber) and (.decayedPoints | tonumber) > 0' <<<"$body")" true \
	"github:alpha: 182 days later its points have decayed (half-life 90 days)"
is "$(jqr .policyVersion)" "boon.points/v1" "the points name their policy"
req GET "/api/v1/handles/$(printf 'GitHub%%3AAlpha')/points"
is "$status,$(jqr .handle),$(jqr .points)" "200,github:alpha,$(jq -r .points <<<"$alpha")" "GitHub%3AAlpha is canonicalized to github:alpha"
req GET "/api/v1/handles/%20github:alpha%20/points"
is "$status,$(jqr .handle)" "200,github:alpha" "surrounding whitespace is trimmed"
req GET /api/v1/handles/github:alpha/points
is "$body" "$alpha" "reading again gives the same numbers"

req GET /api/v1/handles/x:cyc1/points
is "$(jqr '[.receivedPoints, .sentPoints, .sentPointsSource, .linkedWallet] | @json')" "[\"10000\",\"0\",\"linked_wallet\",\"$EA\"]" \
	"x:cyc1 (linked to E): only C's tip earns; B's, in a circle with E, earns nothing; E's own tip to B earns nothing"
req GET /api/v1/handles/x:cyc2/points
is "$(jqr '[.receivedPoints, .sentPoints, .sentPointsSource, .linkedWallet] | @json')" "[\"0\",\"5000\",\"linked_wallet\",\"$BA\"]" \
	"x:cyc2 (linked to B): E's circular tip and C's dust earn nothing; B's sent points 2 + 2 + 1 (circle, repeat and refund excluded)"
req GET /api/v1/handles/github:selfie/points
is "$(jqr '[.points, .receivedPoints, .sentPoints, .boonsReceived, .linkedWallet] | @json')" "[\"0\",\"0\",\"0\",1,\"$DA\"]" \
	"github:selfie: D's tip to a handle now linked to D (claimed by D) is a self-tip: nothing"
req GET "/api/v1/handles/agent:$agent/points"
is "$(jqr '[.receivedPoints, .sentPointsSource, .linkedWallet] | @json')" "[\"20000\",\"linked_wallet\",\"$AA\"]" \
	"agent:$agent: B's tip and C's private tip earn; its wallet is the registry's payout wallet (A)"
req GET /api/v1/handles/github:refundme/points
is "$(jqr '[.points, .boonsReceived] | @json')" '["0",1]' "github:refundme: the refunded tip earns nothing"
req GET /api/v1/handles/github:nobody/points
is "$(jqr '[.points, .decayedPoints, .sentPointsSource, .linkedWallet, .boonsReceived, .boonsSent] | @json')" \
	'["0","0","unlinked",null,0,0]' "an unknown handle: zeros, unlinked"

# ---- receipts: each tip's own points, as the recomputation has them and as they add up
txs=$(sql "SELECT LOWER(HEX(tx_hash)) FROM tips UNION SELECT LOWER(HEX(settled_tx_hash)) FROM tips
	WHERE settled_tx_hash IS NOT NULL")
rtips=; rbad=0; nrec=0
for tx in $txs; do
	req GET "/api/v1/receipts/0x$tx"
	v=$(printf '%s' "$body" | node "$tools/validate.mjs" "$schemas/tip-receipt.json" 2>&1)
	[ "$status,$v" = "200,valid" ] || { diag "receipt 0x$tx: $status $v"; rbad=1; }
	all_bodies+=$body
	rtips+=$(jq -c '.tips[] | {tipId, handle, tipper, status, private, amountUsdc, senderPoints,
		recipientPoints, pointsPolicyVersion}' <<<"$body")$'\n'
	nrec=$((nrec + 1))
done
is "$nrec" 16 "a receipt for each of the 16 tip transactions (14 tips, the claim, the refund)"
ok "$rbad" "every receipt is 200 and valid against tip-receipt.json"
is "$(jq -sc 'map([.tipId, .senderPoints, .recipientPoints]) | unique' <<<"$rtips")" \
	"$(jq -c '.tips | to_entries | map([.key] + .value) | unique' <<<"$recomputed")" \
	"every tip's senderPoints and recipientPoints, in every receipt that shows it, equal the recomputation"
is "$(jq -sc "unique_by(.tipId) | group_by(.handle) | map({key: .[0].handle,
	value: (map(.recipientPoints | tonumber) | add | tostring)}) | from_entries | $SORTED" <<<"$rtips")" \
	"$(jq -c ".handles | map_values(.receivedPoints) | with_entries(select(.key != \"github:nobody\")) | $SORTED" <<<"$recomputed")" \
	"the recipientPoints of a handle's tips add up to its receivedPoints, for every handle"
is "$(jq -sc --arg ws "$BA $CA $DA $EA" "unique_by(.tipId) as \$t | [(\$ws | split(\" \"))[] as \$w | {key: \$w,
	value: ([\$t[] | select(.tipper == \$w) | .senderPoints | tonumber] | add // 0 | tostring)}] | from_entries | $SORTED" <<<"$rtips")" \
	"$(jq -c ".wallets | map_values(.sentPoints) | $SORTED" <<<"$recomputed")" \
	"the senderPoints of a wallet's tips add up to its sentPoints, for B, C, D and E"
req GET /api/v1/points/policy
is "$(jq -sc 'map(.pointsPolicyVersion) | unique' <<<"$rtips")" "[$(jqr '.policyVersion | @json')]" \
	"every tip names the policy as points/policy does"
pick() { jq -sc "unique_by(.tipId) | sort_by(.tipId | tonumber) | map(select($1)) |
	map([.status, .private, .amountUsdc, .senderPoints, .recipientPoints])" <<<"$rtips"; }
is "$(pick '.handle == "github:selfie"')" '[["CLAIMED",false,"250000","0","0"]]' \
	"the self-tip (claimed by its own tipper D): 0 and 0"
is "$(pick '.handle == "x:cyc1"')" '[["PUSHED",false,"250000","0","0"],["PUSHED",false,"250000","2000","10000"]]' \
	"pushed to x:cyc1: B's tip, in a circle with E, 0 and 0; C's, a new sender, 2 points to C and 10 to the handle"
is "$(pick ".handle == \"github:alpha\" and .tipper == \"$BA\"")" \
	'[["ESCROWED",false,"250000","2000","10000"],["ESCROWED",false,"250000","0","0"],["ESCROWED",false,"250000","1000","5000"]]' \
	"B's three tips to github:alpha: the first earns 2 and 10, the same day's second nothing, the next day's third 1 and 5"
is "$(pick '.private')" '[["ESCROWED",true,null,"2000","10000"],["PUSHED",true,null,"2000","10000"]]' \
	"private tips show their points as the totals count them (never dust, no amount involved), never their amount"

# ---- has-boons
req GET /api/v1/handles/x:cyc2/has-boons
is "$status" 200 "has-boons: 200"
valid has-boons.json "$body" "has-boons of x:cyc2 (schema)"
is "$(jqr '[.hasBoons, .hasBoonsReceived, .hasBoonsSent, .hasAnyBoonActivity, .boonsReceived, .boonsSent] | @json')" \
	'[true,true,true,true,2,6]' "x:cyc2: received 2 and its wallet B sent 6 (brand-word names)"
all_bodies+=$body
req GET /api/v1/handles/github:alpha/has-boons
is "$(jqr '[.hasBoons, .hasBoonsReceived, .hasBoonsSent, .hasAnyBoonActivity, .boonsReceived, .boonsSent] | @json')" \
	'[true,true,false,true,5,0]' "github:alpha: received, sent nothing (unlinked)"
req GET /api/v1/handles/github:nobody/has-boons
valid has-boons.json "$body" "has-boons of an unknown handle (schema)"
is "$(jqr '[.hasBoons, .hasBoonsReceived, .hasBoonsSent, .hasAnyBoonActivity, .boonsReceived, .boonsSent] | @json')" \
	'[false,false,false,false,0,0]' "an unknown handle has nothing"

# ---- profile
for h in github:alpha x:cyc2 "agent:$agent" github:nobody; do
	req GET "/api/v1/handles/$h/profile"
	is "$status" 200 "profile of $h: 200"
	valid handle-profile.json "$body" "profile of $h (schema)"
	all_bodies+=$body
	want=$(jq -c --arg h "$h" '.handles[$h] | [.points, .receivedPoints, .sentPoints]' <<<"$recomputed")
	is "$(jqr '[.points, .receivedPoints, .sentPoints] | @json')" "$want" "profile of $h carries the same points ($want)"
	is "$(jqr 'keys | join(",")'),$(jqr '.profile | keys | join(",")')" "$profile_keys,$profile_profile_keys" \
		"profile of $h: exactly the interface's members (no decayedPoints), and those of its profile object"
done
req GET /api/v1/handles/github:alpha/profile
is "$(jqr '[.profile.totalReceived, .profile.pushedAmount, .profile.escrowedAmount, .profile.claimedAmount, .profile.totalSent, .profile.linkedWallet] | @json')" \
	'["1050000","0","1050000","0","0",null]' "github:alpha: public tips only (250000 x 3 + 300000, escrowed); the private amount is in no total"
is "$(jqr '.profile.firstTipAt < .profile.lastTipAt')" true "first and last tip times (Unix seconds)"
is "$(jqr '[paths | map(tostring) | join(".")] | map(select(test("tips|items|list"))) | length')" 0 \
	"the profile has no per-tip list"
req GET /api/v1/handles/x:cyc2/profile
is "$(jqr '[.profile.totalReceived, .profile.pushedAmount, .profile.totalSent, .profile.linkedWallet] | @json')" \
	"[\"255000\",\"255000\",\"1250000\",\"$BA\"]" "x:cyc2: pushed to B; B's public tips sent, the refunded one excluded"

# ---- invalid handles: 400 naming the field, on every handle read
for p in has-boons profile points; do
	for h in foo:bar github:-bad agent:01 x:waytoolongname_1 "agent:%201" "github:"; do
		req GET "/api/v1/handles/$h/$p"
		if [ "$status,$(jqr .error),$(jqr .field)" != "400,invalid_field,handle" ]; then
			diag "$p $h: $status $body"; bad=1
		fi
	done
done
ok "${bad:-0}" "an invalid canonical handle is 400 invalid_field naming handle, on has-boons, profile and points"
req GET /api/v1/handles/foo:bar/points
valid error.json "$body" "the 400 body (schema)"

# ---- policy
req GET /api/v1/points/policy
is "$status" 200 "points/policy: 200"
valid points-policy.json "$body" "the policy (schema)"
is "$(jqr '[.policyVersion, .policy_version, .pointScale, .rules.weights.receivedFirst, .rules.weights.sentFirst, .rules.decay.halfLifeSeconds, .rules.perPairPerDay, .rules.minPublicTipUsdc] | @json')" \
	'["boon.points/v1","boon.points/v1","1000","10000","2000",7776000,1,"10000"]' "the rules as data: scale, weights, half-life, pair cap, dust floor"
is "$(jqr '[.rules.exclusions[].reason] | join(",")')" "refunded,dust,self,circular,pair_day" "the exclusions in the order they apply"
like "$(jqr .rules.handleReads)" "newest indexed tip.*independent senders" \
	"the policy says in prose what the handle reads leave out (independent senders, the index clock)"

# ---- board and its alias
req GET /api/v1/board
is "$status" 200 "board: 200"
valid board.json "$body" "the board (schema)"
all_bodies+=$body
board=$body
is "$(jqr '.recipients[0] | [.id, .tipCount, .uniqueTippers] | @json')" '["github:alpha",5,2]' "the top recipient: most tips received"
is "$(jqr '[.recipients[].tipCount] | . == (sort | reverse)')" true "recipients are ordered by tips received"
is "$(jqr '[.tippers[].tipCount] | . == (sort | reverse)')" true "tippers are ordered by tips sent"
is "$(jqr '.tippers[0] | [.id, .tipCount, .uniqueRecipients] | @json')" "[\"$BA\",6,4]" "the top tipper: B (six tips to four handles)"
is "$(jqr '[.stats.tipCount, .stats.privateTipCount, .stats.uniqueTippers, .stats.uniqueRecipients, .stats.linkedRecipients, .stats.agents] | @json')" \
	"$(sql "SELECT CONCAT('[', COUNT(*), ',', SUM(is_private), ',', COUNT(DISTINCT tipper), ',', COUNT(DISTINCT handle_hash), ',3,1]') FROM tips")" \
	"the stats count every tip, the private ones, tippers, recipients, 3 linked handles and 1 agent"
is "$(jqr '.stats.totalTipped')" "$(sql "SELECT SUM(usdc_amount) FROM tips WHERE status <> 'refunded'")" "totalTipped: public tips, refunds excluded"
is "$(jq -r --arg a "agent:$agent" '.recipients[] | select(.id == $a) | .linkedWallet' <<<"$body")" "$AA" "an agent's row shows its payout wallet"
req GET /api/leaderboard
is "$status,$body" "200,$board" "/api/leaderboard answers exactly the board"
req GET "/api/v1/board?limit=2"
is "$(jqr '[(.recipients | length), (.tippers | length)] | @json')" '[2,2]' "limit=2: two of each"
req GET "/api/v1/board?limit=0"
is "$status,$(jqr .field)" "400,limit" "limit=0: 400"
req GET "/api/leaderboard?limit=51"
is "$status,$(jqr .field)" "400,limit" "limit=51 on the alias: 400"

# ---- wallets/{address}/sent
for w in "$BA" "$CA" "$DA" "$EA"; do
	req GET "/api/v1/wallets/$w/sent"
	valid wallet-sent.json "$body" "sent totals of $w (schema)"
	all_bodies+=$body
	is "$(jqr .tipper.sentPoints)" "$(jq -r --arg w "$w" '.wallets[$w].sentPoints' <<<"$recomputed")" \
		"sentPoints of $w equal the recomputation"
done
req GET "/api/v1/wallets/$(tr 'A-F' 'a-f' <<<"$CA")/sent"
is "$(jqr '[.address, .tipper.tipCount, .tipper.privateTipCount, .tipper.totalSent, .tipper.sentPoints] | @json')" \
	"[\"$CA\",5,2,\"555000\",\"6000\"]" "C (lowercase in the path): 5 tips, 2 private, public total 555000, 2 + 2 + 2 points"
req GET "/api/v1/wallets/$AA/sent"
is "$(jqr '.tipper.tipCount')" 1 "A sent one tip"
req GET /api/v1/wallets/0x9999999999999999999999999999999999999999/sent
is "$status,$(jqr .tipper)" "200,null" "a wallet that sent nothing: tipper null"
valid wallet-sent.json "$body" "the empty answer (schema)"
req GET /api/v1/wallets/0x12345/sent
is "$status,$(jqr .field)" "400,address" "an invalid address: 400"

# ---- private tips: counted, never their amount or note
is "$(grep -c -e 777777 -e 666666 -e 'secret thanks' <<<"$all_bodies")" 0 \
	"no answer carries a private tip's amount or note"
is "$(sql "SELECT COUNT(*) FROM tips WHERE is_private = 1 AND (usdc_amount IS NOT NULL OR note IS NOT NULL)")" 0 \
	"the index holds no private amount or note either"

# ---- the board with board_ttl_ms 0 (tools/stack's test setting): no thread answers from a cache
boards() { # boards N: N board reads over one connection, one summary line each
	local args=() i
	for i in $(seq "$1"); do args+=("$URL/api/v1/board"); done
	curl -s "${args[@]}" | jq -c '[.stats.tipCount, .stats.attestations, ([.recipients[].id] | index("github:fresh") != null)]'
}
before=$(boards 20 | sort -u)
is "$(wc -l <<<"$before")" 1 "twenty board reads agree: $before"
n0=$(jq '.[0]' <<<"$before"); a0=$(jq '.[1]' <<<"$before")
sql "UPDATE tip_chain_stats SET attestations = attestations + 1000"
is "$(boards 20 | sort -u)" "[$n0,$((a0 + 1000)),false]" \
	"right after the chain row changes, every one of twenty board reads shows it (none is a cached answer)"
t tip --from-key "$A" --handle github:fresh >/dev/null
wait_indexed "$last"; ok $? "a new tip is indexed"
is "$(boards 20 | sort -u)" "[$((n0 + 1)),$a0,true]" \
	"once it is indexed, every board read shows the new tip and recipient (and the chain row the indexer recomputed)"

# ---- a linked handle that only sent: its profile's totalSent is its wallet's public tips
F=$(key 5) FA=$(adr 5)
t link --handle x:solo --wallet "$FA" >/dev/null
t tip --from-key "$F" --handle github:solorecv --amount 250000 >/dev/null   # escrowed: at least 100000
t tip --from-key "$F" --handle github:solorecv --amount 300000 >/dev/null
t tip --from-key "$F" --handle github:solorecv --private --amount 100000 --note "kept private" >/dev/null
wait_indexed "$last"; ok $? "x:solo's link and its wallet's three tips are indexed"
req GET /api/v1/handles/x:solo/profile
valid handle-profile.json "$body" "profile of x:solo, which only sent (schema)"
is "$(jqr '[.profile.totalSent, .profile.totalReceived, .boonsSent, .boonsReceived, .profile.linkedWallet, .profile.firstTipAt] | @json')" \
	"[\"550000\",\"0\",3,0,\"$FA\",null]" \
	"x:solo only sent: totalSent 550000 (250000 + 300000, the private tip in the count only), nothing received"

done_testing
