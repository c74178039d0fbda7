#!/usr/bin/env bash
# The demo seed of `make run` (tools/stack start; the main test stack is
# started the same way): reviews in all three evidence lanes, the paid ones
# published through the paid endpoints and settled by the local x402
# facilitator, and shown lane by lane in discovery and the free source.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }

is "$(sql "SELECT GROUP_CONCAT(lane, ':', n ORDER BY lane) FROM (SELECT lane, COUNT(*) n FROM reviews GROUP BY lane) x")" \
	"boon_backed:8,receipt_verified:2,self_reported:2" "the seed published reviews in all three lanes"
is "$(sql "SELECT GROUP_CONCAT(DISTINCT state) FROM review_publications")" published \
	"every paid publication record is published"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled' AND endpoint_id LIKE 'x402.reviews.%'")" 4 \
	"four publication fees settled through the local facilitator"
"$top/tools/stack" status | grep -q '^facilitator: running'
ok $? "the stack runs its local facilitator"
req GET "/api/v1/x402/discovery?limit=20"
is "$status" 200 "discovery answers"
is "$(jqr '[.candidates[].reviews[].evidenceKind] | group_by(.) | map("\(.[0]):\(length)") | join(",")')" \
	"boon_backed:8,receipt_verified:2,self_reported:2" "discovery shows every lane, kept separate"
rid=$(sql "SELECT LOWER(HEX(route_id)) FROM reviews WHERE lane = 'receipt_verified' LIMIT 1")
req GET "/api/site/x402/routes/0x$rid/reviews"
is "$(jqr '.reviews | map(select(.evidenceKind == "receipt_verified"))[0].receipt.routeId')" "0x$rid" \
	"the free source shows the seeded receipt with its route"
is "$(jqr '.reviews | map(select(.evidenceKind == "receipt_verified"))[0].verification.receiptAuthority.sources.signer')" \
	catalog_offer "pinned from the endpoint's signed x402 offer in its catalog listing"
done_testing
