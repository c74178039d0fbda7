#!/usr/bin/env bash
# The x402 network catalog: `waymark catalog-sync` pulls a Bazaar-compatible
# API (v1 and v2 items, paged, bounded, untrusted) from a local fixture into
# MariaDB; GET /api/site/x402/discover serves pages of it, rate-limited.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
export WAYMARK_VAR=$WAYMARK_VAR-catalog WAYMARK_CHAIN=none
# The site rate class at its default (the suite's stacks open it: tools/stack).
export WAYMARK_RATE_SITE=600
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 30))
fport=$((WAYMARK_TEST_PORT_BASE + 31))
export WAYMARK_CATALOG_URL=http://127.0.0.1:$fport
URL=http://$WAYMARK_LISTEN
rm -rf "$WAYMARK_VAR"
fixture_pid=
cleanup() { [ -n "$fixture_pid" ] && kill "$fixture_pid" 2>/dev/null; "$top/tools/stack" stop >/dev/null 2>&1; }
trap cleanup EXIT
"$top/tools/stack" start >/dev/null
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }
fixture() { # fixture COUNT PORT: (re)start the fixture with COUNT good items on PORT
	[ -n "$fixture_pid" ] && kill "$fixture_pid" 2>/dev/null && wait "$fixture_pid" 2>/dev/null
	export WAYMARK_CATALOG_URL=http://127.0.0.1:$2
	# emptied here, not by the background redirect: the wait below must not
	# find the previous fixture's "ready" before the new node has started
	: > "$WAYMARK_VAR/fixture.out"
	node "$top/t/tools/catalog-fixture.mjs" "$2" "$1" > "$WAYMARK_VAR/fixture.out" 2>"$WAYMARK_VAR/fixture.err" &
	fixture_pid=$!
	# up to 60 s: node starts slowly on a loaded machine (20 s was seen to be short)
	local n=0; until grep -q ready "$WAYMARK_VAR/fixture.out" || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
	grep -q ready "$WAYMARK_VAR/fixture.out" || diag "the catalog fixture on port $2 did not start: $(cat "$WAYMARK_VAR/fixture.err")"
}
sync() { WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync 2>&1; }
get() { wreq GET "$URL$1"; printf '%s' "$body" > "$WAYMARK_VAR/body"; }

fixture 250 "$fport"
out=$(sync); ok $? "catalog-sync succeeds"
is "$out" "catalog: $WAYMARK_CATALOG_URL: 3 pages, 258 items seen, 251 stored, 7 rejected, 0 retired" "3 pages; the 7 unusable items refused"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 251 "251 listings stored"
is "$(sql "SELECT COUNT(*) FROM catalog_resources WHERE resource_url LIKE 'http:%' OR resource_url LIKE '%10.0.0.7%' OR resource_url LIKE '%localhost%' OR resource_url LIKE '%@%'")" 0 \
	"no plain-http, IP-literal, local or credential URL was stored"
is "$(sql "SELECT method FROM catalog_resources WHERE resource_url = 'https://api1.currency.example.com/v1/currency-exchange-rates'")" GET \
	"v1 item: method from accepts[0].outputSchema, uppercased"
is "$(sql "SELECT CONCAT(price_usdc, ' ', network) FROM catalog_resources WHERE resource_url = 'https://api1.currency.example.com/v1/currency-exchange-rates'")" \
	"0.0025 eip155:8453" "v1 item: maxAmountRequired in USDC, network 'base' as CAIP-2"
is "$(sql "SELECT CONCAT(method, ' ', price_usdc, ' ', service_name) FROM catalog_resources WHERE resource_url = 'https://api2.translation.example.com/v2/translation'")" \
	"POST 0.003 Service 2 (translation)" "v2 item: method from the bazaar extension, amount in USDC"
rid=$(sql "SELECT LOWER(HEX(route_id)) FROM catalog_resources WHERE resource_url = 'https://api2.translation.example.com/v2/translation'")
want=$(node -e 'const {keccak256,toBytes}=require(process.argv[1]);console.log(keccak256(toBytes("boon:x402-route:v1\nPOST\nhttps://api2.translation.example.com\n/v2/translation")).slice(2))' \
	"$top/t/tools/node_modules/viem/_cjs/index.js")
is "$rid" "$want" "the listing's route ID is computed like the deployed protocol's (checked with viem)"
messy=$(sql "SELECT CONCAT(CHAR_LENGTH(description), ' ', service_name, ' ', IFNULL(price_usdc, 'none'), ' ', method) FROM catalog_resources WHERE resource_url LIKE 'https://messy.example.com/%'")
is "$messy" "1000 messy.example.com none POST" "untrusted text cut to 1000 characters, host as service name, no USDC price for another asset"
is "$(sql "SELECT COUNT(*) FROM catalog_resources WHERE description REGEXP '[[:cntrl:]]' OR description LIKE '%$(printf '\xe2\x80\xae')%'")" 0 \
	"control and bidi characters removed"

get "/api/site/x402/discover?q=weather&limit=5"
is "$status" 200 "discover answers"
is "$(jq -r '.items | length' <<<"$body")" 5 "a page of 5"
is "$(jq -r '.pagination.total' <<<"$body")" 50 "50 weather listings in all"
is "$(jq -r '[.items[] | select((.description + .serviceName + .url) | test("weather"; "i"))] | length' <<<"$body")" 5 \
	"every item matches q"
is "$(jq -r '.items[0] | keys | sort | join(",")' <<<"$body")" "description,listedLastUpdated,method,price,routeId,serviceName,url" \
	"items carry URL, method, description, service name, price"
is "$(jq -r '.items[0].price.status' <<<"$body")" stale "prices are stale (dated by the sync)"
get "/api/site/x402/discover?q=weather&limit=5&offset=45"
is "$(jq -r '.pagination.hasMore' <<<"$body")" false "the last page says so"
get "/api/site/x402/discover?q=WEATHER"
is "$(jq -r '.pagination.total' <<<"$body")" 50 "matching ignores case"
get "/api/site/x402/discover?q=100%25_x"
is "$(jq -r '.pagination.total' <<<"$body")" 0 "LIKE wildcards in q are literal"
get "/api/site/x402/discover"
is "$(jq -r '.pagination.total' <<<"$body")" 251 "no q: everything, paged"
for bad in "limit=0" "limit=51" "offset=-1" "q=$(printf 'a%.0s' $(seq 401))" "sort=x" "limit=1&limit=2"; do
	get "/api/site/x402/discover?$bad"
	is "$status" 400 "bad parameter ${bad:0:20}: 400"
	is "$(jq -r .error <<<"$body")" "$(case $bad in sort*) echo unknown_field ;; *) echo invalid_field ;; esac)" "with the JSON error"
done

# A smaller listing replaces the old one (served on a port of its own, so a
# slow release of the first port cannot matter); a failing source keeps it.
fixture 10 $((WAYMARK_TEST_PORT_BASE + 34))
out=$(sync); rc=$?
ok $rc "re-sync succeeds"
[ "$rc" = 0 ] || diag "catalog-sync said: $out"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 11 "listings the source dropped are removed"
kill "$fixture_pid"; wait "$fixture_pid" 2>/dev/null; fixture_pid=
out=$(sync); rc=$?
is "$rc" 1 "a sync against an unreachable source fails"
like "$out" 'earlier listings kept' "and says the earlier listings are kept"
is "$(sql "SELECT COUNT(*) FROM catalog_resources")" 11 "they are"
is "$(sql "SELECT status FROM catalog_syncs ORDER BY generation DESC LIMIT 1")" failed "the failed sync is recorded"

# The site read is rate-limited by nginx (10 r/s, bursts of 20) with the JSON error.
# 40 requests at once (curl --parallel, one connection each), so the burst
# exceeds the limit however slowly a loaded machine runs; keep one 429 body.
rm -rf "$WAYMARK_VAR/burst"; mkdir -p "$WAYMARK_VAR/burst"
args=()
for i in $(seq 40); do args+=(-o "$WAYMARK_VAR/burst/$i" "$URL/api/site/x402/discover?limit=1&offset=$i"); done
codes=$(curl -s --no-progress-meter --parallel --parallel-immediate --parallel-max 40 -w '%{http_code}\n' "${args[@]}" 2>/dev/null |
	sort | uniq -c | tr -s ' ' | tr '\n' ';')
body429=$(grep -l rate_limited "$WAYMARK_VAR"/burst/* 2>/dev/null | head -n1)
cp "${body429:-/dev/null}" "$WAYMARK_VAR/body429"
like "$codes" '429' "bursts beyond the limit get 429 ($codes)"
is "$(jq -r .error "$WAYMARK_VAR/body429" 2>/dev/null)" rate_limited "the 429 carries the JSON error"
done_testing
