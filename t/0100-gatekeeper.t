#!/usr/bin/env bash
# The gatekeeper through the real nginx + workers + MariaDB: every generic
# rejection answers the spec's status with the JSON error body.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
CP=/api/v1/workflows/cost-preview
json=(-H 'Content-Type: application/json')

req GET /health
is "$status" 200 "health answers 200"
is "$(jqr .ok)" true "health says ok"
like "$(jqr .version)" '^[0-9]+\.[0-9]+\.[0-9]+$' "health has a version"
is "$(jqr .database.reachable)" true "health reports the database reachable"
is "$(jqr .database.schemaVersion)" "$(ls "$(dirname "$0")"/../sql/*.sql | wc -l)" \
	"health reports the schema version = number of migrations"

req GET /no/such/path
check_error 404 not_found "unknown path"
req GET /api/v1/x402/nothing-here
check_error 404 not_found "unknown API path"

req POST /health
check_error 405 method_not_allowed "POST on a GET endpoint"
is "$(header allow)" "GET" "405 carries Allow: GET"
req DELETE $CP "${json[@]}"
check_error 405 method_not_allowed "DELETE on cost-preview"
is "$(header allow)" "POST" "405 carries Allow: POST"

# 413: the body limit of cost-preview is 32 KiB (32768 bytes).
big=$(printf '{"requests":[{"method":"GET","path":"/health"}],"pad":"%*s"}' 32800 '')
req POST $CP "${json[@]}" --data-binary "$big"
check_error 413 body_too_large "body over 32 KiB"
fits=$(printf '{"requests":[{"method":"GET","path":"/%*s"}]}' 2000 '' | tr ' ' 'a')
req POST $CP "${json[@]}" --data-binary "$fits"
check_error 400 invalid_field "a body under the limit reaches the validators"

req POST $CP --data-binary '{"requests":[{"method":"GET","path":"/health"}]}' -H 'Content-Type: text/plain'
check_error 415 unsupported_media_type "text/plain body"
req POST $CP --data-binary '{"requests":[{"method":"GET","path":"/health"}]}' -H 'Content-Type:'
check_error 415 unsupported_media_type "no content type"
req POST $CP --data-binary '{"requests":[{"method":"GET","path":"/health"}]}' \
	-H 'Content-Type: application/json; charset=utf-8'
is "$status" 200 "application/json with a charset parameter is accepted"

for bad in '{' '{"requests":[}' '{"requests":[{"method":"GET","path":"/health"}]} x' \
	"{'requests':1}" '{"requests":[{"method":"GET","path":"/health",}]}' '[1,2' \
	$'{"requests":"\xff"}' '{"requests":01}'; do
	req POST $CP "${json[@]}" --data-binary "$bad"
	check_error 400 invalid_json "malformed JSON $(printf %q "$bad")"
done
req POST $CP "${json[@]}" --data-binary ''
check_error 400 invalid_json "empty body"
req POST $CP "${json[@]}" --data-binary 'null'
check_error 400 invalid_json "null body"
req POST $CP "${json[@]}" --data-binary '[{"method":"GET","path":"/health"}]'
check_error 400 invalid_json "array instead of object"

req POST $CP "${json[@]}" --data-binary '{"requests":[],"requests":[{"method":"GET","path":"/health"}]}'
check_error 400 duplicate_key "duplicate top-level member"
is "$(jqr .field)" "requests" "duplicate names the member"
req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health","p\u0061th":"/x"}]}'
check_error 400 duplicate_key "duplicate member spelled with an escape, nested"

req POST $CP "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health"}],"x":1}'
check_error 400 unknown_field "undeclared top-level member"
is "$(jqr .field)" "x" "unknown_field names the member"
req POST $CP "${json[@]}" --data-binary '{}'
check_error 400 missing_field "required member absent"
is "$(jqr .field)" "requests" "missing_field names the member"
req POST "$CP?debug=1" "${json[@]}" --data-binary '{"requests":[{"method":"GET","path":"/health"}]}'
check_error 400 unknown_field "undeclared query parameter"

req GET /api/feed
is "$status" 410 "the retired feed answers 410"
is "$(jqr .error)" gone "with error gone"
is "$(jqr .replacement)" /api/v1/x402/discovery "and the replacement path"

done_testing
