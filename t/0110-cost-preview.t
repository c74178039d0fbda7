#!/usr/bin/env bash
# POST /api/v1/workflows/cost-preview (docs/PROTOCOL.md, Cost preview): priced
# from the dispatch table, bounds of docs/PROTOCOL.md, Errors and limits
# (1..25 steps, quantity 1..100, path 1..2048).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
CP=/api/v1/workflows/cost-preview
json=(-H 'Content-Type: application/json')
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark

req POST $CP "${json[@]}" --data-binary \
	'{"requests":[{"method":"GET","path":"/health?x=1"},{"method":"POST","path":"/api/v1/workflows/cost-preview","quantity":3}]}'
is "$status" 200 "a valid plan is priced"
is "$(jqr '.version')" "0.1" "version 0.1"
is "$(jqr '.execution')" "false" "execution false"
is "$(jqr '.currency')" "USDC" "currency USDC"
is "$(jqr '.steps | length')" 2 "one entry per step"
is "$(jqr '.steps[1].quantity')" 3 "quantity carried"
is "$(jqr '.steps[0].quantity')" 1 "quantity defaults to 1"
is "$(jqr '.steps[0].resourceId')" health "resourceId is the table row id"
is "$(jqr '.steps[0].path')" "/health?x=1" "path echoed as given"
is "$(jqr '[.steps[].index] | join(",")')" "0,1" "steps numbered from 0"
is "$(jqr '.excludedCosts | length > 0')" true "excluded costs listed"
is "$(jqr '.interpretation | length > 20')" true "interpretation present"
is "$(jqr 'keys | sort | join(",")')" "currency,excludedCosts,execution,interpretation,steps,total,version" \
	"exactly the spec's members"
is "$(jqr '.steps[0] | keys | sort | join(",")')" "index,method,path,payment,quantity,resourceId,subtotal" \
	"step has exactly the spec's members"

# Every step's price equals its dispatch-table row, and the total is the sum.
sum=0
while IFS=$'\t' read -r method pattern id auth price bodymax rate; do
	[ "$method" = GET ] || [ "$method" = POST ] || continue
	path=$(printf '%s' "$pattern" | sed 's/{[^}]*}/x/g')
	[ "$path" = "$pattern" ] || continue   # parameterised rows need valid params; covered per feature
	req POST $CP "${json[@]}" --data-binary "{\"requests\":[{\"method\":\"$method\",\"path\":\"$path\",\"quantity\":2}]}"
	want=$([ "$auth" = paid ] && echo "$price" || echo 0)
	is "$(jqr '.steps[0].payment.unitPriceUsdc')" "$want" "unit price of $method $pattern matches the table"
	is "$(jqr '.steps[0].payment.required')" "$([ "$auth" = paid ] && echo true || echo false)" \
		"payment.required of $method $pattern matches the table"
done < <("$tool" routes list)

steps=$(for i in $(seq 25); do printf '{"method":"GET","path":"/health"},'; done)
req POST $CP "${json[@]}" --data-binary "{\"requests\":[${steps%,}]}"
is "$status" 200 "25 steps accepted"
req POST $CP "${json[@]}" --data-binary "{\"requests\":[${steps}{\"method\":\"GET\",\"path\":\"/health\"}]}"
check_error 400 invalid_field "26 steps rejected"
req POST $CP "${json[@]}" --data-binary '{"requests":[]}'
check_error 400 invalid_field "0 steps rejected"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health","quantity":0}]}'
check_error 400 invalid_field "quantity 0"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health","quantity":100}]}'
is "$status" 200 "quantity 100 accepted"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health","quantity":1.5}]}'
check_error 400 invalid_field "fractional quantity"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"PUT","path":"/health"}]}'
check_error 400 invalid_field "method other than GET/POST"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"path":"/health"}]}'
check_error 400 missing_field "step without method"
is "$(jqr .field)" "requests[0].method" "names the step's field"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"health"}]}'
check_error 400 invalid_field "path without a leading slash"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"//health"}]}'
check_error 400 invalid_field "path with a double leading slash"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":""}]}'
check_error 400 invalid_field "empty path"
long=$(printf '/%*s' 2048 '' | tr ' ' 'a')
req POST $CP "${json[@]}" --data-binary "{\"requests\":[{\"method\":\"GET\",\"path\":\"$long\"}]}"
check_error 400 invalid_field "path of 2049 characters"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/api/v1/unknown"}]}'
check_error 400 invalid_field "unknown step"
like "$(jqr .message)" 'not an endpoint' "unknown step is named as such"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"POST","path":"/health"}]}'
check_error 400 invalid_field "known path, wrong method"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health","note":"x"}]}'
check_error 400 unknown_field "undeclared step member"
req POST $CP "${json[@]}" --data-binary '{"requests":["GET /health"]}'
check_error 400 invalid_field "step that is not an object"

done_testing
