#!/usr/bin/env bash
# The x402 network catalog from several sources (catalog_urls; lib/catalogsync.h):
# overlapping sources give one route each with a listing per source;
# listings gone from a source are retired only after three complete runs
# without them; a run that fails changes nothing of its source; refused
# listings keep their reasons (`waymark catalog status`); Retry-After is
# honored; a source over catalog_max_listings fails its run.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
export WAYMARK_VAR=$WAYMARK_VAR-sources WAYMARK_CHAIN=none
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 35))
sport=$((WAYMARK_TEST_PORT_BASE + 36))
A=http://127.0.0.1:$sport/a B=http://127.0.0.1:$sport/b
export WAYMARK_CATALOG_URLS="$A $B/" WAYMARK_CATALOG_URL=$A WAYMARK_CATALOG_PACE_MS=0
URL=http://$WAYMARK_LISTEN
rm -rf "$WAYMARK_VAR"
src_pid=
cleanup() { [ -n "$src_pid" ] && kill "$src_pid" 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1; }
trap cleanup EXIT
"$top/tools/stack" start >/dev/null
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }
waymark() { WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" "$@" 2>&1; }
ctl=$WAYMARK_VAR/sources.json
sources() { printf '%s' "$1" > "$ctl"; }

# a: routes 0..2999; b: routes 1500..4499 and one listing per refusal reason.
sources '{"a":{"start":0,"count":3000},"b":{"start":1500,"count":3000,"refused":true,"pageMax":50}}'
node "$top/t/tools/catalog-sources.mjs" "$sport" "$ctl" > "$WAYMARK_VAR/sources.out" 2> "$WAYMARK_VAR/sources.err" &
src_pid=$!
n=0; until grep -q ready "$WAYMARK_VAR/sources.out" || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
grep -q ready "$WAYMARK_VAR/sources.out" || diag "the sources did not start: $(cat "$WAYMARK_VAR/sources.err")"

out=$(waymark catalog-sync); rc=$?
is "$rc" 0 "the first sync of two sources succeeds"
is "$(grep -c '^catalog: ' <<<"$out")" 2 "each source synced once (catalog_url is the same as the first of catalog_urls; a trailing slash is the same URL)"
like "$out" "catalog: $B: 61 pages, 3007 items seen, 3000 stored, 7 rejected, 0 retired" \
	"b's pages of 50 (its own limit) read to the end; its 7 unusable listings refused"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 4500 "4500 distinct routes from 6000 listings"
is "$(sql "SELECT COUNT(*) FROM catalog_listings l JOIN catalog_sources s USING (source_id) GROUP BY s.source_url ORDER BY s.source_url" | tr '\n' ' ')" \
	"3000 3000 " "a listing row per source"
is "$(sql "SELECT COUNT(*) FROM (SELECT item_key FROM catalog_listings GROUP BY item_key HAVING COUNT(*) = 2) x")" 1500 \
	"the 1500 routes both list have both sources"
is "$(sql "SELECT COUNT(*) FROM catalog_stage")" 0 "the stage is empty after the runs"
first=$(sql "SELECT DATE_FORMAT(MIN(first_seen), '%Y-%m-%dT%H:%i:%s') FROM catalog_listings")

st=$(waymark catalog status)
for reason in not_https local_host route_template no_description unsupported_network unsupported_asset too_large; do
	like "$st" "refused $reason: 1" "catalog status counts the refusal $reason"
done
like "$st" "source $A: 3000 listings" "and each source's listings"
st=$(waymark catalog status "$B/")
like "$st" "refused route_template: item 3002 https://api.example.com/users/\\{id\\}: resource URL refused: a route template" \
	"catalog status SOURCE names each refused listing, its place and its reason"
like "$st" "refused unsupported_network: item 3004 https://solana.example.com/x" "a listing on Solana only is refused as such"
rid=$(sql "SELECT LOWER(HEX(route_id)) FROM catalog_resources WHERE resource_url LIKE 'https://api2000.%'")
st=$(waymark catalog status "0x$rid")
like "$st" "listed by $A since $first" "catalog status ROUTE_ID names the sources listing a route, since when"
like "$st" "listed by $B since " "both of them"
wreq GET "$URL/routes/0x$rid"
is "$status" 200 "the route page of a route only catalogs list answers"
like "$body" "<h2>Listed in x402 catalogs</h2><ul class=\"listings\"><li><code>$A</code> since <time>${first}Z</time>" \
	"and shows which catalogs list it, since when"
like "$body" "<li><code>$B</code> since " "both of them"
like "$body" "<code>GET https://api2000\\.weather-forecast\\.example\\.com/v2/weather-forecast</code>" "with the route as listed"
waymark catalog status "http://127.0.0.1:1/none" > /dev/null
is "$?" 1 "catalog status of an unknown source exits 1"

# A source that loses 300 listings: kept for two complete runs without them, retired at the third.
sources '{"a":{"start":0,"count":3000,"drop":[0,300]},"b":{"start":1500,"count":3000,"refused":true,"pageMax":50}}'
for run in 2 3; do
	out=$(waymark catalog-sync); rc=$?
	is "$rc" 0 "run $run succeeds"
	is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 4500 "run $run: the 300 listings a no longer lists are kept"
done
like "$out" "catalog: $A: 27 pages, 2700 items seen, 2700 stored, 0 rejected, 0 retired" "none retired yet"
sources '{"a":{"start":0,"count":3000,"drop":[0,300],"edition":"edition two"},"b":{"start":1500,"count":3000,"refused":true,"pageMax":50,"busyOnce":true}}'
before=$(curl -s "http://127.0.0.1:$sport/b/stats" | jq .requests)
out=$(waymark catalog-sync); rc=$?
is "$rc" 0 "run 4 succeeds"
like "$out" "catalog: $A: 27 pages, 2700 items seen, 2700 stored, 0 rejected, 300 retired" \
	"the third complete run without them retires the 300"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 4200 "their routes, which b does not list, are gone"
is "$(sql "SELECT COUNT(*) FROM catalog_listings WHERE item_key NOT IN (SELECT item_key FROM catalog_resources)")" 0 \
	"no listing is left without its route"
is "$(curl -s "http://127.0.0.1:$sport/b/stats" | jq -c "[.busy, .requests - $before]")" '[1,62]' \
	"b's 429 was tried again after its Retry-After (61 pages and the one refused try)"
# A route two sources list shows what the source synced last (the later one in catalog_urls) lists.
is "$(sql "SELECT COUNT(*) FROM catalog_resources WHERE description LIKE '%edition two%'")" 1200 \
	"run 4 updated the descriptions of the 1200 routes only a lists"

# A source that fails mid-run changes nothing of its own; the other source still runs.
sources '{"a":{"start":0,"count":3000,"edition":"edition three","failAt":1000},"b":{"start":1500,"count":3000,"refused":true,"pageMax":50}}'
out=$(waymark catalog-sync); rc=$?
is "$rc" 1 "a sync with a failing source exits 1"
like "$out" "catalog-sync: $A failed, its earlier listings kept: page at offset 1000: HTTP status 500" "and names the source and the failure"
like "$out" "catalog: $B: 61 pages" "the other source was synced"
is "$(sql "SELECT COUNT(*) FROM catalog_resources WHERE description LIKE '%edition three%'")" 0 \
	"none of the 1000 listings the failed run read were changed"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 4200 "no listing was added or retired"
is "$(sql "SELECT COUNT(*) FROM catalog_listings l JOIN catalog_sources s USING (source_id) WHERE s.source_url = '$A'")" 2700 \
	"a keeps its 2700 listings"
is "$(sql "SELECT COUNT(*) FROM catalog_stage")" 0 "the failed run's stage was dropped"
is "$(sql "SELECT status FROM catalog_syncs s JOIN catalog_sources c USING (source_id) WHERE c.source_url = '$A' ORDER BY generation DESC LIMIT 1")" \
	failed "the failed run is recorded"
like "$(waymark catalog status "$A")" "failed at .*page at offset 1000: HTTP status 500" "catalog status shows it"

# A run a crash left unfinished is recorded as failed and its stage dropped by the next run.
src_a=$(sql "SELECT source_id FROM catalog_sources WHERE source_url = '$A'")
sql "INSERT INTO catalog_syncs (source_id, source_url, started_at, status) VALUES ($src_a, '$A', UTC_TIMESTAMP(), 'running')"
gen=$(sql "SELECT MAX(generation) FROM catalog_syncs")
sql "INSERT INTO catalog_stage SELECT $gen, item_key, resource_url, method, route_id, description, service_name, network, asset, pay_to, offer_signer, amount_atomic, price_usdc, x402_version, last_updated, search_text, item_json, schemes, networks, pay_tos, extension_keys, tags_text, fields_text FROM catalog_resources LIMIT 5"
# And a source over catalog_max_listings fails its run, changing nothing.
sources '{"a":{"start":0,"count":3000,"drop":[0,300],"noTotal":true},"b":{"start":1500,"count":3000,"refused":true,"pageMax":50}}'
out=$(WAYMARK_CATALOG_MAX_LISTINGS=2000 waymark catalog-sync); rc=$?
is "$rc" 1 "a sync over catalog_max_listings fails"
like "$out" "$A failed, its earlier listings kept: the source lists more than 2000 listings" "and says why"
is "$(sql "SELECT status FROM catalog_syncs WHERE generation = $gen")" failed "the run a crash left is recorded as failed"
is "$(sql "SELECT COUNT(*) FROM catalog_stage")" 0 "and its stage dropped"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 4200 "nothing changed"

# A source no longer configured: its listings go at the next sync.
out=$(WAYMARK_CATALOG_URLS=$B WAYMARK_CATALOG_URL= waymark catalog-sync); rc=$?
is "$rc" 0 "a sync of b alone succeeds"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 3000 "a's routes that b does not list are gone"
is "$(sql "SELECT COUNT(*) FROM catalog_listings")" 3000 "and a's listings"

# The Bazaar discovery API over these 3000 routes, read by the unchanged
# @x402/extensions withBazaar client: offset pages and cursor pages.
rep=$(node "$top/t/tools/bazaar-client.mjs" "$URL" "paid")
is "$?" 0 "withBazaar lists and searches this service"
[ -n "$(jq -r '.error // empty' <<<"$rep")" ] && diag "$(jq -r .error <<<"$rep")"
is "$(jq -c '.list | [.pages, .total, .distinct, .repeated]' <<<"$rep")" '[30,3000,3000,0]' \
	"listResources: 30 offset pages of 100 give all 3000 routes once each"
is "$(jq -c '.list.keys' <<<"$rep")" '["items","pagination","unappliedFilters","x402Version"]' "in the Bazaar list shape"
is "$(jq -r '.list.first | [.type, .x402Version, .accepts[0].scheme, .accepts[0].network, .extensions.bazaar.info.input.method, (.lastUpdated | test("^2026-11-01T"))] | map(tostring) | join(" ")' <<<"$rep")" \
	"http 2 exact eip155:8453 GET true" "items are DiscoveryResources as the catalog listed them"
is "$(jq -c '.search | [.pages, .distinct, .repeated, .partialResults]' <<<"$rep")" '[150,3000,0,false]' \
	"search: 150 cursor pages of 20 give all 3000 matching routes once each"
is "$(jq -c '.search.keys' <<<"$rep")" '["pagination","partialResults","resources","unappliedFilters","x402Version"]' \
	"in the Bazaar search shape"
rep=$(node "$top/t/tools/bazaar-client.mjs" "$URL" "weather forecast" '{"network":"base","scheme":"exact"}')
is "$(jq -c '[.list.total, .search.distinct]' <<<"$rep")" '[3000,375]' \
	"filters through the client (network as its v1 name, scheme): all 3000 listed, the 375 weather routes found"
like "$(jq -r '.search.top | join(" ")' <<<"$rep")" '^https://api[0-9]+\.weather-forecast\.example\.com/v2/weather-forecast( |$)' \
	"ranked by the discovery engine"
bz() { wreq GET "$URL/discovery/$1"; }
for f in "scheme=upto 0" "scheme=exact 3000" "extensions=bazaar 3000" "extensions=offer-receipt 0" "type=mcp 0" \
	"maxUsdPrice=0.0011 660" "tags=weather 375" "tags=nothing,weather 375" "payTo=0x00000000000000000000000000000000000005DD 1" "urlSubstring=API2000. 1" \
	"asset=0x833589FCD6EDB6E08F4C7C32D4F71B54BDA02913 3000"; do
	bz "resources?${f% *}&limit=1"
	is "$(jq -r .pagination.total <<<"$body")" "${f#* }" "resources?${f% *}: ${f#* } routes"
done
bz "search?query=geocoding&maxUsdPrice=0.0011&limit=100"
is "$(jq -r '[.resources[] | .accepts[0].amount | tonumber | select(. > 1100)] | length' <<<"$body")" 0 "search keeps maxUsdPrice too"
is "$(jq -r '.resources | length' <<<"$body")" 75 "the 75 geocoding routes at up to 0.0011 USDC"
bz "search?query=paid&bundleSlugs=x&curatedOnly=true"
is "$(jq -c .unappliedFilters <<<"$body")" '["bundleSlugs","curatedOnly"]' "filters this service cannot apply are reported"
bz "search?query=paid&limit=5"
c1=$(jq -r .pagination.cursor <<<"$body")
bz "search?query=weather&cursor=$c1"
is "$status $(jq -r .error <<<"$body")" "400 invalid_field" "a cursor of another query is refused"
like "$(jq -r .message <<<"$body")" "another query" "and says so"
for bad in "search?cursor=bz1.01.0123456789abcdef" "search?cursor=x" "resources?limit=101" "resources?limit=0" \
	"resources?offset=-1" "search?maxUsdPrice=0.0000001" "search?maxUsdPrice=abc" "search?urlSubstring=ab" \
	"search?tags=a,b,c,d,e,f" "resources?foo=1" "search?query=$(printf 'a%.0s' $(seq 401))"; do
	bz "$bad"
	is "$status" 400 "${bad:0:40}: 400"
	like "$(jq -r .error <<<"$body")" '^(invalid_field|unknown_field)$' "with the JSON error"
done
done_testing
