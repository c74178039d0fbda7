#!/usr/bin/env bash
# The worker on its own, over FastCGI without nginx (as under Apache
# mod_fcgid, where every path reaches the worker): it routes, rejects and
# limits by itself from the dispatch table.
. "$(dirname "$0")/lib/tap.sh"
: "${WAYMARK_VAR:?run through make test}"
sock=$WAYMARK_VAR/run/fcgi.sock
[ -S "$sock" ] || skip_all "no worker socket"

fcgi() { # fcgi METHOD URI [CONTENT_TYPE BODY]
	local method=$1 uri=$2 ct=${3:-} data=${4:-}
	out=$(printf '%s' "$data" | env -i REQUEST_METHOD="$method" REQUEST_URI="$uri" \
		CONTENT_TYPE="$ct" CONTENT_LENGTH="${#data}" cgi-fcgi -bind -connect "$sock" | tr -d '\r')
	status=$(printf '%s\n' "$out" | sed -n 's/^Status: \([0-9]*\).*/\1/p' | head -n1)
	body=$(printf '%s\n' "$out" | sed '1,/^$/d')
}

fcgi GET /health
is "$status" 200 "health through FastCGI alone"
is "$(printf '%s' "$body" | jq -r .ok)" true "health body"
fcgi GET /nowhere
is "$status" 404 "the worker answers 404 for unknown paths"
is "$(printf '%s' "$body" | jq -r .error)" not_found "with the JSON error"
fcgi PUT /health
is "$status" 405 "the worker answers 405"
like "$out" $'Allow: GET' "with Allow"
fcgi GET '/health?x=%zz'
is "$status" 400 "a malformed query escape is a 400"

# The worker's own body limit (nginx normally stops this first).
pad=$(printf '%*s' 32800 '')
fcgi POST /api/v1/workflows/cost-preview application/json "{\"p\":\"$pad\"}"
is "$status" 413 "the worker enforces the row's 32 KiB limit itself"
like "$(printf '%s' "$body" | jq -r .message)" '32768 bytes' "and names the limit"
fcgi POST /api/v1/workflows/cost-preview text/plain '{}'
is "$status" 415 "the worker answers 415"
fcgi POST /api/v1/workflows/cost-preview application/json '{"requests":[{"method":"GET","path":"/health"}]}'
is "$status" 200 "a valid POST through FastCGI alone"
done_testing
