# t/lib/tap.sh: TAP for the shell tests. Source it; end with done_testing.
# Every assertion prints one line; failures add a diagnostic on stderr,
# which prove shows without -v (as Test::More does).
tap_n=0
tap_failed=0

ok() { # ok <exit-status-or-0/1> <description>
	local cond=$1; shift
	tap_n=$((tap_n + 1))
	if [ "$cond" = 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

is() { # is <got> <want> <description>
	local got=$1 want=$2; shift 2
	if [ "$got" = "$want" ]; then ok 0 "$@"; else
		ok 1 "$@"
		printf '#   got:  %s\n#   want: %s\n' "$got" "$want" >&2
	fi
}

is_json() { # is_json <got-json> <want-json> <description>: the same JSON value (keys in any order)
	local got=$1 want=$2; shift 2
	if [ "$(jq -n --argjson g "$got" --argjson w "$want" '$g == $w' 2>/dev/null)" = true ]; then ok 0 "$@"; else
		ok 1 "$@"
		printf '#   got:  %s\n#   want: %s\n' "$got" "$want" >&2
	fi
}

like() { # like <got> <extended-regex> <description>
	local got=$1 re=$2 m=1; shift 2
	# grep -E's meaning: some line of got matches (none when got is empty).
	# One line is matched by bash itself (the same regex library, no
	# process); several lines by grep, line by line.
	if [[ -n $got && $got != *$'\n'* && $re != *$'\n'* ]]; then
		[[ $got =~ $re ]] && m=0
	else
		printf '%s' "$got" | grep -Eq -- "$re" && m=0
	fi
	if [ "$m" = 0 ]; then ok 0 "$@"; else
		ok 1 "$@"
		printf '#   got:  %s\n#   want match: %s\n' "$got" "$re" >&2
	fi
}

# A jq filter that sorts the keys of every object, as jq -S does: the
# suite's jq is gojq (tools/run-tests), which always sorts and has no -S,
# while a file run by hand may meet jq 1.6, which keeps the input's order.
SORTED='walk(if type == "object" then to_entries | sort_by(.key) | from_entries else . end)'

# jq_in_order ARGS...: jq 1.6 itself, which keeps an object's keys in the
# order of the text, for a test of that order (keys_unsorted); gojq, the
# suite's jq, sorts them.
jq_in_order() { command -p jq "$@"; }

diag() { printf '# %s\n' "$*"; }

# The suite's HTTP builtin (tools/wmsh.c; docs/ARCHITECTURE.md, Test
# suite): a request in the test's own shell, with no process started and
# the connection kept (t/lib/http.sh's req, t/lib/chain.sh's rpc). Without
# it (a build that has none) curl makes the same requests.
wm_builtins=""
if [ -f "${WAYMARK_BUILD:-}/wmsh.so" ] && enable -f "$WAYMARK_BUILD/wmsh.so" wm_http 2>/dev/null; then
	wm_builtins=1
fi
# wreq METHOD URL [curl args...]: one request; sets $status (000 when no
# answer came), $body and $headers (without CR), as t/lib/http.sh's req.
wreq() {
	local method=$1 url=$2 t; shift 2
	if [ -n "$wm_builtins" ]; then
		wm_http "$method" "$url" "$@"
		[ $? = 125 ] || return 0         # an option the builtin does not take: curl
	fi
	t=$(mktemp -d) || return 1
	status=$(curl -s -o "$t/body" -D "$t/headers" -w '%{http_code}' -X "$method" "$@" "$url")
	body=$(<"$t/body")
	headers=$(<"$t/headers")
	headers=${headers//$'\r'/}
	rm -rf "$t"
}
# db_query DEFAULTS-FILE QUERY: one query as root, rows tab-separated (the sql helpers).
db_query() { mariadb --defaults-file="$1" -uroot -N -B -e "$2"; }

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
