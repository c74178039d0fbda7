#!/usr/bin/env bash
# Activity publication through the real stack on the local chain, every call
# signed with the reference SIWX client: a wallet linked to a profile pays
# a real x402 payment (the x402 client, t/tools/pay.mjs, settled by the real
# facilitator) for the stack's own paid route directory; that settlement is
# published as a route-less paid_settlement fact (usdc_transfer), as a
# client_settlement used fact bound to a wallet-attested GET route, and
# inside an official x402 receipt of that route (x402_receipt, signed by the
# endpoint whose offer the catalog listed) as a used fact. Publishing the
# same evidence again answers the same fact; forged transfers (another
# token, not from the wallet, a failed or unknown transaction), a foreign
# transfer and a transfer too shallow for the confirmation depth are 422
# with nothing stored, and so is an offer or a receipt whose signature
# recovers no key (a malformed one is 400); with the RPC stopped, 503 and nothing stored; a
# wallet that is not linked gets 404. A client settlement must buy use: a
# transfer to the wallet itself, one under the minimum, and one to another
# wallet than the route's known payTo (the catalog's, or a context's by the
# route's endpoint) are 422. The proof signs the body: evidence swapped
# under a valid proof is 400 request_mismatch, and a body with a number
# that has no canonical form is 400 before any challenge. Answers are
# checked against t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
. "$(dirname "$0")/lib/activity.sh"
. "$(dirname "$0")/lib/siwxbind.sh"
export WAYMARK_CONFIRMATIONS=1
activity_stack actpub 110
usdc=$(jq -r .usdc "$STATE"); boon=$(jq -r .boon "$STATE")
is "$usdc" "$USDC" "USDC sits at its canonical address"

KEY5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba   # the controller (anvil #5)
KEY6=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e   # a stranger (anvil #6)
C=$KEY5; M=$KEY8; F=$KEY1; S=$KEY6
MA=$(addr_of $M); FA=$(addr_of $F); SA=$(addr_of $S)
low() { printf '%s' "${1#0x}" | tr 'A-F' 'a-f'; }
word() { printf '%064x' "$1"; }
send_tx() { # send_tx FROM TO DATA [GAS]: an unlocked anvil account's transaction; prints its hash
	rpc eth_sendTransaction "[{\"from\":\"$1\",\"to\":\"$2\",\"data\":\"$3\"${4:+,\"gas\":\"$4\"}}]" | tr -d '"'
}
receipt_status() { rpc eth_getTransactionReceipt "[\"$1\"]" | jq -r .status; }
block_time() { printf '%d' "$(rpc eth_getBlockByNumber "[\"$(rpc eth_getTransactionReceipt "[\"$1\"]" | jq -r .blockNumber)\",false]" | jq -r .timestamp)"; }
transfer_ev() { jq -cn --arg t "$1" '{kind: "usdc_transfer", transaction: $t}'; }
client_ev() { jq -cn --arg t "$1" --arg u "${2:-$RURL}" '{kind: "client_settlement", transaction: $t, method: "GET", url: $u}'; }

# ---- a profile, public from the start, and its member M
pid=$(new_profile $C)
like "$pid" '^[0-9a-f-]{36}$' "the controller creates a profile"
go_public "$pid" $C; ok $? "the controller publishes it (public_all, from the preview's digest)"
link "$pid" $C $M; ok $? "the member M links its wallet (consenting to the public policy)"

# ---- a real x402 payment by M: the stack's paid read, settled on the chain
mint "$MA" 1000000; mint "$FA" 1000000
T1=$(paid_read $M)
like "$T1" '^0x[0-9a-f]{64}$' "M pays a paid read of the stack with the x402 client: settlement $T1"
is "$(balance "$MA")" 990000 "  10000 USDC left M's wallet"
publish $M "$pid" "$(transfer_ev "$T1")"
is "$status,$(jqr .error),$(jqr .field)" "422,evidence_unverified,evidence.transaction" \
	"published at once, with a confirmation depth of 1: 422"
like "$(jqr .message)" 'confirmations' "  the message asks for more confirmations"
T2=$(paid_read $F)   # a block on top of T1; and a foreign wallet's settlement
like "$T2" '^0x[0-9a-f]{64}$' "F, a wallet in no profile, pays too (the next block)"
is "$(facts)" 0 "nothing was stored"

# ---- the proof signs the body: another evidence cannot be slipped under it
pb=$(jq -cn --arg a "$(acct "$MA")" --argjson e "$(transfer_ev "$T1")" '{accountId: $a, evidence: $e}')
sb=$(jq -cn --arg a "$(acct "$MA")" --argjson e "$(client_ev "$T1")" '{accountId: $a, evidence: $e}')
swap_refused $M POST "$P/$pid/activity" "$pb" "$(body_request_id "$pb")" "$sb" "$(body_request_id "$sb")" "publish"
is "$(facts)" 0 "  nothing stored"
bind_send POST "$P/$pid/activity" "$(jq -c '{evidence, accountId}' <<<"$pb")" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .kind),$(jqr .evidenceKind)" "201,paid_settlement,usdc_transfer" \
	"  the same proof with the body it signed (members in another order): 201, a paid_settlement fact"
bind_send POST "$P/$pid/activity" '{"accountId":"'"$(acct "$MA")"'","evidence":{"kind":"usdc_transfer","transaction":"'"$T1"'","logIndex":1.0}}'
is "$status,$(jqr .error),$(header payment-required)" "400,invalid_request," \
	"a body with a number that is no integer (1.0): 400 before any challenge, it has no canonical form"

# ---- paid_settlement from the verified transfer
publish $M "$pid" "$(transfer_ev "$T1")"
is "$status,$(jqr .kind),$(jqr .evidenceKind)" "201,paid_settlement,usdc_transfer" \
	"with one confirmation: 201, a paid_settlement fact"
valid activity-published.json "$body" "  the fact (schema)"
fact1=$(jqr .id)
is "$(jqr '[.accountId, .routeId, .network, .asset, .amountAtomic, .transaction, .details.payee] | map(tostring) | join(" ")')" \
	"$(acct "$MA") null eip155:8453 $USDC 10000 $T1 $ADDR0" "  M's 10000 USDC to the endpoint's payTo, route-less, in T1"
is "$(jqr .occurredAt)" "$(block_time "$T1")" "  occurredAt is the block's time"
publish $M "$pid" "$(transfer_ev "$T1")"
is "$status,$(jqr .id)" "201,$fact1" "the same evidence again: 201, the same fact"
publish $M "$pid" "$(jq -c ".logIndex = $(jqr .details.logIndex)" <<<"$(transfer_ev "$T1")")"
is "$status,$(jqr .id)" "201,$fact1" "naming its logIndex: the same fact"
is "$(facts "$pid")" 1 "one stored fact"

# ---- client_settlement: M's word for the route, bound to the verified settlement
publish $M "$pid" "$(client_ev "$T1")"
is "$status,$(jqr .kind),$(jqr .evidenceKind),$(jqr .routeId)" "201,used,client_settlement,$ROUTE" \
	"a client settlement with GET $RURL: 201, a used fact on that route"
valid activity-published.json "$body" "  the fact (schema)"
fact2=$(jqr .id)
is "$(jqr '[.origin, .method, .path, .transaction, .amountAtomic, .details.routeBinding] | join(" ")')" \
	"https://api.example.com GET /v1/forecast $T1 10000 wallet_attested" "  origin, method, path, the settlement and its amount"
publish $M "$pid" "$(client_ev "$T1" "https://API.example.com:443/v1/./forecast")"
is "$status,$(jqr .id)" "201,$fact2" "the same route written another way: the same fact"
publish $M "$pid" "$(client_ev "$T1" "https://api.example.com/v1/other")"
is "$status,$(jqr .error)" "409,activity_conflict" "the same settlement attested for another route: 409"
is "$(facts "$pid")" 2 "two stored facts"

# ---- x402_receipt: the endpoint's official offer and receipt, naming T1
now=$(date +%s)
receipt_ev() { # receipt_ev JQ: official evidence for M, changed by the jq program given
	node "$tools/sign-review-v2.mjs" "$(jq -cn --arg r $ROUTE --arg u $RURL --arg s $KEY0 --arg k $M \
		--arg t "$T1" --argjson n "$now" '{chainId: 8453, companion: "0x0000000000000000000000000000000000000001",
		routeId: $r, url: $u, serviceKey: $s, reviewerKey: $k, createdAt: $n, issuedAt: ($n - 30), text: "x",
		transaction: $t}' | jq -c "${1:-.}")" | jq -c '.evidence + {kind: "x402_receipt", method: "GET"}'
}
publish $M "$pid" "$(receipt_ev)"
is "$status,$(jqr .kind),$(jqr .evidenceKind),$(jqr .routeId),$(jqr .transaction)" "201,used,x402_receipt,$ROUTE,$T1" \
	"an official receipt of the route naming T1: 201, a used fact"
valid activity-published.json "$body" "  the fact (schema)"
is "$(jqr '[.details.routeBinding, .details.serviceSigner, .details.payTo, .details.authoritySource, .details.settlement.payee] | join(" ")')" \
	"service_receipt $ADDR0 $ADDR0 catalog_offer $ADDR0" "  bound by the pinned receipt signer, its settlement verified on the chain"
is "$(jqr .occurredAt)" "$((now - 30))" "  occurredAt is the receipt's issuedAt"
fact3=$(jqr .id)
publish $M "$pid" "$(receipt_ev)"
is "$status,$(jqr .id)" "201,$fact3" "the same receipt again: the same fact"
publish $M "$pid" "$(receipt_ev 'del(.transaction) | .issuedAt -= 5')"
is "$status,$(jqr .transaction),$(jqr .details.settlement)" "201,null,null" \
	"a receipt without its transaction (the privacy default): a used fact of the receipt alone"
check422() { # check422 EVIDENCE FIELD DESCRIPTION
	local before; before=$(facts)
	publish $M "$pid" "$1"
	is "$status,$(jqr .error),$(jqr .field)" "422,evidence_unverified,$2" "$3: 422 naming $2"
	is "$(facts)" "$before" "  nothing stored"
}
check422 "$(receipt_ev '.receiptKey = "'$KEY6'"')" evidence.receipt.signature "a receipt signed by another key"
check422 "$(receipt_ev '.offerKey = "'$KEY6'" | .receiptKey = "'$KEY6'"')" evidence.offer.signature "offer and receipt by another key"
check422 "$(receipt_ev '.payer = "'$FA'"')" evidence.receipt.payload.payer "a receipt whose payer is another wallet"
check422 "$(receipt_ev '.url = "https://api.example.com/v1/unlisted"')" evidence.receipt \
	"a route with no observed receipt authority"
check422 "$(receipt_ev '.transaction = "'$T2'"')" evidence.receipt.payload.transaction "a receipt naming F's settlement"
check422 "$(receipt_ev '.amount = "10001"')" evidence.receipt.payload.transaction "an offer amount the settlement did not pay"
check422 "$(receipt_ev '.issuedAt = '$((now + 3600)))" evidence.receipt.payload.issuedAt "a receipt issued in the future"
resign() { jq -c --arg f "$1" --arg s "$2" 'setpath([$f, "signature"]; $s)' <<<"$(receipt_ev)"; }
zero64=$(printf '0%.0s' $(seq 64)); order=fffffffffffffffffffffffffffffffebaaedce6af48a03bbfd25e8cd0364141
check422 "$(resign receipt "0x$zero64${zero64}1b")" evidence.receipt.signature \
	"a receipt signature of 65 bytes whose r and s are zero (no key recovers)"
check422 "$(resign offer "0x$order${order}1c")" evidence.offer.signature \
	"an offer signature whose r and s are the curve order"
check422 "$(resign receipt "0x$(jq -r .receipt.signature <<<"$(receipt_ev)" | cut -c3-130)1d")" evidence.receipt.signature \
	"the receipt's own signature with v 29"

# ---- forged and foreign transfers: 422, nothing stored
check422 "$(transfer_ev "$T2")" evidence.transaction "a foreign transfer (F's payment)"
check422 "$(client_ev "$T2")" evidence.transaction "a foreign transfer as a client settlement"
TM=$(send_tx $ADDR0 "$USDC" "0x40c10f19$(printf '%064s' "$(low "$MA")" | tr ' ' 0)$(word 500000)")
check422 "$(transfer_ev "$TM")" evidence.transaction "a USDC Transfer to the wallet (a mint), not from it"
send_tx $ADDR0 "$boon" "0x40c10f19$(printf '%064s' "$(low "$MA")" | tr ' ' 0)$(word 1000000)" >/dev/null
TB=$(send_tx "$MA" "$boon" "0xa9059cbb$(printf '%064s' "$(low "$ADDR0")" | tr ' ' 0)$(word 1000)")
is "$(receipt_status "$TB")" 0x1 "M moves another token (BOON) in its own transaction"
check422 "$(transfer_ev "$TB")" evidence.transaction "a Transfer log of another token than USDC"
TF=$(send_tx "$MA" "$USDC" "0xa9059cbb$(printf '%064s' "$(low "$ADDR0")" | tr ' ' 0)$(word 999999999999)" 0x30000)
is "$(receipt_status "$TF")" 0x0 "M's USDC transfer of more than it holds reverts (status 0)"
check422 "$(transfer_ev "$TF")" evidence.transaction "a failed transaction"
like "$(jqr .message)" 'failed' "  the message says it failed"
check422 "$(transfer_ev 0x$(printf 'ab%.0s' $(seq 32)))" evidence.transaction "an unknown transaction"
check422 "$(jq -c '.logIndex = 7' <<<"$(transfer_ev "$T1")")" evidence.transaction "a logIndex that is not M's Transfer"

# ---- malformed evidence: 400 before the chain is asked
bad() { # bad EVIDENCE STATUS ERROR FIELD DESCRIPTION
	publish $M "$pid" "$1"
	is "$status,$(jqr .error),$(jqr .field)" "$2,$3,$4" "$5"
}
bad '{"kind":"usdc_transfer","transaction":"'"$T1"'","note":"x"}' 400 unknown_field evidence.note "an undeclared evidence member: 400"
bad '{"kind":"usdc_transfer"}' 400 missing_field evidence.transaction "no transaction: 400"
bad '{"kind":"erc20_history","transaction":"'"$T1"'"}' 400 invalid_field evidence.kind "arbitrary token history is no evidence kind: 400"
bad "$(client_ev "$T1" "https://localhost/v1/forecast")" 400 invalid_field evidence.url "a local URL: 400"
bad "$(client_ev "$T1" "https://api.example.com/v1/forecast?q=1")" 400 invalid_field evidence.url "a URL with a query: 400"
bad "$(resign receipt 0x1234)" 400 invalid_field evidence.receipt.signature "a receipt signature that is not 65 bytes: 400"
bad "$(jq -c '.receipt.payload.payer = "nobody"' <<<"$(resign offer "0x$zero64${zero64}1b")")" 400 invalid_field \
	evidence.receipt.payload.payer "an offer signature that recovers no key beside a malformed receipt: 400 for the receipt"
sx $M POST "$P/$pid/activity" "{\"accountId\":\"$(acct "$MA")\",\"evidence\":$(transfer_ev "$T1"),\"extra\":1}"
is "$status,$(jqr .error)" "400,unknown_field" "an undeclared body member: 400"

# ---- who may publish
sx $S POST "$P/$pid/activity" "{\"accountId\":\"$(acct "$MA")\",\"evidence\":$(transfer_ev "$T1")}"
is "$status,$(jqr .error),$(jqr .field)" "402,siwx_wrong_account,accountId" "accountId other than the signer: 402"
publish $F "$pid" "$(transfer_ev "$T2")"
is "$status,$(jqr .error)" "404,not_found" "a wallet not linked to the profile, with its own settlement: 404"
valid error.json "$body" "  the error (schema)"
publish $F "$(new_profile $F)" "$(transfer_ev "$T2")"
is "$status,$(jqr .kind)" "201,paid_settlement" "F in a profile of its own publishes its settlement there"
is "$(facts "$pid")" 4 "M's profile still holds its four facts"

# ---- client settlements that buy no use (INSTALL, section 11, Client settlements)
KEY9=0x2a871d0798f97d79848a013d4936a73bf4cc922c825d33c1cf7073dff6d409c6   # another endpoint's payTo (anvil #9)
ADDR9=$(addr_of $KEY9)
BURL=https://api.example.com/v1/b
BROUTE=0x1a02bb6c2f38f692d7f8dfc68d60fbdfa0e704932c756bd73187c42389b63644   # GET $BURL, listed nowhere
pay() { send_tx "$MA" "$USDC" "0xa9059cbb$(printf '%064s' "$(low "$1")" | tr ' ' 0)$(word "$2")"; }
mine() { rpc evm_mine '[]' >/dev/null; }
TS=$(pay "$MA" 20000); TL=$(pay "$ADDR0" 9999); TO=$(pay "$SA" 20000); TU=$(pay "$SA" 10000); mine
is "$(receipt_status "$TS")$(receipt_status "$TL")$(receipt_status "$TO")$(receipt_status "$TU")" 0x10x10x10x1 \
	"M transfers USDC to itself (20000), to the endpoint (9999), and twice to S (20000, 10000)"
check422 "$(client_ev "$TS")" evidence.transaction "a transfer to the wallet itself as a client settlement"
like "$(jqr .message)" 'to itself' "  the message says it went to the wallet itself"
check422 "$(client_ev "$TL")" evidence.transaction "a transfer of 9999 (under the default minimum, 10000 = \$0.01)"
like "$(jqr .message)" '9999 atomic units, less than the 10000' "  the message names the amount and the minimum"
check422 "$(client_ev "$TO")" evidence.transaction \
	"a transfer to S for a route whose payTo the catalog listed (the endpoint's)"
like "$(jqr .message)" "pays $SA, but the route GET $RURL is paid to $ADDR0 \\(catalog_offer\\)" \
	"  the message names the payee, the route's payTo and where it is known from"
publish $M "$pid" "$(transfer_ev "$TS")"
is "$status,$(jqr .kind)" "201,paid_settlement" "the self-transfer as usdc_transfer: a route-less paid_settlement fact still"
publish $M "$pid" "$(client_ev "$TU" "$BURL")"
is "$status,$(jqr .evidenceKind),$(jqr .amountAtomic),$(jqr .details.payee)" "201,client_settlement,10000,$SA" \
	"10000 to S for a route with no known payTo: 201 (the minimum itself is enough; any payee)"

# A context of GET $BURL by its funded endpoint payTo (#9) makes #9 the route's known payTo.
out=$(send --from-key $KEY7 --route $BROUTE --endpoint "$ADDR9" --endpoint-usdc 10000); mine
wait_indexed "$(jq -r .blockNumber <<<"$out")"
ok $? "a routed recognition of GET $BURL paying #9 as its endpoint is indexed"
cnote=$(jq -cn --arg u "$BURL" --argjson c "$(($(date +%s) - 60))" --argjson e "$(($(date +%s) + 86400))" '{version: "1",
	route: {publicEndpointUrl: $u, method: "GET"}, intent: "Returns b.", fit: "Use for b.", limits: [],
	requestSchemaUri: null, documentationUri: null, contextUris: [], createdAt: $c, expiresAt: $e}')
printf '%s' "$(jq -cn --arg k $KEY9 --argjson n "$cnote" '{key: $k, note: $n}' | node "$tools/gen-route-context.mjs" body)" \
	> "$http_tmp/ctx"
req POST /api/v1/x402/route-contexts -H 'Content-Type: application/json' --data-binary "@$http_tmp/ctx"
is "$status,$(jqr '.participantRoles | join(",")')" "201,endpoint" "#9 publishes a context of GET $BURL as its endpoint"
TC=$(pay "$SA" 10000); TE=$(pay "$ADDR9" 10000); mine
check422 "$(client_ev "$TC" "$BURL")" evidence.transaction "now a transfer to S for GET $BURL"
like "$(jqr .message)" "is paid to $ADDR9 \\(route_context\\)" "  the message names the context's payTo"
publish $M "$pid" "$(client_ev "$TE" "$BURL")"
is "$status,$(jqr .routeId),$(jqr .details.payee)" "201,$BROUTE,$ADDR9" "a transfer to #9 for GET $BURL: 201"

# ---- the RPC stopped: 503, nothing stored; back: 201
T5=$(paid_read $M); paid_read $F >/dev/null   # and a block on top
"$top/tools/stack" chain-stop >/dev/null
before=$(facts)
publish $M "$pid" "$(transfer_ev "$T5")"
is "$status,$(jqr .error)" "503,chain_unavailable" "with the chain's node stopped: 503"
is "$(facts)" "$before" "  nothing stored"
"$top/tools/stack" start >/dev/null
publish $M "$pid" "$(transfer_ev "$T5")"
is "$status,$(jqr .kind),$(jqr .transaction)" "201,paid_settlement,$T5" "with the node back: 201"

# ---- a revoked member publishes no more
sx $M DELETE "$P/$pid/wallet-links/$(acct "$MA" | sed 's/:/%3A/g')" "{\"actorAccount\":\"$(acct "$MA")\"}"
is "$status" 200 "M revokes its link"
publish $M "$pid" "$(transfer_ev "$T1")"
is "$status,$(jqr .error)" "404,not_found" "the revoked wallet's publication: 404"
is "$(sql "SELECT COUNT(*) FROM profile_activity WHERE proof_digest IS NULL OR signature_kind <> 'eoa'")" 0 \
	"every fact keeps the digest of the sign-in proof that published it"
done_testing
