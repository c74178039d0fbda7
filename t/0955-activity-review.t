#!/usr/bin/env bash
# Activity reviews through the real stack on the local chain, signed with
# the reference SIWX client: a linked wallet's real x402 settlement becomes
# a client_settlement fact of a public profile, and that wallet attaches one
# review. The sign-in challenge carries the digest of the review statement
# (profile, activity, route, settlement, signer, text, createdAt) as its
# Request ID, recomputed here as SHA-256 of the statement's canonical JSON,
# so the one SIWX signature signs the review. Every status: 402 challenge,
# 400 invalid, multiline, stale and mismatched, 404 (unknown, not a
# client settlement, another profile, a private profile), 402 another
# wallet, 201 attached, 200 the identical review again (also a day later,
# when its createdAt is past the window), 409 a different review and a
# second review of the same route by the same wallet.
# Discovery then shows the review in its own lane with a sourceUrl that
# resolves, never ranks it, counts the public profiles that used the route
# through client settlements (the compare report's
# clientSettlementProfileCount: the snapshot's usage is closed, the
# interface's three members) apart from receipt-backed use
# (usage.profileCount), shows nothing of a private
# profile, and lets one lane fill at most 4 of the 10 review slots while
# others have reviews for them; the corpus notices each new fact, review
# and discovery-mode change.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
. "$(dirname "$0")/lib/activity.sh"
BURL=https://api.example.com/v1/b
BROUTE=0x1a02bb6c2f38f692d7f8dfc68d60fbdfa0e704932c756bd73187c42389b63644   # GET $BURL, before $ROUTE
ACTIVITY_LISTINGS="--listing $BURL $KEY0"
activity_stack actrev 113

KEY5=0x8b3a350cf5c34c9194ca85829a2df0ec3153be0318b5e2d3348e872092edffba   # a controller (anvil #5)
KEY6=0x92db14e403b83dfe3df233f83dfa3a0d7096f21ca9b0d6d6b8d88b2b4ec1564e   # another (anvil #6)
C=$KEY5; M=$KEY8; S=$KEY6; F=$KEY1
MA=$(addr_of $M); SA=$(addr_of $S); FA=$(addr_of $F)
lower() { printf '%s' "$1" | tr 'A-F' 'a-f'; }
client_ev() { jq -cn --arg t "$1" '{kind: "client_settlement", transaction: $t, method: "GET", url: "'$RURL'"}'; }
discover() { req GET "/api/v1/x402/discovery${1:-}"; }
cand() { jqr ".candidates[] | select(.routeId == \"$1\") | $2"; }
RP=$KEY7   # pays the compare reports counts reads
printf '%s' '{"q":"forecast"}' > "$http_tmp/compare.json"
# counts: the public profiles with receipt-backed use (usage.profileCount of
# the snapshot in $body) and with client-settlement use (the paid compare
# report's clientSettlementProfileCount for the same query).
counts() {
	local cs
	cs=$(node "$tools/pay.mjs" --key "$RP" --url "$URL/api/v1/x402/reports/compare" --body "$http_tmp/compare.json" |
		jq -r --arg r "$ROUTE" '.body.rows[] | select(.routeId == $r) | .facts.clientSettlementProfileCount')
	printf '%s,%s' "$(cand $ROUTE '.usage.profileCount')" "$cs"
}
usage_keys() { cand $ROUTE '.usage | keys | join(",")'; }

# ---- a public profile whose member M pays, and its facts
pid=$(new_profile $C)
go_public "$pid" $C; ok $? "the controller's profile is public (public_all)"
link "$pid" $C $M; ok $? "M links its wallet"
mint "$MA" 1000000; mint "$(addr_of $RP)" 1000000
T1=$(paid_read $M)
like "$T1" '^0x[0-9a-f]{64}$' "M pays the stack's paid read with the x402 client"
discover "?q=forecast"
is "$status,$(counts),$(cand $ROUTE '.reviews | length')" "200,0,0,0" \
	"before any fact: the route is a candidate, no profile counted, no reviews"
publish $M "$pid" "$(client_ev "$T1")"
is "$status,$(jqr .evidenceKind)" "201,client_settlement" "M publishes its settlement as a client_settlement fact of GET $RURL"
A1=$(jqr .id); LOGI=$(jqr .details.logIndex)
publish $M "$pid" "$(jq -cn --arg t "$T1" '{kind: "usdc_transfer", transaction: $t}')"
A0=$(jqr .id)
is "$status,$(jqr .kind)" "201,paid_settlement" "and as a route-less paid_settlement fact"
discover "?q=forecast"
is "$(counts)" 0,1 "discovery notices the fact at once: clientSettlementProfileCount 1, profileCount (receipt-backed) 0"
is "$(usage_keys)" profileCount,useCount,walletCount \
	"the snapshot's usage keeps the interface's three members (closed) with client-settlement use"
valid discovery-snapshot.json "$body" "  the snapshot with client-settlement use (schema: usage closed)"

RV=/api/v1/x402/profiles/$pid/activity/$A1/review
now=$(date +%s)
TEXT="Forecast answered in 180 ms and matched the documented fields."
B1=$(jq -cn --arg t "$TEXT" --argjson c "$now" '{reviewText: $t, createdAt: $c}')
statement() { # statement BODY: the statement M signs for BODY on A1, built here from its parts
	jq -cn --arg p "$pid" --arg a "$A1" --arg r "$ROUTE" --arg t "$T1" --argjson l "$LOGI" --arg w "$(acct "$MA")" \
		--argjson b "$1" '{version: "1", profileId: $p, activityId: $a, routeId: $r,
		settlement: {network: "eip155:8453", transaction: $t, logIndex: $l}, reviewer: $w,
		reviewText: $b.reviewText, createdAt: $b.createdAt}'
}
digest_of() { printf '0x%s' "$(statement "$1" | node "$tools/jcs-digest.mjs" | sed 's/^sha256://')"; }
D1=$(digest_of "$B1")
post_plain() { printf '%s' "$2" > "$http_tmp/rb"; req POST "$1" -H 'Content-Type: application/json' "${@:3}" --data-binary "@$http_tmp/rb"; }
challenge() { printf '%s' "$(header payment-required)" | base64 -d; }

# ---- 402: the challenge binds the review statement
post_plain "$RV" "$B1"
is "$status,$(jqr .error)" "402,siwx_required" "the review without a proof: 402 with a free challenge"
ch=$(challenge)
valid siwx-challenge.json "$ch" "  the challenge (schema)"
is "$(jq -r '.extensions["sign-in-with-x"].info.requestId' <<<"$ch"),$(jq -c .accepts <<<"$ch")" "$D1,[]" \
	"  its Request ID is SHA-256 of the statement's canonical JSON; nothing to pay"

# ---- 400 before any challenge: invalid, multiline, ahead of time
refused400() { # refused400 BODY FIELD DESCRIPTION
	post_plain "$RV" "$1"
	is "$status,$(jqr .error),$(jqr .field),$(header payment-required)" "400,invalid_field,$2," "$3: 400, no challenge"
}
refused400 "$(jq -c '.reviewText = "two\nlines"' <<<"$B1")" reviewText "multiline text"
refused400 "$(jq -c '.reviewText = "one\u2028two"' <<<"$B1")" reviewText "a LINE SEPARATOR"
refused400 "$(jq -c '.reviewText = "bidi \u202e here"' <<<"$B1")" reviewText "a bidirectional override"
refused400 "$(jq -c '.reviewText = " padded"' <<<"$B1")" reviewText "text that is not its own trim"
refused400 "$(jq -c --arg t "$(printf 'é%.0s' $(seq 501))" '.reviewText = $t' <<<"$B1")" reviewText "1002 bytes of text"
refused400 "$(jq -c ".createdAt = $((now + 3600))" <<<"$B1")" createdAt "a createdAt an hour ahead"
post_plain "$RV" "$(jq -c '.extra = 1' <<<"$B1")"
is "$status,$(jqr .error)" "400,unknown_field" "an undeclared body member: 400"
# A createdAt past the window may repeat the review attached (200), which only the
# database knows: the challenge comes first, the 400 after the proof.
stale=$(jq -c ".createdAt = $((now - 90000))" <<<"$B1")
post_plain "$RV" "$stale"
is "$status,$(jqr .error)" "402,siwx_required" "a stale createdAt (25 hours old): the challenge first"
sx $M POST "$RV" "$stale"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,createdAt" "  signed, repeating no attached review: 400 stale"

# ---- 400 mismatched: the proof signed another statement
post_plain "$RV" "$B1"
hdr=$(node "$tools/siwx.mjs" sign --key $M --url "$URL$RV" --challenge "$(header payment-required)")
B2=$(jq -c '.reviewText = "A different text than the one signed."' <<<"$B1")
post_plain "$RV" "$B2" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .error)" "400,review_mismatch" "a proof of B1's statement sent with another text: 400 review_mismatch"
like "$(jqr .message)" "$(digest_of "$B2")" "  the message names the digest the proof should carry"
post_plain "$RV" "$B1"
hdr=$(node "$tools/siwx.mjs" sign --key $M --url "$URL$RV" --challenge "$(header payment-required)" --drop requestId)
post_plain "$RV" "$B1" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .error)" "400,review_mismatch" "a proof without the Request ID: 400"
post_plain "$RV" "$B1"
hdr=$(node "$tools/siwx.mjs" sign --key $M --url "$URL$RV" --challenge "$(header payment-required)" \
	--set "requestId=$(digest_of "$(jq -c ".createdAt = $((now - 1))" <<<"$B1")")")
post_plain "$RV" "$B1" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .error)" "400,review_mismatch" "a proof of the statement with another createdAt: 400"
is "$(sql "SELECT COUNT(*) FROM activity_reviews")" 0 "nothing attached"

# ---- 402 another wallet; 404 no public client-settlement activity
sx $C POST "$RV" "$B1"
is "$status,$(jqr .error)" "402,siwx_wrong_account" "the controller, not the publishing wallet: 402 siwx_wrong_account"
sx $M POST "/api/v1/x402/profiles/$pid/activity/0x$(printf 'cd%.0s' $(seq 32))/review" "$B1"
is "$status,$(jqr .error)" "404,not_found" "an unknown activity: 404"
sx $M POST "/api/v1/x402/profiles/$pid/activity/$A0/review" "$B1"
is "$status,$(jqr .error)" "404,not_found" "a paid_settlement fact (no route): 404"
pid2=$(new_profile $S); go_public "$pid2" $S
sx $M POST "/api/v1/x402/profiles/$pid2/activity/$A1/review" "$B1"
is "$status,$(jqr .error)" "404,not_found" "the activity under another profile's ID: 404"
go_private "$pid" $C; ok $? "the controller makes the profile private"
sx $M POST "$RV" "$B1"
is "$status,$(jqr .error)" "404,not_found" "the activity of a private profile: 404"
go_public "$pid" $C; ok $? "and public again (a fresh preview)"

# ---- 201 attached, 200 identical, 409 different
sx $M POST "$RV" "$B1"
is "$status,$(jqr .evidenceKind),$(jqr .reviewDigest)" "201,client_settlement,$D1" "the publishing wallet's review: 201 attached"
valid activity-review.json "$body" "  the review (schema)"
is "$(jqr .statement | jq -c "$SORTED")" "$(statement "$B1" | jq -c "$SORTED")" "  the statement it signed binds profile, activity, route, settlement, signer, text and time"
is "$(jqr .sourceUrl)" "$URL/api/site/x402/profiles/$pid/activity/$A1" "  its source is the public activity"
published=$(jqr .publishedAt)
is "$(sql "SELECT LOWER(HEX(digest)), signature_kind, proof_digest IS NOT NULL, statement_json = '$(statement "$B1" | jq -c "$SORTED" | sed "s/'/''/g")' FROM activity_reviews")" \
	"$(printf '%s\teoa\t1\t1' "${D1#0x}")" "  stored: the digest, the exact statement signed, the proof's digest (never the proof)"
sx $M POST "$RV" "$B1"
is "$status,$(jqr .reviewDigest),$(jqr .publishedAt)" "200,$D1,$published" "the identical review again: 200, the one attached"
sx $M POST "$RV" "$B2"
is "$status,$(jqr .error)" "409,already_reviewed" "a different review of the same activity: 409"
# A day later (the attached review's createdAt moved back 25 hours, with its digest
# and statement): the identical review again is the idempotent 200, not a stale 400.
old=$((now - 90000)); B1old=$(jq -c ".createdAt = $old" <<<"$B1"); D1old=$(digest_of "$B1old")
sql "UPDATE activity_reviews SET created_at = $old, digest = UNHEX('${D1old#0x}'),
	statement_json = '$(statement "$B1old" | jq -c "$SORTED" | sed "s/'/''/g")' WHERE activity_id = UNHEX('${A1#0x}')"
sx $M POST "$RV" "$B1old"
is "$status,$(jqr .reviewDigest),$(jqr .createdAt),$(jqr .publishedAt)" "200,$D1old,$old,$published" \
	"a day later, the identical review again: 200, the one attached"
valid activity-review.json "$body" "  the review (schema)"
sx $M POST "$RV" "$(jq -c '.reviewText = "Another text, as old."' <<<"$B1old")"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,createdAt" "a different review with that old createdAt: 400 stale"
T2=$(paid_read $M)
publish $M "$pid" "$(client_ev "$T2")"
A2=$(jqr .id)
is "$status,$(jqr .routeId)" "201,$ROUTE" "a second client settlement of M on the same route"
sx $M POST "/api/v1/x402/profiles/$pid/activity/$A2/review" "$B2"
is "$status,$(jqr .error)" "409,already_reviewed" "M's second review of the route through it: 409 (one per wallet and route)"
is "$(sql "SELECT COUNT(*) FROM activity_reviews")" 1 "one review attached"

# ---- discovery: the client_settlement lane, never ranked, profileCount, the source resolves
discover "?q=forecast"
valid discovery-snapshot.json "$body" "discovery with the review (schema)"
is "$(cand $ROUTE '[.reviews[] | select(.evidenceKind == "client_settlement") | [.text, .reviewer, .sourceUrl]] | tostring')" \
	"$(jq -cn --arg t "$TEXT" --arg r "$(lower "$MA")" --arg s "$URL/api/site/x402/profiles/$pid/activity/$A1" '[[$t, $r, $s]]')" \
	"the candidate carries the review in the client_settlement lane, citing the activity"
is "$(counts)" 0,1 "clientSettlementProfileCount 1 (two client settlements, one profile)"
src=$(cand $ROUTE '.reviews[0].sourceUrl')
req GET "${src#"$URL"}"
is "$status,$(jqr .activity.id),$(jqr .review.reviewText)" "200,$A1,$TEXT" "its sourceUrl resolves to the activity and its review"
valid profile-activity.json "$body" "  the source (schema)"
discover ""
is "$(jqr '[.candidates[].routeId] | join(" ")')" "$BROUTE $ROUTE" \
	"without q, the reviewed route stays behind the other by route ID: client_settlement never ranks"
discover "?reviewer=$MA"
is "$(jqr '[.candidates[].routeId] | join(" ")'),$(cand $ROUTE '.reviews[0].evidenceKind')" "$ROUTE,client_settlement" \
	"discovery by M as reviewer: the route it reviewed, its review first"

# ---- more profiles: a public one counts, a private one leaks nothing
mint "$SA" 1000000; mint "$FA" 1000000
T3=$(paid_read $S)
publish $S "$pid2" "$(client_ev "$T3")"
is "$status" 201 "the second public profile's controller publishes its client settlement of the route"
discover "?q=forecast"
is "$(counts)" 0,2 "clientSettlementProfileCount 2, profileCount still 0"
receipt_ev() { # receipt_ev KEY: the endpoint's official offer and receipt of GET $RURL paid by KEY's wallet
	node "$tools/sign-review-v2.mjs" "$(jq -cn --arg r $ROUTE --arg u $RURL --arg s $KEY0 --arg k "$1" \
		--argjson n "$(date +%s)" '{chainId: 8453, companion: "0x0000000000000000000000000000000000000001",
		routeId: $r, url: $u, serviceKey: $s, reviewerKey: $k, createdAt: $n, issuedAt: ($n - 30), text: "x"}')" |
		jq -c '.evidence + {kind: "x402_receipt", method: "GET"}'
}
publish $S "$pid2" "$(receipt_ev $S)"
is "$status,$(jqr .evidenceKind)" "201,x402_receipt" "S publishes an official receipt of the route too"
discover "?q=forecast"
is "$(counts)" 1,2 "profileCount 1: receipt-backed use is counted apart from client settlements"
pid3=$(new_profile $F)
T4=$(paid_read $F)
publish $F "$pid3" "$(client_ev "$T4")"
A4=$(jqr .id)
is "$status" 201 "a private profile's wallet publishes one too"
sx $F POST "/api/v1/x402/profiles/$pid3/activity/$A4/review" "$(jq -c '.reviewText = "Private profile text."' <<<"$B1")"
is "$status,$(jqr .error)" "404,not_found" "  and cannot attach a review while private: 404"
discover "?q=forecast"
is "$(counts),$(grep -ci "$(lower "${FA#0x}")" <<<"$body")" "1,2,0" \
	"the private profile is not counted and its wallet appears nowhere in discovery"

# ---- the profile goes private: its review and its count leave discovery
go_private "$pid" $C; ok $? "M's profile goes private"
discover "?q=forecast"
is "$(counts),$(cand $ROUTE '[.reviews[] | select(.evidenceKind == "client_settlement")] | length')" "1,1,0" \
	"discovery notices the mode change: the review is gone, clientSettlementProfileCount 1"
like "$(printf '%s' "$body" | grep -c "$pid")" '^0$' "  and nothing names the private profile"
req GET "${src#"$URL"}"
is "$status" 404 "its source is no longer served"
go_public "$pid" $C
discover "?q=forecast"
is "$(counts),$(cand $ROUTE '[.reviews[] | select(.evidenceKind == "client_settlement")] | length')" "1,2,1" \
	"public again: the review and the count are back"

# ---- the review slots: one lane fills at most 4 of the 10 while others have reviews
# The cap is a rule of the discovery read (handlers/corpus.c), so the reviews of the
# other lanes are written straight into the table, all newer than M's review:
# 12 self_reported (the newest) and 6 receipt_verified, each by its own wallet.
chain_id=$(jq -r .chainId "$STATE")
seed() { # seed LANE N FROM: N reviews of LANE published FROM + 1.. seconds from now
	for i in $(seq "$2"); do
		sql "INSERT INTO reviews (chain_id, lane, route_id, reviewer, review_text, created_at, published_at,
			digest, signature, signature_kind, review_json) VALUES ($chain_id, '$1', UNHEX('${ROUTE#0x}'),
			UNHEX('$(printf '%02x%038x' "${#1}" "$i")'),
			'A $1 review, number $i.', UNIX_TIMESTAMP(), NOW(6) + INTERVAL $(($3 + i)) SECOND,
			UNHEX('$(printf '%s' "$1$i" | sha256sum | cut -c1-64)'), x'00', 'eoa', '{}')"
	done
}
seed self_reported 12 100; seed receipt_verified 6 10
discover "?q=forecast"
lanes() { cand $ROUTE '[.reviews[].evidenceKind] | group_by(.) | map("\(.[0])=\(length)") | join(" ")'; }
is "$(cand $ROUTE '.reviews | length'),$(lanes)" "10,client_settlement=1 receipt_verified=4 self_reported=5" \
	"10 slots: 4 newest self_reported, 4 receipt_verified, the client settlement, then the newest left (self_reported)"
is "$(cand $ROUTE '[.reviews[].publishedAt] | . == (sort | reverse)')" true "  shown newest first"
is "$(cand $ROUTE '[.reviews[] | select(.evidenceKind == "self_reported") | .text] | join("|")')" \
	"$(for i in 12 11 10 9 8; do printf 'A self_reported review, number %s.|' $i; done | sed 's/|$//')" \
	"  the self_reported shown are that lane's five newest"
sql "DELETE FROM reviews WHERE lane = 'receipt_verified' AND route_id = UNHEX('${ROUTE#0x}')"
discover "?q=forecast"
is "$(lanes)" "client_settlement=1 self_reported=9" "without the other lane, self_reported fills the slots it leaves"
sx $M DELETE "$P/$pid/wallet-links/$(acct "$MA" | sed 's/:/%3A/g')" "{\"actorAccount\":\"$(acct "$MA")\"}"
discover "?q=forecast"
is "$(counts),$(cand $ROUTE '[.reviews[] | select(.evidenceKind == "client_settlement")] | length')" "1,1,0" \
	"M revokes its link: its facts and review leave discovery"
done_testing
