#!/usr/bin/env bash
# A profile's discovery mode through the real stack, every call signed with
# the reference SIWX client (t/tools/siwx.mjs): the controller's preview is
# bound by a digest (recomputed here as SHA-256 of its JCS form) to the
# exact wallets and fact counts, and goes stale when either changes;
# PUT public_all needs the current digest and every member's consent to
# the public policy (a member linked while private blocks it: 409), and
# the spec's way out works (revoke, publish from a fresh controller-only
# preview, link again: the wallet then appears at once in the public
# profile); PUT private needs nothing but the controller's proof; a link
# prepared while private cannot be confirmed once public; a confirmation
# and a publication racing never leave a public profile with a member that
# consented only to the private policy; a PUT's body swapped under a
# valid proof is 400 request_mismatch. Answers are checked against
# t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/siwxbind.sh"
export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=0
chain_stack discovery 100
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas
P=/api/v1/x402/profiles
S=/api/site/x402/profiles

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
keys() { node -e 'const {generatePrivateKey,privateKeyToAccount}=require(process.argv[1]);
	for (let i = 0; i < +process.argv[2]; i++) { const k = generatePrivateKey(); console.log(k, privateKeyToAccount(k).address); }' \
	"$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
acct() { printf 'eip155:8453:%s' "$1"; }
sx() { # sx KEY METHOD PATH [BODY]: one signed call; sets $status and $body
	local key=$1 m=$2 path=$3 b=$4 res
	res=$(node "$tools/siwx.mjs" fetch --key "$key" --method "$m" --url "$URL$path" ${b:+--body "$b"})
	status=$(jq -r .status <<<"$res"); body=$(jq -c .body <<<"$res")
}
new_profile() { sx "$1" POST $P "{\"controllerAccount\":\"$(acct "$2")\"}"; jqr .profileId; }
prepare() { sx "$1" POST "$P/$2/wallet-links" "{\"memberAccount\":\"$(acct "$3")\"}"; }
confirm() { sx "$1" POST "$P/$2/wallet-links/$3/confirm" "{\"intentDigest\":\"$4\"}"; }
link() { # link CONTROLLER_KEY PID MEMBER_KEY MEMBER_ADDRESS: prepare and confirm; $status of the confirm
	prepare "$1" "$2" "$4"; local l d; l=$(jqr .linkId); d=$(jqr .intentDigest)
	confirm "$3" "$2" "$l" "$d"
}
revoke() { sx "$1" DELETE "$P/$2/wallet-links/$(acct "$3" | sed 's/:/%3A/g')" "{\"actorAccount\":\"$(acct "$4")\"}"; }
preview() { sx "$1" GET "$P/$2/discovery/preview" ""; }
put() { # put KEY PID MODE [DIGEST]
	if [ -n "$4" ]; then sx "$1" PUT "$P/$2/discovery" "{\"discoveryMode\":\"$3\",\"previewDigest\":\"$4\"}"
	else sx "$1" PUT "$P/$2/discovery" "{\"discoveryMode\":\"$3\"}"; fi
}
lower() { tr 'A-F' 'a-f' <<<"$1"; }
sorted_accounts() { for a in "$@"; do printf '%s %s\n' "$(lower "$a")" "$(acct "$a")"; done | LC_ALL=C sort | cut -d' ' -f2 | paste -sd' '; }

mapfile -t K < <(keys 24)
key() { cut -d' ' -f1 <<<"${K[$1]}"; }
adr() { cut -d' ' -f2 <<<"${K[$1]}"; }
C=$(key 0); CA=$(adr 0)     # the controller
M=$(key 1); MA=$(adr 1)     # a member linked while private
N=$(key 2); NA=$(adr 2)     # a link prepared while private, confirmed too late
X=$(key 3); XA=$(adr 3)     # a stranger

pid=$(new_profile "$C" "$CA")
like "$pid" '^[0-9a-f-]{36}$' "the controller creates its profile (private)"

# ---- the preview: controller only, digest-bound
req GET "$P/$pid/discovery/preview"
is "$status,$(jqr .error),$(header payment-required | base64 -d | jq -c .accepts)" "402,siwx_required,[]" \
	"preview without a proof: 402 with a sign-in challenge and no payment"
preview "$C" "$pid"
is "$status,$(jqr .discoveryMode),$(jqr '.preview.wallets | join(" ")'),$(jqr '.missingConsent | length')" \
	"200,private,$(acct "$CA"),0" "the controller's preview: private, its one wallet, nobody missing"
valid discovery-preview.json "$body" "the preview (schema)"
is "$(jqr '.preview.factCounts | [.used, .paid_settlement, .reviewed, .recognized, .linked_wallet] | join(",")')" "0,0,0,0,0" \
	"no facts yet in any category"
is "sha256:$(jqr '.previewDigest' | cut -c3-)" "$(printf '%s' "$body" | node "$tools/jcs-digest.mjs" preview)" \
	"previewDigest is SHA-256 of the preview's canonical JSON"
d0=$(jqr .previewDigest)
preview "$X" "$pid"
is "$status,$(jqr .error)" "404,not_found" "a stranger's preview: 404 (the profile is not disclosed)"
preview "$X" "00000000-0000-4000-8000-000000000000"
is "$status,$(jqr .error)" "404,not_found" "an unknown profile: 404"

# ---- the PUT's proof signs its body: a relay cannot turn "private" into "public_all"
dp="$P/$pid/discovery"; dbody='{"discoveryMode":"private"}'
pub="{\"discoveryMode\":\"public_all\",\"previewDigest\":\"$d0\"}"
swap_refused "$C" PUT "$dp" "$dbody" "$(body_request_id "$dbody")" "$pub" "$(body_request_id "$pub")" "PUT discovery"
is "$(sql "SELECT discovery_mode FROM profiles WHERE profile_id = UNHEX(REPLACE('$pid', '-', ''))")" private \
	"  the profile stays private"
bind_send PUT "$dp" '{ "discoveryMode" : "private" }' -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .discoveryMode)" "200,private" "the same proof with the JSON it signed, spaced otherwise: 200"

# ---- a fact appears: the digest moves
out=$(send --from-key "$C" --route $ROUTE_1 --endpoint $PAY_A --endpoint-usdc 4000)
wait_indexed "$(jq -r .blockNumber <<<"$out")"; ok $? "a routed recognition sent by the controller is indexed"
preview "$C" "$pid"
is "$(jqr .preview.factCounts.recognized)" 1 "the preview counts it as recognized"
d1=$(jqr .previewDigest)
ok $([ "$d1" != "$d0" ] && echo 0 || echo 1) "and its digest changed"
put "$C" "$pid" public_all "$d0"
is "$status,$(jqr .error),$(jqr .field)" "409,preview_stale,previewDigest" "PUT public_all with the older digest: 409 stale preview"

# ---- requests refused before any sign-in
req PUT "$P/$pid/discovery" -H 'Content-Type: application/json' --data-binary '{"discoveryMode":"public_all"}'
is "$status,$(jqr .error),$(jqr .field),$(header payment-required)" "400,missing_field,previewDigest," \
	"public_all without previewDigest: 400 before any challenge"
req PUT "$P/$pid/discovery" -H 'Content-Type: application/json' --data-binary '{"discoveryMode":"public"}'
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,discoveryMode" "an unknown mode: 400"
req PUT "$P/$pid/discovery" -H 'Content-Type: application/json' --data-binary "{\"discoveryMode\":\"private\",\"extra\":1}"
is "$status,$(jqr .error)" "400,unknown_field" "an undeclared member: 400"

# ---- a member linked while private blocks public_all
link "$C" "$pid" "$M" "$MA"
is "$status,$(jqr .state)" "200,active" "a member is linked while the profile is private"
prepare "$C" "$pid" "$NA"; nlink=$(jqr .linkId); ndig=$(jqr .intentDigest)
is "$status,$(jqr .intent.publicationPolicy)" "201,private" "another link is prepared while private (left pending)"
preview "$C" "$pid"
is "$(jqr '.preview.wallets | join(" ")')" "$(sorted_accounts "$CA" "$MA")" "the preview lists both active wallets, by address"
is "$(jqr .preview.factCounts.linked_wallet),$(jqr '.missingConsent | join(" ")')" "1,$(acct "$MA")" \
	"one linked wallet, whose consent is only the private policy"
d2=$(jqr .previewDigest)
put "$C" "$pid" public_all "$d2"
is "$status,$(jqr .error)" "409,member_consent_missing" "PUT public_all with a private-consent member: 409"
like "$(jqr .message)" "$(acct "$MA")" "the answer names the member"
put "$M" "$pid" public_all "$d2"
is "$status,$(jqr .error)" "404,not_found" "the member cannot publish: 404, controller only"
put "$X" "$pid" private
is "$status,$(jqr .error)" "404,not_found" "a stranger's PUT: 404"
req GET "$S/$pid"
is "$status,$(jqr .error)" "404,not_found" "the site read of the private profile: 404"
req GET "$S/by-wallet/$(acct "$MA")"
is "$status,$(jqr .error)" "404,not_found" "by a member wallet: 404 too"

# ---- the way out: revoke, publish from a fresh controller-only preview, link again
revoke "$C" "$pid" "$MA" "$CA"
is "$status,$(jqr .state)" "200,revoked" "the controller revokes the private-consent member"
put "$C" "$pid" public_all "$d2"
is "$status,$(jqr .error)" "409,preview_stale" "the preview that still listed it is stale now"
preview "$C" "$pid"
is "$(jqr '.preview.wallets | join(" ")'),$(jqr .preview.factCounts.linked_wallet),$(jqr '.missingConsent | length')" \
	"$(acct "$CA"),0,0" "a fresh preview: the controller alone"
put "$C" "$pid" public_all "$(jqr .previewDigest)"
is "$status,$(jqr .discoveryMode),$(jqr '.wallets | length')" "200,public_all,1" "PUT public_all with it: 200, published"
valid profile.json "$body" "the answer is the profile (schema)"
req GET "$S/$pid"
is "$status,$(jqr .profile.discoveryMode),$(jqr '[.profile.wallets[].accountId] | join(" ")')" "200,public_all,$(acct "$CA")" \
	"the site read shows the public profile"
valid public-profile.json "$body" "the public profile (schema)"
is "$(jqr .profile.factCounts.recognized),$(jqr .profile.links.activity)" "1,$P/$pid/activity" \
	"with its fact counts and the feed's path"
confirm "$N" "$pid" "$nlink" "$ndig"
is "$status,$(jqr .error)" "409,link_intent_invalid" "the link prepared while private cannot be confirmed now"
prepare "$C" "$pid" "$MA"; l=$(jqr .linkId); d=$(jqr .intentDigest)
is "$(jqr .intent.discoveryMode),$(jqr .intent.publicationPolicy)" "public_all,public_all" "a new link's intent carries public_all"
confirm "$M" "$pid" "$l" "$d"
is "$status,$(jqr .state)" "200,active" "the member confirms it"
req GET "$S/$pid"
is "$(jqr '[.profile.wallets[] | .accountId + ":" + .role] | join(" ")'),$(jqr .profile.factCounts.linked_wallet)" \
	"$(acct "$CA"):controller $(acct "$MA"):member,1" "the consenting member appears at once in the public profile"
req GET "$S/by-wallet/$(acct "$MA")"
is "$status,$(jqr .profile.profileId)" "200,$pid" "and the site read by its wallet finds the profile"
valid public-profile.json "$body" "the public profile by wallet (schema)"
req GET "$S/by-wallet/$(lower "$(acct "$XA")")"
is "$status,$(jqr .error)" "404,not_found" "a wallet in no profile: 404"
req GET "$S/by-wallet/eip155:1:$CA"
is "$status,$(jqr .error),$(jqr .field)" "400,invalid_field,accountId" "a non-Base account: 400"
link "$C" "$pid" "$N" "$NA"
is "$status" 200 "a later-linked wallet confirms under public_all"
req GET "$S/by-wallet/$(acct "$NA")"
is "$status,$(jqr '.profile.wallets | length')" "200,3" "and appears at once"

# ---- back to private: the controller's proof alone
put "$C" "$pid" private
is "$status,$(jqr .discoveryMode)" "200,private" "PUT private needs no preview digest: 200"
req GET "$S/$pid"
is "$status,$(jqr .error)" "404,not_found" "the site read answers 404 again"
req GET "$S/by-wallet/$(acct "$MA")"
is "$status" 404 "by wallet too"
put "$C" "$pid" private
is "$status,$(jqr .discoveryMode)" "200,private" "PUT private again: 200, unchanged"
preview "$C" "$pid"
is "$(jqr '.missingConsent | length')" 0 "members linked under public_all keep their consent"
put "$C" "$pid" public_all "$(jqr .previewDigest)"
is "$status,$(jqr .discoveryMode)" "200,public_all" "so the profile can be published again from a fresh preview"

# ---- a confirmation and a publication racing: never a public profile with a private-consent member
for round in 1 2 3 4 5; do
	c=$((3 + 2 * round)); m=$((c + 1))
	p=$(new_profile "$(key $c)" "$(adr $c)")
	prepare "$(key $c)" "$p" "$(adr $m)"; l=$(jqr .linkId); d=$(jqr .intentDigest)
	preview "$(key $c)" "$p"; pd=$(jqr .previewDigest)
	node "$tools/siwx.mjs" fetch --key "$(key $m)" --method POST --url "$URL$P/$p/wallet-links/$l/confirm" \
		--body "{\"intentDigest\":\"$d\"}" > "$http_tmp/race.c.$round" &
	node "$tools/siwx.mjs" fetch --key "$(key $c)" --method PUT --url "$URL$P/$p/discovery" \
		--body "{\"discoveryMode\":\"public_all\",\"previewDigest\":\"$pd\"}" > "$http_tmp/race.p.$round" &
	wait
	printf '%s %s\n' "$(jq -r .status "$http_tmp/race.c.$round")" "$(jq -r .status "$http_tmp/race.p.$round")" >> "$http_tmp/race"
done
is "$(grep -c '^200 200$' "$http_tmp/race")" 0 "five races: never both the confirmation and the publication"
is "$(sql "SELECT COUNT(*) FROM profiles p JOIN profile_wallets w ON w.profile_id = p.profile_id
	WHERE p.discovery_mode = 'public_all' AND w.state = 'active' AND w.role = 'member' AND w.policy <> 'public_all'")" 0 \
	"no public profile has an active member that consented only to the private policy"
is "$(grep -c '^[0-9]* [0-9]*$' "$http_tmp/race")" 5 "every race answered ($(sort "$http_tmp/race" | uniq -c | awk '{print $2 "/" $3 ":" $1}' | paste -sd' '))"
done_testing
