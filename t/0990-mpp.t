#!/usr/bin/env bash
# MPP, the "Payment" HTTP authentication scheme, on the paid rows through
# the real stack: the unchanged mppx client (t/mpp/pay.mjs) answers the
# WWW-Authenticate: Payment challenge every 402 carries beside x402's, and
# the real facilitator settles its EIP-3009 authorization on the local
# anvil; the x402 client still pays the same row. Refusals, none of which
# charges: replay, cross-route, cross-rail, a tampered, expired, other-price
# or other-network challenge (re-issued under the server's secret by mppx
# itself, t/mpp/credential.mjs), a payment on both rails at once, the
# facilitator refusing (verify and settle) and unavailable.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
KEY2=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9a804cdab365a    # holds no USDC
export WAYMARK_FACILITATOR_TIMEOUT_MS=3000
paid_stack mpp 180
mpp=$top/t/mpp
secret=$(sed -n 's/^mpp_secret = //p' "$WAYMARK_VAR/secrets/keys.conf")
like "$secret" '^[0-9a-f]{64}$' "the stack made an mpp_secret (waymark keygen)"
stats() { curl -s "http://127.0.0.1:$fport/_stats" | jq -c .calls; }
stop_facilitator() { [ -n "$fpid" ] && kill "$fpid" 2>/dev/null && wait "$fpid" 2>/dev/null; fpid=; }

R=0x$(printf 'ab%.0s' $(seq 32))
P=/api/v1/x402/routes/$R
P2=/api/v1/x402/routes/$R/recognitions
wait_indexed "$(send --from-key $KEY7 --route $R --endpoint $PAY_A --endpoint-usdc 1000 | tail -n1 | jq -r .blockNumber)"
ok $? "a recognition of the route read below is indexed"

# ---- the 402 offers both rails, with the same price, payee and resource
req GET "$P"
is "$status,$(jqr .error)" "402,payment_required" "unpaid: 402 payment_required"
ok $([ -n "$(header payment-required)" ] && echo 0 || echo 1) "the x402 challenge (PAYMENT-REQUIRED) is there"
wa=$(header www-authenticate)
like "$wa" '^Payment id="[A-Za-z0-9_-]{43}", realm="127\.0\.0\.1:[0-9]+", method="evm", intent="charge", request="[A-Za-z0-9_-]+", expires="[0-9TZ:-]+", opaque="[A-Za-z0-9_-]+"$' \
	"the MPP challenge: WWW-Authenticate: Payment id, realm, method evm, intent charge, request, expires, opaque"
b64url() { local s=$1; s=${s//-/+}; s=${s//_//}; while [ $((${#s} % 4)) != 0 ]; do s="$s="; done; printf '%s' "$s" | base64 -d; }
param() { sed -n "s/.*[ ,]$1=\"\\([^\"]*\\)\".*/\\1/p" <<<"$wa"; }
request=$(b64url "$(param request)")
is "$request" "{\"amount\":\"10000\",\"currency\":\"$USDC\",\"methodDetails\":{\"chainId\":8453,\"credentialTypes\":[\"authorization\"],\"decimals\":6},\"recipient\":\"$PAYTO\"}" \
	"the charge request: JCS, 0.01 USDC of Base USDC to payTo on chain 8453, by EIP-3009 authorization"
like "$(b64url "$(param opaque)")" "^\\{\"method\":\"GET\",\"nonce\":\"[0-9a-f]{32}\",\"url\":\"$URL$P\"\\}\$" \
	"opaque binds the method and the resource URL, with a nonce of its own"
wa1=$wa; req GET "$P"; wa=$(header www-authenticate)
ok $([ "$(param id)" != "$(wa=$wa1; param id)" ] && echo 0 || echo 1) "two challenges of one second differ (each authorization gets its own EIP-3009 nonce)"
exp=$(date -d "$(param expires)" +%s); now=$(date +%s)
ok $([ $((exp - now)) -ge 290 ] && [ $((exp - now)) -le 301 ] && echo 0 || echo 1) "the challenge expires in five minutes"
is "$(header access-control-expose-headers)" "PAYMENT-REQUIRED, PAYMENT-RESPONSE, WWW-Authenticate, Payment-Receipt, Retry-After" \
	"CORS exposes both rails' headers (and Retry-After, lib/cors.h)"
ok $(node "$mpp/credential.mjs" --key $KEY1 --url "$URL$P" --check-id "$secret" | jq -e '.idValid == true' >/dev/null && echo 0 || echo 1) \
	"mppx's Challenge.verify accepts the id under the server's secret: the HMAC binding is the reference's"

# ---- a $0.01 read paid over MPP: one transfer to payTo, a Payment-Receipt, no x402 receipt
b0=$(balance $PAYER)
res=$(node "$mpp/pay.mjs" --key $KEY1 --url "$URL$P" --credential-out "$http_tmp/cred")
is "$(jq -r .status <<<"$res")" 200 "mppx pays the read: 200"
is "$(jq -r .challenges <<<"$res")" 1 "the 402 it answered had one Payment challenge"
is "$(jq -r '.body.route.routeId' <<<"$res")" "$R" "the read's body"
is "$(jq -r '[.receipt.status, .receipt.method, .receipt.chainId] | join(",")' <<<"$res")" "success,evm,8453" \
	"Payment-Receipt: success, evm, chain 8453"
tx=$(jq -r .receipt.reference <<<"$res")
like "$tx" '^0x[0-9a-f]{64}$' "the receipt's reference is the settlement transaction"
is "$(jq -r .receipt.challengeId <<<"$res")" "$(node -e 'const c=JSON.parse(Buffer.from(process.argv[1].replace(/^Payment /,""),"base64url"));console.log(c.challenge.id)' "$(cat "$http_tmp/cred")")" \
	"the receipt names the challenge the credential answered"
is "$(jq -r .paymentResponse <<<"$res")" null "no PAYMENT-RESPONSE on an MPP answer"
is "$(rpc eth_getTransactionReceipt "[\"$tx\"]" | jq -r .status)" 0x1 "the settlement transaction landed"
is "$(balance $PAYTO),$(($(balance $PAYER) - b0))" "10000,-10000" "exactly 0.01 USDC moved from the payer to payTo"
is "$(sql "SELECT COUNT(*), MAX(status) FROM x402_payments")" "1	settled" "one ledger row, settled"
cred=$(cat "$http_tmp/cred")

# ---- the identical credential again, on another route, on the other rail: refused, no second charge
s0=$(stats)
req GET "$P" -H "Authorization: $cred"
is "$status,$(jqr .error)" "402,payment_already_used" "the same credential again: 402 payment_already_used"
like "$(header www-authenticate)" "^Payment id=" "a refusal carries a fresh MPP challenge"
req GET "$P2" -H "Authorization: $cred"
is "$status,$(jqr .error)" "402,payment_mismatch" "the credential on another route: 402 payment_mismatch"
like "$(jqr .message)" "another resource" "  naming the resource"
# The same authorization as an x402 payment (what the x402 client would send for it).
auth=$(node -e 'const c=JSON.parse(Buffer.from(process.argv[1].replace(/^Payment /,""),"base64url"));const {signature,type,...a}=c.payload;console.log(JSON.stringify({signature,authorization:a}))' "$cred")
xpay=$(jq -cn --arg u "$URL$P" --argjson acc "$(header payment-required | base64 -d | jq -c '.accepts[0]')" --argjson pl "$auth" \
	'{x402Version: 2, resource: {url: $u}, accepted: $acc, payload: $pl}' | base64 -w0)
req GET "$P" -H "PAYMENT-SIGNATURE: $xpay"
is "$status,$(jqr .error)" "402,payment_mismatch" "the same authorization on the x402 rail: 402 payment_mismatch"
like "$(jqr .message)" 'validBefore lies more than maxTimeoutSeconds' \
	"  its five-minute validity is too long for x402 (a short-lived one meets its ledger row, below)"
req GET "$P" -H "PAYMENT-SIGNATURE: $xpay" -H "Authorization: $cred"
is "$status,$(jqr .error)" "400,two_payments" "a payment on both rails at once: 400 two_payments"
is "$(stats)" "$s0" "none of these reached the facilitator"
is "$(balance $PAYTO)" 10000 "nothing more was charged"

# ---- challenges this service did not issue, or issued for something else
fresh() { node "$mpp/credential.mjs" --key $KEY1 --url "$URL$1" "${@:2}" | jq -r .authorization; }
c=$(fresh "$P")
tampered=$(node -e 'const s=process.argv[1].replace(/^Payment /,"");const c=JSON.parse(Buffer.from(s,"base64url"));
const r=JSON.parse(Buffer.from(c.challenge.request,"base64url"));r.amount="1";
c.challenge.request=Buffer.from(JSON.stringify(r)).toString("base64url");
console.log("Payment "+Buffer.from(JSON.stringify(c)).toString("base64url"))' "$c")
req GET "$P" -H "Authorization: $tampered"
is "$status,$(jqr .error)" "402,invalid_payment" "a challenge altered by the client (price 1): 402 invalid_payment"
like "$(jqr .message)" "not issued by this service, or was altered" "  saying why"
req GET "$P" -H "Authorization: $(fresh "$P" --secret "$secret" --amount 1)"
is "$status,$(jqr .error)" "402,payment_mismatch" "a genuine challenge of another price: 402 payment_mismatch"
req GET "$P" -H "Authorization: $(fresh "$P" --secret "$secret" --chain-id 84532)"
is "$status,$(jqr .error)" "402,payment_mismatch" "a genuine challenge of another network: 402 payment_mismatch"
like "$(jqr .message)" "price, payee, asset or network" "  naming what differs"
req GET "$P" -H "Authorization: $(fresh "$P" --secret "other-secret-of-another-service-0123456789")"
is "$status,$(jqr .error)" "402,invalid_payment" "a challenge under another secret: 402 invalid_payment"
# mppx will not sign an expired challenge: it signs one that expires 2 s
# after it was issued, and the server sees it once that is past.
out=$(node "$mpp/credential.mjs" --key $KEY1 --url "$URL$P" --secret "$secret" --expires-in 2)
late=$(jq -r .authorization <<<"$out")
until [ "$(date +%s)" -gt "$(date -d "$(jq -r .challenge.expires <<<"$out")" +%s)" ]; do sleep 0.2; done
req GET "$P" -H "Authorization: $late"
is "$status,$(jqr .error)" "402,payment_mismatch" "a challenge past its expiry: 402 payment_mismatch"
like "$(jqr .message)" "expired" "  saying it expired"
req GET "$P" -H "Authorization: Payment !!!"
is "$status,$(jqr .error)" "402,invalid_payment" "an undecodable credential: 402 invalid_payment"
req GET "$P" -H "Authorization: Bearer abc"
is "$status,$(jqr .error)" "402,payment_required" "another Authorization scheme is no payment: 402 payment_required"
is "$(stats)" "$s0" "no refusal so far reached the facilitator"
is "$(balance $PAYTO),$(sql "SELECT COUNT(*) FROM x402_payments")" "10000,1" "nothing charged, nothing recorded"

# ---- the facilitator refuses: verify (no funds), then settle; unavailable
res=$(node "$mpp/pay.mjs" --key $KEY2 --url "$URL$P")
is "$(jq -r '.status' <<<"$res"),$(jq -r '.body.error' <<<"$res")" "402,payment_rejected" \
	"a payer without USDC: the facilitator's verify refuses, 402 payment_rejected"
stop_facilitator; facilitator_start --fault settle-refused
res=$(node "$mpp/pay.mjs" --key $KEY1 --url "$URL$P")
is "$(jq -r '.status' <<<"$res"),$(jq -r '.body.error' <<<"$res"),$(jq -r .receipt <<<"$res")" "402,settlement_failed,null" \
	"settlement refused: 402 settlement_failed, no receipt"
stop_facilitator
res=$(node "$mpp/pay.mjs" --key $KEY1 --url "$URL$P")
is "$(jq -r '.status' <<<"$res"),$(jq -r '.body.error' <<<"$res")" "503,payment_unavailable" \
	"the facilitator down: 503 payment_unavailable"
c=$(fresh "$P")
req GET "$P" -H "Authorization: $c"
like "$(header retry-after)" '^[0-9]+$' "  with Retry-After"
is "$(balance $PAYTO)" 10000 "none of these charged anything"
facilitator_start

# ---- the x402 client still pays the same row; MPP pays a second read
res=$(node "$top/t/tools/pay.mjs" --key $KEY1 --url "$URL$P")
is "$(jq -r .status <<<"$res"),$(jq -r .paymentResponse.success <<<"$res")" "200,true" "@x402/fetch pays the same row: 200 with PAYMENT-RESPONSE"
res=$(node "$mpp/pay.mjs" --key $KEY1 --url "$URL$P2")
is "$(jq -r .status <<<"$res"),$(jq -r .receipt.status <<<"$res")" "200,success" "mppx pays another read"
is "$(balance $PAYTO)" 30000 "three paid reads, 0.03 USDC in all"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" 3 "three settled ledger rows, one per authorization whatever the rail"

# ---- one authorization, one rail, one body (sql/022_payment_binding.sql). An MPP
# credential for a paid POST, whose challenge binds the body, presented while the
# facilitator is down (released: never charged), is then refused on the x402
# rail, with another body or its own, before any facilitator call; the credential
# itself, with its own body, is served once the facilitator is back, once.
printf '%s' '{"recipient":"github:alice"}' > "$http_tmp/bodyA"
printf '%s' '{"recipient":"github:mallory"}' > "$http_tmp/bodyB"
# Its challenge is re-issued (under the service's own secret) to expire in 60 s,
# so that its authorization is short-lived enough for the x402 rail's bound.
cs=$(node "$mpp/credential.mjs" --key $KEY1 --url "$URL/api/v1/score" --method POST --body "$http_tmp/bodyA" \
	--secret "$secret" --expires-in 60 | jq -r .authorization)
like "$cs" '^Payment ' "an MPP credential for POST /api/v1/score with body A, expiring in 60 s"
stop_facilitator
req POST /api/v1/score -H 'Content-Type: application/json' -H "Authorization: $cs" --data-binary @"$http_tmp/bodyA"
is "$status,$(jqr .error)" "503,payment_unavailable" "  presented while the facilitator is down: 503, nothing charged"
is "$(sql "SELECT CONCAT(status, ' ', rail, ' ', LOWER(HEX(body_digest)) = SHA2('{\"recipient\":\"github:alice\"}', 256)) FROM x402_payments WHERE endpoint_id = 'score'")" \
	"released mpp 1" "  its row is released, bound to the MPP rail and body A's digest"
facilitator_start
req POST /api/v1/score -H 'Content-Type: application/json' --data-binary @"$http_tmp/bodyB"
acc=$(header payment-required | base64 -d | jq -c '.accepts[0]')
auth=$(node -e 'const c=JSON.parse(Buffer.from(process.argv[1].replace(/^Payment /,""),"base64url"));const {signature,type,...a}=c.payload;console.log(JSON.stringify({signature,authorization:a}))' "$cs")
xs=$(jq -cn --arg u "$URL/api/v1/score" --argjson acc "$acc" --argjson pl "$auth" \
	'{x402Version: 2, resource: {url: $u}, accepted: $acc, payload: $pl}' | base64 -w0)
s1=$(stats); pb=$(balance $PAYTO)
req POST /api/v1/score -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $xs" --data-binary @"$http_tmp/bodyB"
is "$status,$(jqr .error)" "402,payment_already_used" "the same authorization re-wrapped as x402, with body B: 402 payment_already_used"
req POST /api/v1/score -H 'Content-Type: application/json' -H "PAYMENT-SIGNATURE: $xs" --data-binary @"$http_tmp/bodyA"
is "$status,$(jqr .error)" "402,payment_already_used" "  as x402 with body A: refused too (one authorization, one rail)"
is "$(stats)" "$s1" "  neither reached the facilitator"
is "$(balance $PAYTO),$(sql "SELECT CONCAT(status, ' ', rail) FROM x402_payments WHERE endpoint_id = 'score'")" "$pb,released mpp" \
	"  nothing charged, the row unchanged"
req POST /api/v1/score -H 'Content-Type: application/json' -H "Authorization: $cs" --data-binary @"$http_tmp/bodyB"
is "$status,$(jqr .error)" "402,payment_mismatch" "the credential itself with body B: 402 payment_mismatch (its challenge binds body A)"
req POST /api/v1/score -H 'Content-Type: application/json' -H "Authorization: $cs" --data-binary @"$http_tmp/bodyA"
is "$status,$(jqr .executesTransaction)" "200,false" "the credential with its own body: served (the score, which executes nothing)"
like "$(header payment-receipt)" '.' "  with a Payment-Receipt"
is "$(( $(balance $PAYTO) - pb )),$(sql "SELECT CONCAT(status, ' ', rail) FROM x402_payments WHERE endpoint_id = 'score'")" "10000,settled mpp" \
	"  charged once; the row settled on its rail"

# ---- economics lists both rails
req GET /api/v1/x402/economics
is "$(jqr "[.prices[].protocols | join(\"+\")] | unique | join(\",\")")" "x402+mpp" "economics: every paid row takes x402 and mpp"

req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' \
	--data-binary "{\"requests\":[{\"method\":\"GET\",\"path\":\"$P\"},{\"method\":\"GET\",\"path\":\"/health\"}]}"
is "$(jqr '[.steps[].payment.protocols | join("+")] | join(",")')" "x402+mpp," "the cost preview: a paid step takes x402 and mpp, a free one neither"

done_testing
