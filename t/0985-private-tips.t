#!/usr/bin/env bash
# Private tips (docs/PROTOCOL.md, Private tips) through the real stack on the
# local chain, with tips sent by chain/tips.mjs (tipPrivate and
# tipPrivateAgent), indexed by the real indexer, and the reference x402
# facilitator: blobs bound to the commitment keccak256(salt || note), which
# this test computes itself (t/tools/privtip-blob.mjs): 201, the identical
# repeat 200, a mismatch 422, a different blob under a stored commitment 409
# (a row planted in MariaDB, sealed here with node's AES-256-GCM under the
# stack's key); pending previews; every public read (receipts, handle reads,
# the board, wallet sent, attestations, the paid gratitude graph, discovery,
# the MCP and A2A lookups) searched for every note, amount, commitment and
# salt; a stranger's unlock paid with the real x402 client, exactly
# 1,000,000 atomic USDC to the tipper, and another with the MPP client
# (mppx); unlocks whose settlement lands after the timeout, never lands, is
# refused (the grant counts for nothing) or lands and is then refused by a
# wrong facilitator (the chain tells; no note on the header; the payer reads
# by signature); the free signed unlocks
# (t/tools/unlock.mjs): the tipper, the linked recipient and after a relink
# only the new wallet, an agent's owner and agent wallet; a used nonce, a
# wrong signer and the same nonce then used by the tipper; two concurrent
# uses of one nonce held at its row lock until both wait on it (exactly one
# wins); a stranger's own tip that copies a commitment from the chain
# (t/tools/copy-commitment.mjs), unlocked and disclosed by its tipper without
# the note (a blob is the earliest tip's); the tipper's disclosure
# (t/tools/disclosure-sign.mjs) shown in the tip records, then withdrawn for
# good (the old signature refused after it, in each of its encodings); bad
# input of every kind. Every answer is validated by its JSON Schema in
# t/schemas (the verdicts come from one run of the validator), and no answer
# is a 5xx.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
# A settlement with no answer within 3 s is an unknown outcome (the late unlock below).
export WAYMARK_FACILITATOR_TIMEOUT_MS=3000
paid_stack privtips 170
tools=$top/t/tools
schemas=$top/t/schemas
viem=$tools/node_modules/viem/_cjs
b=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
TIPS=$(jq -r .tips "$STATE")
CHAIN_ID=$(printf '%d' "$(rpc eth_chainId '[]' | tr -d '"')")
SEALKEY=$(sed -n 's/^private_tip_key *= *//p' "$WAYMARK_VAR/waymark.conf")
like "$SEALKEY" '^[0-9a-fA-F]{64}$' "the stack's configuration has a private_tip_key"

pdir=$WAYMARK_VAR/privtips; rm -rf "$pdir"; mkdir -p "$pdir"
seen=$pdir/statuses; : > "$seen"        # every status of this test: no 5xx at the end
scan=$pdir/public; : > "$scan"          # public answers (bodies and headers): no secret may appear
held=$pdir/held; : > "$held"            # answers that may carry a secret (unlocks, disclosed reads)
# q FILE METHOD PATH [curl args]: like req (t/lib/http.sh) with fewer processes; logs the
# status, and the headers and body to FILE. r: a public read; rs: an answer that may carry a secret.
q() {
	local file=$1 method=$2 path=$3; shift 3
	wreq "$method" "$URL$path" "$@"
	printf '%s %s %s\n' "$status" "$method" "$path" >> "$seen"
	printf '%s\n%s\n' "$headers" "$body" >> "$file"
}
r() { q "$scan" "$@"; }
rs() { q "$held" "$@"; }
# valid SCHEMA JSON DESCRIPTION: judged by validate_all, one validator run for all.
vlist=$pdir/validate.list; : > "$vlist"; vdesc=()
valid() {
	local f=$pdir/doc-${#vdesc[@]}.json
	printf '%s' "$2" > "$f"; printf '%s %s\n' "$schemas/$1" "$f" >> "$vlist"; vdesc+=("$3")
}
validate_all() {
	local i verdicts
	mapfile -t verdicts < <(cd "$tools" && node a2a-client.mjs validate "$vlist" | jq -r '.[] | if . == "valid" then . else tojson end')
	for i in "${!vdesc[@]}"; do is "${verdicts[$i]}" valid "${vdesc[$i]}"; done
}
err_is() { # err_is STATUS CODE FIELD DESCRIPTION: the answer is that error ("" for no field)
	is "$status,$(jq -r '[.error, (.field // "")] | join(",")' <<<"$body" 2>/dev/null)" "$1,$2,$3" "$4"
	valid error.json "$body" "$4: an error body"
}
json_str() { jq -cn --arg s "$1" '$s'; }
upload() { # upload COMMITMENT NOTE SALT: POST the blob
	rs POST /api/v1/private-tip-blobs -H 'Content-Type: application/json' \
		--data-binary "$(jq -cn --arg c "$1" --arg n "$2" --arg s "$3" '{privateCommitment: $c, note: $n, salt: $s}')"
}
# ujobs: unlock.mjs --batch over the JSON lines given, into UJ[]; use K: job K's four header
# values into U_ADDR, U_SIG, U_NONCE, U_DL (its challenge's status is logged once).
ujobs() {
	mapfile -t UJ < <(printf '%s\n' "$@" | node "$tools/unlock.mjs" --url "$URL" --chain-id "$CHAIN_ID" --contract "$TIPS" --batch)
	local j s
	for j in "${UJ[@]}"; do
		s=$(jq -r '[.challengeStatus, .tip] | join(" ")' <<<"$j")
		[ "${s%% *}" = "" ] || printf '%s POST /tips/%s/auth-challenge\n' "${s%% *}" "${s#* }" >> "$seen"
	done
}
use() { read -r U_ADDR U_SIG U_NONCE U_DL < <(jq -r '[.address, .sig, .nonce, .deadline] | map(tostring) | join(" ")' <<<"${UJ[$1]}"); }
job() { local x=${3:-}; [ -n "$x" ] || x='{}'; jq -cn --arg tip "$1" --arg key "$2" --argjson x "$x" '{tip: $tip, key: $key} + $x'; }
# unlock TIP ADDRESS SIG NONCE DEADLINE: the signed GET; "-" leaves a header out.
unlock() {
	local tip=$1 h=() n v
	for n in address sig nonce deadline; do
		v=$2; shift
		[ "$v" = - ] || h+=(-H "x-$b-auth-$n: $v")
	done
	rs GET "/tips/$tip" "${h[@]}"
}
unlock_job() { use "$2"; unlock "$1" "$U_ADDR" "$U_SIG" "$U_NONCE" "$U_DL"; }
detail() { jq -c '[.tipId, .tipper, .displayHandle, .privateCommitment, .amount, .note, .unlockedBy]' <<<"$body"; }
want() { printf '["%s","%s","%s","%s","%s",%s,"%s"]' "$@"; }   # TIP TIPPER HANDLE COMMITMENT AMOUNT NOTE(JSON) BY
record() { jq -c '[.. | objects | select(has("amountUsdcBaseUnits") and has("privateDataBoundary"))] | first' <<<"$body"; }
a2a_lookup() { # the A2A lookup of TX ($1) with r or rs ($2); the recognition record on stdout
	"${2:-r}" POST /a2a/message:send -H 'Content-Type: application/a2a+json' \
		--data-binary "$(jq -cn --arg s "$b.lookup_recognition" --arg tx "$1" '{skillId: $s, params: {txHash: $tx}}')"
}
mcp_lookup() {
	"${2:-r}" POST /mcp -H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25' \
		--data-binary "$(jq -cn --arg n "${b}_lookup_recognition" --arg tx "$1" \
			'{jsonrpc: "2.0", id: 1, method: "tools/call", params: {name: $n, arguments: {txHash: $tx}}}')"
}
block_time() { printf '%d' "$(rpc eth_getBlockByNumber "[\"$(printf '0x%x' "$1")\",false]" | jq -r .timestamp)"; }
lc() { printf '%s' "$1" | tr 'A-F' 'a-f'; }
pay() { # pay PATH FILE [SIGFILE]: the real x402 client as the stranger; $res, logged to FILE
	res=$(node "$tools/pay.mjs" --key $KEY1 --url "$URL$1" ${3:+--signature-out "$3"})
	printf '%s GET %s (paid)\n' "$(jq -r .status <<<"$res")" "$1" >> "$seen"; printf '%s\n' "$res" >> "$2"
}

# Anvil's public test keys: #3, #7, #8 private tippers; #5 the wallet linked to github:zara
# (it tips x:yve publicly), #6 the wallet it is relinked to; #4 the agent's owner, #2 its later
# agent wallet; #1 (PAYER of t/lib/x402.sh, 5 USDC) the stranger who pays to unlock; #9 (P9)
# another payer, whose settlements a wrong facilitator refuses.
KEY9=0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6
read -r T3 T7 T8 W5 W6 OWNER AGW STRANGER P9 < <(node -e 'const {privateKeyToAccount} = require(process.argv[1]);
	console.log(process.argv.slice(2).map((k) => privateKeyToAccount(k).address).join(" "))' \
	"$viem/accounts/index.js" $KEY3 $KEY7 $KEY8 $KEY5 $KEY6 $KEY4 $KEY2 $KEY1 $KEY9)
# The secrets: each note starts with a token the searches look for; the amounts are unusual.
NA="zqa-note alpha: thanks for the careful fix, café"; AMT_A=771234
NB="zqb-note bravo, for x yve"; AMT_B=653421
NC="zqc-note charlie: the agent did great"; AMT_C=587312
ND="zqd-note delta, never uploaded"; AMT_D=432198
AMT_X=246813   # X: the stranger's own private tip to x:copier, with A's commitment copied from the chain

# ---- the tips. At once: A (with an attestation) and D private to github:zara, escrowed; B
# private to x:yve, escrowed; a public tip by W5 to x:yve; an agent. Then at once: github:zara
# linked to W5 (claiming A and D, minting A's attestation), C private to the agent (pushed),
# and X, the stranger's private tip to x:copier with A's commitment.
tips tip --from-key $KEY3 --handle github:zara --amount $AMT_A --note "$NA" --private --attest > "$pdir/tA" & j1=$!
tips tip --from-key $KEY7 --handle github:zara --amount $AMT_D --note "$ND" --private > "$pdir/tD" & j2=$!
tips tip --from-key $KEY8 --handle x:yve --amount $AMT_B --note "$NB" --private > "$pdir/tB" & j3=$!
tips tip --from-key $KEY5 --handle x:yve --amount 100000 --note "public thanks" > "$pdir/tP" & j4=$!
tips register --from-key $KEY4 > "$pdir/reg" & j5=$!
wait $j1 && wait $j2 && wait $j3 && wait $j4 && wait $j5; ok $? "A, D, B, a public tip and an agent are sent"
AG=$(jq -r .agentId "$pdir/reg")
like "$AG" '^[1-9][0-9]*$' "an ERC-8004 agent is registered (agent:$AG)"
tips link-claim --handle github:zara --wallet "$W5" > "$pdir/link" & j1=$!
tips tip-agent --from-key $KEY8 --agent "$AG" --amount $AMT_C --note "$NC" --private > "$pdir/tC" & j2=$!
node "$tools/copy-commitment.mjs" --rpc "$RPC" --state "$STATE" --from-key $KEY1 --handle x:copier \
	--commitment "$(jq -r .commitment "$pdir/tA")" --amount $AMT_X > "$pdir/tX" & j3=$!
wait $j1 && wait $j2 && wait $j3; ok $? "github:zara is linked to W5, C is sent to the agent, X copies A's commitment"
is "$(jq -r .claimed "$pdir/link")" 2 "link-claim claimed A and D"
for t in A B C D P X; do
	eval "TX$t=\$(jq -r .txHash \"\$pdir/t$t\"); ID$t=\$(jq -r .tipId \"\$pdir/t$t\"); BN$t=\$(jq -r .blockNumber \"\$pdir/t$t\")"
	[ $t = P ] || [ $t = X ] || eval "C$t=\$(jq -r .commitment \"\$pdir/t$t\"); S$t=\$(jq -r .salt \"\$pdir/t$t\")"
done
wait_indexed "$(jq -s 'map(.blockNumber) | max' "$pdir"/t? "$pdir/link")"; ok $? "every tip and the link are indexed"
is "$(jq -r .private "$pdir"/t[ABCD] | sort -u)" true "A, B, C and D are private tips"
is "$(sql "SELECT CONCAT(is_private, ' 0x', LOWER(HEX(private_commitment)), ' ', tip_id > $IDA) FROM tips WHERE tip_id = $IDX")" "1 0x${CA#0x} 1" \
	"X is indexed after A, private, with A's commitment"
is "$(jq -c '[.events[] | select(.event | startswith("PrivateTip")) | .event]' "$pdir/tA" "$pdir/tC" | paste -sd' ')" \
	'["PrivateTipEscrowed"] ["PrivateTip"]' "A was escrowed (PrivateTipEscrowed), C pushed (PrivateTip)"
mapfile -t COMMITS < <(for t in A B C D; do eval "jq -cn --arg s \"\$S$t\" --arg n \"\$N$t\" '{op: \"commit\", salt: \$s, note: \$n}'"; done |
	node "$tools/privtip-blob.mjs" batch | jq -r .commitment)
i=0
for t in A B C D; do
	eval "c=\$C$t id=\$ID$t"
	is "${COMMITS[$i]}" "$c" "$t: the commitment on chain is keccak256(salt || utf8(note)), computed here"
	is "$(sql "SELECT CONCAT(is_private, ' 0x', LOWER(HEX(private_commitment)), ' ', IFNULL(usdc_amount, 'null'), ' ', IFNULL(note, 'null')) FROM tips WHERE tip_id = $id")" \
		"1 $c null null" "$t: indexed as private with its commitment, without amount or note"
	i=$((i + 1))
done

# ---- blobs
upload "$CB" "$NB" "$SB"
is "$status" 201 "B's blob: 201"
valid private-blob.json "$body" "blob upload: valid"
is "$(jq -c . <<<"$body")" "{\"privateCommitment\":\"$CB\",\"stored\":true}" "the answer names the commitment, stored"
upload "$CB" "$NB" "$SB"
is "$status,$(jq -c . <<<"$body")" "200,{\"privateCommitment\":\"$CB\",\"stored\":true}" "the identical blob again: 200"
valid private-blob.json "$body" "the identical repeat: valid"
upload "$CA" "$NA" "$SA"
is "$status" 201 "A's blob, after its tip was claimed: 201"
upload "$CC" "$NC" "$SC"
is "$status" 201 "C's blob: 201"
upload "$CB" "$NA" "$SB"
err_is 422 evidence_unverified privateCommitment "B's commitment with another note: 422"
upload "$CB" "$NB" "$SA"
err_is 422 evidence_unverified privateCommitment "B's commitment with another salt: 422"
upload "0x$(printf '0%.0s' $(seq 64))" "$NB" "$SB"
err_is 422 evidence_unverified privateCommitment "a zero commitment: 422"
is "$(sql "SELECT COUNT(*) FROM private_tip_blobs")" 3 "three blobs stored (A, B, C), nothing for the refused ones"
is "$(sql "SELECT COUNT(*) FROM private_tip_blobs WHERE LOCATE('zqa-note', sealed) > 0 OR LOCATE('zqb-note', sealed) > 0
	OR LOCATE('zqc-note', sealed) > 0 OR LOCATE(UNHEX('${SB#0x}'), sealed) > 0")" 0 "no note or salt is kept in the clear"
is "$(sql "SELECT GROUP_CONCAT(LENGTH(iv), ':', LENGTH(sealed) ORDER BY LENGTH(sealed)) FROM private_tip_blobs")" \
	"$(for n in "$NB" "$NC" "$NA"; do printf '12:%d\n' $((32 + $(printf '%s' "$n" | wc -c) + 16)); done | sort -t: -k2 -n | paste -sd,)" \
	"each row: a 12-byte IV and salt || note sealed with a 16-byte tag"
# Commitments of the blobs below (planted rows, limits, bad notes), computed here at once.
SP=0x$(printf '5a%.0s' $(seq 32)); NP="zqp-planted original"; NP2="zqp-planted different"
SQ=0x$(printf '6b%.0s' $(seq 32)); NQ="zqq-planted same"
SR=0x$(printf '7c%.0s' $(seq 32)); NR="zqr-unopenable"
n1000=$(printf 'zqlong%.0s' $(seq 166))abcd; n1001=${n1000}e
nmb=$(printf 'é%.0s' $(seq 500))x; nl=$'zqn first line\nsecond line'; bidi=$'zqb \u202e reversed'; tab=$'zqt\ttab'
cases=("$SP|$NP" "$SQ|$NQ" "$SR|$NR" "$SQ|$n1000" "$SQ|$n1001" "$SQ|$nmb" "$SQ|$nl" "$SQ|" "$SQ|$bidi" "$SQ|$tab")
mapfile -t CM < <(for c in "${cases[@]}"; do jq -cn --arg s "${c%%|*}" --arg n "${c#*|}" '{op: "commit", salt: $s, note: $n}'; done |
	node "$tools/privtip-blob.mjs" batch | jq -r .commitment)
CP=${CM[0]}; CQ=${CM[1]}; CR=${CM[2]}
# A different blob under a stored commitment cannot come through the API (the commitment binds
# salt and note): plant rows sealed like the service seals, under the stack's key. Q: the same
# blob (its upload is then an identical repeat, which shows the sealing matches); P: another
# note; R: sealed with another commitment as associated data, so it does not open.
mapfile -t SEALS < <(jq -cn --arg k "$SEALKEY" --arg cq "$CQ" --arg sq "$SQ" --arg nq "$NQ" --arg cp "$CP" --arg sp "$SP" \
	--arg np "$NP2" --arg cr "$CR" --arg sr "$SR" --arg nr "$NR" '
	{op: "seal", key: $k, commitment: $cq, salt: $sq, note: $nq},
	{op: "seal", key: $k, commitment: $cp, salt: $sp, note: $np},
	{op: "seal", key: $k, commitment: $cr, salt: $sr, note: $nr, aad: $cq}' | node "$tools/privtip-blob.mjs" batch)
i=0
for c in "$CQ" "$CP" "$CR"; do
	sql "INSERT INTO private_tip_blobs (commitment, iv, sealed, created_at) VALUES (UNHEX('${c#0x}'),
		UNHEX('$(jq -r .iv <<<"${SEALS[$i]}")'), UNHEX('$(jq -r .sealed <<<"${SEALS[$i]}")'), UNIX_TIMESTAMP())"
	i=$((i + 1))
done
upload "$CQ" "$NQ" "$SQ"
is "$status" 200 "a row sealed here with the same blob: its upload is the identical repeat (200), so the sealing matches"
upload "$CP" "$NP" "$SP"
err_is 409 blob_conflict privateCommitment "a different blob already stored under the commitment: 409"
upload "$CP" "$NP2" "$SP"
err_is 422 evidence_unverified privateCommitment "the planted note itself does not match the commitment: 422"
upload "$CR" "$NR" "$SR"
bad_row=$status
sed -i '$d' "$seen"   # judged here: a clean JSON 500 (or a conflict), never another 5xx
like "$status" '^(409|500)$' "a stored row that does not open: 409 or 500 ($status)"
is "$(header content-type),$(jq -r '.error | type' <<<"$body")" "application/json,string" "a stored row that does not open: a JSON error body"
valid error.json "$body" "a stored row that does not open: an error body"
# Bad blobs: salts, commitments, notes, bodies.
upload "${CM[3]}" "$n1000" "$SQ"
is "$status,${#n1000}" "201,1000" "a note of exactly 1000 bytes: 201"
for s in 0x12 "${SB#0x}" "0x${SB:3}" "${SB}00" "0x$(printf 'g%.0s' $(seq 64))" "" "0x"; do
	upload "$CB" "$NB" "$s"
	err_is 400 invalid_field salt "salt '${s:0:70}': 400"
done
for c in 0x12 "${CB#0x}" "0x$(printf 'z%.0s' $(seq 64))"; do
	upload "$c" "$NB" "$SB"
	err_is 400 invalid_field privateCommitment "privateCommitment '${c:0:70}': 400"
done
upload "${CM[4]}" "$n1001" "$SQ"
err_is 400 invalid_field note "a note of 1001 bytes: 400"
upload "${CM[5]}" "$nmb" "$SQ"
err_is 400 invalid_field note "a note of 501 characters but 1001 UTF-8 bytes: 400"
upload "${CM[6]}" "$nl" "$SQ"
err_is 400 invalid_field note "a note with a newline: 400"
upload "${CM[7]}" "" "$SQ"
err_is 400 invalid_field note "an empty note: 400"
upload "${CM[8]}" "$bidi" "$SQ"
err_is 400 invalid_field note "a note with a bidirectional override: 400"
upload "${CM[9]}" "$tab" "$SQ"
err_is 400 invalid_field note "a note with a tab: 400"
rs POST /api/v1/private-tip-blobs -H 'Content-Type: application/json' -H 'Expect:' \
	--data-binary "{\"privateCommitment\":\"$CB\",\"note\":\"$(printf 'x%.0s' $(seq 4100))\",\"salt\":\"$SB\"}"
err_is 413 body_too_large "" "a body over 4096 bytes: 413"
rs POST /api/v1/private-tip-blobs -H 'Content-Type: application/json' -H 'Expect:' \
	--data-binary "{\"privateCommitment\":\"$CB\",\"note\":\"$NB\",\"salt\":\"$SB\"}$(printf ' %.0s' $(seq 4100))"
err_is 413 body_too_large "" "a valid blob padded past 4096 bytes: 413"
rs POST /api/v1/private-tip-blobs -H 'Content-Type: application/json' \
	--data-binary "$(jq -cn --arg c "$CB" --arg n "$NB" '{privateCommitment: $c, note: $n}')"
err_is 400 missing_field salt "no salt: 400"
rs POST /api/v1/private-tip-blobs -H 'Content-Type: application/json' \
	--data-binary "$(jq -cn --arg c "$CB" --arg n "$NB" --arg s "$SB" '{privateCommitment: $c, note: $n, salt: $s, amount: "1"}')"
err_is 400 unknown_field amount "an extra member: 400"
rs POST /api/v1/private-tip-blobs -H 'Content-Type: text/plain' --data-binary "{}"
is "$status" 415 "not JSON: 415"

# ---- pending previews: no amount, note, commitment or salt
r GET "/api/v1/private-tips/pending?handle=GitHub%3AZara"
is "$status" 200 "pending of github:zara: 200"
valid private-pending.json "$body" "pending of github:zara: valid"
zara=$(for t in A D; do eval "printf '%s %s %s %s\n' \$ID$t \$T$([ $t = A ] && echo 3 || echo 7) \$BN$t \$TX$t"; done | sort -rn |
	while read -r id tp bn tx; do printf '["%s","github:zara","%s","claimed","%s","%s","%s"]\n' "$id" "$tp" "$(block_time "$bn")" "$tx" "$URL/tips/$id"; done | paste -sd,)
is "$(jq -c '[.handle, .count, [.pending[] | [.tipId, .displayHandle, .tipper, .status, .createdAt, .txHash, .unlockUrl]]]' <<<"$body")" \
	"[\"github:zara\",2,[$zara]]" \
	"the canonical handle; A and D (claimed) newest first, each with its tipper, block time, transaction and unlock URL"
r GET "/api/v1/private-tips/pending?handle=x:yve"
valid private-pending.json "$body" "pending of x:yve: valid"
is "$(jq -c '[.count, [.pending[] | [.tipId, .tipper, .status, .txHash]]]' <<<"$body")" "[1,[[\"$IDB\",\"$T8\",\"escrowed\",\"$TXB\"]]]" \
	"x:yve: B escrowed, not the public tip"
r GET "/api/v1/private-tips/pending?handle=agent:$AG"
valid private-pending.json "$body" "pending of the agent: valid"
is "$(jq -c '[.count, [.pending[] | [.tipId, .displayHandle, .tipper, .status]]]' <<<"$body")" "[1,[[\"$IDC\",\"agent:$AG\",\"$T8\",\"pushed\"]]]" \
	"agent:$AG: C pushed"
r GET "/api/v1/private-tips/pending?handle=github:nobody"
is "$status,$(jq -c '[.count, .pending]' <<<"$body")" "200,[0,[]]" "a handle without private tips: none"
valid private-pending.json "$body" "no pending: valid"
r GET "/api/v1/private-tips/pending?handle=github:-bad"
err_is 400 invalid_field handle "pending of an invalid handle: 400"
r GET "/api/v1/private-tips/pending"
err_is 400 missing_field handle "pending without a handle: 400"

# ---- every public read before any unlock or disclosure
for t in A B C D P; do
	eval "tx=\$TX$t"
	r GET "/api/v1/receipts/$tx"
	is "$status" 200 "receipt of $t: 200"
	valid tip-receipt.json "$body" "receipt of $t: valid"
	[ $t = B ] && rb0=$(jq -c '.tip | del(.amountUsdc, .note, .disclosed)' <<<"$body")
done
is "$(jq -c '.tip | [.tipId, .private, .amountUsdc, .note, .disclosed, .status, .mintAttestation]' <<<"$body")" \
	"[\"$IDP\",false,\"100000\",\"public thanks\",false,\"ESCROWED\",false]" "receipt of the public tip: its amount and note"
r GET "/api/v1/receipts/$TXA"
is "$(jq -c '.tip | [.tipId, .private, .amountUsdc, .note, .disclosed, .status]' <<<"$body")" "[\"$IDA\",true,null,null,false,\"CLAIMED\"]" \
	"receipt of A: private, no amount, no note, not disclosed"
for h in github:zara x:yve "agent:$AG"; do
	v=$(printf '%s' "$h" | tr -c 'a-z0-9' _)
	r GET "/api/v1/handles/$h/has-${b}s"; is "$status" 200 "has-${b}s of $h: 200"; valid has-boons.json "$body" "has-${b}s of $h: valid"
	eval "hb_$v=\$body"
	r GET "/api/v1/handles/$h/profile"; is "$status" 200 "profile of $h: 200"; valid handle-profile.json "$body" "profile of $h: valid"
	eval "pr_$v=\$body"
	r GET "/api/v1/handles/$h/points"; is "$status" 200 "points of $h: 200"; valid handle-points.json "$body" "points of $h: valid"
	eval "pt_$v=\$body"
done
r GET /api/v1/board; is "$status" 200 "board: 200"; valid board.json "$body" "board: valid"
r GET /api/leaderboard; is "$status" 200 "leaderboard: 200"
for w in "$T3" "$T7" "$T8" "$W5"; do
	r GET "/api/v1/wallets/$w/sent"; is "$status" 200 "sent of $w: 200"; valid wallet-sent.json "$body" "sent of $w: valid"
done
r GET "/api/v1/attestations/$IDA"
is "$status" 200 "A's attestation (minted at the claim): 200"
valid attestation.json "$body" "A's attestation: valid"
r GET "/api/v1/x402/discovery"; is "$status" 200 "discovery: 200"
r GET "/api/site/link/wallet?address=$W5"; is "$status" 200 "reverse lookup of W5: 200"
for t in A B; do
	eval "tx=\$TX$t id=\$ID$t"
	r GET "/api/v1/${b}s/$tx/disclosure"
	valid disclosure.json "$body" "disclosure of $t before any: valid"
	is_json "$(jq -c . <<<"$body")" "{\"txHash\":\"$tx\",\"tipId\":\"$id\",\"disclosed\":false,\"action\":null,\"signer\":null,\"updatedAt\":null}" \
		"disclosure of $t: none yet"
done
r GET "/api/v1/${b}s/$TXP/disclosure"
err_is 404 not_found txHash "disclosure of a public tip's transaction: 404"
for t in A B C D; do
	eval "tx=\$TX$t"
	a2a_lookup "$tx"; rec=$(record)
	valid recognition-record.json "$rec" "A2A lookup of $t: valid"
	is "$(jq -c '[.amountUsdcBaseUnits, .amountUsdc]' <<<"$rec")" '[null,null]' "A2A lookup of $t: the amount redacted"
	mcp_lookup "$tx"
	is "$(jq -c '.result.structuredContent | [.txHash, .amountUsdcBaseUnits, .amountUsdc]' <<<"$body")" "[\"$tx\",null,null]" \
		"MCP lookup of $t: the amount redacted"
done
pay "/api/v1/graphs/gratitude?subject=handle:github:zara" "$scan"
is "$(jq -r .status <<<"$res")" 200 "the paid gratitude graph of github:zara: 200"
valid gratitude-graph.json "$(jq -c .body <<<"$res")" "gratitude graph: valid"
is "$(jq -c '[.body.edges[] | select(.to == "handle:github:zara") | [.from, .tipCount, .privateCount, .amountUsdc]] | sort' <<<"$res")" \
	"$(jq -cn --arg t3 "wallet:$T3" --arg t7 "wallet:$T7" '[[$t3, 1, 1, "0"], [$t7, 1, 1, "0"]] | sort')" \
	"gratitude graph: both private tippers counted, no amount"

# ---- the unlock challenge, and the challenges of the signed unlocks below
ujobs "$(job "$IDA" $KEY3)" "$(job "$IDA" $KEY5)" "$(job "$IDA" $KEY1)" "$(job "$IDA" $KEY3 '{"nonce":"@2"}')" \
	"$(job "$IDD" $KEY7)" "$(job "$IDC" $KEY4)" "$(job "$IDC" $KEY2)" "$(job "$IDC" $KEY4)" "$(job "$IDC" $KEY3)" \
	"$(job "$IDA" $KEY5)" "$(job "$IDA" $KEY6)" "$(job "$IDX" $KEY1)"
is "$(jq -r .challengeStatus <<<"${UJ[0]}")" 200 "a challenge for A: 200"
CH=$(jq -c .challenge <<<"${UJ[0]}")
valid private-challenge.json "$CH" "the challenge: valid"
now=$(date +%s)
is "$(jq -c --argjson now "$now" '[.tipId, .domain.chainId, (.domain.verifyingContract | ascii_downcase),
	((.expiresAt - $now) >= 290 and (.expiresAt - $now) <= 305)]' <<<"$CH")" "[$IDA,$CHAIN_ID,\"$(lc "$TIPS")\",true]" \
	"the challenge is for A, on this chain, the tips contract's domain, valid five minutes"
is "$(printf '%s\n' "${UJ[@]}" | jq -r '[.challengeStatus // "-"] | .[0]' | sort | uniq -c | awk '{ print $1, $2 }' | paste -sd,)" "1 -,11 200" \
	"eleven challenges issued, one job signs a nonce already issued"
is "$(printf '%s\n' "${UJ[@]}" | jq -r '.nonce' | sort -u | wc -l)" 11 "eleven distinct nonces"
use 0
is "$(sql "SELECT CONCAT(tip_id, ' ', expires_at, ' ', IFNULL(used_at, 'unused')) FROM private_tip_nonces WHERE nonce = UNHEX('${U_NONCE#0x}')")" \
	"$IDA $U_DL unused" "the nonce is stored for A, unused, expiring at the signed deadline"
r POST "/tips/$IDP/auth-challenge"
err_is 404 not_found tipId "a challenge for a public tip: 404"

# ---- free, signed unlocks
unlock_job "$IDA" 0
is "$status" 200 "the tipper unlocks A: 200"
valid private-unlock.json "$body" "the unlock detail: valid"
is "$(detail)" "$(want "$IDA" "$T3" github:zara "$CA" $AMT_A "$(json_str "$NA")" recipient_or_tipper)" \
	"the tipper reads A's note and amount, free"
is "$(header cache-control)" "private, no-store" "the detail is private, no-store"
is "$(header payment-response)" "" "no payment for a signed unlock"
unlock_job "$IDA" 0
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "the same nonce again: 401"
unlock_job "$IDA" 1
is "$status,$(jq -r '[.unlockedBy, .amount, .note] | join(",")' <<<"$body")" "200,recipient_or_tipper,$AMT_A,$NA" "the linked recipient (W5) unlocks A: 200"
valid private-unlock.json "$body" "the recipient's detail: valid"
unlock_job "$IDA" 2
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "a stranger's valid signature: 403"
unlock_job "$IDA" 3
is "$status,$(jq -r .unlockedBy <<<"$body")" "200,recipient_or_tipper" "the nonce the stranger was refused on still serves the tipper: 200"
unlock_job "$IDD" 4
is "$(detail)" "$(want "$IDD" "$T7" github:zara "$CD" $AMT_D null recipient_or_tipper)" \
	"D, whose blob was never uploaded: the amount, note null"
valid private-unlock.json "$body" "D's detail: valid"
# The agent's tip: its owner, not yet its agent wallet; then the wallet set on the registry.
unlock_job "$IDC" 5
is "$(detail)" "$(want "$IDC" "$T8" "agent:$AG" "$CC" $AMT_C "$(json_str "$NC")" recipient_or_tipper)" \
	"the agent's owner unlocks C, free"
valid private-unlock.json "$body" "C's detail: valid"
unlock_job "$IDC" 6
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "a wallet that is not yet the agent wallet: 403"
sa=$(tips set-agent-wallet --from-key $KEY4 --agent "$AG" --wallet-key $KEY2)
is "$(jq -r .wallet <<<"$sa")" "$AGW" "the agent wallet is set on the registry"
unlock_job "$IDC" 6
is "$status,$(jq -r '[.unlockedBy, .note] | join(",")' <<<"$body")" "200,recipient_or_tipper,$NC" "the agent wallet unlocks C, with the nonce it was refused on"
unlock_job "$IDC" 7
is "$status" 200 "the owner still unlocks C beside the agent wallet"
unlock_job "$IDC" 8
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "another handle's tipper cannot unlock C: 403"
# A relink: the old wallet is refused, the new one accepted.
unlock_job "$IDA" 10
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "W6 before the relink: 403"
rl=$(tips relink --handle github:zara --wallet "$W6")
wait_indexed "$(jq -r .blockNumber <<<"$rl")"; ok $? "github:zara is relinked to W6 and indexed"
unlock_job "$IDA" 9
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "after the relink the old wallet W5: 403"
unlock_job "$IDA" 10
is "$status,$(jq -r '[.unlockedBy, .amount] | join(",")' <<<"$body")" "200,recipient_or_tipper,$AMT_A" "after the relink the new wallet W6 unlocks A"
# X, the stranger's own tip that copied A's commitment: its tipper reads it free, without A's note.
unlock_job "$IDX" 11
is "$(detail)" "$(want "$IDX" "$STRANGER" x:copier "$CA" $AMT_X null recipient_or_tipper)" \
	"the tipper of a tip that copied A's commitment unlocks it: its own amount, note null (A's blob is A's)"
valid private-unlock.json "$body" "X's detail: valid"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE endpoint_id = 'private_tips.unlock'")" 0 "no signed unlock paid anything"

# ---- the paid unlock by a stranger: $1 to the tipper, with the real x402 client
r GET "/tips/$IDB"
is "$status,$(jq -r .error <<<"$body")" "402,payment_required" "B unpaid and unsigned: 402"
is "$(header payment-required | base64 -d | jq -c --arg u "$URL/tips/$IDB" '[.x402Version, .resource.url == $u, (.accepts | length),
	.accepts[0].amount, .accepts[0].payTo, (.accepts[0].asset | ascii_downcase)]')" \
	"[2,true,1,\"1000000\",\"$T8\",\"$(lc "$USDC")\"]" "the challenge: 1,000,000 atomic USDC to B's tipper, for {base}/tips/$IDB"
r GET "/tips/$IDA"
is "$(header payment-required | base64 -d | jq -r '.accepts[0].payTo')" "$T3" "A's challenge pays A's tipper"
tb=$(balance "$T8"); sb=$(balance "$STRANGER"); pb=$(balance "$PAYTO")
pay "/tips/$IDB" "$held" "$pdir/paysig"
body=$(jq -c .body <<<"$res")
is "$(jq -r '[.status, .paymentResponse.success] | join(",")' <<<"$res")" "200,true" "the stranger pays with @x402/fetch: 200, settled"
valid private-unlock.json "$body" "the paid detail: valid"
is "$(detail)" "$(want "$IDB" "$T8" x:yve "$CB" $AMT_B "$(json_str "$NB")" x402)" "the paid unlock: B's note and amount, unlockedBy x402"
is "$(( $(balance "$T8") - tb ))" 1000000 "B's tipper received exactly 1,000,000 USDC base units"
is "$(( sb - $(balance "$STRANGER") ))" 1000000 "the stranger paid exactly 1,000,000"
is "$(balance "$PAYTO")" "$pb" "the service's own payTo received nothing"
is "$(sql "SELECT CONCAT(status, ' 0x', LOWER(HEX(pay_to)), ' ', amount, ' ', resource_url) FROM x402_payments WHERE endpoint_id = 'private_tips.unlock'")" \
	"settled $(lc "$T8") 1000000 $URL/tips/$IDB" "one settled ledger row, to the tipper, for B's URL"
tb=$(balance "$T8")
rs GET "/tips/$IDB" -H "payment-signature: $(cat "$pdir/paysig")"
is "$status,$(jq -r '[.error, has("note")] | join(",")' <<<"$body"),$(header payment-response | base64 -d | jq -r .success)" \
	"403,read_by_signature,false,true" \
	"the same payment again: 403 read_by_signature with its receipt, no note (a payer whose answer was lost learns it paid)"
is "$(balance "$T8")" "$tb" "and no USDC moved again"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE endpoint_id = 'private_tips.unlock'")" 1 "still one ledger row"
rs GET "/tips/$IDA" -H "payment-signature: $(cat "$pdir/paysig")"
like "$status" '^4' "B's payment presented for A: refused ($status)"
# ---- the same paid unlock over MPP (the unchanged mppx client): $1 to A's tipper
r GET "/tips/$IDA"
like "$(header www-authenticate)" '^Payment id=' "A's 402 offers MPP too"
req_b64=$(header www-authenticate | sed -n 's/.* request="\([^"]*\)".*/\1/p' | tr -- '-_' '+/')
while [ $((${#req_b64} % 4)) != 0 ]; do req_b64="$req_b64="; done
is "$(base64 -d <<<"$req_b64" | jq -r '[.amount, .recipient] | join(",")')" "1000000,$T3" \
	"the MPP charge: 1,000,000 atomic USDC to A's tipper, as on x402"
ta=$(balance "$T3"); sb=$(balance "$STRANGER")
res=$(node "$top/t/mpp/pay.mjs" --key $KEY1 --url "$URL/tips/$IDA")
printf '%s GET %s (paid over MPP)\n' "$(jq -r .status <<<"$res")" "/tips/$IDA" >> "$seen"; printf '%s\n' "$res" >> "$held"
body=$(jq -c .body <<<"$res")
is "$(jq -r '[.status, .receipt.status, .receipt.method] | join(",")' <<<"$res")" "200,success,evm" \
	"the stranger pays A's unlock with mppx: 200 with a Payment-Receipt"
is "$(detail)" "$(want "$IDA" "$T3" github:zara "$CA" $AMT_A "$(json_str "$NA")" x402)" \
	"the MPP-paid unlock: A's note and amount (unlockedBy x402: the wire's word for a paid unlock)"
is "$(( $(balance "$T3") - ta )),$(( sb - $(balance "$STRANGER") ))" "1000000,1000000" \
	"exactly 1,000,000 moved from the stranger to A's tipper"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE endpoint_id = 'private_tips.unlock' AND status = 'settled'")" 2 \
	"two settled unlock rows in the one ledger, one per rail"
unlock_job "$IDA" 10
rs GET "/tips/$IDB" -H "payment-signature: $(cat "$pdir/paysig")" -H "x-$b-auth-address: $U_ADDR" \
	-H "x-$b-auth-sig: $U_SIG" -H "x-$b-auth-nonce: $U_NONCE" -H "x-$b-auth-deadline: $U_DL"
err_is 400 invalid_request "" "signed headers and a payment at once: 400"

# ---- a paid unlock whose settlement lands after the service stopped waiting
# (docs/PROTOCOL.md, Private tips): the stranger pays C's unlock while the
# facilitator holds /settle; the service answers 503 (outcome unknown), then
# the settlement lands. The payment header is public now (anyone can rebuild it
# from the transfer's calldata), so the identical request never carries the
# note again: it is told it was charged and that the paying wallet reads by
# signature, which it then does; a wallet that neither paid nor is a party is
# still refused.
fac=http://127.0.0.1:$fport
curl -s -X POST "$fac/_hold" --data-binary '{"settle":true}' >/dev/null
t8=$(balance "$T8"); sb=$(balance "$STRANGER")
node "$tools/pay.mjs" --key $KEY1 --url "$URL/tips/$IDC" --signature-out "$pdir/sigC" > "$pdir/resC" & pj=$!
n=0; until [ "$(curl -s "$fac/_stats" | jq .held.settle)" = 1 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
wait $pj
res=$(cat "$pdir/resC"); printf '%s\n' "$res" >> "$held"
is "$(jq -r '[.status, .body.error, (.body | has("note"))] | join(",")' <<<"$res")" "503,payment_unavailable,false" \
	"C's unlock paid while the facilitator holds the settlement: 503 outcome unknown, no note"
like "$(jq -r .body.message <<<"$res")" 'paying wallet may read this resource free by its own signature' \
	"  which tells the payer it will read by signature once the payment shows on chain"
curl -s -X POST "$fac/_release" >/dev/null
n=0; until [ "$(( $(balance "$T8") - t8 ))" = 1000000 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
is "$(( $(balance "$T8") - t8 )),$(( sb - $(balance "$STRANGER") ))" "1000000,1000000" \
	"the settlement lands: 1,000,000 from the stranger to C's tipper"
rs GET "/tips/$IDC" -H "payment-signature: $(cat "$pdir/sigC")"
printf '%s GET /tips/%s (late, replayed)\n' "$status" "$IDC" >> "$seen"
is "$status,$(jq -r '[.error, has("note")] | join(",")' <<<"$body")" "403,read_by_signature,false" \
	"the identical payment header after it landed: 403 read_by_signature, no note"
valid error.json "$body" "  an error body"
prC=$(header payment-response | base64 -d)
is "$(jq -r '[.success, .payer] | join(",")' <<<"$prC")" "true,$STRANGER" "  PAYMENT-RESPONSE success, the stranger as payer"
is "$(rpc eth_getTransactionReceipt "[\"$(jq -r .transaction <<<"$prC")\"]" | jq -r .status)" 0x1 "  naming the transfer's transaction"
rs GET "/tips/$IDC" -H "payment-signature: $(cat "$pdir/sigC")"
printf '%s GET /tips/%s (late, replayed)\n' "$status" "$IDC" >> "$seen"
is "$status,$(jq -r .error <<<"$body"),$(( $(balance "$T8") - t8 ))" "403,read_by_signature,1000000" \
	"  and again: 403, no note, nothing more charged"
is "$(sql "SELECT CONCAT(g.tip_id, ' ', p.status, ' ', p.reason) FROM private_tip_grants g JOIN x402_payments p USING (payer, auth_nonce) WHERE p.resource_url = '$URL/tips/$IDC'")" \
	"$IDC settled late_settled" "  the grant of C to the stranger, its payment settled from the chain"
ujobs "$(job "$IDC" $KEY1)" "$(job "$IDB" $KEY1)" "$(job "$IDC" $KEY7)" "$(job "$IDD" $KEY1)"
unlock_job "$IDC" 0
is "$(detail)" "$(want "$IDC" "$T8" "agent:$AG" "$CC" $AMT_C "$(json_str "$NC")" x402)" \
	"the paying wallet unlocks C by its own signature, free: the note, unlockedBy x402"
valid private-unlock.json "$body" "  the detail: valid"
unlock_job "$IDB" 1
is "$status,$(jq -r '[.unlockedBy, .note] | join(",")' <<<"$body")" "200,x402,$NB" \
	"the stranger also reads B by signature: it paid B's unlock (settled at once) earlier"
unlock_job "$IDC" 2
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "a wallet that neither paid for C nor is a party: 403"
unlock_job "$IDD" 3
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "the stranger on D, which it never paid for: 403"
# The same, when the transfer never happened: the facilitator holding D's
# settlement is stopped (it sends nothing then) and another started; the
# identical request claims the payment, unused and still valid, and settles
# it now. Charged now, but on a header shown again: still no note.
curl -s -X POST "$fac/_hold" --data-binary '{"settle":true}' >/dev/null
t7=$(balance "$T7")
node "$tools/pay.mjs" --key $KEY1 --url "$URL/tips/$IDD" --signature-out "$pdir/sigD" > "$pdir/resD" & pj=$!
n=0; until [ "$(curl -s "$fac/_stats" | jq .held.settle)" = 1 ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
wait $pj
is "$(jq -r '[.status, .body.error] | join(",")' "$pdir/resD")" "503,payment_unavailable" "D's unlock paid while the settlement is held: 503"
facilitator_start
ok $? "  the facilitator is replaced (the held settlement is never sent)"
is "$(( $(balance "$T7") - t7 ))" 0 "  nothing moved"
is "$(sql "SELECT CONCAT(g.tip_id, ' ', p.status, ' ', p.reason) FROM private_tip_grants g JOIN x402_payments p USING (payer, auth_nonce) WHERE p.resource_url = '$URL/tips/$IDD'")" \
	"$IDD failed settle_unknown" "  the grant of D its paid read wrote stands beside a payment of unknown outcome"
ujobs "$(job "$IDD" $KEY1)"
unlock_job "$IDD" 0
err_is 403 not_authorized_to_unlock "x-$b-auth-address" \
	"  and counts for nothing: the stranger's signature on D meanwhile is refused, 403"
rs GET "/tips/$IDD" -H "payment-signature: $(cat "$pdir/sigD")"
printf '%s GET /tips/%s (claimed, replayed)\n' "$status" "$IDD" >> "$seen"
is "$status,$(jq -r '[.error, has("note")] | join(",")' <<<"$body"),$(header payment-response | base64 -d | jq -r .success)" \
	"403,read_by_signature,false,true" "the identical request settles it now: charged (PAYMENT-RESPONSE success), 403 read_by_signature, no note"
is "$(( $(balance "$T7") - t7 ))" 1000000 "  1,000,000 to D's tipper, once"
ujobs "$(job "$IDD" $KEY1)"
unlock_job "$IDD" 0
is "$(detail)" "$(want "$IDD" "$T7" github:zara "$CD" $AMT_D null x402)" \
	"the stranger now reads D by signature: unlockedBy x402 (D's note was never uploaded: null)"

# ---- a wrong facilitator (docs/PROTOCOL.md, Private tips): P9 pays B's unlock
# twice. First through a facilitator that refuses the settlement and moves
# nothing: the grant its paid read wrote counts for nothing, so its
# signature unlocks nothing. Then through one that settles and then answers
# success false, as a facilitator that broadcast the transfer and failed
# would: the service asks the chain, which shows the transfer, so P9 was
# charged and is told so; learnt from the chain (whose calldata rebuilds the
# header), that answer and the identical header again carry no note; P9
# reads B by its own signature; a wallet that neither paid nor is a party is
# refused.
mint "$P9" 1000000
pay9() { # pay9 WHAT [SIGFILE]: P9 pays B's unlock with the real x402 client; $res
	res=$(node "$tools/pay.mjs" --key $KEY9 --url "$URL/tips/$IDB" ${2:+--signature-out "$2"})
	printf '%s GET /tips/%s (paid, %s)\n' "$(jq -r .status <<<"$res")" "$IDB" "$1" >> "$seen"
	printf '%s\n' "$res" >> "$held"
}
facilitator_start --fault settle-refused
ok $? "the facilitator is replaced by one that refuses every settlement"
t8=$(balance "$T8")
pay9 "settlement refused"
is "$(jq -r '[.status, .body.error, (.body | has("note")), .paymentResponse.success] | join(",")' <<<"$res")" \
	"402,settlement_failed,false,false" "P9 pays B's unlock, the settlement refused: 402 settlement_failed, no note"
is "$(( $(balance "$T8") - t8 )),$(balance "$P9")" "0,1000000" "  nothing moved"
is "$(sql "SELECT CONCAT(g.tip_id, ' ', p.status, ' ', p.reason) FROM private_tip_grants g JOIN x402_payments p USING (payer, auth_nonce) WHERE g.payer = UNHEX('${P9#0x}')")" \
	"$IDB failed settle:invalid_transaction_state" "  the grant its paid read wrote stands beside a refused payment"
ujobs "$(job "$IDB" $KEY9)"
unlock_job "$IDB" 0
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "  and counts for nothing: P9's signature on B is refused, 403"
facilitator_start --fault settle-lands-refused
ok $? "the facilitator is replaced by one that settles and then answers success false"
pay9 "settled, then refused" "$pdir/sig9"
is "$(jq -r '[.status, .body.error, (.body | has("note")), .paymentResponse.success] | join(",")' <<<"$res")" \
	"403,read_by_signature,false,true" \
	"P9 pays B's unlock again, settled then refused: the chain shows it, 403 read_by_signature with PAYMENT-RESPONSE success, no note"
tx9=$(jq -r .paymentResponse.transaction <<<"$res")
is "$(rpc eth_getTransactionReceipt "[\"$tx9\"]" | jq -r .status),$(( $(balance "$T8") - t8 )),$(balance "$P9")" "0x1,1000000,0" \
	"  naming the transfer's transaction: 1,000,000 from P9 to B's tipper, once"
is "$(sql "SELECT CONCAT(p.status, ' ', p.reason, ' ', LOWER(HEX(p.tx_hash))) FROM private_tip_grants g JOIN x402_payments p USING (payer, auth_nonce) WHERE g.payer = UNHEX('${P9#0x}') AND p.status = 'settled'")" \
	"settled late_settled ${tx9#0x}" "  its row settled from the chain (late_settled), with the transaction, beside its grant"
rs GET "/tips/$IDB" -H "payment-signature: $(cat "$pdir/sig9")"
printf '%s GET /tips/%s (settled then refused, replayed)\n' "$status" "$IDB" >> "$seen"
is "$status,$(jq -r '[.error, has("note")] | join(",")' <<<"$body"),$(header payment-response | base64 -d | jq -r .success),$(( $(balance "$T8") - t8 ))" \
	"403,read_by_signature,false,true,1000000" "the identical header again: 403 read_by_signature, no note, nothing more charged"
ujobs "$(job "$IDB" $KEY9)" "$(job "$IDB" $KEY7)"
unlock_job "$IDB" 0
is "$status,$(jq -r '[.unlockedBy, .amount, .note] | join(",")' <<<"$body")" "200,x402,$AMT_B,$NB" \
	"P9 reads B by its own signature, free: the note and amount, unlockedBy x402"
unlock_job "$IDB" 1
err_is 403 not_authorized_to_unlock "x-$b-auth-address" "a wallet that neither paid for B nor is a party (D's tipper): 403"
facilitator_start
ok $? "the facilitator is back to settling"

# ---- bad unlock input: each header malformed, past deadlines, a nonce of another tip, tip IDs
past=$(( $(date +%s) - 5 ))
ujobs "$(job "$IDA" $KEY3)" "$(job "$IDA" $KEY3 '{"nonce":"@0","deadline":"1700000000"}')" \
	"$(job "$IDA" $KEY3 '{"nonce":"@0","deadline":"+1"}')" "$(job "$IDA" $KEY3 "{\"nonce\":\"@0\",\"sign-tip\":\"$IDD\"}")" \
	"$(job "$IDA" $KEY3 '{"nonce":"@0","sign-chain-id":"1"}')" "$(job "$IDA" $KEY7)" "$(job "$IDD" $KEY7 '{"nonce":"@5"}')" \
	"$(job "$IDA" $KEY3 "{\"sign-deadline\":\"$past\"}")" \
	"$(job "$IDA" $KEY3 "{\"nonce\":\"0x$(printf '0%.0s' $(seq 63))7\",\"deadline\":\"9999999999\"}")" \
	"$(job "$IDA" $KEY3)"
use 0; G=("$U_ADDR" "$U_SIG" "$U_NONCE" "$U_DL")
hb() { # hb POS VALUE DESCRIPTION: the good headers with one replaced (- leaves it out): 400 naming it
	local h=("${G[@]}") names=(address sig nonce deadline); h[$1]=$2
	unlock "$IDA" "${h[@]}"
	err_is 400 invalid_field "x-$b-auth-${names[$1]}" "$3: 400 naming x-$b-auth-${names[$1]}"
}
hb 0 - "no address"
hb 0 0x1234 "a short address"
hb 0 "$(lc "$T3")a" "an address with a digit more"
hb 0 "0x$(printf '%s' "${T3#0x}" | tr 'a-fA-F' 'A-Fa-f')" "a mixed-case address that is not EIP-55"
hb 0 "0x$(printf 'z%.0s' $(seq 40))" "an address that is not hex"
hb 1 - "no signature"
hb 1 0xzz "a signature that is not hex"
hb 1 "${G[1]}0" "a signature of odd length"
hb 1 "${G[1]#0x}" "a signature without 0x"
hb 1 0x "an empty signature"
hb 2 - "no nonce"
hb 2 "${G[2]#0x}" "a nonce without 0x"
hb 2 "${G[2]}00" "a nonce of 33 bytes"
hb 2 "${G[2]:0:64}" "a nonce of 31 bytes"
hb 2 "0x$(printf 'q%.0s' $(seq 64))" "a nonce that is not hex"
hb 3 - "no deadline"
hb 3 abc "a deadline that is not a number"
hb 3 "0${G[3]}" "a deadline with a leading zero"
hb 3 -5 "a negative deadline"
hb 3 "${G[3]}.0" "a deadline with a fraction"
hb 3 9007199254740992 "a deadline past 2^53-1"
hb 3 0 "a zero deadline"
unlock "$IDA" - - - "${G[3]}"
err_is 400 invalid_field "x-$b-auth-address" "only a deadline: 400 naming the first header missing"
# Deadlines: in the past, or not the challenge's expiry; signatures over other values. The
# nonce stays good for its own signature.
unlock_job "$IDA" 1
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "a deadline in the past, signed: 401"
unlock_job "$IDA" 2
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "a deadline one second past the challenge's, signed: 401"
unlock_job "$IDA" 3
err_is 401 unlock_signature_invalid "x-$b-auth-sig" "a signature over another tipId: 401"
unlock_job "$IDA" 4
err_is 401 unlock_signature_invalid "x-$b-auth-sig" "a signature for another chain: 401"
unlock "$IDA" "${G[0]}" "${G[1]:0:130}1f" "${G[2]}" "${G[3]}"
err_is 401 unlock_signature_invalid "x-$b-auth-sig" "the signature with v = 31: 401"
unlock "$IDA" "$T7" "${G[1]}" "${G[2]}" "${G[3]}"
err_is 401 unlock_signature_invalid "x-$b-auth-sig" "the tipper's signature under another address: 401"
unlock "$IDA" "${G[@]}"
is "$status" 200 "after all that, the challenge's own signature still unlocks A"
unlock_job "$IDD" 6
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "D's tipper with a nonce issued for A: 401"
use 7
sql "UPDATE private_tip_nonces SET expires_at = $past WHERE nonce = UNHEX('${U_NONCE#0x}')"
unlock "$IDA" "$U_ADDR" "$U_SIG" "$U_NONCE" "$past"
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "an expired nonce, signed with its expiry: 401"
unlock_job "$IDA" 8
err_is 401 unlock_challenge_invalid "x-$b-auth-nonce" "a nonce never issued: 401"
# Tip IDs.
for id in 0 9223372036854775808 18446744073709551616 abc -1 1e3 %201 01x; do
	r GET "/tips/$id"
	err_is 400 invalid_field tipId "GET /tips/$id: 400"
	r POST "/tips/$id/auth-challenge"
	err_is 400 invalid_field tipId "challenge for tip $id: 400"
done
for id in 9223372036854775807 "$IDP"; do
	r GET "/tips/$id"
	err_is 404 not_found tipId "GET /tips/$id (no private tip): 404"
	unlock "$id" "${G[@]}"
	err_is 404 not_found tipId "a signed GET /tips/$id: 404"
done
r POST "/tips/9223372036854775807/auth-challenge"
err_is 404 not_found tipId "a challenge for tip 2^63-1: 404"

# ---- two uses of one nonce at once: both wait on the nonce's row lock, then exactly one wins
use 9; RACE=("$U_ADDR" "$U_SIG" "$U_NONCE" "$U_DL")
# Requests inside their UPDATE of the nonce's row, which cannot finish while the row is held
# (the processlist: information_schema.innodb_trx does not list every waiting transaction here).
waiting() { sql "SELECT COUNT(*) FROM information_schema.processlist WHERE command = 'Query' AND info LIKE 'UPDATE private_tip_nonces %'"; }
coproc HOLD { mariadb --defaults-file="$WAYMARK_VAR/my.cnf" -uroot -N -B -n 2>&1; }
printf "BEGIN; SELECT LOWER(HEX(nonce)) FROM private_tip_nonces WHERE nonce = UNHEX('%s') FOR UPDATE;\n" "${U_NONCE#0x}" >&"${HOLD[1]}"
read -r -t 10 locked <&"${HOLD[0]}"
is "0x$locked" "$U_NONCE" "a MariaDB session holds the nonce's row lock"
for i in 1 2; do
	curl -s -o "$pdir/race$i" -w '%{http_code}' "$URL/tips/$IDA" -H "x-$b-auth-address: ${RACE[0]}" -H "x-$b-auth-sig: ${RACE[1]}" \
		-H "x-$b-auth-nonce: ${RACE[2]}" -H "x-$b-auth-deadline: ${RACE[3]}" > "$pdir/race$i.status" &
	eval "rp$i=\$!"
done
n=0
until [ "$(waiting)" = 2 ] || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.02; done
w=$(waiting)
[ "$w" = 2 ] || diag "$(sql "SELECT id, command, state, time, LEFT(IFNULL(info, '-'), 80) FROM information_schema.processlist")"
is "$w" 2 "both requests are inside their UPDATE of the nonce, waiting on its row lock"
ok "$(kill -0 "$rp1" 2>/dev/null && kill -0 "$rp2" 2>/dev/null && echo 0 || echo 1)" "and neither has an answer yet"
printf 'COMMIT;\n' >&"${HOLD[1]}"
exec {HOLD[1]}>&-
wait "$rp1"; wait "$rp2"; wait "$HOLD_PID" 2>/dev/null
for i in 1 2; do printf '%s GET /tips/%s (race)\n' "$(cat "$pdir/race$i.status")" "$IDA" >> "$seen"; cat "$pdir/race$i" >> "$held"; echo >> "$held"; done
is "$( (cat "$pdir/race1.status"; echo; cat "$pdir/race2.status"; echo) | sort | paste -sd,)" "200,401" \
	"released together: one 200, one 401"
is "$(jq -sr 'map(.unlockedBy // .error) | sort | join(",")' "$pdir/race1" "$pdir/race2")" "recipient_or_tipper,unlock_challenge_invalid" \
	"the winner got the detail, the other unlock_challenge_invalid"
is "$(sql "SELECT used_at IS NOT NULL FROM private_tip_nonces WHERE nonce = UNHEX('${U_NONCE#0x}')")" 1 "the nonce is used"

# ---- disclosure of B by its tipper
mapfile -t DS < <(printf '%s %s %s\n' $KEY8 "$TXB" disclose $KEY8 "$TXB" withdraw $KEY1 "$TXB" disclose $KEY3 "$TXB" disclose \
	$KEY5 "$TXP" disclose $KEY1 "$TXB" withdraw $KEY8 "$TXB" disclose $KEY1 "$TXX" disclose |
	node "$tools/disclosure-sign.mjs" --chain-id "$CHAIN_ID" --contract "$TIPS" --batch)
sig() { jq -r ".${2:-signature}" <<<"${DS[$1]}"; }   # sig N [ENCODING]
dpost() { # dpost METHOD TX ACTION SIGNATURE
	rs "$1" "/api/v1/${b}s/$2/disclosure" -H 'Content-Type: application/json' \
		--data-binary "$(jq -cn --arg a "$3" --arg s "$4" '{action: $a, signature: $s}')"
}
dpost POST "$TXB" disclose "$(sig 2)"
err_is 403 not_the_tipper signature "a disclosure signed by a stranger: 403"
dpost POST "$TXB" disclose "$(sig 3)"
err_is 403 not_the_tipper signature "a disclosure signed by another tipper: 403"
dpost POST "$TXB" disclose "$(sig 1)"
err_is 403 not_the_tipper signature "the tipper's withdraw signature presented as a disclose: 403"
dpost POST "$TXB" withdraw "$(sig 1)"
err_is 400 invalid_field action "POST with action withdraw: 400"
dpost DELETE "$TXB" disclose "$(sig 0)"
err_is 400 invalid_field action "DELETE with action disclose: 400"
dpost POST "$TXB" publish "$(sig 0)"
err_is 400 invalid_field action "an unknown action: 400"
dpost POST "$TXB" disclose 0xzz12
err_is 400 invalid_field signature "a signature that is not hex: 400"
dpost POST "$TXP" disclose "$(sig 4)"
err_is 404 not_found txHash "a disclosure of a public tip, by its tipper: 404"
dpost POST "0x$(printf 'ab%.0s' $(seq 32))" disclose "$(sig 0)"
err_is 404 not_found txHash "a disclosure of an unknown transaction: 404"
dpost POST 0x12 disclose "$(sig 0)"
err_is 400 invalid_field txHash "a malformed transaction hash: 400"
is "$(sql "SELECT COUNT(*) FROM tip_disclosures")" 0 "nothing disclosed by the refused requests"
dpost POST "$TXB" disclose "$(sig 0)"
is "$status" 200 "the tipper discloses B: 200"
valid disclosure.json "$body" "the disclosure: valid"
is "$(jq -c '[.txHash, .tipId, .disclosed, .action, .signer]' <<<"$body")" "[\"$TXB\",\"$IDB\",true,\"disclose\",\"$T8\"]" \
	"disclosed by the tipper"
rs GET "/api/v1/${b}s/$TXB/disclosure"
valid disclosure.json "$body" "the disclosure read: valid"
is "$(jq -c '[.disclosed, .action, .signer]' <<<"$body")" "[true,\"disclose\",\"$T8\"]" "GET shows it"
rs GET "/api/v1/receipts/$TXB"
valid tip-receipt.json "$body" "the receipt of the disclosed tip: valid"
is "$(jq -c '.tip | [.private, .disclosed, .amountUsdc, .note]' <<<"$body")" "[true,true,\"$AMT_B\",$(json_str "$NB")]" \
	"the receipt shows B's amount and note, disclosed"
is "$(jq -c '.tip | del(.amountUsdc, .note, .disclosed)' <<<"$body")" "$rb0" "and the rest of its record is unchanged"
a2a_lookup "$TXB" rs; rec=$(record)
valid recognition-record.json "$rec" "A2A lookup of the disclosed tip: valid"
is "$(jq -c '[.amountUsdcBaseUnits, .amountUsdc]' <<<"$rec")" "[\"$AMT_B\",\"0.$AMT_B\"]" "A2A lookup: the disclosed amount"
mcp_lookup "$TXB" rs
is "$(jq -c '.result.structuredContent | [.amountUsdcBaseUnits, .amountUsdc]' <<<"$body")" "[\"$AMT_B\",\"0.$AMT_B\"]" "MCP lookup: the disclosed amount"
pay "/api/v1/handles/x:yve/${b}s" "$held"
valid handle-tips.json "$(jq -c .body <<<"$res")" "the handle's tips (paid) while disclosed: valid"
is "$(jq -c --arg id "$IDB" '[.body.items[] | select(.tipId == $id) | [.private, .disclosed, .amountUsdc, .note]]' <<<"$res")" \
	"[[true,true,\"$AMT_B\",$(json_str "$NB")]]" "the handle's tips show B's amount and note, disclosed"
rs GET "/api/v1/handles/x:yve/has-${b}s"
is "$body" "$hb_x_yve" "has-${b}s of x:yve is unchanged by the disclosure (totals over public tips only)"
rs GET "/api/v1/handles/x:yve/profile"
is "$(jq -c .profile <<<"$body")" "$(jq -c .profile <<<"$pr_x_yve")" "the profile totals of x:yve are unchanged by the disclosure"
rs GET "/api/v1/handles/x:yve/points"
is "$(jq -c '[.points, .receivedPoints]' <<<"$body")" "$(jq -c '[.points, .receivedPoints]' <<<"$pt_x_yve")" "and so are its points"
# The withdrawal.
dpost DELETE "$TXB" withdraw "$(sig 5)"
err_is 403 not_the_tipper signature "a withdrawal signed by a stranger: 403"
dpost DELETE "$TXB" withdraw "$(sig 1)"
is "$status" 200 "the tipper withdraws the disclosure: 200"
valid disclosure.json "$body" "the withdrawal: valid"
is "$(jq -c '[.disclosed, .action, .signer]' <<<"$body")" "[false,\"withdraw\",\"$T8\"]" "withdrawn by the tipper"
is "$(sql "SELECT CONCAT(disclosed, ' ', IFNULL(usdc_amount, 'null'), ' ', IFNULL(note, 'null')) FROM tip_disclosures WHERE tip_id = $IDB")" \
	"0 null null" "nothing of B is kept in the clear after the withdrawal"
r GET "/api/v1/receipts/$TXB"
is "$(jq -c '.tip | [.private, .disclosed, .amountUsdc, .note]' <<<"$body")" "[true,false,null,null]" "the receipt no longer shows them"
a2a_lookup "$TXB"; rec=$(record)
is "$(jq -c '[.amountUsdcBaseUnits, .amountUsdc]' <<<"$rec")" '[null,null]' "nor the A2A lookup"
mcp_lookup "$TXB"
is "$(jq -c '.result.structuredContent | [.amountUsdcBaseUnits, .amountUsdc]' <<<"$body")" '[null,null]' "nor the MCP lookup"
r GET "/api/v1/${b}s/$TXB/disclosure"
valid disclosure.json "$body" "the disclosure read after the withdrawal: valid"
# The old disclose signature after the withdrawal, in its own bytes and in its two other
# encodings (v as 0/1, EIP-2098): a withdrawal is final, 409 disclosure_withdrawn. (The
# tipper's wallet would sign the same bytes again: RFC 6979.)
is "$(sig 6)" "$(sig 0)" "(a new disclose signature by the same wallet is the same bytes)"
for enc in signature v01 compact; do
	dpost POST "$TXB" disclose "$(sig 0 $enc)"
	is "$status,$(jq -r .error <<<"$body" 2>/dev/null)" 409,disclosure_withdrawn \
		"the old disclose signature ($enc) after the withdrawal: 409"
	valid error.json "$body" "the old disclose signature ($enc): an error body"
done
rs GET "/api/v1/${b}s/$TXB/disclosure"
if [ "$(jq -r .disclosed <<<"$body")" = true ]; then     # a copy got through: withdraw again for the searches below
	dpost DELETE "$TXB" withdraw "$(sig 1)"
fi
is "$(jq -c '[.disclosed, .action]' <<<"$body")" '[false,"withdraw"]' "B stays withdrawn"
r GET "/api/v1/receipts/$TXB"
is "$(jq -c '.tip | [.disclosed, .amountUsdc, .note]' <<<"$body")" "[false,null,null]" "the receipt of B after the replays: nothing"
# X's tipper discloses X: its own amount, and no note (A's note must not come out this way).
dpost POST "$TXX" disclose "$(sig 7)"
is "$status,$(jq -c '[.disclosed, .signer]' <<<"$body")" "200,[true,\"$STRANGER\"]" "the tipper of X discloses it"
r GET "/api/v1/receipts/$TXX"
is "$(jq -c '.tip | [.private, .disclosed, .amountUsdc, .note]' <<<"$body")" "[true,true,\"$AMT_X\",null]" \
	"X's receipt: its disclosed amount, note null"
valid tip-receipt.json "$body" "X's disclosed receipt: valid"

# ---- the searches: no public answer showed a secret of A, B, C or D
for t in A B C D; do
	eval "n=\$N$t a=\$AMT_$t c=\$C$t s=\$S$t"
	tok=${n%% *}
	[ $t = D ] || ok "$([ "$(grep -c -- "$tok" "$held")" -gt 0 ] && echo 0 || echo 1)" "(the unlocks did show $t's note: the search finds it there)"
	is "$(grep -ci -- "$tok" "$scan")" 0 "no public answer shows $t's note"
	is "$(grep -cE -- "(^|[^0-9a-zA-Z])$a([^0-9a-zA-Z]|$)" "$scan")" 0 "no public answer shows $t's amount ($a)"
	is "$(grep -ci -- "${c#0x}" "$scan")" 0 "no public answer shows $t's commitment"
	is "$(grep -ci -- "${s#0x}" "$scan")" 0 "no public answer shows $t's salt"
done
ok "$([ "$(grep -ci -- "${CB#0x}" "$held")" -gt 0 ] && echo 0 || echo 1)" "(the unlocks did show a commitment: the search finds it there)"
is "$(tips_diff)" "" "the tip index recomputed from its events agrees, with no private amount anywhere"
validate_all
is "$(awk '$1 >= 500' "$seen")" "" "no answer was a 5xx (the unopenable row, judged above: $bad_row)"
is "$(awk '$1 !~ /^[1-5][0-9][0-9]$/' "$seen")" "" "every request got an answer"
done_testing
