# t/lib/http.sh: HTTP helpers for the stack tests. Needs WAYMARK_TEST_URL
# (set by tools/run-tests, e.g. http://127.0.0.1:10100).
#
#   req METHOD PATH [curl args...]   sets $status, $body and $headers
#   (wreq METHOD URL, in t/lib/tap.sh, is req with a whole URL)
#   jqr FILTER                       jq -r FILTER on $body
#   header NAME                      the value of a response header
#   check_error STATUS CODE DESC     asserts status, JSON error code and a message
: "${WAYMARK_TEST_URL:?run the stack tests through make test}"
http_tmp=$(mktemp -d)
trap 'rm -rf "$http_tmp"' EXIT

req() {
	local method=$1 path=$2; shift 2
	wreq "$method" "$WAYMARK_TEST_URL$path" "$@"
}

jqr() { jq -r "$1" <<<"$body" 2>/dev/null; }

# The first header NAME (any case), without its name and the spaces after the colon.
header() {
	local line want=${1,,}:
	while IFS= read -r line; do
		if [[ ${line,,} == "$want"* ]]; then
			line=${line#*:}
			printf '%s\n' "${line#"${line%%[! ]*}"}"
			return 0
		fi
	done <<<"$headers"
}

check_error() { # check_error STATUS CODE DESCRIPTION
	# .error and .message as jqr prints them, from one jq.
	local both
	both=$(jq -r '[.error, .message] | map(if type == "string" then . else tojson end) | join("\u001f")' \
		<<<"$body" 2>/dev/null)
	is "$status" "$1" "$3: status $1"
	is "${both%%$'\x1f'*}" "$2" "$3: error code $2"
	like "${both#*$'\x1f'}" '^.{10,}$' "$3: has a message"
	is "$(header content-type)" "application/json" "$3: JSON content type"
}
