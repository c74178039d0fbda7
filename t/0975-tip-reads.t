#!/usr/bin/env bash
# The free tip reads through the real stack on the local chain, with tips
# sent by chain/tips.mjs and indexed by the real indexer: a transaction's
# receipt (the tips it created or settled: an escrowed tip and a private
# one claimed by link-claim, a push, an agent tip paid to the registry's
# payout, a private push; 404 for a transaction that touched no indexed
# tip), the soulbound attestation's ERC-721 metadata
# (never a note or an amount; 404 once burned), the site wallet reverse
# lookup (GitHub/X handles linked on chain, agents by payout wallet; a
# relink and a new agent wallet move them; the address must be EIP-55) and
# the provider-level wallet endpoints (catalog, route context, routed
# recognition; matchLevel provider_candidate only). Private tips never show
# an amount or a note in any answer. Both site reads are rate-limited.
# Every answer is validated by its JSON Schema in t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
# The site rate class at its default (the suite's stacks open it: tools/stack).
export WAYMARK_RATE_SITE=600
chain_stack tipreads 140
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas
viem=$tools/node_modules/viem/_cjs

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
tips() { local c=$1; shift; node "$top/chain/tips.mjs" "$c" --rpc "$RPC" --state "$STATE" "$@"; }
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$viem/accounts/index.js" "$1"; }
lc() { printf '%s' "$1" | tr 'A-F' 'a-f'; }
bodies=$WAYMARK_VAR/bodies; : > "$bodies"
get() { req GET "$1"; printf '%s\n' "$body" >> "$bodies"; }

# Anvil's public test keys #3 to #6 (tipper, agent owner, two recipient wallets).
K3=0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6
K4=0x47e179ec197488593b187f80a00eb0da91f1b9d0b13f8733639f19c30a34926a
K5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba
K6=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e
W5=$(addr_of $K5); W6=$(addr_of $K6); OWNER=$(addr_of $K4); T3=$(addr_of $K3)
SECRET_AMOUNT=771234; SECRET_NOTE=secret-note-zq

# ---- the tips: escrow, private escrow, link and claim, push, agent, private push
t1=$(tips tip --from-key $KEY7 --handle github:alice --amount 300000 --note "Thanks for pr:acme/widgets#42" --attest)
ok $? "an escrowed tip with a deferred attestation is sent"
T1=$(jq -r .tipId <<<"$t1"); TX1=$(jq -r .txHash <<<"$t1")
t2=$(tips tip --from-key $KEY8 --handle github:alice --amount $SECRET_AMOUNT --note $SECRET_NOTE --private)
T2=$(jq -r .tipId <<<"$t2")
lcl=$(tips link-claim --handle github:alice --wallet "$W5")
is "$(jq -r .claimed <<<"$lcl")" 2 "link-claim links github:alice and claims both escrowed tips"
TXC=$(jq -r .txHash <<<"$lcl")
t3=$(tips tip --from-key $KEY7 --handle github:alice --amount 150000 --note "review:acme/widgets#7 great review" --attest)
T3ID=$(jq -r .tipId <<<"$t3")
reg=$(tips register --from-key $K4)
AG=$(jq -r .agentId <<<"$reg")
like "$AG" '^[1-9][0-9]*$' "an ERC-8004 agent is registered (agent:$AG)"
t4=$(tips tip-agent --from-key $KEY8 --agent "$AG" --amount 120000 --note "agent did well" --attest)
T4=$(jq -r .tipId <<<"$t4")
t5=$(tips tip --from-key $K3 --handle github:alice --amount $SECRET_AMOUNT --note $SECRET_NOTE --private)
T5=$(jq -r .tipId <<<"$t5")
t6=$(tips tip --from-key $KEY7 --handle x:bob --amount 200000 --note plain)
T6=$(jq -r .tipId <<<"$t6")
wait_indexed "$(jq -r .blockNumber <<<"$t6")"; ok $? "every tip is indexed"

# ---- receipts
get "/api/v1/receipts/$TX1"
is "$status" 200 "receipt of the escrowed tip's transaction: 200"
valid tip-receipt.json "$body" "receipt: valid against its schema"
is "$(jq -c '[(.tips | length), .tip.tipId, .tip.status, .tip.kind, .tip.handle, .tip.amountUsdc, .tip.note, .tip.mintAttestation]' <<<"$body")" \
	"[1,\"$T1\",\"CLAIMED\",\"handle\",\"github:alice\",\"300000\",\"Thanks for pr:acme/widgets#42\",true]" \
	"receipt: the tip, claimed since, with its public amount and note"
is "$(jq -r '[.tip.recipient, .tip.tipper, .tip.settledTxHash] | join(" ")' <<<"$body")" "$W5 $(addr_of $KEY7) $TXC" \
	"receipt: the claimer is the recipient; the claim is its settlement"
is "$(jq -r .tip.boonBurned <<<"$body")" 3000000000000000000000000 "receipt: the attestation burn"
get "/api/v1/receipts/$TXC"
valid tip-receipt.json "$body" "receipt of the claim: valid"
is "$(jq -c '[.tips[] | [.tipId, .status, .private, .amountUsdc, .note]]' <<<"$body")" \
	"[[\"$T1\",\"CLAIMED\",false,\"300000\",\"Thanks for pr:acme/widgets#42\"],[\"$T2\",\"CLAIMED\",true,null,null]]" \
	"receipt of the claim: both claimed tips, the private one without amount or note"
is "$(jq -c '[.tips[] | [.senderPoints, .recipientPoints, .pointsPolicyVersion]]' <<<"$body")" \
	'[["2000","10000","boon.points/v1"],["2000","10000","boon.points/v1"]]' \
	"receipt of the claim: each tip is its tipper's first to github:alice, 2 points to the tipper and 10 to the handle (the private one too)"
get "/api/v1/receipts/$(jq -r .txHash <<<"$t4")"
valid tip-receipt.json "$body" "receipt of the agent tip: valid"
is "$(jq -c '.tip | [.kind, .handle, .agentId, .recipient, .status]' <<<"$body")" "[\"agent\",\"agent:$AG\",\"$AG\",\"$OWNER\",\"PUSHED\"]" \
	"agent tip: paid to the registry's payout (the owner) at tip time"
get "/api/v1/receipts/$(jq -r .txHash <<<"$t5")"
valid tip-receipt.json "$body" "receipt of the private push: valid"
is "$(jq -c '.tip | [.tipId, .private, .status, .amountUsdc, .note, .boonBurned]' <<<"$body")" \
	"[\"$T5\",true,\"PUSHED\",null,null,\"500000000000000000000000\"]" "private push: no amount, no note; the private burn"
is "$(jq -c '.tip | [.senderPoints, .recipientPoints]' <<<"$body")" '["2000","10000"]' \
	"private push: a new sender's points, shown without its amount"
get "/api/v1/receipts/0x$(printf 'ab%.0s' $(seq 32))"
is "$status,$(jqr .error)" "404,not_found" "a transaction without indexed tips: 404"
valid error.json "$body" "  the JSON error (schema)"
like "$(jqr .message)" "not .*confirmed.*Not a negative finding" "  it says why, without a verdict"
req GET "/api/v1/receipts/0x12"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,txHash" "a malformed transaction hash: 400"

# ---- attestations
get "/api/v1/attestations/$T1"
is "$status" 200 "attestation of the claimed tip (minted at the claim): 200"
valid attestation.json "$body" "attestation: valid ERC-721 metadata"
is "$(jqr .name)" "Boon Gratitude Attestation #$T1" "attestation: its name"
is "$(jq -c '[.attributes[] | [.trait_type, .value]]' <<<"$body")" \
	"[[\"Tip ID\",\"$T1\"],[\"Recipient Wallet\",\"$W5\"],[\"BOON Burned\",\"3000000\"],[\"Minted At\",$(sql "SELECT minted_at FROM tip_attestations WHERE tip_id = $T1")]]" \
	"attestation: tip ID, recipient wallet, tokens burned, mint time"
is "$(jq -r '[.attributes[] | select(.trait_type == "Minted At") | .display_type] | join("")' <<<"$body")" date "attestation: the mint time is a date"
is "$(jq -r '[.. | strings | select(. == "300000" or test("Thanks"))] | length' <<<"$body")" 0 "attestation: neither the amount nor the note"
like "$(jqr .external_url)" "/b/$TXC\$" "attestation: links the receipt of the minting transaction"
like "$(jqr .image | sed 's/^data:image\/svg+xml;base64,//' | base64 -d)" "<svg .*#$T1</text></svg>" "attestation: a self-contained SVG image"
get "/api/v1/attestations/$T4"
is "$(jq -c '[.attributes[] | [.trait_type, .value]] | .[0:3]' <<<"$body")" "[[\"Tip ID\",\"$T4\"],[\"Recipient Wallet\",\"$OWNER\"],[\"Agent ID\",\"$AG\"]]" \
	"agent tip attestation: the agent ID"
valid attestation.json "$body" "agent tip attestation: valid"
req GET "/api/v1/attestations/$T6"
check_error 404 not_found "a tip without an attestation"
req GET "/api/v1/attestations/0"
is "$status,$(jqr .field)" "400,tipId" "tip ID 0: 400"
req GET "/api/v1/attestations/abc"
is "$status,$(jqr .field)" "400,tipId" "tip ID abc: 400"
burn=$(tips burn-attestation --from-key $K5 --tip "$T3ID")
wait_indexed "$(jq -r .blockNumber <<<"$burn")"
req GET "/api/v1/attestations/$T3ID"
check_error 404 not_found "a burned attestation"
like "$(jqr .message)" burned "the 404 says it was burned"

# ---- the wallet reverse lookup
link() { get "/api/site/link/wallet?address=$1"; }
link "$W5"
is "$status" 200 "reverse lookup of the linked wallet: 200"
valid wallet-accounts.json "$body" "reverse lookup: valid against 2.10"
is_json "$(jq -c . <<<"$body")" \
	"{\"version\":\"0.1\",\"address\":\"$W5\",\"handles\":[\"github:alice\"],\"accounts\":[{\"handle\":\"github:alice\",\"provider\":\"github\",\"linkedWallet\":\"$W5\",\"profileUrl\":\"https://github.com/alice\",\"verification\":\"boon_oauth_link\"}]}" \
	"reverse lookup: github:alice, linked through the OAuth voucher"
link "$OWNER"
valid wallet-accounts.json "$body" "reverse lookup of the agent owner: valid"
is "$(jq -c '[.handles, (.accounts[0] | [.provider, .verification, .linkedWallet])]' <<<"$body")" \
	"[[\"agent:$AG\"],[\"agent\",\"erc8004_indexed_at_recognition\",\"$OWNER\"]]" "an agent by its payout wallet (the owner)"
like "$(jq -r '.accounts[0].profileUrl' <<<"$body")" "^$URL/p/agent%3A$AG\$" "the agent's profile URL on the app"
link "$T3"
is "$(jq -c '[.handles, .accounts]' <<<"$body")" "[[],[]]" "a wallet with no links: empty"
link "$(lc "$W5")"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,address" "a lowercase address is refused: it must be EIP-55"
req GET "/api/site/link/wallet"
is "$status,$(jqr .error),$(jqr .field)" "400,missing_field,address" "no address: 400"
req GET "/api/site/link/wallet?address=0x1234"
is "$status,$(jqr .field)" "400,address" "a short address: 400"
rl=$(tips relink --handle github:alice --wallet "$W6")
sa=$(tips set-agent-wallet --from-key $K4 --agent "$AG" --wallet-key $K6)
wait_indexed "$(jq -r .blockNumber <<<"$sa")"; ok $? "a relink and a new agent wallet are indexed"
link "$W5"
is "$(jq -c '.handles' <<<"$body")" '[]' "after the relink the old wallet has no handle"
link "$OWNER"
is "$(jq -c '.handles' <<<"$body")" '[]' "with an agent wallet set, the owner is no longer the payout"
link "$W6"
valid wallet-accounts.json "$body" "reverse lookup of the new wallet: valid"
is "$(jq -c '[.handles, [.accounts[] | [.handle, .verification]]]' <<<"$body")" \
	"[[\"agent:$AG\",\"github:alice\"],[[\"agent:$AG\",\"erc8004_indexed_at_recognition\"],[\"github:alice\",\"boon_oauth_link\"]]]" \
	"the new wallet has both: the relinked handle and the agent it now receives for"

# ---- provider-level wallet endpoints
ep() { get "/api/site/x402/wallet-endpoints?wallet=$1"; }
RID=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);
	console.log(keccak256(toBytes("boon:x402-route:v1\nGET\nhttps://api.tips-test.example.com\n/v1/items")))' "$viem/index.js")
out=$(send --from-key $KEY7 --route "$RID" --endpoint "$W6" --endpoint-usdc 1000)
out2=$(send --from-key $KEY7 --route "$ROUTE_1" --endpoint "$W6" --endpoint-usdc 2000)
wait_indexed "$(jq -r .blockNumber <<<"$out2")"; ok $? "two recognitions funding the new wallet as endpoint are indexed"
now=$(date +%s)
note=$(jq -cn --argjson c $((now - 60)) --argjson e $((now + 86400)) '{version: "1", route: {publicEndpointUrl:
	"https://api.tips-test.example.com/v1/items", method: "GET"}, intent: "Lists items.", fit: "Use to list items.",
	limits: [], requestSchemaUri: null, documentationUri: null, contextUris: [], createdAt: $c, expiresAt: $e}')
cb=$(jq -cn --arg k $K6 --argjson n "$note" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)
req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' --data-binary "$cb"
is "$status" 201 "the endpoint wallet publishes a route context"
sql "INSERT INTO catalog_resources (item_key, resource_url, method, route_id, description, service_name, network,
	asset, pay_to, amount_atomic, price_usdc, x402_version, last_updated, generation, synced_at, search_text)
	VALUES (UNHEX(SHA2('tips-test', 256)), 'https://listed.tips-test.example.com/v1/quote', 'POST', NULL, 'Quotes.',
	'Tips Test Quotes', 'eip155:8453', '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913', '$W6', '10000', '0.01', 2, '',
	1, UTC_TIMESTAMP(), 'quotes')"
ok $? "a catalog listing paying the same wallet (as a sync would store it)"
ep "$W6"
is "$status" 200 "wallet endpoints: 200"
valid wallet-endpoints.json "$body" "wallet endpoints: valid against their schema"
is "$(jq -c '[.endpoints[] | [.routeId, .method, .url, .serviceName, .sources]] | sort' <<<"$body")" \
	"$(jq -cn --arg r "$RID" --arg r1 "$ROUTE_1" '[[null,"POST","https://listed.tips-test.example.com/v1/quote","Tips Test Quotes",["catalog"]],
		[$r,"GET","https://api.tips-test.example.com/v1/items",null,["route_context","routed_recognition"]],
		[$r1,null,null,null,["routed_recognition"]]] | sort')" \
	"wallet endpoints: the listing, the described route (context and recognitions) and the recognized route"
is "$(jq -r '[.endpoints[].matchLevel] | unique | join(",")' <<<"$body")" provider_candidate "every match is provider_candidate"
like "$(jqr .interpretation)" "Not a verified use edge" "the answer says it is no verified use edge"
ep "$W5"
is "$(jq -c '[.endpoints, .truncated]' <<<"$body")" '[[],false]' "a wallet no endpoint pays: none"
ep "$(lc "$W6")"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,wallet" "wallet endpoints: a lowercase wallet is 400 invalid_field wallet"
req GET "/api/site/x402/wallet-endpoints"
is "$status,$(jqr .error),$(jqr .field)" "400,missing_field,wallet" "wallet endpoints: no wallet: 400"

# ---- privacy: no answer above showed a private tip's amount or note
is "$(grep -c -e "$SECRET_AMOUNT" -e "$SECRET_NOTE" "$bodies")" 0 "no read showed a private tip's amount or note"
is "$(sql "SELECT COUNT(*) FROM tips WHERE is_private = 1")" 2 "two private tips are indexed (they were read above)"

# ---- both site reads are rate-limited like the other site reads (10 r/s, bursts of 20)
for p in "/api/site/link/wallet?address=$W6" "/api/site/x402/wallet-endpoints?wallet=$W6"; do
	rm -rf "$WAYMARK_VAR/burst"; mkdir -p "$WAYMARK_VAR/burst"
	args=()
	for i in $(seq 40); do args+=(-o "$WAYMARK_VAR/burst/$i" "$URL$p"); done
	codes=$(curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 40 -w '%{http_code}\n' "${args[@]}" 2>/dev/null |
		sort | uniq -c | tr -s ' ' | tr '\n' ';')
	like "$codes" '429' "$p: bursts beyond the limit get 429 ($codes)"
done
done_testing
