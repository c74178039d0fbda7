#!/usr/bin/env bash
# Rate classes (lib/endpoint.h, INSTALL Security) through a stack of its own
# with low rates: a burst from one address at the sign-in, V1-review and
# private-tip auth-challenge rows is cut off with 429, the JSON error and
# Retry-After, while free discovery (unlimited by default) and the same
# rows from another address (127.0.0.2) still answer; per-row body limits;
# the generated zones and locations agree with the table.
. "$(dirname "$0")/lib/tap.sh"
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
top=$(cd "$(dirname "$0")/.." && pwd)
export WAYMARK_VAR=$WAYMARK_VAR-rates
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 190))
export WAYMARK_CHAIN=none WAYMARK_SEED=0
export WAYMARK_RATE_SIGNIN=30 WAYMARK_RATE_SIGNED=30 WAYMARK_RATE_UNLOCK=30
url=http://$WAYMARK_LISTEN
tmp=$(mktemp -d)
rm -rf "$WAYMARK_VAR"
trap '"$top/tools/stack" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
"$top/tools/stack" start >/dev/null; ok $? "a stack with sign-in, signed and unlock rows at 30 requests/minute starts"
conf=$WAYMARK_VAR/nginx

like "$(cat "$conf/waymark-http.conf")" 'limit_req_zone \$waymark_client zone=waymark_signin:10m rate=30r/m;' \
	"waymark-http.conf: the sign-in zone at the configured rate, keyed by client"
like "$(cat "$conf/waymark-http.conf")" 'rate class discovery: unlimited' "discovery is unlimited by default"
rows=$(WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" routes list)
for class in signin signed unlock site; do
	n=$(awk -F'\t' -v c=$class '$7 == c { print $2 }' <<<"$rows" | sort -u | wc -l)
	got=$(grep -c "limit_req zone=waymark_$class " "$conf/waymark-routes.conf")
	is "$got" "$n" "every path of rate class $class has its zone ($n)"
done
is "$(awk -F'\t' '$4 == "siwx" && $7 != "signin"' <<<"$rows" | wc -l)" 0 "every sign-in row is of rate class signin"
is "$(awk '$1 == "client_max_body_size" && $2 + 0 > 1048576' "$conf/waymark-routes.conf" | wc -l)" 2 \
	"bodies over 1 MB only on the two report rows that take a saved baseline"

# burst PATH METHOD [CURL ARGS]: 40 requests at once from 127.0.0.1; the status codes, sorted
burst() {
	local p=$1 m=$2; shift 2
	for i in $(seq 40); do
		curl -s -o "$tmp/b$i" -D "$tmp/h$i" -w '%{http_code}\n' -X "$m" "$@" "$url$p" &
	done | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }'
	wait
}
check_cut() { # check_cut DESCRIPTION CODES
	like "$2" '429:' "$1: cut off with 429 ($2)"
	local f; f=$(grep -l '^HTTP/1.1 429' "$tmp"/h* | head -n1)
	is "$(jq -r .error "$tmp/b${f##*/h}" 2>/dev/null)" rate_limited "$1: the JSON error rate_limited"
	like "$(grep -i '^retry-after:' "$f" | tr -d '\r')" '^Retry-After: [0-9]+$' "$1: with Retry-After"
}
S=/api/v1/x402/profiles
codes=$(burst "$S" POST -H 'Content-Type: application/json' --data-binary '{"controllerAccount":"eip155:8453:0x0000000000000000000000000000000000000001"}')
check_cut "sign-in challenges (POST $S)" "$codes"
codes=$(burst /api/v1/x402/reviews POST -H 'Content-Type: application/json' --data-binary '{}')
check_cut "V1 reviews (POST /api/v1/x402/reviews)" "$codes"
codes=$(burst "/tips/1/auth-challenge" POST)
check_cut "private-tip auth challenges" "$codes"

# Another address is its own client; discovery stays open.
st=$(curl -s -o "$tmp/o" -w '%{http_code}' --interface 127.0.0.2 -X POST -H 'Content-Type: application/json' \
	--data-binary '{"controllerAccount":"eip155:8453:0x0000000000000000000000000000000000000001"}' "$url$S")
is "$st" 402 "the sign-in row from 127.0.0.2 still answers (402, its challenge)"
codes=$(burst "/api/v1/x402/discovery?q=weather" GET --interface 127.0.0.2)
is "$codes" "200:40 " "40 discoveries at once from 127.0.0.2: every one answered"
codes=$(burst "/api/v1/x402/discovery?q=weather" GET)
is "$codes" "200:40 " "and from the limited 127.0.0.1 too: discovery is not limited"

# Body limits per row: a free read takes no body beyond 1k; a review row takes its 16 KiB.
st=$(curl -s -o "$tmp/o" -w '%{http_code}' --interface 127.0.0.2 -H 'Content-Type: application/json' \
	--data-binary "$(head -c 4096 /dev/zero | tr '\0' 'x')" "$url/api/v1/x402/economics")
is "$st,$(jq -r .error "$tmp/o")" "413,body_too_large" "a 4 KiB body on a row without one: 413"
done_testing
