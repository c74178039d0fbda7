# t/lib/siwxbind.sh: the request binding of sign-in rows (docs/PROTOCOL.md,
# Sign-In-With-X, request binding), beside t/lib/tap.sh and t/lib/http.sh.
# Needs $tools (t/tools) and $URL (the stack). The digest is computed here
# by t/tools/jcs-digest.mjs, independently of the service.
#   body_request_id JSON      0x + SHA-256 of JSON's RFC 8785 canonical form
#   bind_send METHOD PATH BODY [curl args]
#                             one call with BODY as application/json
#   swap_refused KEY METHOD PATH BODY ID SWAPPED SWAPPED_ID DESC
#                             a challenge for BODY carries Request ID ID; the
#                             reference client (t/tools/siwx.mjs) signs it
#                             for KEY; SWAPPED sent with that valid proof is
#                             400 request_mismatch, with no challenge, and
#                             the message names SWAPPED_ID, its own binding
#                             (3 tests). $hdr keeps the proof, still unused.

body_request_id() { printf '0x%s' "$(printf '%s' "$1" | node "$tools/jcs-digest.mjs" | sed 's/^sha256://')"; }

bind_send() {
	local m=$1 path=$2; printf '%s' "$3" > "$http_tmp/bind-body"; shift 3
	req "$m" "$path" -H 'Content-Type: application/json' --data-binary "@$http_tmp/bind-body" "$@"
}

swap_refused() {
	local key=$1 m=$2 path=$3 b=$4 want=$5 swapped=$6 swapped_want=$7 what=$8 ch
	bind_send "$m" "$path" "$b"
	ch=$(header payment-required)
	is "$status,$(printf '%s' "$ch" | base64 -d | jq -r '.extensions["sign-in-with-x"].info.requestId')" "402,$want" \
		"$what: the challenge's Request ID binds the body"
	hdr=$(node "$tools/siwx.mjs" sign --key "$key" --url "$URL$path" --challenge "$ch")
	bind_send "$m" "$path" "$swapped" -H "SIGN-IN-WITH-X: $hdr"
	is "$status,$(jqr .error),$(header payment-required)" "400,request_mismatch," \
		"$what: its valid proof sent with a swapped body: 400 request_mismatch"
	like "$(jqr .message)" "$swapped_want" "  the message names the Request ID a proof of that body carries"
}
