#!/usr/bin/env bash
# The agent surface (docs/PROTOCOL.md, Agents: A2A and ACP) through the real
# stack on the local chain, with tips sent by chain/tips.mjs and indexed by
# the real indexer: the Agent Card and the interface descriptor; every skill
# (and both deprecated aliases) by the convenience body, each answer parsed
# by the official A2A SDK's own response parser too; the SDK's real client
# (card resolver, HTTP+JSON transport, sendMessage) choosing skills by a data
# part, by metadata and by an extension request; recognition previews read
# from the chain at request time and then acted on by a payer that approved
# nothing (t/tools/send-preview.mjs sends the preview's approvals and
# tipAgent, and the chain's TipAgent event is compared with the preview); a
# new agent wallet moving the payout; recognition records, a private tip's
# redacted; the ACP resources and the suggestion (evidence URIs never
# fetched: a local listener counts hits); the A2A error bodies
# (google.rpc.Status) and the unsupported operations; the /mcp parity
# tools. Every preview, record, suggestion, card and task is validated by
# its JSON Schema in t/schemas (the verdicts come at the end, from one run
# of the validator). No answer is a 5xx.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack a2a 160
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas
viem=$tools/node_modules/viem/_cjs
b=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")

# The configuration's defaults on a test stack: app_url is the base URL,
# docs_url the base URL + /docs.
DOCS=$URL/docs
EXT=$DOCS/a2a/extensions/$b-agent-recognition/v0.1
EXT2=$DOCS/a2a/extensions/$b-agent-recognition/v0.2
LEG=$DOCS/a2a/extensions/$b-agent-payments/v0.1
LEG2=$DOCS/a2a/extensions/$b-agent-payments/v0.2
A2A=/a2a/message:send
CT=(-H 'Content-Type: application/a2a+json')

adir=$WAYMARK_VAR/a2a; rm -rf "$adir"; mkdir -p "$adir"
bodies=$WAYMARK_VAR/bodies; : > "$bodies"
seen=$WAYMARK_VAR/statuses; : > "$seen"
# Every request of this test goes through r: its status is kept (no answer
# may be a 5xx) and its body too (no answer may show a private amount).
r() { req "$@"; printf '%s %s %s\n' "$status" "$1" "$2" >> "$seen"; printf '%s\n' "$body" >> "$bodies"; }
# valid SCHEMA JSON DESCRIPTION: JSON is judged against t/schemas/SCHEMA by
# validate_all, which runs the validator once for all of them.
vlist=$adir/validate.list; : > "$vlist"; vdesc=()
valid() {
	local f=$adir/doc-${#vdesc[@]}.json
	printf '%s' "$2" > "$f"; printf '%s %s\n' "$schemas/$1" "$f" >> "$vlist"; vdesc+=("$3")
}
validate_all() {
	local res i; res=$(cd "$tools" && node a2a-client.mjs validate "$vlist")
	for i in "${!vdesc[@]}"; do is "$(jq -r ".[$i]" <<<"$res")" valid "${vdesc[$i]}"; done
}
preview_tool() { node "$tools/send-preview.mjs" --rpc "$RPC" --state "$STATE" "$@"; }
# On a task answer (default $body): the object under the canonical v0.1
# URI with the canonical key KEY (without the brand prefix), under the
# legacy v0.1 URI with key LKEY, and the data part of the artifact that
# carries KEY.
canon() { jq -c --arg u "$EXT" --arg k "$b.$1" '[.task.artifacts[]? | .metadata[$u][$k] // empty] | first' <<<"${2:-$body}"; }
legacy() { jq -c --arg u "$LEG" --arg k "$b.$1" '[.task.artifacts[]? | .metadata[$u][$k] // empty] | first' <<<"${2:-$body}"; }
datapart() {
	jq -c --arg u "$EXT" --arg k "$b.$1" \
		'[.task.artifacts[]? | select(.metadata[$u][$k] != null) | .parts[] | .data // empty] | first' <<<"${2:-$body}"
}
state() { jq -r .task.status.state <<<"$body"; }
send_a2a() { r POST $A2A "${CT[@]}" --data-binary "$@"; }
skill() { # skill NAME SKILL PARAMS: the convenience body; the answer kept as $adir/NAME.json
	send_a2a "$(jq -cn --arg s "$2" --argjson p "$3" '{skillId: $s, params: $p}')"
	printf '%s' "$body" > "$adir/$1.json"
}
# a2a_error HTTP STATUS REASON DESCRIPTION [gate]: the google.rpc.Status
# body of an A2A row. Its ErrorInfo metadata holds at most error and field;
# error (the REST error code) is there when the gatekeeper found the
# problem ("gate").
a2a_error() {
	local meta='"metadata"'
	[ "${5:-}" = gate ] && meta='"metadata with error"'
	is "$status" "$1" "$4: HTTP $1"
	is "$(header content-type)" application/a2a+json "$4: application/a2a+json"
	is "$(jq -c --arg gate "${5:-}" '[(keys), (.error | keys), .error.code, .error.status, (.error.details | length),
		.error.details[0]["@type"], .error.details[0].reason, .error.details[0].domain,
		(.error.details[0].metadata | if (type == "object") and (keys - ["error", "field"] == [])
			and ((.error | type) == "string" or .error == null) and ($gate != "gate" or .error != null)
			then (if $gate == "gate" then "metadata with error" else "metadata" end) else "bad metadata \(.)" end)]' <<<"$body" 2>&1)" \
		"[[\"error\"],[\"code\",\"details\",\"message\",\"status\"],$1,\"$2\",1,\"type.googleapis.com/google.rpc.ErrorInfo\",\"$3\",\"a2a-protocol.org\",$meta]" \
		"$4: google.rpc.Status $2 with one ErrorInfo $3"
	like "$(jqr .error.message)" '^.{10,}$' "$4: a message"
}

# Anvil's public test keys: #4 the agent's owner, #8 a public tipper, #3 a
# private tipper, #7 a handle tipper, #2 the payer acting on previews, #5 a
# wallet that never held USDC, #6 the agent's later wallet.
read -r OWNER P W5 W6 < <(node -e 'const {privateKeyToAccount} = require(process.argv[1]);
	console.log(process.argv.slice(2).map((k) => privateKeyToAccount(k).address).join(" "))' \
	"$viem/accounts/index.js" $KEY4 $KEY2 $KEY5 $KEY6)
SECRET_AMOUNT=771234; SECRET_NOTE=secret-a2a-note-qv
BURN=3000000000000000000000000   # the attestation burn chain/deploy.mjs sets
TIPS=$(jq -r .tips "$STATE"); USDC=$(jq -r .usdc "$STATE"); BOONT=$(jq -r .boon "$STATE")
CHAIN_ID=$(printf '%d' "$(rpc eth_chainId '[]' | tr -d '"')")

# A listener on a local port that records every request it gets: evidence
# URIs point at it, and nothing may ever reach it.
lport=$((WAYMARK_TEST_PORT_BASE + 161))
hits=$WAYMARK_VAR/evidence-hits; : > "$hits"
node -e 'const fs = require("fs");
	require("http").createServer((q, s) => { fs.appendFileSync(process.argv[2], q.method + " " + q.url + "\n"); s.end("ok"); })
	.listen(Number(process.argv[1]), "127.0.0.1");' "$lport" "$hits" &
lpid=$!
trap 'kill $lpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
n=0; until curl -sf "http://127.0.0.1:$lport/ready" >/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.05; done
is "$(cat "$hits")" "GET /ready" "the evidence listener records what reaches it"
: > "$hits"
EV="http://127.0.0.1:$lport/evidence/a2a-job-7"

# ---- the chain: an agent, a public and a private agent tip, a handle tip;
# a payer holding USDC and BOON that approved nothing
reg=$(tips register --from-key $KEY4)
AG=$(jq -r .agentId <<<"$reg")
like "$AG" '^[1-9][0-9]*$' "an ERC-8004 agent is registered (agent:$AG)"
# Four senders at once (each its own account, so no nonce is shared).
tips tip-agent --from-key $KEY8 --agent "$AG" --amount 120000 --note "agent did well" --attest > "$adir/tpub" & j1=$!
tips tip-agent --from-key $KEY3 --agent "$AG" --amount $SECRET_AMOUNT --note $SECRET_NOTE --private > "$adir/tpriv" & j2=$!
tips tip --from-key $KEY7 --handle github:alice --amount 300000 --note "Thanks for pr:acme/widgets#42" > "$adir/th" & j3=$!
preview_tool --key $KEY2 --fund-only --usdc 5000000 --boon 6000000000000000000000000 > "$adir/fund" & j4=$!
wait $j1 && wait $j2 && wait $j3 && wait $j4; ok $? "the tips are sent and the payer funded"
tpub=$(cat "$adir/tpub"); tpriv=$(cat "$adir/tpriv"); th=$(cat "$adir/th"); fund=$(cat "$adir/fund")
TXPUB=$(jq -r .txHash <<<"$tpub"); TIDPUB=$(jq -r .tipId <<<"$tpub")
is "$(jq -r '.events[] | select(.event == "TipAgent") | .args.resolvedAgentWallet' <<<"$tpub")" "$OWNER" \
	"the public agent tip paid the owner (no agent wallet yet)"
TXPRIV=$(jq -r .txHash <<<"$tpriv")
is "$(jq -r .private <<<"$tpriv")" true "a private agent tip is sent"
TXH=$(jq -r .txHash <<<"$th")
is "$(jq -c '[.payer, .usdc, .boon, .usdcAllowance, .boonAllowance]' <<<"$fund")" \
	"[\"$P\",\"5000000\",\"6000000000000000000000000\",\"0\",\"0\"]" \
	"the payer holds 5 USDC and 6M BOON and has approved nothing to the tips contract"
wait_indexed "$(jq -rs 'map(.blockNumber) | max' "$adir/tpub" "$adir/tpriv" "$adir/th")"; ok $? "every tip is indexed"

# ---- the Agent Card
r GET /.well-known/agent-card.json
CARD=$body
is "$status" 200 "agent card: 200"
is "$(header content-type)" application/json "agent card: application/json"
is "$(header cache-control)" "public, max-age=300" "agent card: Cache-Control public, max-age=300"
like "$(header etag)" '^(W/)?".+"$' "agent card: an ETag"
valid a2a-agent-card.json "$CARD" "agent card: valid against its schema (exactly the listed members)"
SKILLS="$b.suggest_recognition $b.prepare_agent_recognition $b.lookup_recognition $b.lookup_agent_reputation $b.claim_help $b.query_graph $b.query_graph_batch $b.score_handle $b.score_agent $b.review_self_reported $b.review_receipt_verified $b.review_${b}_backed"
is "$(jq -r '[.skills[].id] | sort | join(" ")' <<<"$CARD")" "$(tr ' ' '\n' <<<"$SKILLS" | sort | paste -sd' ')" \
	"agent card: exactly the twelve canonical skills, each once, no alias"
is_json "$(jq -c '[.url, .supportedInterfaces, .documentationUrl, .provider]' <<<"$CARD")" \
	"[\"$URL/a2a\",[{\"url\":\"$URL/a2a\",\"protocolBinding\":\"HTTP+JSON\",\"protocolVersion\":\"1.0\"}],\"$DOCS/a2a\",{\"organization\":\"waymark\",\"url\":\"$URL\"}]" \
	"agent card: the interface {base}/a2a over HTTP+JSON 1.0, docs and provider from the configuration"
is "$(jq -c '[.capabilities.extensions[] | [.uri, .required]]' <<<"$CARD")" \
	"[[\"$EXT\",false],[\"$EXT2\",false],[\"$LEG\",false],[\"$LEG2\",false]]" \
	"agent card: the four extensions (canonical v0.1, v0.2, legacy v0.1, v0.2), none required"
etag=$(header etag)
r GET /.well-known/agent-card.json
is "$body" "$CARD" "agent card: the same bytes again"
is "$(header etag)" "$etag" "agent card: the same ETag"

# ---- the interface descriptor
r GET /a2a
is "$status" 200 "GET /a2a: 200"
is "$(jq -c '[.protocolVersion, .protocolBinding, .url, .agentCardUrl, .contentTypes, .operations.supported]' <<<"$body")" \
	"[\"1.0\",\"HTTP+JSON\",\"$URL/a2a\",\"$URL/.well-known/agent-card.json\",[\"application/a2a+json\",\"application/json\"],[\"SendMessage\"]]" \
	"GET /a2a: protocol, binding, URLs, content types, SendMessage the only supported operation"
is "$(jq -r '[.skills[]] | sort | join(" ")' <<<"$body")" "$(tr ' ' '\n' <<<"$SKILLS" | sort | paste -sd' ')" \
	"GET /a2a: the twelve skills"
is "$(jq -c ".aliases | $SORTED" <<<"$body")" \
	"{\"$b.lookup_receipt\":\"$b.lookup_recognition\",\"$b.prepare_agent_payment\":\"$b.prepare_agent_recognition\"}" \
	"GET /a2a: the two deprecated aliases and their canonical skills"
is "$(jq -c .extensions <<<"$body")" "[\"$EXT\",\"$EXT2\",\"$LEG\",\"$LEG2\"]" "GET /a2a: the four extension URIs"
is "$(jq -r '.operations.unsupported | (length > 0) and all(type == "string") and (index("SendMessage") == null)' <<<"$body")" true \
	"GET /a2a: the unsupported operations are named"

# ---- every skill and both aliases by the convenience body
SUGG=$(jq -cn --arg r "agent:$AG" --arg ev "$EV" '{recipient: $r, acpJobId: "acp:job-7.a_b", reason: "fast and correct answers",
	amountUsdc: "0.25", mintAttestation: true, evidence: {uris: [$ev]}}')
valid acp-suggestion-request.json "$SUGG" "the suggestion request this test sends is itself valid"
PREP=$(jq -cn --arg r "agent:$AG" --arg p "$P" '{recipient: $r, settlementFrom: $p, amountUsdcBaseUnits: "250000", reason: "thanks, agent"}')
# name | skill | params | state | canonical key | legacy key (empty: none)
cases=(
	"suggest|$b.suggest_recognition|$SUGG|TASK_STATE_COMPLETED|recognitionSuggestion|"
	"prepare|$b.prepare_agent_recognition|$PREP|TASK_STATE_COMPLETED|recognitionPreview|paymentPreview"
	"prepare_alias|$b.prepare_agent_payment|{\"recipient\":\"agent:$AG\",\"amountUsdc\":\"0.25\"}|TASK_STATE_INPUT_REQUIRED|recognitionPreview|paymentPreview"
	"lookup|$b.lookup_recognition|{\"txHash\":\"$TXPUB\"}|TASK_STATE_COMPLETED|recognitionRecord|settlementReceipt"
	"lookup_alias|$b.lookup_receipt|{\"txHash\":\"$TXPRIV\"}|TASK_STATE_COMPLETED|recognitionRecord|settlementReceipt"
	"reputation|$b.lookup_agent_reputation|{\"recipient\":\"agent:$AG\"}|TASK_STATE_COMPLETED|agentReputation|"
	"claim|$b.claim_help|{\"handle\":\"github:alice\"}|TASK_STATE_COMPLETED|claimHelp|"
	"query_graph|$b.query_graph|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"query_graph_batch|$b.query_graph_batch|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"score_handle|$b.score_handle|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"score_agent|$b.score_agent|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"review_self_reported|$b.review_self_reported|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"review_receipt_verified|$b.review_receipt_verified|{}|TASK_STATE_COMPLETED|routeHandoff|"
	"review_backed|$b.review_${b}_backed|{}|TASK_STATE_COMPLETED|routeHandoff|"
)
declare -A canonical_of=([$b.prepare_agent_payment]=$b.prepare_agent_recognition [$b.lookup_receipt]=$b.lookup_recognition)
parse_args=()
for c in "${cases[@]}"; do
	IFS='|' read -r name sk params want key lkey <<<"$c"
	skill "$name" "$sk" "$params"
	is "$status,$(header content-type),$(state)" "200,application/a2a+json,$want" "$sk: 200 application/a2a+json, $want"
	valid a2a-task-response.json "$body" "$sk: a SendMessageResponse {task} valid against its schema"
	is "$(jq -c '.task.metadata | [.skillId, .requestedSkillId]' <<<"$body")" "[\"${canonical_of[$sk]:-$sk}\",\"$sk\"]" \
		"$sk: metadata names the canonical skill and the one requested"
	cv=$(canon "$key")
	is "$(jq -r 'type' <<<"$cv")" object "$sk: the result under $EXT as $b.$key"
	is "$(datapart "$key")" "$cv" "$sk: the artifact's data part is the same object"
	if [ -n "$lkey" ]; then
		is "$(legacy "$lkey")" "$cv" "$sk: the same object under the legacy v0.1 URI as $b.$lkey"
	else
		is "$(legacy "$key" | jq -r --argjson c "$cv" '. == null or . == $c')" true \
			"$sk: nothing else under the legacy URI for $b.$key"
	fi
	is "$(jq -r --arg u "$EXT" '[.task.artifacts[] | .extensions | index($u) != null] | all' <<<"$body")" true \
		"$sk: each artifact names the canonical extension"
	is "$(jq -r '[.task.artifacts[].parts[] | if .data then "data" else "text" end] | unique | join(",")' <<<"$body")" data,text \
		"$sk: data and text parts (no acceptedOutputModes)"
	parse_args+=("$adir/$name.json")
done
# The handoffs name their dispatch table row.
declare -A handoff=(
	[query_graph]="GET /api/v1/graphs/gratitude" [query_graph_batch]="POST /api/v1/graphs/queries"
	[score_handle]="POST /api/v1/score" [score_agent]="POST /api/v1/score"
	[review_self_reported]="POST /api/v1/x402/reviews/self-reported"
	[review_receipt_verified]="POST /api/v1/x402/reviews/receipt-verified"
	[review_backed]="POST /api/v1/x402/reviews"
)
for name in "${!handoff[@]}"; do
	read -r m p <<<"${handoff[$name]}"
	is "$(canon routeHandoff "$(cat "$adir/$name.json")" | jq -r --arg m "$m" --arg p "$p" \
		'[.. | strings] | (any(. == $m)) and (any(. == $p or endswith($p)))')" true "$name: a handoff to $m $p"
done
is "$(canon routeHandoff "$(cat "$adir/review_self_reported.json")" | jq -r '[.. | scalars | tostring] | any(test("^[$]?0[.]050*$"))')" true \
	"review_self_reported: the handoff carries the lane's price (0.05)"
is "$(canon routeHandoff "$(cat "$adir/query_graph.json")" | jq -r '[.. | scalars | tostring] | any(test("^[$]?0[.]010*$"))')" true \
	"query_graph: the handoff carries the read's price (0.01)"


# ---- the recognition preview, read from the chain at request time
PV=$(datapart recognitionPreview "$(cat "$adir/prepare.json")")
valid recognition-preview.json "$PV" "preview: the data part is valid against its schema"
valid recognition-preview.json "$(canon recognitionPreview "$(cat "$adir/prepare.json")")" "preview: the metadata copy is valid"
is "$(jq -c '[.status, .recipient, .settlementFrom, .resolvedPayoutWallet, .amountUsdcBaseUnits, .usdcDecimals, .boonBurnRequiredWei]' <<<"$PV")" \
	"[\"needs_operator_approval\",\"agent:$AG\",\"$P\",\"$OWNER\",\"250000\",6,\"0\"]" \
	"preview: needs operator approval; the payout is the registry's (the owner); no burn without an attestation"
is "$(jq -c '[.preconditions[] | [.id, .status]]' <<<"$PV")" \
	'[["payer_wallet","ok"],["agent_registered","ok"],["not_self_recognition","ok"],["usdc_balance","ok"],["usdc_allowance","covered_by_transaction"]]' \
	"preview: the payer's USDC allowance is covered by a transaction; no BOON preconditions"
is "$(jq -c '[.transactions[] | [.purpose, .from, .to, .value, (.chainId | tostring)]]' <<<"$PV")" \
	"[[\"approve_usdc\",\"$P\",\"$USDC\",\"0\",\"$CHAIN_ID\"],[\"agent_tip\",\"$P\",\"$TIPS\",\"0\",\"$CHAIN_ID\"]]" \
	"preview: approve USDC, then the tip, from the payer on this chain"
is "$(jq -c '[.transactions[].step]' <<<"$PV" | jq -c '. == (. | sort) and (. | unique | length) == length')" true \
	"preview: steps in order"
is "$(jq -r '.safety | [.executesTransaction, .requiresHumanApproval, .settlementExecution, .payoutWalletSource] | map(tostring) | join(",")' <<<"$PV")" \
	false,true,out_of_scope,erc8004_registry "preview: executes nothing, needs a human, payout from the registry"
REQ=$(canon agentRecognitionRequest "$(cat "$adir/prepare.json")")
is "$(jq -c '[.recipient, .settlementFrom, .amountUsdcBaseUnits]' <<<"$REQ")" "[\"agent:$AG\",\"$P\",\"250000\"]" \
	"preview: the request rides along as $b.agentRecognitionRequest"
is "$(legacy agentSettlementRequest "$(cat "$adir/prepare.json")")" "$REQ" "preview: and as the legacy $b.agentSettlementRequest"

# With an attestation: the BOON approval too; then the payer acts on it.
skill prepare_attest $b.prepare_agent_recognition "$(jq -c '. + {mintAttestation: true, reason: "attested thanks"}' <<<"$PREP")"
PVA=$(datapart recognitionPreview)
valid recognition-preview.json "$PVA" "attested preview: valid"
is "$(jq -c '[.status, .boonBurnRequiredWei, [.transactions[].purpose]]' <<<"$PVA")" \
	"[\"needs_operator_approval\",\"$BURN\",[\"approve_usdc\",\"approve_boon\",\"agent_tip\"]]" \
	"attested preview: the burn, and approvals of USDC and BOON before the tip"
is "$(jq -c '[.preconditions[] | select(.id | startswith("boon")) | [.id, .status]]' <<<"$PVA")" \
	'[["boon_balance","ok"],["boon_allowance","covered_by_transaction"]]' "attested preview: the BOON balance is there, its allowance covered"
sent=$(printf '%s' "$PVA" | preview_tool --key $KEY2)
ok $? "the payer sends the preview's three transactions"
is "$(jq -c '[.transactions[] | [.target, .call.functionName]]' <<<"$sent")" '[["usdc","approve"],["boon","approve"],["tips","tipAgent"]]' \
	"attested preview: the calldata is USDC approve, BOON approve and tipAgent"
is "$(jq -c '[.transactions[0:2][] | .call.args | [.spender, .value]]' <<<"$sent")" "[[\"$TIPS\",\"250000\"],[\"$TIPS\",\"$BURN\"]]" \
	"attested preview: both approvals exact, to the tips contract"
is "$(jq -c '.transactions[2].call.args | [.agentId, .expectedWallet, .amount, .note, .mintAttestation, .permit.deadline, .permit.v, .permit.r]' <<<"$sent")" \
	"[\"$AG\",\"$OWNER\",\"250000\",\"attested thanks\",true,\"0\",0,\"0x$(printf '0%.0s' $(seq 64))\"]" \
	"attested preview: tipAgent(agent, expectedWallet = the payout, amount, the reason as note, attestation, permit zero)"
is "$(jq -c '[.transactions[] | [.purpose, .status]]' <<<"$sent")" \
	'[["approve_usdc","success"],["approve_boon","success"],["agent_tip","success"]]' "each transaction succeeded"
is "$(jq -c '.tip | [.agentId, .tipper, .usdcAmount, .note, .mintAttestation]' <<<"$sent")" \
	"[\"$AG\",\"$P\",\"250000\",\"attested thanks\",true]" "TipAgent: the agent, the payer, exactly the amount, the note, an attestation"
is "$(jq -r .tip.resolvedAgentWallet <<<"$sent")" "$(jq -r .resolvedPayoutWallet <<<"$PVA")" \
	"TipAgent: the chain resolved the payout the preview named"
is "$(jq -r .boonBurned <<<"$sent")" "$(jq -r .boonBurnRequiredWei <<<"$PVA")" "the BOON sent to 0x…dEaD is the preview's boonBurnRequiredWei"
is "$(jq -c '[.usdcPaid, .allowancesAfter.usdc, .allowancesAfter.boon]' <<<"$sent")" '["250000","0","0"]' \
	"the payout got the amount; the exact approvals are used up"
TXSENT=$(jq -r .tip.txHash <<<"$sent")

# The allowance is read at request time: spent, so approved again.
skill prepare_again $b.prepare_agent_recognition "$PREP"
is "$(datapart recognitionPreview | jq -c '[.status, [.transactions[].purpose]]')" '["needs_operator_approval",["approve_usdc","agent_tip"]]' \
	"after the tip the allowance is spent: the next preview approves again"

# A new agent wallet moves the payout, read from the registry at request time.
sa=$(tips set-agent-wallet --from-key $KEY4 --agent "$AG" --wallet-key $KEY6)
is "$(jq -r .wallet <<<"$sa")" "$W6" "the owner sets a new agent wallet"
skill prepare_moved $b.prepare_agent_recognition "$PREP"
PVM=$(datapart recognitionPreview)
is "$(jq -r .resolvedPayoutWallet <<<"$PVM")" "$W6" "after setAgentWallet the preview's payout is the new wallet"
sent2=$(printf '%s' "$PVM" | preview_tool --key $KEY2)
is "$(jq -r '.transactions[] | select(.purpose == "agent_tip") | .call.args.expectedWallet' <<<"$sent2")" "$W6" \
	"and the tipAgent calldata expects the new wallet"
is "$(jq -c '[.tip.resolvedAgentWallet, .tip.usdcAmount, .usdcPaid, .boonBurned]' <<<"$sent2")" "[\"$W6\",\"250000\",\"250000\",\"0\"]" \
	"the chain pays the new wallet the exact amount, nothing burned"

# Previews that cannot go ahead.
skill pv_nopayer $b.prepare_agent_recognition "{\"recipient\":\"agent:$AG\",\"amountUsdcBaseUnits\":\"250000\"}"
x=$(datapart recognitionPreview)
is "$(state)" TASK_STATE_INPUT_REQUIRED "no settlementFrom: TASK_STATE_INPUT_REQUIRED"
valid recognition-preview.json "$x" "no settlementFrom: a valid preview"
is "$(jq -c '[.status, .settlementFrom, .resolvedPayoutWallet, .transactions]' <<<"$x")" "[\"needs_payer_wallet\",null,\"$W6\",[]]" \
	"no settlementFrom: needs_payer_wallet, the payout still read from the registry (the new wallet), no transactions"
is "$(jq -c '[.preconditions[] | select(.id == "payer_wallet" or .id == "agent_registered") | [.id, .status]],
	([.preconditions[] | select(.id | test("balance|allowance|self")) | .status] | all(. == "unknown"))' <<<"$x" | paste -sd' ')" \
	'[["payer_wallet","missing"],["agent_registered","ok"]] true' \
	"no settlementFrom: the payer wallet missing, the agent registered, nothing claimed about the payer's balances"
like "$(jqr .task.status.message.parts[0].text)" '(settlementFrom|wallet)' "no settlementFrom: the status message asks for the payer wallet"
# The echoed request, sent back with the payer filled in, is taken as is
# (under the extension URI: the skill a client continues with).
echoreq=$(jq -c --arg u "$EXT" --arg k "$b.agentRecognitionRequest" --arg p "$P" \
	'[.task.artifacts[] | .metadata[$u][$k] // empty] | first | .settlementFrom = $p' "$adir/pv_nopayer.json")
send_a2a "$(jq -cn --arg u "$EXT" --arg k "$b.agentRecognitionRequest" --argjson q "$echoreq" \
	'{message: {messageId: "m-echo", role: "ROLE_USER", parts: [{text: "continue"}], metadata: {($u): {($k): $q}}}}')"
is "$(jq -c '[.task.status.state, (.task.artifacts[0].parts[0].data.status)]' <<<"$body")" \
	'["TASK_STATE_COMPLETED","needs_operator_approval"]' \
	"the echoed agentRecognitionRequest, sent back with settlementFrom, gives a complete preview"
skill pv_unknown_nopayer $b.prepare_agent_recognition "{\"recipient\":\"agent:999\",\"amountUsdc\":\"1\"}"
x=$(datapart recognitionPreview)
valid recognition-preview.json "$x" "unknown agent, no settlementFrom: a valid preview"
is "$(jq -c '[.status, .settlementFrom, .resolvedPayoutWallet, (.preconditions[] | select(.id == "agent_registered") | .status), .transactions]' <<<"$x")" \
	'["needs_check",null,null,"failed",[]]' "agent:999 without settlementFrom: needs_check, agent_registered failed"
skill pv_unknown $b.prepare_agent_recognition "{\"recipient\":\"agent:999\",\"settlementFrom\":\"$P\",\"amountUsdcBaseUnits\":\"250000\"}"
x=$(datapart recognitionPreview)
valid recognition-preview.json "$x" "unknown agent: a valid preview"
is "$(state),$(jq -c '[.status, (.preconditions[] | select(.id == "agent_registered") | .status), .transactions, .resolvedPayoutWallet]' <<<"$x")" \
	'TASK_STATE_COMPLETED,["needs_check","failed",[],null]' "agent:999: needs_check, agent_registered failed, no transactions, no payout"
skill pv_poor $b.prepare_agent_recognition "{\"recipient\":\"agent:$AG\",\"settlementFrom\":\"$W5\",\"amountUsdcBaseUnits\":\"250000\"}"
x=$(datapart recognitionPreview)
is "$(jq -c '[.status, (.preconditions[] | select(.id == "usdc_balance") | .status), .transactions]' <<<"$x")" \
	'["needs_check","failed",[]]' "a payer without USDC: needs_check, usdc_balance failed, no transactions"
skill pv_self $b.prepare_agent_recognition "{\"recipient\":\"agent:$AG\",\"settlementFrom\":\"$W6\",\"amountUsdcBaseUnits\":\"1000\"}"
x=$(datapart recognitionPreview)
is "$(jq -c '[.status, (.preconditions[] | select(.id == "not_self_recognition") | .status), .transactions]' <<<"$x")" \
	'["needs_check","failed",[]]' "the payout wallet paying itself: needs_check, not_self_recognition failed"
for bad in \
	"mismatch|{\"recipient\":\"agent:$AG\",\"amountUsdc\":\"0.25\",\"amountUsdcBaseUnits\":\"260000\"}" \
	"no_amount|{\"recipient\":\"agent:$AG\"}" \
	"handle|{\"recipient\":\"github:alice\",\"amountUsdc\":\"1\"}" \
	"approval_false|{\"recipient\":\"agent:$AG\",\"amountUsdc\":\"1\",\"requiresApproval\":false}" \
	"multiline|{\"recipient\":\"agent:$AG\",\"amountUsdc\":\"1\",\"reason\":\"a\\nb\"}" \
	"agent_zero|{\"recipient\":\"agent:0\",\"amountUsdc\":\"1\"}"; do
	skill "pv_$(cut -d'|' -f1 <<<"$bad")" $b.prepare_agent_recognition "$(cut -d'|' -f2- <<<"$bad")"
	is "$status,$(state),$(jq -r '.task.metadata.error.error | type' <<<"$body"),$(jq -r '.task.artifacts | length' <<<"$body")" \
		"200,TASK_STATE_REJECTED,string,0" "prepare $(cut -d'|' -f1 <<<"$bad"): REJECTED with the service's error body, no artifact"
	parse_args+=("$adir/pv_$(cut -d'|' -f1 <<<"$bad").json")
done
valid a2a-task-response.json "$body" "a rejected task: valid against the schema"

# ---- recognition records
x=$(datapart recognitionRecord "$(cat "$adir/lookup.json")")
valid recognition-record.json "$x" "record of the public agent tip: valid"
valid recognition-record.json "$(canon recognitionRecord "$(cat "$adir/lookup.json")")" "its metadata copy: valid"
is "$(jq -c '[(.chainId | tostring), .contract, .txHash, .recipient, .resolvedPayoutWallet, .amountUsdcBaseUnits, (.amountUsdc | tonumber), .attestation.minted, .attestation.tokenId, .receiptUrl]' <<<"$x")" \
	"[\"$CHAIN_ID\",\"$TIPS\",\"$TXPUB\",\"agent:$AG\",\"$OWNER\",\"120000\",0.12,true,\"$TIDPUB\",\"$URL/receipts/$TXPUB\"]" \
	"record: the chain, the tips contract, the agent, the wallet paid, the amount, the attestation, the receipt page"
x=$(datapart recognitionRecord "$(cat "$adir/lookup_alias.json")")
valid recognition-record.json "$x" "record of the private agent tip: valid"
is "$(jq -c '[.recipient, .amountUsdcBaseUnits, .amountUsdc, .resolvedPayoutWallet]' <<<"$x")" "[\"agent:$AG\",null,null,null]" \
	"private tip: amount and payout redacted"
is "$(grep -c -e "$SECRET_AMOUNT" -e "$SECRET_NOTE" "$adir/lookup_alias.json")" 0 "private tip: the answer holds neither its amount nor its note"
like "$(jq -r .privateDataBoundary <<<"$x")" '.{20,}' "private tip: the private data boundary is stated"
skill lookup_handle $b.lookup_recognition "{\"txHash\":\"$TXH\"}"
x=$(datapart recognitionRecord)
valid recognition-record.json "$x" "record of the escrowed handle tip: valid"
is "$(jq -c '[.recipient, .resolvedPayoutWallet, .amountUsdcBaseUnits, .attestation.minted]' <<<"$x")" '["github:alice",null,"300000",false]' \
	"handle tip: escrowed, so no payout wallet; its public amount"
wait_indexed "$(jq -r .tip.blockNumber <<<"$sent")"
skill lookup_sent $b.lookup_recognition "{\"txHash\":\"$TXSENT\"}"
x=$(datapart recognitionRecord)
is "$(jq -c '[.recipient, .resolvedPayoutWallet, .amountUsdcBaseUnits, .attestation.minted, .attestation.tokenId]' <<<"$x")" \
	"[\"agent:$AG\",\"$OWNER\",\"250000\",true,\"$(jq -r .tip.tipId <<<"$sent")\"]" \
	"the tip sent from the preview: found by its transaction, with the chain's tip id"
skill lookup_none $b.lookup_recognition "{\"txHash\":\"0x$(printf 'ab%.0s' $(seq 32))\"}"
is "$status,$(state)" 200,TASK_STATE_FAILED "a transaction without a tip: TASK_STATE_FAILED"
skill lookup_bad $b.lookup_recognition '{"txHash":"0x12"}'
is "$(state),$(jqr .task.metadata.error.field)" TASK_STATE_REJECTED,txHash "a malformed txHash: REJECTED naming txHash"

# ---- the other free skills
like "$(canon agentReputation "$(cat "$adir/reputation.json")")" "agent:$AG" "reputation: about agent:$AG"
skill unknown_skill $b.pay_now '{}'
is "$status,$(state),$(jqr .task.metadata.requestedSkillId),$(jq -r '.task.metadata.error.error | type' <<<"$body")" \
	"200,TASK_STATE_REJECTED,$b.pay_now,string" "an unknown skill: 200 REJECTED with an error body"
parse_args+=("$adir/unknown_skill.json")

# ---- the suggestion, through A2A and ACP (same body)
x=$(datapart recognitionSuggestion "$(cat "$adir/suggest.json")")
valid acp-suggestion-response.json "$x" "suggestion (A2A data part): valid"
valid acp-suggestion-response.json "$(canon recognitionSuggestion "$(cat "$adir/suggest.json")")" "suggestion (metadata copy): valid"
r POST /api/v1/acp/recognition-suggestion -H 'Content-Type: application/json' --data-binary "$SUGG"
is "$status" 200 "ACP suggestion: 200"
valid acp-suggestion-response.json "$body" "ACP suggestion: valid against its schema"
ACPS=$body
is_json "$(jq -c '[.recipient, .suggestedBoon, .prepareUrl, .safety]' <<<"$body")" \
	"[\"agent:$AG\",{\"amountUsdc\":\"0.25\",\"amountUsdcBaseUnits\":\"250000\",\"note\":\"fast and correct answers\",\"mintAttestation\":true},\"$URL/a2a/message:send\",{\"executesTransaction\":false,\"settlementExecution\":\"out_of_scope\"}]" \
	"ACP suggestion: the recipient, the suggested tip, where to prepare it, executes nothing"
is "$(jq -c "$SORTED" <<<"$x")" "$(jq -c "$SORTED" <<<"$body")" "the A2A skill answers the same suggestion"
is "$(grep -c "evidence/a2a-job-7" <<<"$body$x")" 0 "the evidence URI is not echoed"
r POST /api/v1/acp/recognition-suggestion -H 'Content-Type: application/json' \
	--data-binary "{\"recipient\":\"agent:$AG\",\"acpJobId\":\"j1\"}"
is "$status,$(jq -r 'has("suggestedBoon")' <<<"$body")" 200,false "ACP suggestion without an amount: no suggested tip"
for bad in "recipient|{\"recipient\":\"github:alice\",\"acpJobId\":\"j1\"}" \
	"acpJobId|{\"recipient\":\"agent:$AG\",\"acpJobId\":\"has space\"}" \
	"amountUsdc|{\"recipient\":\"agent:$AG\",\"acpJobId\":\"j1\",\"amountUsdc\":\"0.0000001\"}" \
	"evidence|{\"recipient\":\"agent:$AG\",\"acpJobId\":\"j1\",\"evidence\":{\"uris\":[\"ftp://127.0.0.1:$lport/x\"]}}" \
	"evidence|$(jq -cn --arg r "agent:$AG" --arg ev "$EV" '{recipient: $r, acpJobId: "j1", evidence: {uris: [range(11) | $ev]}}')"; do
	f=${bad%%|*}
	r POST /api/v1/acp/recognition-suggestion -H 'Content-Type: application/json' --data-binary "${bad#*|}"
	is "$status" 400 "ACP suggestion, bad $f: 400"
	like "$(jqr .field)" "^$f" "ACP suggestion, bad $f: the error names $f"
	valid error.json "$body" "ACP suggestion, bad $f: the service's error body"
done

# ---- the ACP resources
r GET /api/v1/acp/resources
is "$status,$(jqr .version)" 200,0.1 "ACP resources: 200, version 0.1"
is "$(jq -c '[.resources[] | [.id, .payment]]' <<<"$body")" \
	"[[\"$b.recognition_suggestion\",\"free\"],[\"$b.agent_reputation_summary\",\"free\"],[\"$b.handle_has_${b}s\",\"free\"],[\"$b.workflow_cost_preview\",\"free\"],[\"$b.top_recognized_agents\",\"free\"],[\"$b.agent_prior_${b}s\",\"x402\"],[\"$b.agent_public_recognizers\",\"x402\"],[\"$b.graph_batch\",\"x402\"]]" \
	"ACP resources: the eight ids, five free, three x402"
is "$(jq -r '[.resources[] | select(.payment == "x402") | .priceUsdc | tonumber] | unique | join(",")' <<<"$body")" 0.01 \
	"ACP resources: the x402 ones carry the dispatch table's price (0.01)"
is "$(jq -r '[.resources[] | select(.payment == "free") | has("priceUsdc")] | any' <<<"$body")" false "ACP resources: the free ones no price"
is "$(jq -c '[.resources[] | select(.id | endswith("graph_batch")) | [.method, (.link | test("/api/v1/graphs/queries$"))]]' <<<"$body")" \
	'[["POST",true]]' "ACP resources: graph_batch links POST /api/v1/graphs/queries"
is "$(jq -c '[.resources[] | select(.id | endswith("recognition_suggestion")) | [.method, (.link | test("/api/v1/acp/recognition-suggestion$"))]]' <<<"$body")" \
	'[["POST",true]]' "ACP resources: the suggestion links its POST"
is "$(jq -r '[to_entries[] | select(.key != "version" and .key != "resources") | .value | .. | strings | select(length >= 20)] | length > 0' <<<"$body")" true \
	"ACP resources: with the boundary statement"

# ---- the SDK's real client: card resolver, HTTP+JSON transport, sendMessage
jq -n --arg b "$b" --arg tx "$TXPUB" --arg ag "agent:$AG" --arg p "$P" --arg ext "$EXT" --arg leg "$LEG" --arg ev "$EV" '[
	{name: "text", text: "weather forecast api"},
	{name: "data_lookup", data: {skillId: ($b + ".lookup_recognition"), params: {txHash: $tx}}},
	{name: "data_prepare", data: {skillId: ($b + ".prepare_agent_recognition"),
		params: {recipient: $ag, settlementFrom: $p, amountUsdcBaseUnits: "250000", evidence: {uris: [$ev]}}}},
	{name: "data_suggest", data: {skillId: ($b + ".suggest_recognition"),
		params: {recipient: $ag, acpJobId: "sdk-1", amountUsdc: "1", evidence: {uris: [$ev]}}}},
	{name: "data_alias", data: {skillId: ($b + ".lookup_receipt"), params: {txHash: $tx}}},
	{name: "meta_skill", text: "how is this agent doing", metadata: {skillId: ($b + ".lookup_agent_reputation"), params: {recipient: $ag}}},
	{name: "meta_skill_data_params", metadata: {skillId: ($b + ".lookup_recognition")}, data: {txHash: $tx}},
	{name: "request_meta", text: "help", requestMetadata: {skillId: ($b + ".claim_help"), params: {handle: "github:alice"}}},
	{name: "data_first", data: {skillId: ($b + ".claim_help"), params: {handle: "x:bob"}},
		metadata: {skillId: ($b + ".lookup_agent_reputation"), params: {recipient: $ag}}},
	{name: "ext_request", text: "recognize", metadata: {($ext): {($b + ".agentRecognitionRequest"): {recipient: $ag, amountUsdc: "0.5"}}}},
	{name: "ext_legacy", text: "recognize", metadata: {($leg): {($b + ".agentSettlementRequest"): {recipient: $ag, amountUsdc: "0.5"}}}},
	{name: "text_only", text: "weather", acceptedOutputModes: ["text/plain"]},
	{name: "json_only", data: {skillId: ($b + ".claim_help"), params: {handle: "github:alice"}}, acceptedOutputModes: ["application/json"]},
	{name: "extensions", data: {skillId: ($b + ".claim_help"), params: {handle: "github:alice"}}, extensions: [$ext, "https://unknown.invalid/ext"]},
	{name: "unknown", data: {skillId: ($b + ".pay_now"), params: {}}}
]' > "$adir/sdk-cases.json"
rep=$(cd "$tools" && node a2a-client.mjs send "$URL" "$adir/sdk-cases.json")
ok $? "the SDK client resolves the card and sends"
is "$(jq -c '[.transport, .protocolVersion, .card.name, (.card.skills | length)]' <<<"$rep")" '["HTTP+JSON","1.0","Boon Agent Recognition",12]' \
	"SDK: the card resolved, the HTTP+JSON transport chosen"
is "$(jq -c '[.requests[0] | .method, .url, .status]' <<<"$rep")" "[\"GET\",\"$URL/.well-known/agent-card.json\",200]" \
	"SDK: the card from /.well-known/agent-card.json"
is "$(jq -c '[.requests[1:][] | [.method, .url, .a2aVersion, .contentType]] | unique' <<<"$rep")" \
	"[[\"POST\",\"$URL/a2a/message:send\",\"1.0\",\"application/json\"]]" \
	"SDK: every send is POST {base}/a2a/message:send, application/json, A2A-Version 1.0"
is "$(jq -r '[.requests[1:][] | .status] | unique | join(",")' <<<"$rep")" 200 "SDK: every send answered 200"
is "$(jq -r '[.requests[1:][] | .responseContentType] | unique | join(",")' <<<"$rep")" application/a2a+json \
	"SDK: every answer application/a2a+json"
sdk() { jq -c ".cases[\"$1\"] | $2" <<<"$rep"; }
is "$(sdk text '[.ok, .result, .state]')" '[true,"task","TASK_STATE_COMPLETED"]' "SDK text message: a completed task"
is "$(sdk text "[.artifacts[].metadata[\"$EXT\"] | keys[]] | sort")" "[\"$b.discovery\",\"$b.skills\"]" \
	"SDK text message: the discovery snapshot and the skill list"
is "$(sdk text "[.artifacts[].metadata[\"$EXT\"][\"$b.discovery\"] // empty | .query.q][0]")" '"weather forecast api"' \
	"SDK text message: the discovery ran on the message's text"
is "$(sdk data_lookup "[.state, .metadata.skillId, (.artifacts[].metadata[\"$EXT\"][\"$b.recognitionRecord\"] // empty | .amountUsdcBaseUnits)]")" \
	"[\"TASK_STATE_COMPLETED\",\"$b.lookup_recognition\",\"120000\"]" "SDK data part {skillId, params}: lookup_recognition, the record"
is "$(sdk data_prepare "[.state, (.artifacts[].parts[] | select(.kind == \"data\") | .data.status)]")" \
	'["TASK_STATE_COMPLETED","needs_operator_approval"]' "SDK data part: prepare_agent_recognition, a preview for approval"
is "$(sdk data_suggest "[.state, .metadata.skillId]")" "[\"TASK_STATE_COMPLETED\",\"$b.suggest_recognition\"]" "SDK data part: suggest_recognition"
is "$(sdk data_alias '[.state, .metadata.skillId, .metadata.requestedSkillId]')" \
	"[\"TASK_STATE_COMPLETED\",\"$b.lookup_recognition\",\"$b.lookup_receipt\"]" "SDK data part: the alias runs its canonical skill"
is "$(sdk meta_skill '[.state, .metadata.skillId]')" "[\"TASK_STATE_COMPLETED\",\"$b.lookup_agent_reputation\"]" \
	"SDK message metadata skillId with params"
is "$(sdk meta_skill_data_params "[.state, .metadata.skillId, (.artifacts[].metadata[\"$EXT\"][\"$b.recognitionRecord\"] // empty | .txHash)]")" \
	"[\"TASK_STATE_COMPLETED\",\"$b.lookup_recognition\",\"$TXPUB\"]" "SDK metadata skillId, params from the first data part"
is "$(sdk request_meta '[.state, .metadata.skillId]')" "[\"TASK_STATE_COMPLETED\",\"$b.claim_help\"]" "SDK request metadata skillId"
is "$(sdk data_first '.metadata.skillId')" "\"$b.claim_help\"" "SDK: a data part's skillId comes before the metadata's"
is "$(sdk ext_request "[.state, .metadata.skillId, (.artifacts[].metadata[\"$EXT\"][\"$b.recognitionPreview\"] // empty | .status)]")" \
	"[\"TASK_STATE_INPUT_REQUIRED\",\"$b.prepare_agent_recognition\",\"needs_payer_wallet\"]" \
	"SDK: an agentRecognitionRequest under the extension URI selects prepare_agent_recognition"
is "$(sdk ext_legacy '[.state, .metadata.skillId]')" "[\"TASK_STATE_INPUT_REQUIRED\",\"$b.prepare_agent_recognition\"]" \
	"SDK: the legacy agentSettlementRequest too"
is "$(sdk text_only '[.state, ([.artifacts[].parts[].kind] | unique)]')" '["TASK_STATE_COMPLETED",["text"]]' \
	"SDK acceptedOutputModes text/plain: text parts only"
is "$(sdk json_only '[.state, ([.artifacts[].parts[].kind] | unique)]')" '["TASK_STATE_COMPLETED",["data"]]' \
	"SDK acceptedOutputModes application/json: data parts only"
is "$(sdk extensions '.exchange.responseExtensions')" "\"$EXT\"" "SDK A2A-Extensions: the answer names the supported URI it asked for, only"
is "$(sdk unknown '[.ok, .state, (.metadata.error.error | type)]')" '[true,"TASK_STATE_REJECTED","string"]' "SDK unknown skill: a rejected task"
is "$(jq -r '[.cases[] | .ok] | all' <<<"$rep")" true "SDK: no call threw"

# ---- A2A errors (google.rpc.Status) and edges
msg() { jq -cn --arg t "${1:-hello}" '{message: {messageId: "m-1", role: "ROLE_USER", parts: [{text: $t}]}}'; }
r POST $A2A -H 'Content-Type: text/plain' --data-binary "$(msg)"
a2a_error 415 INVALID_ARGUMENT CONTENT_TYPE_NOT_SUPPORTED "text/plain body" gate
printf '%s' "$body" > "$adir/err_ct.json"
send_a2a '{"message":'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "malformed JSON" gate
printf '%s' "$body" > "$adir/err_json.json"
send_a2a '{"message":{"messageId":"m","messageId":"n","role":"ROLE_USER","parts":[{"text":"x"}]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "a duplicate member" gate
send_a2a '{"message":{"kind":"message","messageId":"m","role":"user","parts":[{"kind":"text","text":"x"}]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "a v0.3 message (kind, role user)"
send_a2a '{"message":{"messageId":"m","role":"ROLE_AGENT","parts":[{"text":"x"}]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "role ROLE_AGENT"
send_a2a '{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x"}],"extra":1}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "an undeclared member"
send_a2a '{"message":{"messageId":"m","role":"ROLE_USER","parts":[]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "no parts"
send_a2a '{"message":{"messageId":"m","role":"ROLE_USER","parts":[{"text":"x","data":{}}]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "a part with text and data"
send_a2a "$(msg "$(head -c 4097 /dev/zero | tr '\0' a)")"
a2a_error 413 INVALID_ARGUMENT PAYLOAD_TOO_LARGE "a text part of 4097 bytes"
send_a2a "$(msg "$(head -c 4096 /dev/zero | tr '\0' a)")"
is "$status,$(state)" 200,TASK_STATE_COMPLETED "a text part of 4096 bytes: answered"
send_a2a "$(jq -cn '{message: {messageId: "m", role: "ROLE_USER", parts: [range(17) | {text: "x"}]}}')"
a2a_error 413 INVALID_ARGUMENT PAYLOAD_TOO_LARGE "17 parts"
send_a2a "$(jq -cn --arg pad "$(head -c 17000 /dev/zero | tr '\0' a)" '{message: {messageId: "m", role: "ROLE_USER", parts: [{data: {pad: $pad}}]}}')"
a2a_error 413 INVALID_ARGUMENT PAYLOAD_TOO_LARGE "a data part over 16 KiB"
send_a2a "$(jq -cn --arg pad "$(head -c 70000 /dev/zero | tr '\0' a)" '{skillId: "x", params: {pad: $pad}}')"
a2a_error 413 INVALID_ARGUMENT PAYLOAD_TOO_LARGE "a body over 64 KiB" gate
send_a2a "$(msg)" -H 'A2A-Version: 2.0'
a2a_error 400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED "A2A-Version 2.0"
printf '%s' "$body" > "$adir/err_version.json"
send_a2a "$(msg)" -H 'A2A-Version: 1.1'
a2a_error 400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED "A2A-Version 1.1"
r POST "$A2A?A2A-Version=0.3" "${CT[@]}" --data-binary "$(msg)"
a2a_error 400 FAILED_PRECONDITION VERSION_NOT_SUPPORTED "A2A-Version=0.3 as a query parameter"
r POST "$A2A?A2A-Version=1.0" "${CT[@]}" --data-binary "$(msg)"
is "$status,$(state)" 200,TASK_STATE_COMPLETED "A2A-Version=1.0 as a query parameter: served"
send_a2a "$(msg)" -H 'A2A-Version: 1.0.7'
is "$status,$(state)" 200,TASK_STATE_COMPLETED "A2A-Version 1.0.7: served"
r POST $A2A -H 'Content-Type: application/json; charset=utf-8' --data-binary "$(msg)"
is "$status,$(header content-type)" 200,application/a2a+json "application/json with a charset: served as application/a2a+json"
send_a2a "$(jq -cn '{message: {messageId: "m", role: "ROLE_USER", parts: [{text: "x"}]},
	configuration: {taskPushNotificationConfig: {url: "https://hooks.invalid/a"}}}')"
a2a_error 400 FAILED_PRECONDITION PUSH_NOTIFICATION_NOT_SUPPORTED "a push configuration"
send_a2a "$(jq -cn '{message: {messageId: "m", role: "ROLE_USER", parts: [{text: "x"}]}, configuration: {acceptedOutputModes: ["image/png"]}}')"
a2a_error 400 INVALID_ARGUMENT CONTENT_TYPE_NOT_SUPPORTED "acceptedOutputModes naming neither JSON nor text"
send_a2a "$(jq -cn '{message: {messageId: "m", role: "ROLE_USER", parts: [{text: "x"}]}, configuration: {acceptedOutputModes: ["*/*"]}}')"
is "$status,$(state)" 200,TASK_STATE_COMPLETED "acceptedOutputModes */*: served"
send_a2a "$(jq -cn '{message: {messageId: "m", contextId: "ctx-42", role: "ROLE_USER", parts: [{text: "x"}]}}')"
t1=$body
is "$(jq -r .task.contextId <<<"$t1")" ctx-42 "the message's contextId is the task's"
send_a2a "$(msg)"
is "$(jq -r '.task | (.contextId | test("^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")) and .id != .contextId' <<<"$body"),$(jq -r .task.id <<<"$t1" | grep -c "$(jqr .task.id)")" \
	true,0 "without a contextId a fresh UUID; each task a fresh id"
ts=$(jqr .task.status.timestamp)
is "$(( $(date -u -d "$ts" +%s) - $(date -u +%s) <= 5 && $(date -u +%s) - $(date -u -d "$ts" +%s) <= 60 ))" 1 "the status timestamp is now ($ts)"
send_a2a "$(msg)" -H "A2A-Extensions: $LEG, https://unknown.invalid/x"
is "$(header a2a-extensions)" "$LEG" "A2A-Extensions: the answer names only the supported URIs asked for"

for op in "GET /a2a/tasks/x" "GET /a2a/tasks" "POST /a2a/message:stream" "POST /a2a/tasks/x:cancel" "POST /a2a/tasks/x:subscribe" \
	"GET /a2a/extendedAgentCard"; do
	read -r m p <<<"$op"
	if [ "$m" = POST ]; then r POST "$p" "${CT[@]}" --data-binary "$(msg)"; else r GET "$p"; fi
	a2a_error 400 FAILED_PRECONDITION UNSUPPORTED_OPERATION "$op"
done
printf '%s' "$body" > "$adir/err_unsupported.json"
r GET /a2a/tasks/x/pushNotificationConfigs
a2a_error 400 FAILED_PRECONDITION PUSH_NOTIFICATION_NOT_SUPPORTED "GET /a2a/tasks/x/pushNotificationConfigs"
printf '%s' "$body" > "$adir/err_push.json"

# The official SDK's own response parser (its RestTransport, fed the bodies
# collected above) on every convenience answer, the rejected and failed
# tasks, and the error bodies.
perr=$(cd "$tools" && node a2a-client.mjs parse "$adir/err_ct.json:415" "$adir/err_json.json:400" "$adir/err_version.json:400" \
	"$adir/err_unsupported.json:400" "$adir/err_push.json:400" "${parse_args[@]}")
ok $? "the A2A SDK's parser runs on every answer kept"
for c in "${cases[@]}"; do
	IFS='|' read -r name sk _ want _ <<<"$c"
	is "$(jq -c --arg n "$name" '.[$n] | [.ok, .result, .state, .statusRole, .drift]' <<<"$perr")" \
		"[true,\"task\",\"$want\",\"ROLE_AGENT\",[]]" "$sk: the SDK's RestTransport parser reads a task, $want, nothing dropped"
done
is "$(jq -c '[.err_ct, .err_json, .err_version, .err_unsupported, .err_push] | map(.error.name)' <<<"$perr")" \
	'["ContentTypeNotSupportedError","RequestMalformedError","VersionNotSupportedError","UnsupportedOperationError","PushNotificationNotSupportedError"]' \
	"the SDK maps each error body to its A2A error"
is "$(jq -c '[to_entries[] | select(.key | startswith("err_") | not) | .value | [.ok, .drift]] | unique' <<<"$perr")" '[[true,[]]]' \
	"the SDK parses the rejected and failed tasks too, nothing dropped"

# ---- MCP parity
mcp() {
	r POST /mcp -H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25' --data-binary "$1"
}
mcp '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
is "$(jq -r --arg b "$b" '[.result.tools[].name] as $n | [$b + "_suggest_recognition", $b + "_prepare_agent_recognition",
	$b + "_lookup_recognition", $b + "_lookup_agent_reputation", $b + "_claim_help"] | map(. as $t | $n | index($t) != null) | all' <<<"$body")" \
	true "MCP tools/list has the five skill tools"
mcp "$(jq -cn --arg b "$b" --arg tx "$TXPUB" '{jsonrpc: "2.0", id: 2, method: "tools/call",
	params: {name: ($b + "_lookup_recognition"), arguments: {txHash: $tx}}}')"
is "$(jq -r .result.isError <<<"$body")" false "MCP lookup_recognition: a result"
is "$(jq -c ".result.structuredContent | $SORTED" <<<"$body")" "$(datapart recognitionRecord "$(cat "$adir/lookup.json")" | jq -c "$SORTED")" \
	"MCP lookup_recognition: the same record as the A2A skill"
mcp "$(jq -cn --arg b "$b" --argjson s "$SUGG" '{jsonrpc: "2.0", id: 3, method: "tools/call",
	params: {name: ($b + "_suggest_recognition"), arguments: $s}}')"
is "$(jq -c ".result.structuredContent | $SORTED" <<<"$body")" "$(jq -c "$SORTED" <<<"$ACPS")" "MCP suggest_recognition: the same suggestion as ACP"
mcp "$(jq -cn --arg b "$b" '{jsonrpc: "2.0", id: 4, method: "tools/call",
	params: {name: ($b + "_prepare_agent_recognition"), arguments: {recipient: "github:alice", amountUsdc: "1"}}}')"
is "$(jq -c '.result | [.isError, (.structuredContent.error | type)]' <<<"$body")" '[true,"string"]' \
	"MCP prepare with a handle recipient: isError with the service's error body"
mcp "$(jq -cn --arg b "$b" --arg tx "$TXPRIV" '{jsonrpc: "2.0", id: 5, method: "tools/call",
	params: {name: ($b + "_lookup_recognition"), arguments: {txHash: $tx}}}')"
is "$(jq -c '.result.structuredContent | [.amountUsdc, .amountUsdcBaseUnits]' <<<"$body")" '[null,null]' "MCP lookup of the private tip: redacted too"

# ---- edges found in review: query parameters, a wrong method, UTF-8, exact extension names
r POST "/a2a/message:stream?A2A-Version=1.0" "${CT[@]}" --data-binary '{}'
a2a_error 400 FAILED_PRECONDITION UNSUPPORTED_OPERATION "message:stream with a query parameter"
r GET "/a2a/tasks/t-1?historyLength=3"
a2a_error 400 FAILED_PRECONDITION UNSUPPORTED_OPERATION "GetTask with historyLength"
r GET $A2A
a2a_error 405 INVALID_ARGUMENT INVALID_PARAMS "GET message:send (wrong method)" gate
long=$(printf '€%.0s' $(seq 1 40))
send_a2a "{\"skillId\":\"a$long\"}"
is "$(state)" TASK_STATE_REJECTED "an unknown skill id of 40 multi-byte characters (121 bytes): rejected"
printf '%s' "$body" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
ok $? "and the answer, which quotes it cut short, is valid UTF-8"
send_a2a "{\"skillId\":\"$b.claim_help\",\"params\":{\"handle\":\"github:alice\",\"$long\":1}}"
printf '%s' "$body" | iconv -f UTF-8 -t UTF-8 >/dev/null 2>&1
ok $? "a refused multi-byte param name: valid UTF-8 ($(state))"
r POST $A2A "${CT[@]}" -H "A2A-Extensions: ${EXT}0, $LEG" --data-binary "{\"skillId\":\"$b.claim_help\",\"params\":{\"handle\":\"x:carol\"}}"
is "$(header a2a-extensions)" "$LEG" "A2A-Extensions: only exact names are echoed (not a v0.10)"
send_a2a "{\"skillId\":\"$b.claim_help\",\"params\":{\"handle\":\"github:alice\",\"x\":\"\\u0000\"}}"
is "$(state)" TASK_STATE_REJECTED "a NUL in a params member is refused as an unknown member"
send_a2a '{"message":{"messageId":"\u0000","role":"ROLE_USER","parts":[{"text":"x"}]}}'
a2a_error 400 INVALID_ARGUMENT INVALID_PARAMS "a messageId of a NUL byte"

# ---- every schema verdict; nothing fetched, nothing leaked, nothing 5xx
validate_all
is "$(wc -l < "$hits" | tr -d ' ')" 0 "no evidence URI was fetched ($(head -c 200 "$hits"))"
curl -s "http://127.0.0.1:$lport/late" >/dev/null
is "$(cat "$hits")" "GET /late" "(the listener was up all along)"
is "$(grep -c -e "$SECRET_AMOUNT" -e "$SECRET_NOTE" "$bodies")" 0 "no answer showed the private tip's amount or note"
is "$(awk '$1 >= 500' "$seen" | head -n 5 | tr '\n' ';')" "" "no answer was a 5xx"
is "$(awk '$1 == "000"' "$seen" | wc -l | tr -d ' ')" 0 "every request was answered"
done_testing
