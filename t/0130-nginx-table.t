#!/usr/bin/env bash
# nginx's locations are generated from the dispatch table: the running
# config holds exactly `waymark routes nginx`, and every row's path reaches
# a worker (nginx's own 404 says "No endpoint has this path." without the
# path; the worker never answers 404 for a row's own path).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/http.sh"
tool=$WAYMARK_BUILD/waymark

diff <("$tool" -c "$WAYMARK_VAR/waymark.conf" routes nginx) "$WAYMARK_VAR/nginx/waymark-routes.conf" >/dev/null
ok $? "the running nginx routes file is the table's generated output"
rows=$("$tool" routes list | wc -l)
locs=$(grep -c '^location ' "$WAYMARK_VAR/nginx/waymark-routes.conf")
paths=$("$tool" routes list | cut -f2 | sort -u | wc -l)
is "$locs" "$paths" "one nginx location per distinct table path ($rows rows)"

while IFS=$'\t' read -r method pattern id auth price bodymax rate; do
	path=$(printf '%s' "$pattern" | sed 's/{[^}]*}/x/g')
	args=()
	[ "$method" = POST ] || [ "$method" = PUT ] || [ "$method" = PATCH ] &&
		args=(-H 'Content-Type: application/json' --data-binary '{}')
	req "$method" "$path" "${args[@]}"
	ok $([ "$status" != 404 ] || [ "$(jqr .error)" != not_found ] && echo 0 || echo 1) \
		"$method $pattern ($id) reaches a worker (status $status)"
	ok $([ "$status" != 500 ] && [ "$status" != 503 ] && echo 0 || echo 1) \
		"$method $pattern answers without an internal error (auth kind $auth is implemented)"
	grep -q "^location .*# .*$method" "$WAYMARK_VAR/nginx/waymark-routes.conf"
	ok $? "$method $pattern is listed in the nginx locations"
done < <("$tool" routes list)
done_testing
