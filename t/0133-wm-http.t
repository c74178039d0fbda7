#!/usr/bin/env bash
# wm_http (tools/wmsh.c), the bash builtin the suite's req and rpc send
# their requests with, answers as curl does: for each request below the
# status, the body and the header lines (but Date) that the builtin sets
# are those of `curl -s` through the same helper with the builtin off.
# Also: a kept connection survives a script's own `exec 3<>` (its socket
# is above 9), a request in a subshell opens its own, nothing listening is
# status 000 and curl's exit status 7, and what it does not do as curl
# does is left to curl (exit status 125).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
[ -n "$wm_builtins" ] || { echo "Bail out! $WAYMARK_BUILD/wmsh.so did not load"; exit 1; }
U=$WAYMARK_TEST_URL
# A body's generatedAt (discovery) is the second it was made: two requests
# may straddle a second (a sanitizer build's slower answers did), so it is
# left out of the comparison like Date.
untimed() { sed -E 's/"generatedAt":"[0-9TZ:-]+"/"generatedAt":"-"/g' <<<"$1"; }
same() { # same DESCRIPTION METHOD URL [ARGS]: builtin and curl agree
	local d=$1; shift
	wreq "$@"; local s1=$status b1=$body h1
	h1=$(grep -vi '^date:' <<<"$headers")
	wm_builtins= wreq "$@"
	is "$s1" "$status" "$d: status $status"
	is "$(untimed "$b1")" "$(untimed "$body")" "$d: body"
	is "$h1" "$(grep -vi '^date:' <<<"$headers")" "$d: headers"
}
printf '%s' '{"requests":[{"method":"GET","path":"/health","quantity":2}]}' > "$http_tmp/preview.json"
same "a read" GET "$U/api/v1/x402/discovery?q=weather&limit=3"
same "a page" GET "$U/"
same "the interface description" GET "$U/openapi.json"
same "a JSON POST" POST "$U/api/v1/workflows/cost-preview" -H 'Content-Type: application/json' \
	--data-binary '{"requests":[{"method":"GET","path":"/health","quantity":2}]}'
same "a POST of a file" POST "$U/api/v1/workflows/cost-preview" -H 'Content-Type: application/json' \
	--data-binary @"$http_tmp/preview.json"
same "a POST without a content type" POST "$U/api/v1/workflows/cost-preview" --data-binary 'x'
same "a 404" GET "$U/nope"
same "a 405" DELETE "$U/api/v1/x402/economics"
same "a 40 KB request line" GET "$U/api/v1/x402/economics?$(head -c 40000 /dev/zero | tr '\0' a)"
same "a 40 KB header" GET "$U/api/v1/x402/economics" -H "X-Big: $(head -c 40000 /dev/zero | tr '\0' a)"
same "from another address" GET "$U/api/v1/x402/economics" --interface 127.0.0.7
same "a path as it is" GET "$U/api/v1/x402/routes/%00/reviews" --path-as-is

wreq GET "$U/api/v1/x402/economics"; want=$body
exec 3<>"/dev/tcp/127.0.0.1/${U##*:}"; exec 3<&-
wreq GET "$U/api/v1/x402/economics"
is "$status,$body" "200,$want" "after the script's own exec 3<> and close: the same answer"
is "$(wreq GET "$U/api/v1/x402/economics"; printf '%s' "$status")" 200 "in a subshell: an answer"
wreq GET "$U/api/v1/x402/economics"
is "$status" 200 "and the shell's own connection still answers"
wm_http GET "http://127.0.0.1:1/"; rc=$?
is "$rc,$status" "7,000" "nothing listens: exit status 7 and status 000, as curl"
wm_http GET "$U/api/v1/x402/economics" --compressed; rc=$?
is "$rc" 125 "an option it does not take: 125, for curl"
wm_http GET "$U/a/../api/v1/x402/economics"; rc=$?
is "$rc" 125 "a path with a dot segment (curl would rewrite it): 125"
wm_http GET "https://127.0.0.1/"; rc=$?
is "$rc" 125 "another scheme: 125"
done_testing
