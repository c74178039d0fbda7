#!/usr/bin/env bash
# The website pages (docs/ARCHITECTURE.md, Website pages) through the real
# stack with its demo seed (t/0940-demo-seed.t), plus rows planted here in
# MariaDB: a published and a private wallet profile, and a private tip whose
# withdrawn disclosure row still holds an amount and a note (what no page may
# show). curl checks every page's status, type, size and its HTML 404s; then
# Debian's chromium, driven by puppeteer-core (t/browser/pages.mjs), types a
# query into /, follows a result to its route page, opens a handle page and
# the A2A extension pages, then the documentation index, an endpoint page it
# links and the payment guide: no page error, no failed request, no 5xx, with
# screenshots kept in $WAYMARK_VAR/pages; a second pass with JavaScript
# disabled shows the same text. The documentation: a page for every row of
# `waymark routes list`, each 200 and under 50 KB, the policies and the guide.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
sql() { db_query "$WAYMARK_VAR/my.cnf" "$1"; }
out=$WAYMARK_VAR/pages; rm -rf "$out"; mkdir -p "$out"
b=$(sed -n 's/^#define BRAND_LOWER "\(.*\)"$/\1/p' "$top/lib/brand.h")

# The planted rows: their IDs are this test's own, so a rerun replaces them.
chain=$(sql "SELECT chain_id FROM reviews LIMIT 1")
like "$chain" '^[0-9]+$' "the seeded reviews name the chain"
pub=7e57a9e5-0000-4000-8000-00000000a001; priv=7e57a9e5-0000-4000-8000-00000000a002
hexid() { printf '%s' "${1//-/}"; }
tiptx=7e57a9e5000000000000000000000000000000000000000000000000000a0003
secret_note="PAGES-PRIVATE-NOTE-$RANDOM$RANDOM"; secret_amount=7777123   # 7.777123 USDC
now=$(date +%s)
sql "DELETE FROM profile_wallets WHERE profile_id IN (UNHEX('$(hexid $pub)'), UNHEX('$(hexid $priv)'));
DELETE FROM profiles WHERE profile_id IN (UNHEX('$(hexid $pub)'), UNHEX('$(hexid $priv)'));
DELETE FROM tip_disclosures WHERE chain_id = $chain AND tip_id = 990001;
DELETE FROM tips WHERE chain_id = $chain AND tip_id = 990001;
INSERT INTO profiles (profile_id, chain_id, controller, discovery_mode, created_at, updated_at) VALUES (UNHEX('$(hexid $pub)'), $chain, UNHEX('00000000000000000000000000000000000a0a01'), 'public_all', $now, $now),
  (UNHEX('$(hexid $priv)'), $chain, UNHEX('00000000000000000000000000000000000a0a02'), 'private', $now, $now);
INSERT INTO profile_wallets (link_id, profile_id, chain_id, wallet, role, state, slot, policy, created_at, activated_at)
  VALUES (UNHEX('7e57a9e500004000800000000000b001'), UNHEX('$(hexid $pub)'), $chain,
    UNHEX('00000000000000000000000000000000000a0a01'), 'controller', 'active', 1, 'public_all', $now, $now),
  (UNHEX('7e57a9e500004000800000000000b002'), UNHEX('$(hexid $priv)'), $chain,
    UNHEX('00000000000000000000000000000000000a0a02'), 'controller', 'active', 1, 'private', $now, $now);
INSERT INTO tips (chain_id, tip_id, contract, kind, is_private, handle_hash, handle, tipper, usdc_amount, note,
    private_commitment, mint_attestation, boon_burned, status, tx_hash, log_index, block_number, block_time)
  VALUES ($chain, 990001, UNHEX('00000000000000000000000000000000000c0c01'), 'handle', 1, UNHEX(SHA2('github:pagesprivate', 256)),
    'github:pagesprivate', UNHEX('00000000000000000000000000000000000a0a03'), NULL, NULL,
    UNHEX(SHA2('commitment', 256)), 0, 0, 'pushed', UNHEX('$tiptx'), 0, 1, $now);
INSERT INTO tip_disclosures (chain_id, tip_id, tx_hash, disclosed, action, signer, usdc_amount, note, updated_at) VALUES ($chain, 990001, UNHEX('$tiptx'), 0, 'withdraw',
    UNHEX('00000000000000000000000000000000000a0a03'), $secret_amount, '$secret_note', $now)"
ok $? "planted a published and a private profile and a private tip with a withdrawn disclosure"
is "$(sql "SELECT CONCAT(usdc_amount, ' ', note) FROM tip_disclosures WHERE chain_id = $chain AND tip_id = 990001")" \
	"$secret_amount $secret_note" "the private amount and note are in the database, for the reads to leave out"

# page PATH: GET it into $status, $body, $headers; the body kept for the privacy scan.
n=0
page() { req GET "$1"; n=$((n + 1)); printf '%s' "$body" > "$out/curl-$n.html"; }
html_page() { # html_page PATH STATUS DESCRIPTION
	page "$1"
	is "$status" "$2" "$3: $2"
	like "$(header content-type)" '^text/html; charset=utf-8$' "$3: HTML"
	ok "$([ "${#body}" -lt 50000 ] && echo 0 || echo 1)" "$3: under 50 KB (${#body} bytes)"
	like "$body" '^<!doctype html>' "$3: a whole document"
	ok "$(grep -qi '<script' <<<"$body" && echo 1 || echo 0)" "$3: no script"
}

req GET "/api/v1/x402/discovery?limit=20"
rid=$(jqr '.candidates | map(select(.reviews | length > 0))[0].routeId')
like "$rid" '^0x[0-9a-f]{64}$' "the seed has a reviewed candidate"
title=$(jqr ".candidates[] | select(.routeId == \"$rid\") | .title")
word=$(printf '%s' "$title" | tr -c 'A-Za-z0-9\n' ' ' | awk '{ for (i = 1; i <= NF; i++) if (length($i) > 3) { print tolower($i); exit } }')
like "$word" '^[a-z0-9]{4,}$' "a word of its title to search for"

html_page "/" 200 "the search page"
like "$body" '<input id="q" name="q"' "the search page has the field q"
like "$body" 'never proves an endpoint' "the search page states the interpretation rules"
html_page "/?q=$word" 200 "a search"
like "$body" "href=\"/routes/$rid\"" "the search lists the candidate with a link to its route page"
like "$body" "$b"'_backed' "a candidate shows its evidence lanes"
html_page "/?q=%3Cscript%3Ealert(1)%3C%2Fscript%3E" 200 "a search for markup"
like "$body" 'value="&lt;script&gt;alert\(1\)&lt;/script&gt;"' "the query is escaped in the field"
html_page "/routes/$rid" 200 "the route page"
like "$body" "<code id=\"route-id\">$rid</code>" "the route page names its route ID"
like "$body" '<svg class="timeline"' "the route page draws its timeline"
like "$body" 'reviews \([1-9][0-9]*\)</text>' "the timeline marks the route's reviews"
like "$body" 'Signed context' "the route page shows the signed context"
like "$body" 'Evidence lanes' "the route page shows the lanes"
page "/x402/routes/$rid"
is "$status" 200 "the route page at the candidates' links.web"
html_page "/routes/0x$(printf '%064d' 0)" 404 "an unknown route"
like "$body" 'No route context' "the 404 says what was not found"
html_page "/routes/nothing" 404 "a route ID that does not parse"
html_page "/board" 200 "the board"
handle=$(sql "SELECT handle FROM tips WHERE is_private = 0 ORDER BY tip_id LIMIT 1")
[ -n "$handle" ] || handle=github:pagesprivate
html_page "/handles/$handle" 200 "a handle page"
like "$body" 'Points' "the handle page shows the points"
html_page "/handles/not%20a%20handle" 404 "a handle that does not parse"
html_page "/receipts/0x$tiptx" 200 "the private tip's receipt"
like "$body" 'github:pagesprivate' "the receipt shows the private tip"
html_page "/receipts/0x$(printf '%064d' 0)" 404 "an unknown receipt"
html_page "/profiles/$pub" 200 "a published profile"
html_page "/profiles/$priv" 404 "a private profile"
ok "$(grep -q "$(hexid $priv)\|$priv\|0a0a02" "$out/curl-$n.html" && echo 1 || echo 0)" \
	"the private profile's 404 names nothing of it"
html_page "/profiles/7e57a9e5-0000-4000-8000-00000000ffff" 404 "an unknown profile"
ext=/docs/a2a/extensions/$b-agent-recognition
html_page "$ext/v0.1" 200 "the A2A extension v0.1"
req GET /.well-known/agent-card.json
uri=$(jqr '.capabilities.extensions[0].uri')
is "${uri%/v0.1}/v0.1" "$uri" "the Agent Card names the v0.1 extension"
page "$ext/v0.1"
like "$body" "<code id=\"ext-uri\">$uri</code>" "the page names the URI the Agent Card gives"
html_page "$ext/v0.2" 200 "the A2A extension v0.2"
html_page "/docs/a2a/extensions/$b-agent-payments/v0.1" 200 "the legacy extension v0.1"
like "$body" 'Deprecated' "the legacy extension points to the canonical one"
html_page "/docs/a2a/extensions/$b-agent-payments/v0.2" 200 "the legacy extension v0.2"
html_page "/docs/a2a/extensions/$b-agent-recognition/v9.9" 404 "an unknown extension"

# The documentation site (docs_url): the index links a page for every row of
# `waymark routes list`, and each answers 200, names its row and is under
# 50 KB; a paid row's page has its price and its 402, a JSON row's its
# fields and an example body; the policies and the guide.
rows=$("$WAYMARK_BUILD/waymark" routes list)
nrows=$(wc -l <<<"$rows")
html_page "/docs" 200 "the documentation index"
is "$(grep -o 'href="/docs/endpoints/[^"]*"' <<<"$body" | sort -u | wc -l)" "$nrows" \
	"the index links a page for each of the $nrows rows"
like "$body" 'href="/docs/pay-and-sign-in"' "the index links the payment guide"
like "$body" '<a href="/docs">Docs</a>' "the navigation links the documentation"
docs_ok=0 docs_big=0 docs_max=0
while IFS=$'\t' read -r _ _ id _; do
	req GET "/docs/endpoints/$id"
	if [ "$status" = 200 ] && [[ $body == *"<code id=\"row-id\">$id</code>"* ]]; then
		docs_ok=$((docs_ok + 1))
	else
		diag "/docs/endpoints/$id: $status"
	fi
	[ "${#body}" -lt 50000 ] || docs_big=$((docs_big + 1))
	[ "${#body}" -le "$docs_max" ] || docs_max=${#body}
done <<<"$rows"
is "$docs_ok" "$nrows" "every row's page answers 200 and names its row"
is "$docs_big" 0 "every row's page is under 50 KB (the largest $docs_max bytes)"
paid_id=$(awk -F'\t' '$4 == "paid" { print $3; exit }' <<<"$rows")
paid_price=$(awk -F'\t' '$4 == "paid" { print $5; exit }' <<<"$rows")
html_page "/docs/endpoints/$paid_id" 200 "a paid row's page ($paid_id)"
like "$body" "<dt>Price</dt><dd>$paid_price USDC</dd>" "it states the table's price"
like "$body" '<td>402</td><td>payment required' "it lists the 402 with its challenges"
like "$body" 'PAYMENT-REQUIRED' "it names the challenge header"
like "$body" 'href="/docs/pay-and-sign-in"' "it links the payment guide"
html_page "/docs/endpoints/x402.review_draft" 200 "a JSON row's page"
like "$body" '<code>observation</code></td><td>body</td><td>required</td><td>string, minLength <code>1</code>' \
	"it lists a body field with its type and limits"
like "$body" '<td>413</td>' "it lists the body-size refusal"
like "$body" "-d &#39;\\{&quot;routeId&quot;:&quot;0x2{64}&quot;,&quot;observation&quot;:&quot;text&quot;\\}&#39;" \
	"its example request carries a body of the required fields"
html_page "/docs/endpoints/x402.discovery" 200 "a query row's page"
like "$body" '<code>limit</code></td><td>query</td><td>optional</td><td>integer, minimum <code>1</code>, maximum <code>20</code>, default <code>10</code>' \
	"it lists a query field with its limits from the field table"
html_page "/docs/endpoints/no.such.row" 404 "an unknown row"
html_page "/docs/points-policy" 200 "the points policy"
req GET /api/v1/points/policy
pv=$(jqr .policyVersion)
page /docs/points-policy
like "$body" "$pv" "the points page shows the policy read's version ($pv)"
like "$body" 'half life seconds' "the points page shows the policy's rules"
html_page "/docs/score-policy" 200 "the score policy"
like "$body" "$b"'\.recognition-score/v2' "the score page names the policy label"
like "$body" 'at most 0\.5' "the score page states the cap from lib/score.h"
html_page "/docs/pay-and-sign-in" 200 "the payment and sign-in guide"
like "$body" 'PAYMENT-SIGNATURE' "the guide explains x402"
like "$body" 'Authorization: Payment' "the guide explains MPP"
like "$body" 'SIGN-IN-WITH-X' "the guide explains SIWX"
like "$body" "href=\"/docs/endpoints/$paid_id\"" "the guide lists the paid rows"

# The browser: Debian's chromium, both passes.
res=$out/browser.json
(cd "$top/t/browser" && node pages.mjs "$WAYMARK_TEST_URL" "$out" "$word" "$handle" \
	"$ext/v0.1" "$ext/v0.2" "/board" "/receipts/0x$tiptx" "/profiles/$pub") > "$res" 2> "$out/browser.err"
ok $? "chromium visited the pages ($(jq -r .browser "$res" 2>/dev/null))" || diag "$(head -c 2000 "$out/browser.err")"
for p in js nojs; do
	is "$(jq -r ".passes[] | select(.name == \"$p\") | .problems | join(\"; \")" "$res")" "" \
		"$p pass: no page error, failed request or error status"
	is "$(jq -r ".passes[] | select(.name == \"$p\") | .pages | length" "$res")" 12 "$p pass: twelve pages"
	is "$(jq -r ".passes[] | select(.name == \"$p\") | [.pages[].status] | map(tostring) | join(\",\")" "$res")" \
		"200,200,200,200,200,200,200,200,200,200,200,200" "$p pass: every page 200"
	is "$(jq -r ".passes[] | select(.name == \"$p\") | [.pages[9,10,11].url | sub(\"^https?://[^/]*\"; \"\")] | join(\" \")" "$res" |
		sed 's,/docs/endpoints/[^ ]*,/docs/endpoints/ROW,')" "/docs /docs/endpoints/ROW /docs/pay-and-sign-in" \
		"$p pass: from the documentation index to an endpoint page, then to the payment guide"
	like "$(jq -r ".passes[] | select(.name == \"$p\") | .pages[2].url" "$res")" "/routes/0x[0-9a-f]{64}\$" \
		"$p pass: the first result led to a route page"
	like "$(jq -r ".passes[] | select(.name == \"$p\") | .pages[1].url" "$res")" "/\\?q=$word\$" \
		"$p pass: the typed query went into the field q"
done
is "$(jq -r '[.passes[] | [.pages[].text] ] | .[0] == .[1]' "$res")" true \
	"with JavaScript off every page shows the same text"
n_shots=$(ls "$out"/js-*.png "$out"/nojs-*.png 2>/dev/null | wc -l)
is "$n_shots" 24 "a screenshot of every page of both passes is kept in $out"
jq -r '.passes[].pages[].html' "$res" > "$out/browser-pages.html"

# No page shows a private tip's amount or note, or the private profile.
for f in "$out"/curl-*.html "$out/browser-pages.html"; do
	if grep -q -e "$secret_note" -e "$secret_amount" -e '7\.777123' -e "$(hexid $priv)" -e '0a0a02' "$f"; then
		ok 1 "no private amount, note or profile in $(basename "$f")"
	fi
done
ok 0 "no page holds the private tip's amount or note, or the private profile ($(ls "$out"/curl-*.html | wc -l) pages by curl, 24 in the browser)"
done_testing
