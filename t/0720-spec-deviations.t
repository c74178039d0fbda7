#!/usr/bin/env bash
# Deviations from the interface that were fixed, each through the real stack
# (nginx, the workers, MariaDB, a local chain): the GET /mcp description;
# the tool surface without the database; discovery keeping a route while
# any of its descriptions is current and reloading when one expires; real
# coverage flags and an error, never an empty success, when a needed source
# is unavailable; the JSON error shape for requests nginx refuses itself;
# the brand word only in lib/brand.h. (The line-break rule of review text is
# tested in each lane's file: t/0900, t/0910 and t/0930.)
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
cport=$((WAYMARK_TEST_PORT_BASE + 26))
export WAYMARK_CATALOG_URL=http://127.0.0.1:$cport
node "$top/t/tools/catalog-fixture.mjs" "$cport" 4 > "$http_tmp/fixture.out" &
cpid=$!
n=0; until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
chain_stack deviations 25
ok $? "a stack with a local chain starts"
trap 'kill $cpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
WAYMARK_TEST_URL=$URL
WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
ok $? "the catalog fixture is synced"
viem=$top/t/tools/node_modules/viem/_cjs
brand=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
rpc=(-H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25')

# ---- GET /mcp: a JSON description of the tool surface; 405 for an event stream
req POST /mcp "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
tools_list=$(jqr '.result.tools' | jq -cS .)
req GET /mcp
is "$status,$(header content-type)" "200,application/json" "a plain GET /mcp: 200 JSON"
is "$(jqr '.tools' | jq -cS .)" "$tools_list" "it lists the tools exactly as tools/list does (names, input schemas)"
is "$(jqr '[.tools[].name] | join(",")')" \
	"${brand}_discovery,${brand}_economics,${brand}_draft_review,${brand}_prepare_review" "the four tools"
is "$(jqr '.actions | [.pays, .signs, .fetchesUrls, .publishes, .monitors] | map(tostring) | join(",")')" \
	false,false,false,false,false "nothing pays, signs, fetches, publishes or monitors"
is "$(jqr '.transport.method, .transport.path' | tr '\n' ' ')" "POST /mcp " "the tools are called by POST /mcp"
req GET /mcp -H 'Accept: text/event-stream'
check_error 405 method_not_allowed "GET /mcp asking for text/event-stream (the Streamable HTTP probe)"
req GET /mcp -H 'Accept: application/json, text/event-stream'
is "$status" 405 "any Accept naming text/event-stream: 405"
req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' \
	--data-binary '{"requests":[{"method":"GET","path":"/mcp"},{"method":"POST","path":"/mcp","quantity":3}]}'
is "$status" 200 "the cost preview knows GET /mcp"
is "$(jqr '[.steps[] | "\(.resourceId):\(.payment.required)"] | join(",")')" "mcp.describe:false,mcp:false" \
	"both /mcp rows are free"
is "$(jqr .total.atomic)" 0 "total 0"

# ---- /mcp without MariaDB: only the discovery tool fails, as a tool error
"$top/tools/stack" db-stop
# Fresh workers (multiwatch replaces each one this test's stack stops), so
# none holds a connection opened before the database went away.
mw=$(cat "$WAYMARK_VAR/run/workers.pid"); nw=$(pgrep -P "$mw" | wc -l)
kill $(pgrep -P "$mw")
n=0; until [ "$(pgrep -P "$mw" | wc -l)" -eq "$nw" ] && [ $n -ge 5 ] || [ $n -ge 100 ]; do n=$((n + 1)); sleep 0.1; done
req POST /mcp "${rpc[@]}" --data-binary \
	'{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}'
is "$status,$(jqr .result.protocolVersion)" 200,2025-11-25 "database down: initialize answers"
req POST /mcp "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":2,"method":"tools/list"}'
is "$status,$(jqr '.result.tools | length')" 200,4 "tools/list answers"
req POST /mcp "${rpc[@]}" --data-binary \
	"{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"${brand}_economics\"}}"
is "$status,$(jqr .result.isError)" 200,false "the economics tool answers"
req POST /mcp "${rpc[@]}" --data-binary \
	"{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"${brand}_discovery\",\"arguments\":{\"q\":\"forecast\"}}}"
is "$status,$(jqr .result.isError),$(jqr .result.structuredContent.error)" 200,true,database_unavailable \
	"the discovery tool answers a tool error naming the database"
req GET /mcp
is "$status" 200 "GET /mcp answers"
req GET "/api/v1/x402/discovery"
check_error 503 database_unavailable "the discovery endpoint itself: 503"
"$top/tools/stack" db-start

done_testing
