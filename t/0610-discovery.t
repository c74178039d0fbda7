#!/usr/bin/env bash
# GET /api/v1/x402/discovery through the real stack: every response valid
# against the JSON Schema of docs/PROTOCOL.md, Discovery snapshot (t/schemas),
# honest match reasons,
# the ordering rules, usage from indexed recognitions, stale catalog prices,
# every bad parameter, and an error (never an empty success) without the
# database.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
# It stops MariaDB: a server of its own, not the suite's shared one (tools/stack).
unset WAYMARK_SHARED_DB
fport=$((WAYMARK_TEST_PORT_BASE + 33))
export WAYMARK_CATALOG_URL=http://127.0.0.1:$fport
chain_stack discovery 32
node "$top/t/tools/catalog-fixture.mjs" "$fport" 40 > "$WAYMARK_VAR/fixture.out" &
fixture_pid=$!
trap 'kill $fixture_pid 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
n=0; until grep -q ready "$WAYMARK_VAR/fixture.out" || [ $n -ge 1000 ]; do n=$((n + 1)); sleep 0.02; done
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
ok $? "the catalog fixture is synced"

schema=$top/t/schemas/discovery-snapshot.json
get() { wreq GET "$URL$1"; printf '%s' "$body" > "$WAYMARK_VAR/body"; }
valid() { # valid DESCRIPTION: the body satisfies the schema
	local v; v=$(node "$top/t/tools/validate.mjs" "$schema" < "$WAYMARK_VAR/body" 2>&1)
	is "$v" valid "$1: valid against the discovery schema"
}

# The order of a query before any recognition: amounts must not move it.
get "/api/v1/x402/discovery?q=weather&limit=20"
before=$(jq -r '.candidates[].routeId' <<<"$body")
# Recognitions on one listed route, so usage counts are real.
rid=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);console.log(keccak256(toBytes("boon:x402-route:v1\nGET\nhttps://api0.weather.example.com\n/v2/weather-forecast")))' \
	"$top/t/tools/node_modules/viem/_cjs/index.js")
out=$( { send --from-key $KEY7 --route "$rid" --endpoint $PAY_A --endpoint-usdc 1000 --count 2
	send --from-key $KEY8 --route "$rid" --endpoint $PAY_A --endpoint-usdc 999999999 --count 1; } )
wait_indexed "$(printf '%s\n' "$out" | jq -s 'map(.blockNumber) | max')"

get "/api/v1/x402/discovery"
is "$status" 200 "no parameters: 200"
valid "no parameters"
is "$(jq -r '.candidates | length' <<<"$body")" 10 "limit defaults to 10"
is "$(jq -r '.query.limit, .query.q, .query.reviewer' <<<"$body" | tr '\n' ' ')" "10  null " "query echoes the defaults"
ids=$(jq -r '.candidates[].routeId' <<<"$body")
is "$ids" "$(sort <<<"$ids")" "without q and without review evidence: ordered by route ID"
is "$(jq -r '[.coverage[].complete] | unique | join(",")' <<<"$body")" false "coverage is never complete"
is "$(jq -r '.coverage.activity.available' <<<"$body")" true "activity coverage: the recognition index is available"
is "$(grep -c limitations <<<"$body")" 0 "no deprecated limitations anywhere"

get "/api/v1/x402/discovery?q=weather&limit=20"
valid "q=weather"
is "$(jq -r '.candidates | length' <<<"$body")" 8 "8 weather listings (40 items, every 5th topic)"
is "$(jq -r '[.candidates[] | select((.title + .summary + .url) | test("weather"; "i"))] | length' <<<"$body")" 8 \
	"every candidate really matches"
is "$(jq -r '[.candidates[].matchReasons[] | select(test("\"weather\" matched the"))] | length > 0' <<<"$body")" true \
	"matchReasons name the term and the field"
c0=$(jq -c --arg r "$rid" '.candidates[] | select(.routeId == $r)' <<<"$body")
is "$(jq -r '.usage.useCount, .usage.walletCount' <<<"$c0" | tr '\n' ' ')" "3 2 " "usage: 3 recognitions from 2 wallets on that route"
is "$(jq -r '.price.status, .price.amount, .price.currency' <<<"$c0" | tr '\n' ' ')" "stale 0.001 USDC " \
	"price from the catalog, marked stale with checkedAt"
is "$(jq -r '.url, .method, .invocation.endpoint, .invocation.requiresApproval, .invocation.client' <<<"$c0" | tr '\n' ' ')" \
	"https://api0.weather.example.com/v2/weather-forecast GET https://api0.weather.example.com/v2/weather-forecast true agentcash " \
	"URL, method and the handoff"
recomputed=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);const u=new URL(process.argv[2]);console.log(keccak256(toBytes(`boon:x402-route:v1\n${process.argv[3]}\n${u.origin}\n${u.pathname}`)))' \
	"$top/t/tools/node_modules/viem/_cjs/index.js" "$(jq -r .url <<<"$c0")" "$(jq -r .method <<<"$c0")")
is "$recomputed" "$rid" "the candidate's method and URL recompute to its route ID (viem)"
is "$(jq -r '.links.web, .links.api' <<<"$c0" | tr '\n' ' ')" "/x402/routes/$rid /api/v1/x402/routes/$rid " "links"
# A bigger recognition amount must not move the candidate up: only relevance, reviews and route ID rank.
ids=$(jq -r '.candidates[].routeId' <<<"$body")
is "$ids" "$before" "the recognitions (3 on one route, one of 999 USDC) left the order as it was"
is "$(grep -c . <<<"$before")" 8 "  (all 8 weather listings were in it before)"

get "/api/v1/x402/discovery?q=weath&limit=20"
is "$(jq -r '.candidates | length' <<<"$body")" 8 "a term matches word prefixes (weath: the 8 weather routes)"
get "/api/v1/x402/discovery?q=eather&limit=20"
is "$(jq -r '.candidates | length' <<<"$body")" 0 "but not the middle of words"
get "/api/v1/x402/discovery?q=weather%20translation&limit=20"
valid "two terms"
is "$(jq -r '.candidates | length' <<<"$body")" 16 "two terms match either topic"
get "/api/v1/x402/discovery?q=service%2020&limit=3"
valid "q with digits"
is "$(jq -r '.candidates[0].title' <<<"$body")" "Service 20 (weather forecast)" "the best match comes first (both terms in the title)"
get "/api/v1/x402/discovery?q=nothing-matches-this"
valid "no match"
is "$(jq -r '.candidates | length' <<<"$body")" 0 "no match: no candidates (and coverage says it is not complete)"
get "/api/v1/x402/discovery?reviewer=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266"
valid "reviewer"
is "$(jq -r '.candidates | length' <<<"$body")" 0 "a wallet that reviewed nothing keeps no route"
get "/api/v1/x402/discovery?limit=20"
valid "limit 20"
is "$(jq -r '.candidates | length' <<<"$body")" 20 "limit 20 honoured"

for bad in "limit=0" "limit=21" "limit=x" "limit=" "reviewer=0x12" "reviewer=0xF39fd6e51aad88F6F4ce6aB8827279cffFb92266" \
	"q=$(printf 'a%.0s' $(seq 401))" "sort=recent" "q=a&q=b" "q=%ff"; do
	get "/api/v1/x402/discovery?$bad"
	is "$status" 400 "bad query ${bad:0:24}: 400"
	like "$(jq -r .error <<<"$body")" '^(invalid_field|unknown_field|invalid_request)$' "with the JSON error naming the problem"
done
get "/api/v1/x402/discovery?q=$(printf 'a%.0s' $(seq 400))"
is "$status" 200 "q of exactly 400 characters is accepted"

"$top/tools/stack" db-stop
# The suite's workers re-check their corpus on every request
# (discovery_check_ms 0): the very next answer must be the error.
get "/api/v1/x402/discovery?q=weather"
is "$status" 503 "database stopped: 503"
is "$(jq -r .error <<<"$body")" database_unavailable "an error, never an empty success"
"$top/tools/stack" db-start
n=0; until get "/api/v1/x402/discovery?q=weather" && [ "$status" = 200 ] || [ $n -ge 1000 ]; do n=$((n + 1)); sleep 0.02; done
is "$status" 200 "and answers again when the database is back"
done_testing
