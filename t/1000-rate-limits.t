#!/usr/bin/env bash
# Rate classes (lib/endpoint.h, INSTALL Security) through a stack of its own
# with low rates: a burst from one address at the sign-in, V1-review,
# disclosure and private-tip auth-challenge rows is cut off with 429, the
# JSON error and Retry-After, while free discovery (unlimited by default)
# and the same rows from another address (127.0.0.2) still answer; per-row
# body limits; the generated zones and locations agree with the table.
# A rate class is a row's (method and path), not its location's: a paid or
# free read on the path of a sign-in or signed write counts in no zone of
# theirs. Shown for the three such paths, then for every path of the table
# whose methods have different classes, each from an address of its own
# (127.0.0.N, N from 20).
. "$(dirname "$0")/lib/tap.sh"
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
top=$(cd "$(dirname "$0")/.." && pwd)
export WAYMARK_VAR=$WAYMARK_VAR-rates
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 190))
export WAYMARK_CHAIN=none WAYMARK_SEED=0
export WAYMARK_RATE_SIGNIN=30 WAYMARK_RATE_SIGNED=30 WAYMARK_RATE_UNLOCK=30
export WAYMARK_RATE_AGENT=30 WAYMARK_RATE_AGENT_BURST=5
# Site reads at their default (the suite's stacks leave them unlimited: tools/stack).
export WAYMARK_RATE_SITE=600
url=http://$WAYMARK_LISTEN
tmp=$(mktemp -d)
rm -rf "$WAYMARK_VAR"
trap '"$top/tools/stack" stop >/dev/null 2>&1; rm -rf "$tmp"' EXIT
"$top/tools/stack" start >/dev/null; ok $? "a stack with sign-in, signed and unlock rows at 30 requests/minute starts"
conf=$WAYMARK_VAR/nginx
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }

like "$(cat "$conf/waymark-http.conf")" 'limit_req_zone \$waymark_key_signin zone=waymark_signin:10m rate=30r/m;' \
	"waymark-http.conf: the sign-in zone at the configured rate"
like "$(tr '\n' ' ' < "$conf/waymark-http.conf")" 'map "\$waymark_rate_method \$waymark_rate" \$waymark_key_signin \{ +"[^"]*=signin[^"]*" +\$waymark_client; +default +""; +\}' \
	"keyed by client for the methods of sign-in rows, else empty (not counted)"
like "$(cat "$conf/waymark-http.conf")" 'rate class discovery: unlimited' "discovery is unlimited by default"
rows=$(WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" routes list)
for class in signin signed unlock site; do
	n=$(awk -F'\t' -v c=$class '$7 == c { print $2 }' <<<"$rows" | sort -u | wc -l)
	got=$(grep -c "limit_req zone=waymark_$class " "$conf/waymark-routes.conf")
	is "$got" "$n" "every path of rate class $class has its zone ($n)"
done
is "$(awk -F'\t' '$4 == "siwx" && $7 != "signin"' <<<"$rows" | wc -l)" 0 "every sign-in row is of rate class signin"
# Per path, in the table's order (the locations' order): the METHOD=class
# words of its rows and the limited classes among them (those with a zone,
# in the zones' order), against each location's $waymark_rate and
# limit_req lines; "-" and nothing where no row of the path is limited.
zones=$(sed -n 's/^limit_req_zone [^ ]* zone=waymark_\([a-z]*\):.*/\1/p' "$conf/waymark-http.conf")
n=0
while read -r p; do
	n=$((n + 1)); lim=""
	words=$(awk -F'\t' -v p="$p" '$2 == p { printf "%s%s=%s", (k++ ? " " : ""), $1, $7 }' <<<"$rows")
	for z in $zones; do
		[[ " $words " == *"=$z "* ]] && lim="$lim${lim:+ }$z"
	done
	[ -n "$lim" ] || words=-
	echo "$n|$words|$lim"
done < <(cut -f2 <<<"$rows" | awk '!seen[$0]++') > "$tmp/want"
awk '/^location / { if (n) print n "|" w "|" z; n++; w = "-"; z = "" }
	/^    set \$waymark_rate / { w = $0; sub(/^[^"]*"/, "", w); sub(/".*/, "", w) }
	/^    limit_req zone=waymark_/ { x = $2; sub(/^zone=waymark_/, "", x); z = z (z == "" ? "" : " ") x }
	END { if (n) print n "|" w "|" z }' "$conf/waymark-routes.conf" > "$tmp/got"
diff "$tmp/want" "$tmp/got" > "$tmp/diff"
ok $? "each location names its rows' METHOD=class in \$waymark_rate and has one limit_req per limited class among them"
[ -s "$tmp/diff" ] && diag "$(cat "$tmp/diff")"
is "$(awk '$1 == "client_max_body_size" && $2 + 0 > 1048576' "$conf/waymark-routes.conf" | wc -l)" 2 \
	"bodies over 1 MB only on the two report rows that take a saved baseline"

# burstn N PATH METHOD [CURL ARGS]: N requests at once (from 127.0.0.1 unless
# the curl arguments say --interface); the status codes, sorted and counted
burstn() {
	local n=$1 p=$2 m=$3; shift 3
	rm -f "$tmp"/b* "$tmp"/h*
	for i in $(seq "$n"); do
		curl -s -o "$tmp/b$i" -D "$tmp/h$i" -w '%{http_code}\n' -X "$m" "$@" "$url$p" &
	done | sort | uniq -c | awk '{ printf "%s:%s ", $2, $1 }'
	wait
}
burst() { burstn 40 "$@"; }   # burst PATH METHOD [CURL ARGS]: 40 at once
json=(-H 'Content-Type: application/json' --data-binary '{}')
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

# Rates by row. From 127.0.0.1: a sign-in burst on the paid feed's own path
# is cut as before, and right after it the paid feed (of a public profile,
# so 402 without payment) counts in no zone; so do paid reviewer reads on
# the V1 review path right after a V1 review burst uses up the signed zone.
pid=$(cat /proc/sys/kernel/random/uuid)
sql "INSERT INTO profiles (profile_id, chain_id, controller, discovery_mode, created_at, updated_at)
	VALUES (UNHEX('${pid//-/}'), 8453, UNHEX('$(printf '%040d' 7)'), 'public_all', UNIX_TIMESTAMP(), UNIX_TIMESTAMP())"
ok $? "a public profile to read the paid feed of"
A=$S/$pid/activity
codes=$(burst "$A" POST "${json[@]}")
check_cut "sign-ins on the paid feed's path (POST $S/{profileId}/activity)" "$codes"
codes=$(burst "$A" GET)
is "$codes" "402:40 " "right after: 40 paid-feed reads (GET) on that path from the same address, each 402, no 429"
codes=$(burst /api/v1/x402/reviews POST "${json[@]}")
like "$codes" '429:' "V1 reviews again: cut by the signed zone ($codes)"
codes=$(burst "/api/v1/x402/reviews?reviewer=0x$(printf '%040d' 7)" GET)
is "$codes" "402:40 " "and 40 reviewer-review reads (GET /api/v1/x402/reviews?reviewer=), each 402, no 429"
# A preflight counts as the method it asks about (from 127.0.0.3, fresh).
pre() { burstn 12 "$A" OPTIONS --interface 127.0.0.3 -H 'Origin: https://example.org' \
	-H "Access-Control-Request-Method: $1"; }
codes=$(pre GET)
is "$codes" "204:12 " "12 preflights at once for the paid feed's GET: each answered, none counted as a sign-in"
codes=$(pre POST)
like "$codes" '429:' "12 preflights at once for the sign-in POST on that path: cut by the sign-in zone ($codes)"
# The free disclosure read beside the signed disclose and withdraw rows.
D=/api/v1/boons/0x$(printf '%064d' 1)/disclosure
codes=$(burst "$D" POST "${json[@]}")
check_cut "disclosures (POST /api/v1/boons/{txHash}/disclosure)" "$codes"
codes=$(burst "$D" DELETE "${json[@]}")
check_cut "disclosure withdrawals (DELETE /api/v1/boons/{txHash}/disclosure)" "$codes"
codes=$(burstn 100 "$D" GET)
ok $([[ "$codes" != *429:* ]] && echo 0 || echo 1) \
	"right after: 100 disclosure reads (GET) from the same address, none cut by the signed zone ($codes)"

# Every path whose methods have different classes, from the table: for each
# method N of a limited class and each method M of another class there, a
# fresh address sends more M requests at once than N's zone lets through,
# then one N request, which must not be cut: M was not counted in N's zone.
# Then a burst of N from that address is cut, so the zone does count N.
ipn=20
while read -r p; do
	path=$(sed 's/{[^}]*}/x/g' <<<"$p")
	while IFS=$'\t' read -r mn cn; do
		[[ " $(echo $zones) " == *" $cn "* ]] || continue
		zb=$(sed -n "s/.*limit_req zone=waymark_$cn burst=\([0-9]*\) .*/\1/p" "$conf/waymark-routes.conf" | head -n1)
		while IFS=$'\t' read -r mm cm; do
			[ "$cm" != "$cn" ] || continue
			ipn=$((ipn + 1)); a=127.0.0.$ipn
			am=(--interface "$a"); [ "$mm" = GET ] || [ "$mm" = HEAD ] || am+=("${json[@]}")
			an=(--interface "$a"); [ "$mn" = GET ] || [ "$mn" = HEAD ] || an+=("${json[@]}")
			codes=$(burstn $((zb + 4)) "$path" "$mm" "${am[@]}")
			if [[ " $(echo $zones) " != *" $cm "* ]]; then
				ok $([[ "$codes" != *429:* ]] && echo 0 || echo 1) \
					"$mm $p (class $cm) from $a: $((zb + 4)) at once, none cut ($codes)"
			fi
			st=$(curl -s -o /dev/null -w '%{http_code}' -X "$mn" "${an[@]}" "$url$path")
			ok $([ "$st" != 429 ] && echo 0 || echo 1) \
				"$mn $p (class $cn) from $a after them: not cut ($st): $mm was not counted in zone $cn"
			codes=$(burstn $((zb + 4)) "$path" "$mn" "${an[@]}")
			like "$codes" '429:' "$mn $p from $a: its own burst is cut by zone $cn ($codes)"
		done < <(awk -F'\t' -v p="$p" '$2 == p { print $1 "\t" $7 }' <<<"$rows")
	done < <(awk -F'\t' -v p="$p" '$2 == p { print $1 "\t" $7 }' <<<"$rows")
done < <(awk -F'\t' '{ c[$2] = c[$2] " " $7 } END { for (p in c) { n = split(c[p], a, " ");
	for (i = 2; i <= n; i++) if (a[i] != a[1]) { print p; break } } }' <<<"$rows" | sort)
ok $([ "$ipn" -gt 20 ] && echo 0 || echo 1) "the table has paths whose methods have different limited classes ($((ipn - 20)) pairs checked)"

# The agent surface (rate class agent: 30 a minute, a burst of 5 here), from
# 127.0.0.4: a burst of MCP tool calls of the recognition preview, then of
# A2A preview messages (each preview reads the chain), is cut with 429 and
# Retry-After, each in its protocol's error shape; discovery still answers.
b=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")
codes=$(burst /mcp POST --interface 127.0.0.4 -H 'Content-Type: application/json' -H 'MCP-Protocol-Version: 2025-11-25' \
	--data-binary "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"${b}_prepare_agent_recognition\",\"arguments\":{\"recipient\":\"agent:1\",\"amountUsdc\":\"1\"}}}")
like "$codes" '^200:[0-9]+ 429:[0-9]+ $' "40 MCP preview calls at once from one address: some answered, the rest cut with 429 ($codes)"
f=$(grep -L '^HTTP/1.1 429' "$tmp"/h* | head -n1)
is "$(jq -r '.result | has("content")' "$tmp/b${f##*/h}")" true "  an answered one is the preview tool's result"
f=$(grep -l '^HTTP/1.1 429' "$tmp"/h* | head -n1)
is "$(jq -r '[.jsonrpc, (.id | tostring), .error.code, .error.data.error] | join(",")' "$tmp/b${f##*/h}")" "2.0,null,-32000,rate_limited" \
	"  the 429 is a JSON-RPC error (code -32000, data.error rate_limited)"
like "$(grep -i '^retry-after:' "$f" | tr -d '\r')" '^Retry-After: [0-9]+$' "  with Retry-After"
codes=$(burst /a2a/message:send POST --interface 127.0.0.4 -H 'Content-Type: application/json' \
	--data-binary "{\"skillId\":\"$b.prepare_agent_recognition\",\"params\":{\"recipient\":\"agent:1\",\"amountUsdc\":\"1\"}}")
n429=$(sed -n 's/.*429:\([0-9]*\).*/\1/p' <<<"$codes")
ok "$([ "${n429:-0}" -ge 38 ] && echo 0 || echo 1)" \
	"then 40 A2A preview messages from that address: cut but for what the rate refilled meanwhile ($codes): the allowance is shared"
f=$(grep -l '^HTTP/1.1 429' "$tmp"/h* | head -n1)
is "$(jq -r '[.error.code, .error.status, .error.details[0].reason, .error.details[0].metadata.error] | join(",")' "$tmp/b${f##*/h}")" \
	"429,RESOURCE_EXHAUSTED,RATE_LIMITED,rate_limited" "  the 429 is A2A's google.rpc.Status (RESOURCE_EXHAUSTED)"
codes=$(burst "/api/v1/x402/discovery?q=weather" GET --interface 127.0.0.4)
is "$codes" "200:40 " "  and 40 discoveries from that address right after: every one answered"

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
