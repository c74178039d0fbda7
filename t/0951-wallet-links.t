#!/usr/bin/env bash
# Wallet links of a profile through the real stack, every call signed with
# the reference SIWX client (t/tools/siwx.mjs): the controller prepares a
# pending link (intent and its digest, recomputed here as SHA-256 of the
# intent's JCS form), the member reads and confirms it with the identical
# digest, either of them revokes it; a prepare signed by another wallet is
# 402 siwx_wrong_account with a fresh challenge, as on the other SIWX rows;
# profile and link IDs are read in either case (answered in lowercase);
# the controller cannot be revoked; a
# wallet is active in one profile only; a proof for one profile does not
# open another; an intent past five minutes is
# refused; eight wallets fill a profile and the ninth is refused; twenty
# members confirming at once leave exactly eight active wallets; an
# ERC-1271 wallet is a member, and with the RPC stopped its confirmation
# gets 503 and changes nothing. Each proof signs its request's body (the
# confirm's intent digest, the others the body's canonical digest): a
# member, digest or actor swapped under a valid proof is 400
# request_mismatch, and the proof still serves the body it signed.
# Answers are checked against t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/siwxbind.sh"
export WAYMARK_SEED=0
# The stack's scheduled tasks (profiles-prune among them) wait a day: the
# expiry checks below run the prune themselves, and one of the stack's own
# running between the aging of a link and the test's prune pruned it first
# (seen once under TSan: "0 pruned").
export WAYMARK_PUBLICATIONS_INTERVAL=86400
chain_stack links 82
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas
P=/api/v1/x402/profiles

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
keys() { node -e 'const {generatePrivateKey,privateKeyToAccount}=require(process.argv[1]);
	for (let i = 0; i < +process.argv[2]; i++) { const k = generatePrivateKey(); console.log(k, privateKeyToAccount(k).address); }' \
	"$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
acct() { printf 'eip155:8453:%s' "$1"; }
sx() { # sx KEY METHOD PATH [BODY] [options]: one signed call; sets $status and $body
	local key=$1 m=$2 path=$3 b=$4 res; shift 4
	res=$(node "$tools/siwx.mjs" fetch --key "$key" --method "$m" --url "$URL$path" ${b:+--body "$b"} "$@")
	status=$(jq -r .status <<<"$res"); body=$(jq -c .body <<<"$res")
}
new_profile() { sx "$1" POST $P "{\"controllerAccount\":\"$(acct "$2")\"}"; jqr .profileId; }
prepare() { sx "$1" POST "$P/$2/wallet-links" "{\"memberAccount\":\"$(acct "$3")\"}"; }
confirm() { sx "$1" POST "$P/$2/wallet-links/$3/confirm" "{\"intentDigest\":\"$4\"}" "${@:5}"; }
revoke() { sx "$1" DELETE "$P/$2/wallet-links/$(acct "$3" | sed 's/:/%3A/g')" "{\"actorAccount\":\"$(acct "$4")\"}"; }
active() { sql "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = UNHEX(REPLACE('$1', '-', '')) AND state = 'active'"; }

mapfile -t K < <(keys 32)
key() { cut -d' ' -f1 <<<"${K[$1]}"; }
adr() { cut -d' ' -f2 <<<"${K[$1]}"; }
C=$(key 0); CA=$(adr 0)     # the controller
M=$(key 1); MA=$(adr 1)     # a member
S=$(key 2); SA=$(adr 2)     # a stranger

pid=$(new_profile "$C" "$CA")
like "$pid" '^[0-9a-f-]{36}$' "the controller creates its profile"

# ---- prepare: its proof signs the body, so the member cannot be swapped
lp="$P/$pid/wallet-links"; pb="{\"memberAccount\":\"$(acct "$MA")\"}"; sb="{\"memberAccount\":\"$(acct "$SA")\"}"
swap_refused "$C" POST "$lp" "$pb" "$(body_request_id "$pb")" "$sb" "$(body_request_id "$sb")" "prepare"
is "$(sql "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = UNHEX(REPLACE('$pid', '-', '')) AND role = 'member'")" 0 \
	"  no link prepared for the swapped member"
bind_send POST "$lp" "{ \"memberAccount\" : \"$(acct "$MA")\" }" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .state),$(jqr .role),$(jqr .memberAccount)" "201,pending,member,$(acct "$MA")" \
	"the same proof with the body it signed (spaced otherwise): 201 pending, prepared by the controller"
valid wallet-link.json "$body" "the pending link (schema)"
link=$(jqr .linkId); dig=$(jqr .intentDigest)
is "$(jqr '[.intent.profileId, .intent.controllerAccount, .intent.memberAccount, .intent.chainId, .intent.discoveryMode, .intent.publicationPolicy, .intent.requestId] | join(",")')" \
	"$pid,$(acct "$CA"),$(acct "$MA"),eip155:8453,private,private,$link" "the intent binds profile, both accounts, Base, the policy and the request"
is "$(jqr '.intent | ((.expiresAt | fromdate) - (.issuedAt | fromdate))')" 300 "the intent expires five minutes after issue"
is "sha256:${dig#0x}" "$(printf '%s' "$body" | node "$tools/jcs-digest.mjs" intent)" "intentDigest is SHA-256 of the intent's canonical JSON"
prepare "$M" "$pid" "$SA"
is "$status,$(jqr .error)" "402,siwx_wrong_account" "prepare signed by another wallet than the controller: 402 siwx_wrong_account"
lp="$P/$pid/wallet-links"; lb="{\"memberAccount\":\"$(acct "$SA")\"}"
req POST "$lp" -H 'Content-Type: application/json' --data-binary "$lb"
proof=$(node "$tools/siwx.mjs" sign --key "$S" --url "$URL$lp" --challenge "$(header payment-required)")
req POST "$lp" -H 'Content-Type: application/json' -H "SIGN-IN-WITH-X: $proof" --data-binary "$lb"
is "$status,$(jqr .error)" "402,siwx_wrong_account" "  a stranger's valid proof: 402 siwx_wrong_account"
valid siwx-challenge.json "$(header payment-required | base64 -d)" "  with a fresh challenge"
is "$(sql "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = UNHEX(REPLACE('$pid', '-', '')) AND wallet = X'${SA#0x}'")" 0 \
	"  and no link stored"
prepare "$C" 00000000-0000-4000-8000-000000000000 "$SA"
is "$status,$(jqr .error)" "404,not_found" "prepare for an unknown profile: 404"
prepare "$C" "$pid" "$CA"
is "$status,$(jqr .error)" "409,wallet_already_linked" "the controller as its own member: 409"

# ---- read
sx "$C" GET "$P/$pid/wallet-links/$link" ""
is "$status,$(jqr .state)" "200,pending" "the controller reads the link"
sx "$M" GET "$P/$pid/wallet-links/$link" ""
is "$status,$(jqr .intentDigest)" "200,$dig" "the member reads it, with the digest to confirm"
valid wallet-link.json "$body" "the read (schema)"
sx "$S" GET "$P/$pid/wallet-links/$link" ""
is "$status,$(jqr .error)" "404,not_found" "a stranger reads nothing"
upper() { printf '%s' "$1" | tr 'a-f' 'A-F'; }
sx "$M" GET "$P/$(upper "$pid")/wallet-links/$(upper "$link")" ""
is "$status,$(jqr .profileId),$(jqr .linkId)" "200,$pid,$link" \
	"profile and link IDs in uppercase: the same link, its IDs answered in lowercase"
mixed=$(upper "${link:0:18}")${link:18}
sx "$M" GET "$P/$pid/wallet-links/$mixed" ""
is "$status,$(jqr .linkId)" "200,$link" "a link ID in mixed case: the same link"

# ---- confirm
confirm "$C" "$pid" "$link" "$dig"
is "$status,$(jqr .error)" "402,siwx_wrong_account" "confirm signed by the controller: 402, only the member confirms"
confirm "$M" "$pid" "$link" 0x$(printf '0%.0s' $(seq 64))
is "$status,$(jqr .error)" "409,link_intent_invalid" "confirm with another digest: 409"
zero=0x$(printf '0%.0s' $(seq 64))
swap_refused "$M" POST "$P/$pid/wallet-links/$link/confirm" "{\"intentDigest\":\"$dig\"}" "$dig" \
	"{\"intentDigest\":\"$zero\"}" "$zero" "confirm (Request ID: the intent digest)"
is "$(active "$pid")" 1 "  nothing confirmed"
confirm "$M" "$(upper "$pid")" "$(upper "$link")" "$dig"
is "$status,$(jqr .state),$(jqr .activatedAt | grep -c T)" "200,active,1" \
	"confirm by the member with the identical digest (the path's IDs in uppercase): 200 active"
valid wallet-link.json "$body" "the active link (schema)"
confirm "$M" "$pid" "$link" "$dig"
is "$status,$(jqr .state)" "200,active" "confirming again: 200, the same"
sx "$C" GET "$P/$pid" ""
is "$status,$(jqr '[.wallets[].accountId] | join(" ")')" "200,$(acct "$CA") $(acct "$MA")" "the profile now has both wallets"
valid profile.json "$body" "the profile with its member (schema)"

# ---- one profile per wallet
prepare "$C" "$pid" "$MA"
is "$status,$(jqr .error)" "409,wallet_already_linked" "linking the active member again: 409"
sx "$M" POST $P "{\"controllerAccount\":\"$(acct "$MA")\"}"
is "$status,$(jqr .error)" "409,wallet_already_linked" "the member cannot create a profile of its own while linked"
pid2=$(new_profile "$S" "$SA")
prepare "$S" "$pid2" "$MA"
is "$status,$(jqr .error)" "409,wallet_already_linked" "another profile cannot link the active member: 409"
prepare "$S" "$pid2" "$CA"
is "$status,$(jqr .error)" "409,wallet_already_linked" "nor another profile's controller"

# ---- a proof for one profile presented to another: the URI names the profile
req GET "$P/$pid2"
ch=$(header payment-required)
proof=$(node "$tools/siwx.mjs" sign --key "$S" --url "$URL$P/$pid2" --challenge "$ch")
req GET "$P/$pid" -H "SIGN-IN-WITH-X: $proof"
is "$status,$(jqr .error)" "402,siwx_wrong_uri" "a proof for one profile presented to another: 402 siwx_wrong_uri"
like "$(header payment-required)" '.' "with a fresh challenge"
req GET "$P/$pid2" -H "SIGN-IN-WITH-X: $proof"
is "$status,$(jqr .profileId)" "200,$pid2" "the refused proof was not consumed: it still opens its own profile"
req GET "$P/$pid2" -H "SIGN-IN-WITH-X: $proof"
is "$status,$(jqr .error)" "402,siwx_replayed" "and only once"

# ---- expiry: the five minutes pass (the row's clock moved back)
prepare "$C" "$pid" "$(adr 3)"; l3=$(jqr .linkId); d3=$(jqr .intentDigest)
sql "UPDATE profile_wallets SET created_at = created_at - 301, expires_at = expires_at - 301 WHERE link_id = UNHEX(REPLACE('$l3', '-', ''))"
confirm "$(key 3)" "$pid" "$l3" "$d3"
is "$status,$(jqr .error)" "409,link_intent_invalid" "confirm after five minutes: 409"
sx "$(key 3)" GET "$P/$pid/wallet-links/$l3" ""
is "$status,$(jqr .state)" "200,expired" "the link reads as expired"
prune() { WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" profiles-prune; }
lsql() { sql "SELECT $1 FROM profile_wallets WHERE link_id = UNHEX(REPLACE('$2', '-', ''))"; }
# The suite's stack is shared: pending links other tests left may pass their
# five minutes meanwhile (a slow sanitizer run), and the stack's own loop runs
# the same task every minute and may have expired this one first; the stored
# state below (only the task writes it) shows it was expired.
like "$(prune)" '^profiles: [0-9]+ links expired, 0 pruned$' "the scheduled task (waymark profiles-prune) runs"
is "$(lsql "state, ended_at = expires_at" "$l3")" "$(printf 'expired\t1')" "stored as expired, ended at its expiry"
sql "UPDATE profile_wallets SET expires_at = expires_at - 7 * 86400 WHERE link_id = UNHEX(REPLACE('$l3', '-', ''))"
like "$(prune)" '^profiles: [0-9]+ links expired, 1 pruned$' "a week after its expiry it is pruned"
is "$(lsql "COUNT(*)" "$l3")" 0 "the row is gone"

# ---- revoke
revoke "$C" "$pid" "$CA" "$CA"
is "$status,$(jqr .error)" "409,controller_rotation_required" "revoking the controller: 409 rotation required"
revoke "$M" "$pid" "$MA" "$CA"
is "$status,$(jqr .error)" "402,siwx_wrong_account" "actorAccount other than the signer: 402"
revoke "$S" "$pid" "$MA" "$SA"
is "$status,$(jqr .error)" "404,not_found" "a stranger revoking: 404"
rp="$P/$pid/wallet-links/$(acct "$MA" | sed 's/:/%3A/g')"; rb="{\"actorAccount\":\"$(acct "$MA")\"}"
swap_refused "$M" DELETE "$rp" "$rb" "$(body_request_id "$rb")" "{\"actorAccount\":\"$(acct "$CA")\"}" \
	"$(body_request_id "{\"actorAccount\":\"$(acct "$CA")\"}")" "revoke"
is "$(active "$pid")" 2 "  the member is still active"
revoke "$M" "$pid" "$MA" "$MA"
is "$status,$(jqr .state),$(jqr .endedAt | grep -c T)" "200,revoked,1" "the member revokes its own link: 200"
valid wallet-link.json "$body" "the revoked link (schema)"
is "$(active "$pid")" 1 "only the controller is active"
revoke "$M" "$pid" "$MA" "$MA"
is "$status,$(jqr .error)" "404,not_found" "revoking again: 404, nothing active"
prepare "$C" "$pid" "$MA"; l=$(jqr .linkId); d=$(jqr .intentDigest)
confirm "$M" "$pid" "$l" "$d"
is "$status,$(jqr .state)" "200,active" "the member is linked again"
revoke "$C" "$pid" "$MA" "$CA"
is "$status,$(jqr .state)" "200,revoked" "the controller revokes it: 200"

# ---- eight wallets, the ninth refused
for i in $(seq 4 10); do
	prepare "$C" "$pid" "$(adr "$i")"; l=$(jqr .linkId); d=$(jqr .intentDigest)
	confirm "$(key "$i")" "$pid" "$l" "$d"
	[ "$status" = 200 ] || diag "member $i: $status $body"
done
is "$(active "$pid")" 8 "seven members and the controller: eight active wallets"
sx "$C" GET "$P/$pid" ""
is "$(jqr '.wallets | length')" 8 "the profile lists eight"
prepare "$C" "$pid" "$(adr 11)"
is "$status,$(jqr .error)" "409,profile_full" "a ninth link: 409 profile_full"

# ---- twenty members confirm at once: eight active, never more
pid3=$(new_profile "$(key 12)" "$(adr 12)")
members=(11 $(seq 13 31))
for i in "${members[@]}"; do
	prepare "$(key 12)" "$pid3" "$(adr "$i")"
	printf '%s %s %s\n' "$i" "$(jqr .linkId)" "$(jqr .intentDigest)" >> "$http_tmp/links3"
done
is "$(grep -c ' 0x' "$http_tmp/links3")" 20 "twenty pending links prepared (the count check is advisory)"
while read -r i l d; do
	node "$tools/siwx.mjs" fetch --key "$(key "$i")" --method POST --url "$URL$P/$pid3/wallet-links/$l/confirm" \
		--body "{\"intentDigest\":\"$d\"}" > "$http_tmp/c3.$i" &
done < "$http_tmp/links3"
wait
is "$(cat "$http_tmp"/c3.* | jq -r '.status' | sort | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' ')" "200:7 409:13 " \
	"twenty concurrent confirmations: seven pass, thirteen 409"
is "$(active "$pid3")" 8 "the profile has exactly eight active wallets"
is "$(sql "SELECT COUNT(DISTINCT slot) FROM profile_wallets WHERE profile_id = UNHEX(REPLACE('$pid3', '-', '')) AND state = 'active'")" 8 \
	"in eight distinct slots"

# ---- a smart wallet (ERC-1271, owner anvil #7) as a member, through the RPC
wallet() { node "$top/chain/wallet.mjs" --rpc "$RPC" --state "$STATE" "$@"; }
SW=$(wallet --owner-key $KEY7 --salt 1 --deploy | jq -r .wallet)
prepare "$S" "$pid2" "$SW"; l=$(jqr .linkId); d=$(jqr .intentDigest)
confirm $KEY7 "$pid2" "$l" "$d" --wallet "$SW"
is "$status,$(jqr .state),$(jqr .memberAccount)" "200,active,$(acct "$SW")" "an ERC-1271 wallet confirms its link: 200 active"

# ---- the RPC stopped: a smart wallet's confirmation fails closed, nothing changes
SW3=$(wallet --owner-key $KEY7 --salt 3 --deploy | jq -r .wallet)
prepare "$S" "$pid2" "$SW3"; l=$(jqr .linkId); d=$(jqr .intentDigest)
"$top/tools/stack" chain-stop >/dev/null
confirm $KEY7 "$pid2" "$l" "$d" --wallet "$SW3"
is "$status,$(jqr .error)" "503,signature_check_unavailable" "with the node down: 503"
is "$(active "$pid2"),$(sql "SELECT state FROM profile_wallets WHERE link_id = UNHEX(REPLACE('$l', '-', ''))")" "2,pending" 	"nothing changed: still two active, the link pending"
"$top/tools/stack" start >/dev/null
# A 503 says "try again shortly" (the check's budget, sigcheck_timeout_ms,
# can run out on a loaded machine while the node just restarted): a client
# tries again, and so does this, a few times at most.
n=0
while confirm $KEY7 "$pid2" "$l" "$d" --wallet "$SW3" && [ "$status" = 503 ] && [ $n -lt 10 ]; do
	n=$((n + 1)); sleep 0.2
done
is "$status,$(jqr .state)" "200,active" "with the node back: 200 active ($n answers 503 first)"
done_testing
