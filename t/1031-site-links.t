#!/usr/bin/env bash
# Every URL the service prints that names its own site resolves. Over the
# main stack's demo data (routes, reviews, tips, attestations, agents,
# linked handles), the answers an agent or a person reads are collected:
# the Agent Card and the A2A descriptor, free skills, reverse lookups,
# attestations and receipts, handle profiles and points, discovery, the
# board, the OpenAPI document, /.well-known/x402, the skill file and the
# pages. Every absolute URL on the service's base (its app and docs URLs
# default to it) and every site path a page links to is fetched: none
# answers 404 or 5xx. The paths the deployed protocol fixes (a handle's
# /p/<handle>, a receipt's /b/<txHash>) are among them.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
BASE=$WAYMARK_TEST_URL
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }
: > "$http_tmp/answers"
keep() { printf '%s\n' "$body" >> "$http_tmp/answers"; }   # the answer in $body
get() { req GET "$1"; is "$status" 200 "GET $1: 200"; keep; }
skill() { # skill SKILL PARAMS: a free A2A skill, its answer kept
	req POST /a2a/message:send -H 'Content-Type: application/a2a+json' --data-binary \
		"$(jq -cn --arg s "boon.$1" --argjson p "$2" '{message: {messageId: "links", role: "ROLE_USER",
			parts: [{data: {skillId: $s, params: $p}}]}}')"
	is "$status" 200 "A2A skill $1: 200"
	keep
}

# ---- the demo data's IDs
mapfile -t handles < <(sql "SELECT DISTINCT handle FROM tips WHERE kind = 'handle' ORDER BY handle LIMIT 4")
mapfile -t agents < <(sql "SELECT agent_id FROM agents ORDER BY agent_id LIMIT 2")
mapfile -t attested < <(sql "SELECT tip_id FROM tips WHERE mint_attestation = 1 AND is_private = 0 ORDER BY tip_id LIMIT 3")
mapfile -t txs < <(sql "SELECT DISTINCT CONCAT('0x', LOWER(HEX(tx_hash))) FROM tips ORDER BY tip_id LIMIT 3")
ok "$(( ${#handles[@]} >= 2 && ${#agents[@]} >= 1 && ${#attested[@]} >= 1 && ${#txs[@]} >= 1 ? 0 : 1 ))" \
	"the demo has handles (${#handles[@]}), agents (${#agents[@]}), attested tips (${#attested[@]}) and receipts"

# ---- the answers
for p in /.well-known/agent-card.json /a2a /api/v1/acp/resources /openapi.json /.well-known/x402 /skill.md \
	/api/v1/x402/economics "/api/v1/x402/discovery?limit=20" /api/v1/board /api/v1/points/policy /mcp \
	/ /board /docs /docs/a2a /docs/pay-and-sign-in /docs/points-policy /docs/score-policy; do
	get "$p"
done
wallets=()
for h in "${handles[@]}" "${agents[@]/#/agent:}"; do
	get "/api/v1/handles/$h/profile"
	w=$(jqr '.profile.linkedWallet // empty')   # EIP-55, as the reverse lookup takes it
	[ -z "$w" ] || wallets+=("$w")
	get "/handles/$h"
	skill claim_help "$(jq -cn --arg h "$h" '{handle: $h}')"
done
ok "$(( ${#wallets[@]} >= 2 ? 0 : 1 ))" "linked wallets to look up: ${#wallets[@]} (a linked handle's and an agent's payout)"
for w in $(printf '%s\n' "${wallets[@]}" | sort -u); do
	get "/api/site/link/wallet?address=$w"
done
for id in "${attested[@]}"; do get "/api/v1/attestations/$id"; done
for tx in "${txs[@]}"; do get "/api/v1/receipts/$tx"; get "/receipts/$tx"; done
for id in $(jq -r '.candidates[].routeId' <<<"$(curl -s "$BASE/api/v1/x402/discovery?limit=5")"); do
	get "/routes/$id"
done

# ---- every URL of the service's own site in them
# (A URL in prose or Markdown ends before a backquote, a bracket or a
# sentence's last punctuation.)
grep -oE "$BASE(/[^\"'<>[:space:]\\\\)\`]*)?" "$http_tmp/answers" | sed -E "s|^$BASE||; s|[.,:;]+\$||; s|^\$|/|" > "$http_tmp/urls"
grep -oE 'href="/[^"]*"' "$http_tmp/answers" | sed 's/^href="//; s/"$//; s/&amp;/\&/g' >> "$http_tmp/urls"
sort -u "$http_tmp/urls" -o "$http_tmp/urls"
n=$(wc -l < "$http_tmp/urls")
ok "$(( n >= 40 ? 0 : 1 ))" "$n distinct URLs of the service's own site collected"
for want in "/p/github%3A" "/p/agent%3A" "/b/0x" "/docs/a2a" "/docs/a2a/extensions/" "/skill.md" "/routes/0x"; do
	grep -qF "$want" "$http_tmp/urls"
	ok $? "among them a URL with $want"
done
# One curl for all of them (a process per URL costs more than the requests).
args=()
while IFS= read -r u; do args+=(-o /dev/null -w '%{http_code} %{url_effective}\n' "$BASE$u"); done < "$http_tmp/urls"
codes=$(curl -s "${args[@]}")
is "$(grep -c . <<<"$codes")" "$n" "one answer for each of the $n URLs"
bad=$(awk '$1 == 404 || $1 ~ /^5/ { printf " %s:%s", $2, $1 }' <<<"$codes" | sed "s|$BASE||g")
is "$bad" "" "every one of them answers (no 404, no 5xx)"
done_testing
