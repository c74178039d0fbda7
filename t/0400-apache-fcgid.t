#!/usr/bin/env bash
# INSTALL section 5 for real: a private Apache (ServerRoot under var/) with
# mod_fcgid and the directives INSTALL gives, serving the same worker
# binary against the test stack's MariaDB. mod_fcgid starts and supervises
# the workers; every path reaches them, so they route and reject alone.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
[ -x /usr/sbin/apache2 ] && [ -f /usr/lib/apache2/modules/mod_fcgid.so ] || skip_all "apache2/mod_fcgid not installed"
root=$WAYMARK_VAR-apache
port=$((WAYMARK_TEST_PORT_BASE + 1))
url=http://127.0.0.1:$port
rm -rf "$root"; mkdir -p "$root/logs" "$root/run" "$root/fcgid"
# Apache will not run workers as root: as root, they run as nobody (the
# operator's dedicated user in INSTALL), with a config copy it can read.
conf=$WAYMARK_VAR/waymark.conf
user_lines=""
if [ "$(id -u)" = 0 ]; then
	user_lines="User nobody
Group nogroup"
	cp "$WAYMARK_VAR/waymark.conf" "$root/waymark.conf"
	chmod 644 "$root/waymark.conf"
	conf=$root/waymark.conf
	chown nobody:nogroup "$root/fcgid"
	chmod 755 "$root"
fi
cat > "$root/httpd.conf" <<CONF
ServerRoot $root
ServerName 127.0.0.1
Listen 127.0.0.1:$port
PidFile $root/run/httpd.pid
ErrorLog $root/logs/error.log
LogLevel warn
$user_lines
LoadModule mpm_event_module /usr/lib/apache2/modules/mod_mpm_event.so
LoadModule authz_core_module /usr/lib/apache2/modules/mod_authz_core.so
LoadModule alias_module /usr/lib/apache2/modules/mod_alias.so
LoadModule fcgid_module /usr/lib/apache2/modules/mod_fcgid.so
FcgidIPCDir $root/fcgid
FcgidProcessTableFile $root/fcgid/table
# The directives of INSTALL section 5:
FcgidInitialEnv WAYMARK_CONFIG $conf
FcgidMaxProcessesPerClass 8
FcgidMinProcessesPerClass 2
FcgidMaxRequestsPerProcess 0
FcgidMaxRequestLen 6291456
FcgidIOTimeout 60
<Location />
    SetHandler fcgid-script
</Location>
Alias / $WAYMARK_BUILD/waymark-fcgi/
<Directory $WAYMARK_BUILD>
    <Files waymark-fcgi>
        Options +ExecCGI
        Require all granted
    </Files>
</Directory>
CONF
for v in ASAN_OPTIONS UBSAN_OPTIONS; do
	[ -n "${!v:-}" ] && echo "FcgidInitialEnv $v ${!v}" >> "$root/httpd.conf"
done
trap '[ -f "$root/run/httpd.pid" ] && kill -TERM "$(cat "$root/run/httpd.pid")" 2>/dev/null; sleep 0.5' EXIT
apache2 -f "$root/httpd.conf" -k start 2>"$root/logs/start.log"
ok $? "apache starts with the INSTALL configuration"

get() { status=$(curl -s -o "$root/body" -w '%{http_code}' "$@"); body=$(cat "$root/body"); }
n=0; until get "$url/health" && [ "$status" = 200 ] || [ $n -ge 50 ]; do n=$((n + 1)); sleep 0.2; done
is "$status" 200 "GET /health through Apache + mod_fcgid"
is "$(printf '%s' "$body" | jq -r .database.reachable)" true "the worker reached MariaDB"
get "$url/nowhere"
is "$status" 404 "unknown path: the worker's 404"
is "$(printf '%s' "$body" | jq -r .error)" not_found "with the JSON error"
get -X POST "$url/health"
is "$status" 405 "wrong method: the worker's 405"
get -H 'Content-Type: application/json' --data-binary '{"requests":[{"method":"GET","path":"/health"}]}' \
	"$url/api/v1/workflows/cost-preview"
is "$status" 200 "a JSON POST through Apache"
is "$(printf '%s' "$body" | jq -r .steps[0].resourceId)" health "answered by the dispatch table"
get -H 'Content-Type: application/json' --data-binary '{"a":1,"a":2}' "$url/api/v1/workflows/cost-preview"
is "$status" 400 "duplicate keys rejected behind Apache too"
get "$url/health?x=1"
is "$status" 400 "query parameters are validated behind Apache too"
done_testing
