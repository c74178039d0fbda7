#!/usr/bin/env bash
# The indexer on the local chain with the real tip contracts (chain/tips.mjs
# drives them): every tip kind and every one of the ten tips events, the
# attestation mints and burns and the registry's registrations, transfers
# and agent wallets, each indexed exactly once and only past the
# confirmation depth; escrow then link then claim moves the status and the
# totals; a relink moves later pushes only; an agent tip pays the payout the
# registry gave at tip time; private tips keep no amount or note; every
# derived table equals a recomputation from the events.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_CONFIRMATIONS=2 WAYMARK_SEED=0
chain_stack tips 120
ok $? "a stack with a local chain and the tip contracts starts"
is "$(jq -r '[.tips, .attestation, .identityRegistry] | map(select(test("^0x[0-9a-fA-F]{40}$"))) | length' "$STATE")" 3 \
	"chain.json names the tips, attestation and registry contracts"

W1=0x90F79bf6EB2c4f870365E785982E1f101E93b906      # anvil #3 (KEY3): alice's first wallet
W2=0x15d34AAf54267DB7D7c367839AAf71A00a2C6A65      # anvil #4 (KEY4): alice's wallet after the relink
OWNER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8   # anvil #1: the agent's owner
AW=0x3C44CdDdB6a900fa2b585dd299e03d12FA4293BC      # anvil #2: the agent wallet it sets
log=$WAYMARK_VAR/txs.jsonl
: > "$log"
t() { local out; out=$(tips "$@") || { diag "tips.mjs $1 failed"; return 1; }; printf '%s\n' "$out" >> "$log"; printf '%s\n' "$out"; }
settle() { rpc anvil_mine '["0x2"]' >/dev/null; wait_indexed $(( $(head_block) - 2 )); }
lc() { tr 'A-F' 'a-f' <<<"${1#0x}"; }
q1() { sql "$1" | head -n1; }
tipcol() { q1 "SELECT $2 FROM tips WHERE tip_id = $1"; }
hh_alice=$(tips state --handle github:alice | jq -r .handleHash)
stat() { q1 "SELECT $1 FROM handle_tip_stats WHERE handle = 'github:alice'"; }

# 1. Escrow: alice is not linked. A public and a private escrowed tip.
t1=$(t tip --from-key $KEY7 --handle github:alice --amount 300000 --note "pr:acme/widgets#1 thanks" --attest | jq -r .tipId)
is "$t1" 1 "tip 1 (escrowed, with an attestation) sent"
b1=$(jq -rs '.[-1].blockNumber' "$log")
wait_indexed $(( $(head_block) - 2 ))
is "$(q1 "SELECT COUNT(*) FROM tip_events WHERE block_number >= $b1")" 0 \
	"a tip less than 2 blocks deep is not indexed yet (confirmations = 2)"
t2=$(t tip --from-key $KEY8 --handle github:alice --amount 200000 --note "secret note" --private | jq -r .tipId)
settle; ok $? "the checkpoint passes both tips once they are 2 blocks deep"
is "$(tipcol 1 status) $(tipcol 2 status)" "escrowed escrowed" "both tips are escrowed"
is "$(stat "CONCAT(tips_received, ' ', private_received, ' ', escrowed_count, ' ', escrowed_usdc, ' ', total_usdc, ' ', received_usdc)")" \
	"2 1 2 300000 300000 0" "alice: 2 tips (1 private), both in escrow; only the public amount is summed"
is "$(tipcol 2 "CONCAT(IFNULL(usdc_amount, 'null'), ' ', IFNULL(note, 'null'), ' ', LENGTH(private_commitment))")" \
	"null null 32" "the private tip keeps its commitment, no amount, no note"

# 2. Link: with USDC in escrow the guardian must co-sign.
r=$(tips link --handle github:alice --wallet $W1 --no-guardian --expect-revert | jq -r .reason)
is "$r" "Tips: bad guardian signature" "linking a handle with escrow without the guardian reverts"
t link --handle github:alice --wallet $W1 > /dev/null
settle
is "$(q1 "SELECT CONCAT('0x', LOWER(HEX(wallet)), ' ', relinks) FROM handle_links WHERE handle_hash = UNHEX('${hh_alice#0x}')")" \
	"0x$(lc $W1) 0" "Linked: alice -> W1"
is "$(tipcol 1 status)" escrowed "linking alone leaves the escrow in place"

# 3. Claim: both escrowed tips go to W1; the attestation of tip 1 is minted then.
c=$(t claim --handle github:alice | jq -r .claimed)
is "$c" 2 "claim settles both escrowed tips"
settle
is "$(tipcol 1 "CONCAT(status, ' 0x', LOWER(HEX(recipient)))") $(tipcol 2 status)" "claimed 0x$(lc $W1) claimed" \
	"status follows EscrowedClaimed; the recipient is the claimer"
is "$(stat "CONCAT(escrowed_count, ' ', claimed_count, ' ', escrowed_usdc, ' ', claimed_usdc, ' ', received_usdc)")" \
	"0 2 0 300000 300000" "alice's totals move from escrowed to claimed"
is "$(q1 "SELECT COUNT(*) FROM tip_events WHERE usdc_amount = 200000")" 0 \
	"the private tip's claim revealed its amount on chain, but no row keeps it"
is "$(q1 "SELECT CONCAT('0x', LOWER(HEX(recipient)), ' ', burned) FROM tip_attestations WHERE tip_id = 1")" "0x$(lc $W1) 0" \
	"tip 1's attestation was minted to W1 at the claim (DeferredAttestationMinted)"

# 4. Pushes follow the link; a relink moves later pushes only.
t3=$(t tip --from-key $KEY7 --handle github:alice --amount 150000 --note "review:acme/widgets#2" | jq -r .tipId)
r=$(tips relink --handle github:alice --wallet $W2 | tee -a "$log" | jq -r '.events[0].event')
is "$r" Relinked "relink emits Relinked"
t4=$(t tip --from-key $KEY8 --handle github:alice --amount 175000 | jq -r .tipId)
r=$(tips tip --from-key $KEY4 --handle github:alice --amount 100000 --expect-revert | jq -r .reason)
is "$r" "Tips: self-tip" "a tip to one's own linked wallet reverts"
r=$(tips tip --from-key $KEY7 --handle github:alice --amount 100000 --expect-wallet $W1 --expect-revert | jq -r .reason)
is "$r" "Tips: linked wallet differs from expected" "a tip expecting the old wallet reverts"
settle
is "$(tipcol $t3 "CONCAT(status, ' 0x', LOWER(HEX(recipient)))")" "pushed 0x$(lc $W1)" "the push before the relink went to W1"
is "$(tipcol $t4 "CONCAT(status, ' 0x', LOWER(HEX(recipient)))")" "pushed 0x$(lc $W2)" "the push after the relink went to W2"
is "$(q1 "SELECT CONCAT('0x', LOWER(HEX(wallet)), ' ', relinks) FROM handle_links WHERE handle_hash = UNHEX('${hh_alice#0x}')")" \
	"0x$(lc $W2) 1" "handle_links follows Relinked"
is "$(q1 "SELECT CONCAT(tips_paid, ' ', paid_usdc) FROM wallet_tip_stats WHERE wallet = UNHEX('$(lc $W1)')") $(q1 "SELECT CONCAT(tips_paid, ' ', paid_usdc) FROM wallet_tip_stats WHERE wallet = UNHEX('$(lc $W2)')")" \
	"3 450000 1 175000" "W1 was paid both claims (the private one adds no amount) and the first push, W2 the later push"

# 5. Agents: the payout is what the registry says at tip time.
a=$(t register --from-key $KEY1 --uri https://agents.example/bot.json | jq -r .agentId)
is "$a" 1 "agent 1 registered"
t5=$(t tip-agent --from-key $KEY7 --agent 1 --amount 120000 --note "fast answer" | jq -r .tipId)
t set-agent-wallet --from-key $KEY1 --agent 1 --wallet-key $KEY2 > /dev/null
t6=$(t tip-agent --from-key $KEY8 --agent 1 --amount 130000 --attest --permit | jq -r .tipId)
settle
is "$(tipcol $t5 "CONCAT(kind, ' ', agent_id, ' ', handle, ' 0x', LOWER(HEX(recipient)))")" "agent 1 agent:1 0x$(lc $OWNER)" \
	"an agent tip before the wallet was set paid the owner"
is "$(tipcol $t6 "CONCAT('0x', LOWER(HEX(recipient)), ' ', mint_attestation)")" "0x$(lc $AW) 1" \
	"after setAgentWallet, an agent tip paid the agent wallet (BOON burned by permit)"
is "$(q1 "SELECT CONCAT('0x', LOWER(HEX(owner)), ' 0x', LOWER(HEX(agent_wallet)), ' 0x', LOWER(HEX(payout_wallet))) FROM agents WHERE agent_id = '1'")" \
	"0x$(lc $OWNER) 0x$(lc $AW) 0x$(lc $AW)" "agents: owner, agent wallet, payout"
t transfer-agent --from-key $KEY1 --agent 1 --to $NET_C > /dev/null
settle
is "$(q1 "SELECT CONCAT('0x', LOWER(HEX(owner)), ' ', IFNULL(HEX(agent_wallet), 'null'), ' 0x', LOWER(HEX(payout_wallet))) FROM agents WHERE agent_id = '1'")" \
	"0x$(lc $NET_C) null 0x$(lc $NET_C)" "a transfer clears the agent wallet: the payout is the new owner"
is "$(tipcol $t5 "LOWER(HEX(recipient))") $(tipcol $t6 "LOWER(HEX(recipient))")" "$(lc $OWNER) $(lc $AW)" \
	"earlier agent tips keep the payout resolved at tip time"
is "$(q1 "SELECT COUNT(*) FROM handle_names WHERE handle IN ('agent:1', 'github:alice')")" 2 \
	"handle_names knows github:alice and agent:1"

# 6. Private pushes (one to an agent), a private escrow, a refund after the delay, a burn.
t7=$(t tip --from-key $KEY7 --handle github:alice --amount 90000 --private --attest | jq -r .tipId)
t8=$(t tip-agent --from-key $KEY8 --agent 1 --amount 80000 --private | jq -r .tipId)
t9=$(t tip --from-key $KEY7 --handle x:zed --amount 250000 --note "pr:zed/x#9" | jq -r .tipId)
r=$(tips refund --from-key $KEY7 --tip $t9 --expect-revert | jq -r .reason)
is "$r" "Tips: refund delay not over" "a refund before 180 days reverts"
tips advance-time --seconds $((180 * 86400)) > /dev/null
t refund --from-key $KEY7 --tip $t9 > /dev/null
t burn-attestation --from-key $KEY3 --tip 1 > /dev/null
settle
is "$(tipcol $t7 "CONCAT(kind, ' ', is_private, ' ', status, ' ', mint_attestation, ' ', boon_burned, ' ', IFNULL(usdc_amount, 'null'))")" \
	"handle 1 pushed 1 3500000000000000000000000 null" "a private push with an attestation: burns 500000 + 3000000 BOON, no amount"
is "$(tipcol $t8 "CONCAT(kind, ' ', agent_id, ' ', is_private)")" "agent 1 1" "a private agent tip is an agent tip"
is "$(tipcol $t9 "CONCAT(status, ' ', IFNULL(recipient, 'null'), ' ', settled_block_number > block_number)")" "refunded null 1" \
	"EscrowedRefunded: refunded, no recipient"
is "$(q1 "SELECT CONCAT(tips_sent, ' ', sent_usdc, ' ', refunded_usdc) FROM wallet_tip_stats WHERE wallet = UNHEX('14dc79964da2c08b23698b3d3cc7ca32193d9955')")" \
	"5 570000 250000" "the tipper's sent totals leave the refunded tip out"
is "$(q1 "SELECT burned FROM tip_attestations WHERE tip_id = 1")" 1 "AttestationBurned marks the attestation burned"

# 7. Exactly once: the rows are the chain's logs of interest, one each.
want=$(jq -r '.events[]? as $e | select(
	($e.contract == "tips") or
	($e.contract == "attestation" and ($e.event == "AttestationMinted" or $e.event == "AttestationBurned")) or
	($e.contract == "registry" and ($e.event == "Registered" or $e.event == "Transfer" or
	  ($e.event == "MetadataSet" and $e.args.metadataKey == "agentWallet")))) | "\(.txHash) \($e.logIndex)"' "$log" | sort)
got=$(sql "SELECT CONCAT('0x', LOWER(HEX(tx_hash)), ' ', log_index) FROM tip_events" | sort)
is "$(wc -l <<<"$want")" "$(wc -l <<<"$got")" "as many rows as logs ($(wc -l <<<"$want"))"
ok $([ "$want" = "$got" ] && echo 0 || echo 1) "tip_events holds exactly the contracts' logs of interest"
is "$(q1 "SELECT GROUP_CONCAT(DISTINCT event ORDER BY event) FROM tip_events WHERE contract = UNHEX('$(lc "$(jq -r .tips "$STATE")")')")" \
	"Tip,TipEscrowed,TipAgent,PrivateTip,PrivateTipEscrowed,EscrowedClaimed,EscrowedRefunded,DeferredAttestationMinted,Linked,Relinked" \
	"all ten events of the tips contract were seen"
is "$(q1 "SELECT COUNT(*) FROM tips")" 9 "nine tips"
is "$(tips_diff)" "" "every derived table equals a recomputation from the events"

# 8. Idempotence: re-reading from older checkpoints adds nothing.
"$top/tools/stack" indexer-stop
sql "UPDATE indexer_checkpoints SET block_number = block_number - 30, block_hash = NULL"
before=$(sql "SELECT COUNT(*) FROM tip_events")
"$top/tools/stack" indexer-start
settle
is "$(sql "SELECT COUNT(*) FROM tip_events")" "$before" "re-reading indexed blocks adds no duplicates"
is "$(tips_diff)" "" "the derived tables are unchanged"
is "$(q1 "SELECT COUNT(*) FROM indexer_checkpoints")" 4 "one checkpoint per contract: companion, tips, attestation, registry"
done_testing
