#!/usr/bin/env bash
# GET /api/v1/x402/economics, POST /api/v1/x402/review-draft and POST
# /api/v1/x402/review-prepare (docs/PROTOCOL.md, Free endpoints) through the
# real stack: shapes, recipients from the configuration, prices from the table,
# deterministic drafts, and every rejection with its status and JSON body.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark
EC=/api/v1/x402/economics
RD=/api/v1/x402/review-draft
RP=/api/v1/x402/review-prepare
json=(-H 'Content-Type: application/json')
RID=0xE93032E57FAFBEA0F07DA4A8CF9AFF93D7C63835C1CABA6F6D5958572EC34F73
rid=$(printf '%s' "$RID" | tr 'A-F' 'a-f')
FRAME='Observation (not a claim of use): '

# EIP-55 by an independent implementation (viem).
eip55() { node -e 'const {getAddress}=require(process.argv[1]);console.log(getAddress(process.argv[2]))' \
	"$top/t/tools/node_modules/viem" "$1"; }
conf() { "$tool" -c "$WAYMARK_VAR/waymark.conf" config get "$1"; }  # what the workers read

# The review text rules (docs/PROTOCOL.md, Review text): trimmed, one paragraph,
# at most 1000 UTF-8 bytes, no C0/C1 controls, DEL or bidi controls.
text_ok() {
	printf '%s' "$1" | node -e '
		const t = require("fs").readFileSync(0, "utf8");
		const bad = /[\u0000-\u001f\u007f-\u009f\u202a-\u202e\u2066-\u2069\u2028\u2029]/u;
		process.exit(t.length > 0 && t === t.trim() && Buffer.byteLength(t) <= 1000 && !bad.test(t) ? 0 : 1);'
}

# --- economics ------------------------------------------------------------
req GET $EC
is "$status" 200 "economics answers 200"
is "$(header content-type)" application/json "JSON"
is "$(jqr 'keys | join(",")')" \
	"asset,experimental,facilitator,interpretation,network,payTo,prices,recognitions,version" \
	"exactly the documented members"
is "$(jqr .version)" 1 "version 1"
is "$(jqr .network)" "$(conf network)" "network from the configuration"
is "$(jqr .asset.symbol)/$(jqr .asset.decimals)" USDC/6 "asset USDC, 6 decimals"
is "$(jqr .asset.address)" "$(eip55 "$(conf usdc_address)")" "USDC address, EIP-55"
is "$(jqr .payTo.paidReads)" "$(eip55 "$(conf pay_to)")" "payTo of paid reads from the configuration"
is "$(jqr .payTo.paidReviewPublication)" "$(eip55 "$(conf pay_to)")" "payTo of paid review publication"
fac=$(conf facilitator_url)
want=$(printf '%s' "$fac" | sed -E 's#^([A-Za-z]+://)([^/?#]*@)?([^/?#]*).*#\1\3#; s#^(https://[^/]*):443$#\1#; s#^(http://[^/]*):80$#\1#' |
	tr 'A-Z' 'a-z')
is "$(jqr .facilitator.origin)" "$want" "facilitator: the origin of $fac only"
like "$(jqr .facilitator.origin)" '^https?://[^/?#@]+$' "no path, query or credentials"
is "$(jqr .recognitions.companionContract)" "$(eip55 "$(conf companion_address)")" "companion contract"
is "$(jqr .recognitions.burn.token.address)" "$(eip55 "$(conf boon_address)")" "BOON token"
is "$(jqr .recognitions.burn.amount)" 100000 "fixed burn of 100000 BOON"
is "$(jqr .recognitions.burn.atomic)" 100000000000000000000000 "1e23 atomic units"
is "$(jqr .recognitions.burn.to)" 0x000000000000000000000000000000000000dEaD "to 0x...dEaD, EIP-55"
is "$(jqr .recognitions.burn.fixed)" true "the burn is fixed"
is "$(jqr '[.experimental.tokenCredits.status, .experimental.tokenCredits.sold] | join(",")')" \
	disabled,false "token credits disabled, not sold"
is "$(jqr '[.experimental.buybacks.status, .experimental.buybacks.executed] | join(",")')" \
	disabled,false "buybacks disabled, not executed"
is "$(jqr '[.experimental.fixedBurns.status, .experimental.fixedBurns.changed] | join(",")')" \
	unchanged,false "fixed burns unchanged"
like "$(jqr .interpretation)" 'authorization' "interpretation: not a payment authorization"
like "$(jqr .interpretation)" 'ledger' "interpretation: not a ledger"
like "$(jqr .interpretation)" '402 challenge .*authoritative' "interpretation: the live 402 is authoritative"
is "$(jqr '[.. | objects | to_entries[] | select(.key == "amount" or .key == "atomic" or .key == "usdc")
	| .value | type] | unique | join(",")')" "string" "every amount is a string"
paid=$("$tool" routes list | awk -F'\t' '$4 == "paid" { print $3 }' | paste -sd, -)
is "$(jqr '[.prices[].resourceId] | join(",")')" "$paid" "prices list exactly the paid rows of the table ('$paid')"
is "$(jqr '[.prices[] | select(.price.atomic | test("^[1-9][0-9]*$") | not)] | length')" 0 \
	"every price has positive atomic units"
req GET $EC
first=$body
req GET $EC
is "$body" "$first" "economics is stable between calls"
req POST $EC "${json[@]}" --data-binary '{}'
check_error 405 method_not_allowed "POST economics"
is "$(header allow)" GET "Allow: GET"
req GET "$EC?network=x"
check_error 400 unknown_field "economics takes no query"

# --- review-draft ---------------------------------------------------------
draft() { req POST $RD "${json[@]}" --data-binary "$1"; }

draft "{\"routeId\":\"$RID\",\"observation\":\"  Returned a 200 with JSON.\\n\\tLatency was fine.  \"}"
is "$status" 200 "review-draft answers 200"
is "$(jqr 'keys | join(",")')" \
	"draft,interpretation,published,reviewText,reviewTextBytes,routeId,sanitized,truncated,useClaim,version" \
	"exactly the documented members"
is "$(jqr '[.version, .draft, .published, .sanitized, .useClaim, .truncated] | map(tostring) | join(",")')" \
	"1,true,false,false,false,false" "a draft: not published, not sanitized, no use claim"
is "$(jqr .routeId)" "$rid" "routeId, lowercase"
is "$(jqr .reviewText)" "${FRAME}Returned a 200 with JSON. Latency was fine." \
	"one paragraph framed as an observation"
is "$(jqr .reviewTextBytes)" "$(jqr .reviewText | tr -d '\n' | wc -c)" "reviewTextBytes is the byte length"
text_ok "$(jqr .reviewText)"; ok $? "the draft passes the review text rules"
like "$(jqr .interpretation)" 'not a sanitizer' "interpretation: not a sanitizer"
like "$(jqr .interpretation)" 'not published' "interpretation: not published"
first=$body
draft "{\"routeId\":\"$RID\",\"observation\":\"  Returned a 200 with JSON.\\n\\tLatency was fine.  \"}"
is "$body" "$first" "same input: byte-identical draft"
draft "{\"observation\":\"  Returned a 200 with JSON.\\n\\tLatency was fine.  \",\"routeId\":\"$rid\"}"
is "$body" "$first" "member order and routeId case do not change the draft"

draft "{\"routeId\":\"$RID\",\"observation\":\"I used it and it worked\"}"
like "$(jqr .reviewText)" "^Observation \\(not a claim of use\\): I used it" \
	"the caller's words are data inside the service's observation frame"
long=$(printf 'word %.0s' $(seq 400) | head -c 2000)
draft "{\"routeId\":\"$RID\",\"observation\":\"$long\"}"
is "$status" 200 "2000 characters accepted"
is "$(jqr .truncated)" true "cut to fit"
ok $([ "$(jqr .reviewTextBytes)" -le 1000 ] && echo 0 || echo 1) "at most 1000 bytes ($(jqr .reviewTextBytes))"
like "$(jqr .reviewText)" 'word…$' "cut after a whole word, with an ellipsis"
text_ok "$(jqr .reviewText)"; ok $? "the cut draft passes the review text rules"
emoji=$(printf '\xf0\x9f\x98\x80%.0s' $(seq 2000))
draft "{\"routeId\":\"$RID\",\"observation\":\"$emoji\"}"
is "$status" 200 "2000 four-byte characters (8000 bytes) accepted"
text_ok "$(jqr .reviewText)"; ok $? "cut at a character boundary"
draft "{\"routeId\":\"$RID\",\"observation\":\"<script>alert(1)</script> & \\\"quotes\\\"\"}"
is "$(jqr .reviewText)" "${FRAME}<script>alert(1)</script> & \"quotes\"" "markup copied as data, not sanitized"

# Every bad input: status, error code, field.
bad_draft() { # bad_draft BODY CODE FIELD DESCRIPTION
	draft "$1"
	check_error 400 "$2" "$4"
	is "$(jqr .field)" "$3" "$4: names $3"
}
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"\"}" invalid_field observation "empty observation"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"$long a\"}" invalid_field observation \
	"2001+ characters"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"$(printf 'x%.0s' $(seq 2001))\"}" invalid_field \
	observation "exactly 2001 characters"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\" \\n\\t\\r \"}" invalid_field observation \
	"whitespace only"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"\\u00a0\\u2028\\u3000\"}" invalid_field observation \
	"Unicode whitespace only"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u0001b\"}" invalid_field observation "C0 control"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u000bb\"}" invalid_field observation "vertical tab"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u007fb\"}" invalid_field observation "DEL"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u0085b\"}" invalid_field observation "C1 control"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"abc\\u202edef\"}" invalid_field observation \
	"bidi override"
like "$(jqr .message)" 'U\+202E' "the message names the character"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u2066b\"}" invalid_field observation "bidi isolate"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\\u0000b\"}" invalid_field observation "NUL"
bad_draft "{\"routeId\":\"$RID\",\"observation\":42}" invalid_field observation "number observation"
bad_draft "{\"routeId\":\"$RID\",\"observation\":null}" invalid_field observation "null observation"
bad_draft "{\"routeId\":\"$RID\",\"observation\":[\"a\"]}" invalid_field observation "array observation"
bad_draft "{\"routeId\":\"$RID\"}" missing_field observation "no observation"
bad_draft "{\"observation\":\"ok\"}" missing_field routeId "no routeId"
bad_draft "{\"routeId\":\"0x1234\",\"observation\":\"ok\"}" invalid_field routeId "short routeId"
bad_draft "{\"routeId\":\"${RID#0x}\",\"observation\":\"ok\"}" invalid_field routeId "routeId without 0x"
bad_draft "{\"routeId\":\"${RID%?}g\",\"observation\":\"ok\"}" invalid_field routeId "non-hex routeId"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"ok\",\"publish\":true}" unknown_field publish \
	"unknown field"
bad_draft "{\"routeId\":\"$RID\",\"observation\":\"a\",\"observation\":\"b\"}" duplicate_key observation \
	"duplicate member"
draft "{\"routeId\":\"$RID\",\"observation\":\"\\ud800\"}"
check_error 400 invalid_json "lone surrogate"
draft '{"routeId":'
check_error 400 invalid_json "malformed JSON"
draft '["x"]'
check_error 400 invalid_json "an array body"
req POST $RD --data-binary "{\"routeId\":\"$RID\",\"observation\":\"ok\"}" -H 'Content-Type: text/plain'
check_error 415 unsupported_media_type "text/plain body"
big=$(printf '{"routeId":"%s","observation":"ok","pad":"%*s"}' "$RID" 16400 '')
draft "$big"
check_error 413 body_too_large "body over 16 KiB"
req GET $RD
check_error 405 method_not_allowed "GET review-draft"
is "$(header allow)" POST "Allow: POST"

# --- review-prepare -------------------------------------------------------
prep() { req POST $RP "${json[@]}" --data-binary "{\"routeId\":\"$RID\",\"outcome\":\"$1\",\"schemaCheck\":\"$2\"}"; }
texts=()
for pair in response_received:passed response_received:failed response_received:not_checked \
	request_failed:not_checked; do
	prep "${pair%:*}" "${pair#*:}"
	is "$status" 200 "review-prepare $pair: 200"
	is "$(jqr 'keys | join(",")')" \
		"draft,facts,interpretation,proofOfQuality,proofOfUse,published,reviewText,reviewTextBytes,routeId,version" \
		"$pair: exactly the documented members"
	is "$(jqr '[.facts.outcome, .facts.schemaCheck, .facts.source, (.facts.verified | tostring)] | join(",")')" \
		"${pair%:*},${pair#*:},caller_supplied,false" "$pair: the facts, caller-supplied, not verified"
	is "$(jqr '[.draft, .published, .proofOfUse, .proofOfQuality] | map(tostring) | join(",")')" \
		"true,false,false,false" "$pair: a draft, not published, not proof of use or quality"
	is "$(jqr .routeId)" "$rid" "$pair: routeId"
	text_ok "$(jqr .reviewText)"; ok $? "$pair: the text passes the review text rules"
	texts+=("$(jqr .reviewText)")
	first=$body
	prep "${pair%:*}" "${pair#*:}"
	is "$body" "$first" "$pair: byte-identical when repeated"
done
is "$(printf '%s\n' "${texts[@]}" | sort -u | wc -l)" 4 "four distinct fixed texts"
like "${texts[0]}" 'passed' "the passed text says passed"
like "${texts[3]}" 'failed before any response' "the request_failed text says so"

for sc in passed failed; do
	prep request_failed $sc
	check_error 400 invalid_field "inconsistent: request_failed with schemaCheck $sc"
	is "$(jqr .field)" schemaCheck "names schemaCheck"
	like "$(jqr .message)" 'no response to check' "and says why"
done
bad_prep() { # bad_prep BODY CODE FIELD DESCRIPTION
	req POST $RP "${json[@]}" --data-binary "$1"
	check_error 400 "$2" "$4"
	is "$(jqr .field)" "$3" "$4: names $3"
}
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"response_received\",\"schemaCheck\":\"passed\",\"note\":\"great\"}" \
	unknown_field note "unknown field"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"success\",\"schemaCheck\":\"passed\"}" invalid_field outcome \
	"unknown outcome"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"response_received\",\"schemaCheck\":\"skipped\"}" \
	invalid_field schemaCheck "unknown schemaCheck"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"Response_Received\",\"schemaCheck\":\"passed\"}" \
	invalid_field outcome "values are case-sensitive"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":1,\"schemaCheck\":\"passed\"}" invalid_field outcome \
	"number outcome"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"response_received\"}" missing_field schemaCheck \
	"no schemaCheck"
bad_prep "{\"routeId\":\"$RID\",\"schemaCheck\":\"passed\"}" missing_field outcome "no outcome"
bad_prep "{\"outcome\":\"response_received\",\"schemaCheck\":\"passed\"}" missing_field routeId "no routeId"
bad_prep "{\"routeId\":\"0xzz\",\"outcome\":\"response_received\",\"schemaCheck\":\"passed\"}" \
	invalid_field routeId "bad routeId"
bad_prep "{\"routeId\":\"$RID\",\"outcome\":\"response_received\",\"schemaCheck\":\"passed\",\"schemaCheck\":\"failed\"}" \
	duplicate_key schemaCheck "duplicate member"
req POST $RP "${json[@]}" --data-binary '{}x'
check_error 400 invalid_json "malformed JSON"
req GET $RP
check_error 405 method_not_allowed "GET review-prepare"

done_testing
