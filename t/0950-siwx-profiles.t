#!/usr/bin/env bash
# Sign-In-With-X in the gate, through the real stack (nginx, workers,
# MariaDB, anvil) with the reference client (@x402/extensions'
# sign-in-with-x, t/tools/siwx.mjs), on the first two SIWX rows: profile
# create and profile get. Without a proof: 402 with an empty accepts and a
# stored one-time challenge. A good proof passes once and the handler sees
# the account; replayed, expired, stale, wrong-domain, wrong-URI,
# wrong-chain, badly signed, cross-operation and cross-wallet proofs are
# refused with a clear error and a fresh challenge; one proof sent ten
# times at once passes once. ERC-1271 and EIP-6492 wallets sign in through
# the RPC; with the node stopped such a proof gets 503 and consumes
# nothing, while an EOA still passes. Each proof signs the request's body
# (its Request ID): the body swapped under a valid proof, or a Request ID
# left out or added where none is bound, is 400 request_mismatch and
# consumes nothing. Unused challenges are deleted two minutes after they
# expire, used ones a day after. Answers are checked against t/schemas.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/siwxbind.sh"
export WAYMARK_SEED=0
# The stack's scheduled tasks (profiles-prune among them) wait a day: the
# expiry checks below run the prune themselves, and one of the stack's own
# running between two of their steps deleted a challenge they still count.
export WAYMARK_PUBLICATIONS_INTERVAL=86400
chain_stack siwx 76
ok $? "a stack with a local chain starts"
WAYMARK_TEST_URL=$URL
tools=$top/t/tools
schemas=$top/t/schemas
KEY1=0x59c6995e998f97a5a0044966f0945389dc9e86dae88c7a8412f4603b6b78690d   # anvil #1
KEY2=0x5de4111afa1a4b94908f83103eb1f1706367c2e68ca870fc3fb9ecad4f382f4a   # anvil #2
KEY3=0x7c852118294e51e653712a81e05800f419141751be58f605c371e15141b007a6   # anvil #3
addr_of() { node -e 'const {privateKeyToAccount}=require(process.argv[1]);console.log(privateKeyToAccount(process.argv[2]).address)' "$tools/node_modules/viem/_cjs/accounts/index.js" "$1"; }
A1=$(addr_of $KEY1); A2=$(addr_of $KEY2); A3=$(addr_of $KEY3)
P=/api/v1/x402/profiles

valid() { # valid SCHEMA JSON DESCRIPTION
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
challenge_json() { header payment-required | base64 -d 2>/dev/null; }
nonce_of() { printf '%s' "$1" | base64 -d | jq -r '.extensions["sign-in-with-x"].info.nonce'; }
sign() { # sign KEY URL CHALLENGE [siwx.mjs options]: the reference client's proof
	local key=$1 url=$2 ch=$3; shift 3
	node "$tools/siwx.mjs" sign --key "$key" --url "$url" --challenge "$ch" "$@"
}
body_of() { printf '{"controllerAccount":"eip155:8453:%s"}' "$1"; }
create() { # create ACCOUNT [curl args]
	local a=$1; shift
	req POST $P -H 'Content-Type: application/json' --data-binary "$(body_of "$a")" "$@"
}
fresh() { create "$1"; header payment-required; }   # a new challenge for create
siwx_fetch() { # siwx_fetch KEY METHOD PATH [BODY] [options]: the whole exchange with the client
	local key=$1 m=$2 path=$3 b=$4; shift 4
	node "$tools/siwx.mjs" fetch --key "$key" --method "$m" --url "$URL$path" ${b:+--body "$b"} "$@"
}
refused() { # refused CODE DESCRIPTION: 402 with that error and a fresh, valid challenge
	check_error 402 "$1" "$2"
	valid error.json "$body" "$2: the error body is valid"
	valid siwx-challenge.json "$(challenge_json)" "$2: a fresh challenge comes with it"
}
used() { sql "SELECT used_at IS NOT NULL FROM siwx_challenges WHERE nonce = '$1'"; }

# ---- the challenge
create $A1
check_error 402 siwx_required "create without a proof"
valid error.json "$body" "the 402's body is a valid error"
ch=$(challenge_json)
valid siwx-challenge.json "$ch" "PAYMENT-REQUIRED decodes to a SIWX challenge (schema)"
is "$(jq -c '[.accepts, .resource.url, .extensions["sign-in-with-x"].info.domain, .extensions["sign-in-with-x"].info.uri]' <<<"$ch")" \
	"[[],\"$URL$P\",\"${URL#http://}\",\"$URL$P\"]" "empty accepts; domain and URI bound to this operation"
is "$(jq -r '.extensions["sign-in-with-x"].info | ((.expirationTime | sub("\\.000Z$"; "Z") | fromdate) - (.issuedAt | sub("\\.000Z$"; "Z") | fromdate))' <<<"$ch")" 300 \
	"the challenge expires five minutes after it is issued"
c1=$(header payment-required); n1=$(nonce_of "$c1")
is "$(sql "SELECT endpoint_id, domain, used_at IS NULL, HEX(uri_digest) = UPPER(SHA2('$URL$P', 256)) FROM siwx_challenges WHERE nonce = '$n1'")" \
	"$(printf 'x402.profiles.create\t%s\t1\t1' "${URL#http://}")" "its nonce is stored, bound to the row, domain and URI, unused"
create $A1
n1b=$(nonce_of "$(header payment-required)")
ok $([ -n "$n1b" ] && [ "$n1b" != "$n1" ] && echo 0 || echo 1) "each 402 issues a new nonce"

# ---- a good proof, once
proof1=$(sign $KEY1 "$URL$P" "$c1")
ok $? "the reference client answers the challenge"
create $A1 -H "SIGN-IN-WITH-X: $proof1"
is "$status,$(jqr .controllerAccount),$(jqr '.wallets | length'),$(jqr '.wallets[0].role'),$(jqr .discoveryMode)" \
	"201,eip155:8453:$A1,1,controller,private" "create with the proof: 201, the handler saw the signer as controller"
valid profile.json "$body" "the created profile (schema)"
is "$(header cache-control)" "private, no-store" "profile answers are not stored by caches"
id=$(jqr .profileId)
is "$(sql "SELECT used_at IS NOT NULL, HEX(account), LENGTH(proof_digest), signature_kind FROM siwx_challenges WHERE nonce = '$n1'")" \
	"$(printf '1\t%s\t32\teoa' "$(tr '[:lower:]' '[:upper:]' <<<"${A1#0x}")")" \
	"the challenge is consumed, with the account, the proof's digest and its kind"
is "$(sql "SELECT COUNT(*) FROM information_schema.columns WHERE table_name = 'siwx_challenges' AND column_name IN ('signature', 'proof')")" 0 \
	"no column keeps a proof or a signature"
create $A1 -H "SIGN-IN-WITH-X: $proof1"
refused siwx_replayed "the same proof again (replay)"
res=$(siwx_fetch $KEY1 POST $P "$(body_of $A1)")
is "$(jq -r '[.first.status, .first.error, .status, .body.profileId] | join(",")' <<<"$res")" "402,siwx_required,200,$id" \
	"create again through the client's whole exchange: 200, the same profile (idempotent)"
valid profile.json "$(jq -c .body <<<"$res")" "the existing profile (schema)"

# ---- the proof signs the body: a relay cannot swap it
swap_refused $KEY1 POST $P "$(body_of $A1)" "$(body_request_id "$(body_of $A1)")" "$(body_of $A2)" \
	"$(body_request_id "$(body_of $A2)")" "create"
is "$(sql "SELECT COUNT(*) FROM profiles WHERE controller = X'${A2#0x}'")" 0 "  no profile for the swapped controller"
bind_send POST $P "{ \"controllerAccount\": \"eip155:8453:$A1\" }" -H "SIGN-IN-WITH-X: $hdr"
is "$status,$(jqr .profileId)" "200,$id" \
	"the same proof with the JSON it signed, spaced otherwise: 200 (the challenge was not consumed by the 400)"
c=$(fresh $A1)
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --drop requestId)"
is "$status,$(jqr .error)" "400,request_mismatch" "a create proof without the Request ID: 400 request_mismatch"
req GET $P/$id; cg=$(header payment-required)
is "$(printf '%s' "$cg" | base64 -d | jq -r '.extensions["sign-in-with-x"].info.requestId')" null \
	"a read's challenge binds no Request ID (its URI is the whole request)"
req GET $P/$id -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P/$id" "$cg" --set requestId=0x01)"
is "$status,$(jqr .error)" "400,request_mismatch" "a read's proof that signed a Request ID anyway: 400"
req GET $P/$id -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P/$id" "$cg")"
is "$status,$(jqr .profileId)" "200,$id" "  its challenge stayed unused: the plain proof passes"

# ---- get: the controller only
res=$(siwx_fetch $KEY1 GET $P/$id "")
is "$(jq -r '[.status, .body.profileId, .body.wallets[0].accountId] | join(",")' <<<"$res")" "200,$id,eip155:8453:$A1" \
	"get by the controller: 200 with its active wallets"
valid profile.json "$(jq -c .body <<<"$res")" "get's answer (schema)"
res=$(siwx_fetch $KEY2 GET $P/$id "")
is "$(jq -r '[.status, .body.error] | join(",")' <<<"$res")" "404,not_found" "get by another wallet: 404, as for no profile"
res=$(siwx_fetch $KEY1 GET $P/00000000-0000-4000-8000-000000000000 "")
is "$(jq -r '[.status, .body.error] | join(",")' <<<"$res")" "404,not_found" "get of an unknown profile: 404"
req GET $P/not-a-uuid
is "$status,$(jqr .field)" "400,profileId" "a profileId that is no UUID: 400 before any challenge"
res=$(siwx_fetch $KEY1 GET "$P/$(printf '%s' "$id" | tr 'a-f' 'A-F')" "")
is "$(jq -r '[.status, .body.profileId] | join(",")' <<<"$res")" "200,$id" \
	"get by the controller with the ID in uppercase: 200, the same profile, its ID in lowercase"

# ---- cross-wallet: a valid proof by another wallet than the body names
c=$(fresh $A1)
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY2 "$URL$P" "$c")"
refused siwx_wrong_account "A2's proof for a profile whose controllerAccount is A1"
is "$(jqr .field)" controllerAccount "it names controllerAccount"
is "$(sql "SELECT COUNT(*) FROM profiles")" 1 "no profile was made for either"

# ---- refusals before any signature check; none consumes the challenge
c=$(fresh $A1); n=$(nonce_of "$c")
req GET $P/$id -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c")"
refused siwx_wrong_uri "a create proof presented to get (another operation)"
req GET $P/$id -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P/$id" "$c" --set "uri=$URL$P/$id" --drop resources)"
refused siwx_wrong_nonce "a proof naming get's URI with a nonce issued for create"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --set domain=evil.example)"
refused siwx_wrong_domain "a proof for another domain"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --set "uri=$URL$P?x=1")"
refused siwx_wrong_uri "a proof for another URI (a query added)"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --set chainId=eip155:1)"
refused siwx_wrong_chain "a proof for Ethereum mainnet (eip155:1)"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --set chainId=eip155:84532)"
refused siwx_wrong_chain "a proof for Base Sepolia"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --set "issuedAt=$(date -u -d '-10 min' +%Y-%m-%dT%H:%M:%S.000Z)")"
refused siwx_stale "a proof claiming to be issued ten minutes ago"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c" --wallet $A3)"
refused siwx_bad_signature "A1's signature on a proof naming A3"
create $A1 -H "SIGN-IN-WITH-X: eyJub3QiOiJhIHByb29mIn0="
refused siwx_malformed "a header that is no proof"
create $A1 -H "SIGN-IN-WITH-X: %%%"
refused siwx_malformed "a header that is not base64"
is "$(used "$n")" 0 "after all these the challenge is still unused"
# Three proofs whose signature does not verify burn a challenge.
c2=$(fresh $A1); n2=$(nonce_of "$c2")
for i in 1 2 3; do
	create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c2" --wallet $A3)"
	is "$status,$(jqr .error)" "402,siwx_bad_signature" "bad signature $i of 3 on one challenge: 402"
done
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c2")"
refused siwx_replayed "then even a valid proof on that challenge: burned"
like "$(jqr .message)" "burned after repeated" "  saying why"
is "$(sql "SELECT failures, used_at IS NULL FROM siwx_challenges WHERE nonce = '$n2'")" "3	1" "  the challenge counted 3 failures, never used"
create $A1 -H "SIGN-IN-WITH-X: $(sign $KEY1 "$URL$P" "$c")"
is "$status,$(jqr .profileId)" "200,$id" "and its own proof still passes: 200"

# ---- expiry: five minutes pass (the row's clock moved back)
c=$(fresh $A1); n=$(nonce_of "$c")
p=$(sign $KEY1 "$URL$P" "$c")
sql "UPDATE siwx_challenges SET issued_at = issued_at - 301, expires_at = expires_at - 301 WHERE nonce = '$n'"
create $A1 -H "SIGN-IN-WITH-X: $p"
refused siwx_expired "a proof of a challenge issued more than five minutes ago"
is "$(used "$n")" 0 "the expired challenge was not used"

# ---- short-lived: unused challenges go two minutes after their expiry, used ones a day after
prune() { WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" profiles-prune; }
stored() { sql "SELECT COUNT(*) FROM siwx_challenges WHERE nonce = '$1'"; }
nu=$(nonce_of "$(fresh $A1)"); nr=$(nonce_of "$(fresh $A1)")
sql "UPDATE siwx_challenges SET expires_at = UNIX_TIMESTAMP() - 121 WHERE nonce IN ('$nu', '$n1')"
sql "UPDATE siwx_challenges SET expires_at = UNIX_TIMESTAMP() - 60 WHERE nonce = '$nr'"
is "$(stored "$nu"),$(stored "$nr"),$(used "$n1")" "1,1,1" "an unused challenge expired 121 s ago, one 60 s ago and a used one"
like "$(prune)" '^sign-in challenges: [0-9]+ deleted$' "waymark profiles-prune reports the challenges it deleted"
is "$(stored "$nu"),$(stored "$nr"),$(stored "$n1")" "0,1,1" \
	"the unused one past two minutes is gone; the one just expired and the used one stay"
sql "UPDATE siwx_challenges SET expires_at = UNIX_TIMESTAMP() - 86401 WHERE nonce = '$n1'"
prune >/dev/null
is "$(stored "$n1")" 0 "a used challenge is deleted a day after its expiry"
is "$(sql "SELECT COUNT(*) FROM siwx_challenges WHERE used_at IS NULL AND expires_at < UNIX_TIMESTAMP() - 120")" 0 \
	"no unused challenge two minutes past its expiry is left"

# ---- one proof, ten requests at once: one passes
c=$(fresh $A2); n=$(nonce_of "$c")
p=$(sign $KEY2 "$URL$P" "$c")
for i in $(seq 10); do
	curl -s -o /dev/null -w '%{http_code}\n' -X POST -H 'Content-Type: application/json' \
		-H "SIGN-IN-WITH-X: $p" --data-binary "$(body_of $A2)" "$URL$P" > "$http_tmp/par.$i" &
done
wait
is "$(cat "$http_tmp"/par.* | sort | uniq -c | awk '{print $2 ":" $1}' | tr '\n' ' ')" "201:1 402:9 " \
	"ten concurrent uses of one proof: one 201, nine 402"
is "$(sql "SELECT COUNT(*) FROM profiles WHERE controller = X'${A2#0x}'")" 1 "one profile for A2"

# ---- contract wallets through the RPC
wallet() { node "$top/chain/wallet.mjs" --rpc "$RPC" --state "$STATE" "$@"; }
code_at() { rpc eth_getCode "[\"$1\",\"latest\"]" | tr -d '"'; }
sw=$(wallet --owner-key $KEY7 --salt 1 --deploy); SW=$(jq -r .wallet <<<"$sw")
res=$(siwx_fetch $KEY7 POST $P "$(body_of "$SW")" --wallet "$SW")
is "$(jq -r '[.status, .body.controllerAccount] | join(",")' <<<"$res")" "201,eip155:8453:$SW" \
	"an ERC-1271 smart wallet signs in (owner's signature, checked by the wallet through the RPC): 201"
is "$(sql "SELECT signature_kind FROM siwx_challenges WHERE account = X'${SW#0x}'")" erc1271 "recorded as erc1271"
res=$(siwx_fetch $KEY8 POST $P "$(body_of "$SW")" --wallet "$SW")
is "$(jq -r '[.status, .body.error] | join(",")' <<<"$res")" "402,siwx_bad_signature" "a stranger's key for that wallet: 402 bad signature"
cf=$(wallet --owner-key $KEY7 --salt 2); CF=$(jq -r .wallet <<<"$cf")
res=$(siwx_fetch $KEY7 POST $P "$(body_of "$CF")" --wallet "$CF" --6492 "$(jq -r '.factory + ":" + .factoryCalldata' <<<"$cf")")
is "$(jq -r '[.status, .body.controllerAccount] | join(",")' <<<"$res")" "201,eip155:8453:$CF" \
	"a wallet not deployed yet signs in with EIP-6492: 201"
is "$(sql "SELECT signature_kind FROM siwx_challenges WHERE account = X'${CF#0x}'"),$(code_at "$CF")" "erc6492,0x" \
	"recorded as erc6492; the wallet is still not deployed"

# ---- the node stopped: contract wallets fail closed, consume nothing; EOAs pass
sw3=$(wallet --owner-key $KEY7 --salt 3 --deploy); SW3=$(jq -r .wallet <<<"$sw3")
c=$(fresh "$SW3"); n=$(nonce_of "$c")
p=$(sign $KEY7 "$URL$P" "$c" --wallet "$SW3")
ce=$(fresh $A3)
pe=$(sign $KEY3 "$URL$P" "$ce")
"$top/tools/stack" chain-stop >/dev/null
ok $(! curl -s -m 2 "$RPC" >/dev/null && echo 0 || echo 1) "anvil is stopped"
create "$SW3" -H "SIGN-IN-WITH-X: $p"
check_error 503 signature_check_unavailable "an ERC-1271 proof with the node down"
is "$(header payment-required)" "" "no challenge with the 503"
is "$(used "$n"),$(sql "SELECT COUNT(*) FROM profiles WHERE controller = X'${SW3#0x}'")" "0,0" \
	"nothing consumed, no profile"
create $A3 -H "SIGN-IN-WITH-X: $pe"
is "$status,$(jqr .controllerAccount)" "201,eip155:8453:$A3" "an EOA proof with the node down: checked locally, 201"
"$top/tools/stack" start >/dev/null
create "$SW3" -H "SIGN-IN-WITH-X: $p"
is "$status,$(jqr .controllerAccount)" "201,eip155:8453:$SW3" "with the node back, the same proof passes: 201"

ok $(! grep -rqF "${p:20:40}" "$WAYMARK_VAR/log/" 2>/dev/null && echo 0 || echo 1) "no proof in the logs"
done_testing
