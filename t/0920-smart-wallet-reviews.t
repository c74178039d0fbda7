#!/usr/bin/env bash
# Contract-wallet (smart wallet) review signatures through the RPC, on a
# real chain with the real facilitator and paying client: an ERC-1271
# wallet (chain/contracts/SmartWallet.sol, owner EOA) publishes a paid V3
# review; a wallet not deployed yet signs with EIP-6492 (factory call
# wrapped around the owner's signature) and stays undeployed; a V1 review
# from a smart-wallet tipper; wrong keys are refused before any payment.
# With the node (anvil) stopped, smart-wallet checks fail closed (503
# signature_check_unavailable, no 402, nothing reserved or charged) while
# EOA signatures still pass locally. The embedded validator bytecode
# (lib/walletsig_validator.h) must equal a fresh compile.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
fport=$((WAYMARK_TEST_PORT_BASE + 91))
PAYTO=0x5555555555555555555555555555555555555555
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d    # the payer, anvil #1
PAYER=0x70997970C51812dc3A010C7d01b50e0d17dc79C8
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$PAYTO
chain_stack smartwallet 90
ok $? "a stack with a local chain starts"
tools=$top/t/tools
fpid=
trap 'kill $fpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
facilitator_start; ok $? "the x402 facilitator listens"

node "$top/chain/gen-walletsig-validator.mjs" --check 2>"$http_tmp/gen.err"
ok $? "lib/walletsig_validator.h equals a fresh compile of chain/contracts/SignatureValidator.sol"

chain_id=$(jq -r .chainId "$STATE"); companion=$(jq -r .companion "$STATE")
P=/api/v1/x402/reviews/self-reported
mint $PAYER 1000000
is "$(balance $PAYER),$(balance $PAYTO)" "1000000,0" "the payer holds 1 USDC, payTo nothing"

now=$(date +%s)
sign() { node "$tools/sign-review-v3.mjs" "$1" "$chain_id" "$companion" "$2" "$3" "$4" "${5:-}"; }
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
wallet() { node "$top/chain/wallet.mjs" --rpc "$RPC" --state "$STATE" "$@"; }
wrap() { # wrap BODY WALLET_JSON: the body with its signature wrapped for EIP-6492
	local s; s=$(node "$tools/wrap-6492.mjs" "$(jq -r .factory <<<"$2")" "$(jq -r .factoryCalldata <<<"$2")" "$(jq -r .signature <<<"$1")")
	jq -c --arg s "$s" '.signature = $s' <<<"$1"
}
post() { req POST "$P" -H 'Content-Type: application/json' --data-binary "$1"; }
pay() { # pay BODY: the real client, paying with KEY1
	printf '%s' "$1" > "$http_tmp/bundle"
	node "$tools/pay.mjs" --key $KEY1 --url "$URL$P" --body "$http_tmp/bundle"
}
pubs() { sql "SELECT state FROM review_publications ORDER BY created_at" | tr '\n' ' '; }
code_at() { rpc eth_getCode "[\"$1\",\"latest\"]" | tr -d '"'; }

# The owner of every smart wallet here is anvil #7; #8 is the stranger.
OWNER=$(addr_of $KEY7)
sw=$(wallet --owner-key $KEY7 --salt 1 --deploy); SW=$(jq -r .wallet <<<"$sw")
cf=$(wallet --owner-key $KEY7 --salt 2); CF=$(jq -r .wallet <<<"$cf")
sw3=$(wallet --owner-key $KEY7 --salt 3 --deploy); SW3=$(jq -r .wallet <<<"$sw3")
is "$(jq -r .deployed <<<"$sw"),$(jq -r .deployed <<<"$cf"),$(jq -r .deployed <<<"$sw3")" "true,false,true" \
	"two smart wallets deployed, one only computed (CREATE2)"
is "$(code_at "$CF")" 0x "the counterfactual wallet has no code"

rec=$(send --from-key $KEY8 --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 100)
wait_indexed "$(jq -r .blockNumber <<<"$rec")"; ok $? "the route is recognized and indexed"

# ---- ERC-1271: a deployed smart wallet
b1271=$(sign $KEY7 $ROUTE_1 "$now" "Reviewed from a smart wallet: quick answers." "$SW")
post "$b1271"
check_error 402 payment_required "a valid ERC-1271 review without payment (the signature passed)"
bad=$(sign $KEY8 $ROUTE_1 "$now" "Signed by a key that does not own the wallet." "$SW")
post "$bad"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,signature" "another key signing for the smart wallet: 400 signature before payment"
res=$(pay "$bad")
is "$(jq -r .status <<<"$res")" 400 "the paying client with that bundle: 400, it never pays"
is "$(balance $PAYER)" 1000000 "no USDC moved for it"
res=$(pay "$b1271")
is "$(jq -r .status <<<"$res")" 201 "the ERC-1271 review, paid with @x402/fetch: 201"
is "$(jq -r '.body | [.evidenceKind, .verification.reviewerSignature, .verification.reviewerSignatureKind, .reviewer.wallet] | join(" ")' <<<"$res")" \
	"self_reported valid erc1271 $SW" "record: self_reported, valid, erc1271, the wallet as reviewer"
is "$(balance $PAYER),$(balance $PAYTO)" "950000,50000" "50000 USDC moved once"
is "$(sql "SELECT signature_kind, LENGTH(signature) FROM reviews WHERE reviewer = X'${SW#0x}'")" "$(printf 'erc1271\t65')" \
	"stored: kind erc1271 and the owner's 65-byte signature"
req GET "/api/site/x402/routes/$ROUTE_1/reviews"
is "$(jqr "[.reviews[] | select(.reviewer.wallet == \"$SW\") | .verification.reviewerSignatureKind] | join(\",\")")" erc1271 \
	"the public review source says erc1271"

# ---- EIP-6492: a wallet not deployed yet
b6492=$(wrap "$(sign $KEY7 $ROUTE_1 "$now" "Reviewed from a wallet that is not deployed yet." "$CF")" "$cf")
like "$(jq -r .signature <<<"$b6492")" '6492649264926492649264926492649264926492649264926492649264926492$' "the signature carries the 6492 suffix"
bad6492=$(wrap "$(sign $KEY8 $ROUTE_1 "$now" "Wrapped, but by a stranger's key." "$CF")" "$cf")
post "$bad6492"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,signature" "a 6492 wrapper around a stranger's signature: 400"
broken=$(jq -c '.signature = (.signature[0:2] + "01" + .signature[4:])' <<<"$b6492")
post "$broken"
is "$status,$(jqr .field)" "400,signature" "a malformed 6492 wrapper: 400"
res=$(pay "$b6492")
is "$(jq -r .status <<<"$res")" 201 "the EIP-6492 review, paid: 201"
is "$(jq -r '.body.verification.reviewerSignatureKind + " " + .body.reviewer.wallet' <<<"$res")" "erc1271 $CF" \
	"record: erc1271 (EIP-6492 is a contract-wallet signature), the counterfactual wallet as reviewer"
is "$(sql "SELECT signature_kind, LENGTH(signature) FROM reviews WHERE reviewer = X'${CF#0x}'")" "$(printf 'erc1271\t384')" \
	"stored: the whole 384-byte wrapped signature"
is "$(code_at "$CF")" 0x "the wallet is still not deployed (the check only simulated it)"
is "$(balance $PAYER),$(balance $PAYTO)" "900000,100000" "50000 USDC moved once more"

# ---- bounds of the signature field
post "$(jq -c '.signature = .signature + "0"' <<<"$b1271")"
is "$status,$(jqr .field)" "400,signature" "odd hex: 400 signature"
post "$(jq -c '.signature = (.signature | ascii_upcase | "0x" + .[2:])' <<<"$b1271")"
is "$status,$(jqr .field)" "400,signature" "uppercase hex: 400 signature"
post "$(jq -c '.signature = .signature[0:130]' <<<"$b1271")"
is "$status,$(jqr .field)" "400,signature" "64 bytes (the compact form): 400 signature"
post "$(jq -c --arg p "$(printf 'ab%.0s' $(seq 4032))" '.signature = .signature + $p' <<<"$b1271")"
is "$status,$(jqr .field)" "400,signature" "4097 bytes of signature: 400 signature"

# ---- V1 from a smart-wallet tipper: the wallet sends a recognition through execute()
swr=$(wallet --owner-key $KEY7 --salt 1 --route $ROUTE_2 --endpoint $PAY_B --endpoint-usdc 100)
r1=$(jq -c .recognition <<<"$swr")
is "$(jq -r .tipper <<<"$r1")" "$SW" "the smart wallet is the recognition's tipper"
wait_indexed "$(jq -r .blockNumber <<<"$r1")"; ok $? "its recognition is indexed"
v1() { node "$tools/sign-review.mjs" "$1" "$chain_id" "$companion" $ROUTE_2 "$(jq -r .txHash <<<"$r1")" "$(jq -r .logIndex <<<"$r1")" "$now" "$2"; }
req POST /api/v1/x402/reviews -H 'Content-Type: application/json' --data-binary "$(v1 $KEY8 "A stranger signing for the tipper.")"
is "$status,$(jqr .error)" "403,not_the_tipper" "V1 signed by a stranger for a smart-wallet tipper: 403"
req POST /api/v1/x402/reviews -H 'Content-Type: application/json' --data-binary "$(v1 $KEY7 "Recognized and reviewed from a smart wallet.")"
is "$status,$(jqr .verification.reviewerSignatureKind),$(jqr .reviewer.wallet)" "201,erc1271,$SW" \
	"V1 signed by the owner for the smart-wallet tipper: 201, erc1271"

# ---- the node stopped: smart wallets fail closed, EOAs still pass locally
b3=$(sign $KEY7 $ROUTE_1 "$now" "Another smart wallet of the same owner." "$SW3")
cf4=$(wallet --owner-key $KEY7 --salt 4)
b4=$(wrap "$(sign $KEY7 $ROUTE_1 "$now" "A fourth wallet, not deployed." "$(jq -r .wallet <<<"$cf4")")" "$cf4")
eoa=$(sign $KEY8 $ROUTE_1 "$now" "An EOA review while the node is down.")
kill $fpid 2>/dev/null; wait $fpid 2>/dev/null; fpid=
"$top/tools/stack" chain-stop >/dev/null
ok $(! curl -s -m 2 "$RPC" >/dev/null && echo 0 || echo 1) "anvil is stopped"
post "$b3"
check_error 503 signature_check_unavailable "an ERC-1271 review with the node down"
is "$(jqr .field)" signature "the 503 names the signature field"
is "$(header payment-required)" "" "no payment challenge with it"
post "$b4"
is "$status,$(jqr .error)" "503,signature_check_unavailable" "an EIP-6492 review with the node down: 503"
res=$(pay "$b3")
is "$(jq -r '.status, .body.error, .paymentResponse' <<<"$res" | tr '\n' ' ')" "503 signature_check_unavailable null " \
	"the paying client gets the 503 and never pays"
is "$(pubs)" "published published " "nothing was reserved"
post "$b1271"
is "$status,$(jqr .evidenceKind),$(jqr .verification.reviewerSignatureKind)" "200,self_reported,erc1271" \
	"the identical, already published ERC-1271 bundle with the node down: 200, its record (no chain needed)"
post "$eoa"
is "$status,$(jqr .error)" "402,payment_required" "an EOA review with the node down: its signature passes locally, 402 asks for payment"
req POST /api/v1/x402/reviews -H 'Content-Type: application/json' --data-binary "$(v1 $KEY7 "Same smart-wallet tipper, node down.")"
is "$status,$(jqr .error)" "503,signature_check_unavailable" "V1 for a smart-wallet tipper with the node down: 503"
grep -rq 'walletsig: eth_' "$WAYMARK_VAR/log/" 2>/dev/null
ok $? "the workers log the RPC failure"
s3=$(jq -r .signature <<<"$b3")
ok $(! grep -rq "${s3:10:40}" "$WAYMARK_VAR/log/" 2>/dev/null && echo 0 || echo 1) "and never the signature"

"$top/tools/stack" start >/dev/null
facilitator_start; ok $? "the node and the facilitator are back"
is "$(balance $PAYER),$(balance $PAYTO)" "900000,100000" "no USDC moved while the node was down"
res=$(pay "$b3")
is "$(jq -r '.status, .body.verification.reviewerSignatureKind' <<<"$res" | tr '\n' ' ')" "201 erc1271 " "the same ERC-1271 review publishes once the node answers"
res=$(pay "$eoa")
is "$(jq -r '.status, .body.verification.reviewerSignatureKind' <<<"$res" | tr '\n' ' ')" "201 eoa " "the EOA review publishes: kind eoa"
is "$(balance $PAYER),$(balance $PAYTO)" "800000,200000" "each publication charged once"
done_testing
