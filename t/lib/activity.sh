# t/lib/activity.sh: profile activity tests (t/0954, t/0955), beside a
# chain_stack (t/lib/chain.sh), t/lib/http.sh and t/lib/x402.sh. Every
# signed call goes through the reference SIWX client (t/tools/siwx.mjs).
#   activity_stack NAME OFFSET  the stack on OFFSET, its facilitator on
#                               OFFSET + 1 and a catalog on OFFSET + 2 that
#                               lists $RURL with an offer signed by KEY0
#                               (the endpoint: the route's receipt signer and
#                               payTo, and the stack's own payTo, so the
#                               stack's paid reads pay it as $RURL would);
#                               ACTIVITY_LISTINGS adds more (--listing URL KEY ...)
#   acct ADDR                   eip155:8453:ADDR
#   addr_of KEY                 the key's EIP-55 address
#   sx KEY METHOD PATH [BODY] [siwx.mjs options]
#                               one signed call: $status, $body, $proof (the header sent)
#   new_profile KEY             a profile whose controller is KEY; prints its ID
#   link PID CKEY MKEY          prepare by the controller, confirm by the member
#   go_public PID CKEY          preview, then PUT discovery public_all with its digest
#   go_private PID CKEY         PUT discovery private
#   publish KEY PID EVIDENCE    POST .../activity by KEY's wallet: $status, $body
#   paid_read KEY               a real x402 payment (t/tools/pay.mjs, the x402 client) for the
#                               stack's paid route directory; prints the settlement transaction
#   facts [PID]                 stored facts (of PID)
#   valid SCHEMA JSON DESC      JSON Schema check (t/tools/validate.mjs)
tools=$top/t/tools
schemas=$top/t/schemas
KEY0=0xac0974bec39a17e36ba4a6b4d238ff944bacb478cbed5efcae784d7bf4f2ff80
ADDR0=0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266
RURL=https://api.example.com/v1/forecast
ROUTE=0x4fa0fcdb54475d7e8c02c5fd1e4ffac0f2b5997975e9be2988a1d5759f8e6af0   # GET $RURL
P=/api/v1/x402/profiles

activity_stack() {
	fport=$((WAYMARK_TEST_PORT_BASE + $2 + 1))
	cport=$((WAYMARK_TEST_PORT_BASE + $2 + 2))
	export WAYMARK_SEED=0 WAYMARK_CONFIRMATIONS=${WAYMARK_CONFIRMATIONS:-0}
	export WAYMARK_FACILITATOR_URL=http://127.0.0.1:$fport WAYMARK_PAY_TO=$ADDR0
	export WAYMARK_CATALOG_URL=http://127.0.0.1:$cport
	: > "$http_tmp/fixture.out"
	# shellcheck disable=SC2086
	node "$tools/catalog-fixture.mjs" "$cport" 0 --listing "$RURL" "$KEY0" ${ACTIVITY_LISTINGS:-} --only \
		> "$http_tmp/fixture.out" &
	cpid=$!
	local n=0
	until grep -q ready "$http_tmp/fixture.out" 2>/dev/null || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
	chain_stack "$1" "$2"
	ok $? "a stack with a local chain starts"
	trap 'kill $fpid $cpid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
	WAYMARK_TEST_URL=$URL
	facilitator_start
	ok $? "the x402 facilitator listens"
	WAYMARK_CONFIG=$WAYMARK_VAR/waymark.conf "$WAYMARK_BUILD/waymark" catalog-sync >/dev/null
	ok $? "the catalog listing $RURL with the endpoint's signed offer is synced"
}

acct() { printf 'eip155:8453:%s' "$1"; }

addr_of() { node "$tools/addr.mjs" "$1"; }

sx() {
	local key=$1 m=$2 path=$3 b=$4 res; shift 4
	res=$(node "$tools/siwx.mjs" fetch --key "$key" --method "$m" --url "$URL$path" ${b:+--body "$b"} "$@")
	# One jq for the three (a process costs more than the parse): the body
	# as jq -c prints it, a line each.
	status="" body="" proof=""
	{ IFS= read -r status; IFS= read -r body; IFS= read -r proof; } \
		< <(jq -r '(.status | tostring), (.body | tojson), (.header | if type == "string" then . else tojson end)' <<<"$res" 2>/dev/null)
}

new_profile() { sx "$1" POST $P "{\"controllerAccount\":\"$(acct "$(addr_of "$1")")\"}"; jqr .profileId; }

link() {
	local l d
	sx "$2" POST "$P/$1/wallet-links" "{\"memberAccount\":\"$(acct "$(addr_of "$3")")\"}"
	l=$(jqr .linkId); d=$(jqr .intentDigest)
	sx "$3" POST "$P/$1/wallet-links/$l/confirm" "{\"intentDigest\":\"$d\"}"
	[ "$status" = 200 ]
}

go_public() {
	sx "$2" GET "$P/$1/discovery/preview" ""
	sx "$2" PUT "$P/$1/discovery" "{\"discoveryMode\":\"public_all\",\"previewDigest\":\"$(jqr .previewDigest)\"}"
	[ "$status" = 200 ]
}

go_private() {
	sx "$2" PUT "$P/$1/discovery" '{"discoveryMode":"private"}'
	[ "$status" = 200 ]
}

publish() {
	sx "$1" POST "$P/$2/activity" "$(jq -cn --arg a "$(acct "$(addr_of "$1")")" --argjson e "$3" '{accountId: $a, evidence: $e}')"
}

paid_read() {
	node "$tools/pay.mjs" --key "$1" --url "$URL/api/v1/x402/routes" | jq -r '.paymentResponse.transaction // "none"'
}

facts() {
	if [ -n "${1:-}" ]; then
		sql "SELECT COUNT(*) FROM profile_activity WHERE profile_id = UNHEX(REPLACE('$1', '-', ''))"
	else
		sql "SELECT COUNT(*) FROM profile_activity"
	fi
}

valid() {
	local v; v=$(printf '%s' "$2" | node "$tools/validate.mjs" "$schemas/$1" 2>&1)
	is "$v" valid "$3"
}
