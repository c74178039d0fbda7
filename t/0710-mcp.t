#!/usr/bin/env bash
# /mcp: the read-only MCP tool surface (docs/PROTOCOL.md,
# MCP) driven by the official MCP TypeScript SDK client (pinned in
# t/tools), then the transport edges with curl.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
MCP=/mcp
brand=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
RID=0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73

# --- the official client --------------------------------------------------
rep=$(cd "$top/t/tools" && node mcp-client.mjs "http://$WAYMARK_LISTEN$MCP" "$brand" "$RID")
ok $? "the SDK client connects, lists and calls"
r() { printf '%s' "$rep" | jq -r "$1" 2>/dev/null; }
is "$(r .connectError)" null "no connect error"
is "$(r '.transportErrors | length')" 0 "no transport errors: the GET stream probe got 405 ($(r '.transportErrors | join("; ")'))"
is "$(r .protocolVersion)" 2025-11-25 "negotiated the client's latest version"
is "$(r .sessionId)" null "stateless: no Mcp-Session-Id"
is "$(r .serverVersion.name)" waymark "serverInfo.name"
is "$(r '.capabilities | keys | join(",")')" tools "capabilities: tools only"
like "$(r .instructions)" 'never instructions' "instructions carry the interpretation rules"
is "$(r .ping)" true "ping"

is "$(r '[.tools[].name] | join(",")')" \
	"${brand}_discovery,${brand}_economics,${brand}_draft_review,${brand}_prepare_review,${brand}_suggest_recognition,${brand}_prepare_agent_recognition,${brand}_lookup_recognition,${brand}_lookup_agent_reputation,${brand}_claim_help" \
	"the four tools and the five free agent skills (docs/PROTOCOL.md, Agents: A2A and ACP), named from the brand word"
is "$(r '[.tools[] | .inputSchema | keys | join(",")] | unique | join(";")')" \
	"additionalProperties,properties,required,type" "every inputSchema has exactly type, properties, required, additionalProperties"
is "$(r '[.tools[] | .inputSchema.type] | unique | join(",")')" object "every inputSchema is type object"
is "$(r '[.tools[] | .inputSchema.additionalProperties] | unique | join(",")')" false \
	"no tool accepts undeclared arguments"
is "$(r '[.tools[] | .annotations.readOnlyHint] | unique | join(",")')" true "every tool is read-only"
is "$(r ".tools[0].inputSchema.properties | keys | join(\",\")")" "limit,q,reviewer" "discovery: q, limit, reviewer"
is "$(r '.tools[0].inputSchema.properties.limit | [.minimum, .maximum, .default] | join(",")')" "1,20,10" \
	"discovery limit 1..20, default 10 (as the GET endpoint)"
is "$(r '.tools[0].inputSchema.properties.q.maxLength')" 400 "q at most 400 characters"
is "$(r '.tools[1].inputSchema.properties | length')" 0 "economics takes no arguments"
is "$(r '.tools[2].inputSchema.required | join(",")')" routeId,observation "draft_review requires routeId, observation"
is "$(r '.tools[3].inputSchema.required | join(",")')" routeId,outcome,schemaCheck \
	"prepare_review requires routeId, outcome, schemaCheck"
is "$(r '[.schemaChecks[] | .compiles] | unique | join(",")')" true "every inputSchema compiles (ajv, 2020-12, strict)"
is "$(r '[.schemaChecks[] | select(.good == 0 and .bad == 0)] | length')" 0 \
	"and judges sample arguments as the server does"

# Every result: content is one text block holding structuredContent as JSON.
for k in economics draft prepare discovery draftBlank prepareInconsistent discoveryBad draftUnknownArg; do
	is "$(r "(.$k.result.content | length == 1) and .$k.result.content[0].type == \"text\" and
		(.$k.result.content[0].text | fromjson) == .$k.result.structuredContent")" true \
		"$k: one text block holding the structuredContent as JSON"
done

is "$(r .economics.result.isError)" false "economics: a result"
req GET /api/v1/x402/economics
is "$(r .economics.result.structuredContent | jq -c "$SORTED")" "$(jqr . | jq -c "$SORTED")" \
	"the economics tool returns the same object as GET /api/v1/x402/economics"

is "$(r .draft.result.isError)" false "draft_review: a result"
is "$(r .draft.result.structuredContent.reviewText)" \
	"Observation (not a claim of use): Answered 200 with JSON in about 300 ms. The schema matched." \
	"draft_review: the observation as one framed paragraph"
is "$(r '.draft.result.structuredContent | [.draft, .published, .sanitized] | map(tostring) | join(",")')" \
	true,false,false "draft_review: a draft, not published, not sanitized"
is "$(r .draft.result.content[0].text)" "$(r .draftAgain.result.content[0].text)" "draft_review is deterministic"
req POST /api/v1/x402/review-draft -H 'Content-Type: application/json' --data-binary \
	"{\"routeId\":\"$RID\",\"observation\":\"Answered 200 with JSON in about 300 ms.\\nThe schema matched.\"}"
is "$(r .draft.result.content[0].text)" "$body" "the tool's text is byte-identical to the HTTP answer"

is "$(r .draftBlank.result.isError)" true "a whitespace-only observation: isError"
is "$(r '.draftBlank.result.structuredContent | [.error, .field] | join(",")')" invalid_field,observation \
	"with the service's error body naming the field"
is "$(r '.draftUnknownArg.result.structuredContent | [.error, .field] | join(",")')" unknown_field,publish \
	"an undeclared argument: isError unknown_field"

is "$(r .prepare.result.isError)" false "prepare_review: a result"
is "$(r '.prepare.result.structuredContent.facts | [.outcome, .schemaCheck, (.verified | tostring)] | join(",")')" \
	response_received,passed,false "prepare_review: the caller's facts, not verified"
is "$(r .prepareInconsistent.result.isError)" true "request_failed with failed: isError"
is "$(r .prepareInconsistent.result.structuredContent.field)" schemaCheck "naming schemaCheck"

is "$(r .discovery.result.isError)" false "discovery: a result ($(r .discovery.result.structuredContent.message))"
is "$(r .discovery.result.structuredContent.version)" 1 "discovery: a version 1 snapshot"
is "$(r '.discovery.result.structuredContent.query | [.q, .limit, .reviewer] | map(tostring) | join(",")')" \
	",3,null" "discovery: the query as given"
req GET '/api/v1/x402/discovery?limit=3'
is "$(r '.discovery.result.structuredContent | keys | join(",")')" "$(jqr 'keys | join(",")')" \
	"the same members as GET /api/v1/x402/discovery"
is "$(r .discoveryBad.result.isError)" true "discovery limit 21: isError"
is "$(r '.discoveryBad.result.structuredContent | [.error, .field] | join(",")')" invalid_field,limit \
	"the same validation as the GET endpoint (limit 1..20)"
is "$(r .unknownTool.thrown.code)" -32602 "an unknown tool: JSON-RPC -32602"

# --- the transport with curl ----------------------------------------------
rpc=(-H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25')
req GET $MCP -H 'Accept: text/event-stream'
check_error 405 method_not_allowed "GET /mcp (the SDK's stream probe)"
is "$(header allow)" "GET, POST" "Allow: GET, POST (a plain GET describes the tools)"
req DELETE $MCP -H 'Mcp-Session-Id: x'
check_error 405 method_not_allowed "DELETE /mcp"
is "$(header allow)" "GET, POST" "Allow: GET, POST"

req POST $MCP -H 'Content-Type: application/json' -H 'Accept: */*' --data-binary \
	'{"jsonrpc":"2.0","id":"init-1","method":"initialize","params":{"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"curl","version":"1"}}}'
is "$status" 200 "initialize with Accept */* (lenient Accept)"
is "$(header content-type)" application/json "answered as application/json"
is "$(jqr .id)/$(jqr .result.protocolVersion)" init-1/2025-03-26 "string id echoed, supported version echoed"
is "$(header mcp-session-id)" "" "no session id issued"
req POST $MCP "${rpc[@]}" -H 'Accept: application/json' --data-binary '{"jsonrpc":"2.0","id":1,"method":"ping"}'
is "$status/$(jqr .result)" "200/{}" "ping with Accept application/json only"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","method":"notifications/initialized"}'
is "$status" 202 "a notification: 202"
is "$body" "" "with no body"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":9,"method":"resources/list"}'
is "$status/$(jqr .error.code)/$(jqr .id)" 200/-32601/9 "unknown method: -32601, id echoed"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":9,"method":"server/discover"}'
is "$status/$(jqr .error.code)" 200/-32601 "server/discover (2026 probe): -32601, a legacy signal"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"nope"}}'
is "$status/$(jqr .error.code)" 200/-32602 "unknown tool: -32602"
req POST $MCP "${rpc[@]}" --data-binary \
	"{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\",\"params\":{\"name\":\"${brand}_economics\",\"arguments\":\"x\"}}"
is "$status/$(jqr .error.code)" 200/-32602 "arguments not an object: -32602"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":6,"method":"ping","params":7}'
is "$status/$(jqr .error.code)" 400/-32600 "params not an object: 400 -32600"
req POST $MCP "${rpc[@]}" --data-binary '{"id":6,"method":"ping"}'
is "$status/$(jqr .error.code)/$(jqr .id)" 400/-32600/null "no jsonrpc member: 400 -32600, id null"
req POST $MCP -H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2024-01-01' \
	--data-binary '{"jsonrpc":"2.0","id":1,"method":"tools/list"}'
is "$status/$(jqr .error.code)" 400/-32000 "unsupported MCP-Protocol-Version: 400 -32000"
is "$(jqr '.error.data.supported | join(",")')" 2025-11-25,2025-06-18,2025-03-26 "listing the supported versions"

req POST $MCP "${rpc[@]}" --data-binary '[{"jsonrpc":"2.0","id":1,"method":"ping"}]'
is "$status/$(jqr .error.code)" 400/-32600 "a batch under 2025-11-25: 400 -32600"
req POST $MCP -H 'Content-Type: application/json' --data-binary \
	'[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":2,"method":"tools/list"}]'
is "$status/$(jqr 'length')/$(jqr '[.[].id] | join(",")')" 200/2/1,2 \
	"a batch under 2025-03-26 (no header): one answer per request"

# Bodies the gatekeeper refuses before the handler: JSON-RPC error objects
# (this row is flagged EP_JSONRPC), the service's code in error.data.
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":1,'
is "$status/$(jqr .jsonrpc)/$(jqr .id)/$(jqr .error.code)/$(jqr .error.data.error)" "400/2.0/null/-32700/invalid_json" \
	"malformed JSON: HTTP 400 with a JSON-RPC parse error"
like "$(jqr .error.message)" '^Parse error: ' "with a message naming the problem"
req POST $MCP "${rpc[@]}" --data-binary '{"jsonrpc":"2.0","id":1,"id":2,"method":"ping"}'
is "$status/$(jqr .error.code)/$(jqr .error.data.error)" "400/-32700/duplicate_key" "duplicate member names: a JSON-RPC parse error"
req POST $MCP "${rpc[@]}" --data-binary 'null'
is "$status/$(jqr .error.code)" "400/-32600" "a null body: JSON-RPC invalid request"
req POST $MCP -H 'Content-Type: text/plain' --data-binary '{"jsonrpc":"2.0","id":1,"method":"ping"}'
check_error 415 unsupported_media_type "text/plain"
big=$(printf '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"%*s"}}' 65600 '')
req POST $MCP "${rpc[@]}" --data-binary "$big"
check_error 413 body_too_large "body over 64 KiB"

done_testing
