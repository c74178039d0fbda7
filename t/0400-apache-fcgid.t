#!/usr/bin/env bash
# INSTALL section 5 for real: a private Apache (its own ServerRoot) with
# mod_fcgid and the directives INSTALL gives, serving the same worker
# binary against the test stack's MariaDB. mod_fcgid starts and supervises
# the workers; every path reaches them, so they route and reject alone.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
[ -x /usr/sbin/apache2 ] && [ -f /usr/lib/apache2/modules/mod_fcgid.so ] || skip_all "apache2/mod_fcgid not installed"
port=$((WAYMARK_TEST_PORT_BASE + 1))
url=http://127.0.0.1:$port
conf=$WAYMARK_VAR/waymark.conf
bindir=$WAYMARK_BUILD
logdir=$WAYMARK_VAR/log
user_lines=""
if [ "$(id -u)" != 0 ]; then
	root=$WAYMARK_VAR-apache
	rm -rf "$root"; mkdir -p "$root"
else
	# Apache will not run workers as root: as root, they run as nobody (the
	# operator's dedicated user in INSTALL). nobody may not be able to reach
	# the checkout at all (a clone in /root, mode 700, is Debian's default),
	# so Apache's whole world is built where nobody can: a fresh folder with
	# a copy of the worker, a config copy of nobody's group, and the test database's
	# socket hard-linked beside them (a hard link needs one filesystem: the
	# first candidate folder on the socket's filesystem is used).
	# (A socket tools/stack put where its run_user can reach it, outside
	# the checkout, nobody reaches as it is: then it needs no link.)
	sock=$(grep -E '^db_socket *=' "$conf" | sed 's/^db_socket *= *//')
	root="" dbsock=""
	setpriv --reuid=nobody --regid=nogroup --clear-groups test -w "$sock" && dbsock=$sock
	for base in /tmp /var/tmp /dev/shm; do
		d=$(mktemp -d "$base/waymark-apache.XXXXXX" 2>/dev/null) || continue
		if [ -n "$dbsock" ]; then root=$d; break; fi
		if ln "$sock" "$d/mysqld.sock" 2>/dev/null; then root=$d; dbsock=$d/mysqld.sock; break; fi
		rm -rf "$d"
	done
	[ -n "$root" ] || skip_all "no folder that nobody can reach shares a filesystem with $sock"
	chmod 755 "$root"
	user_lines="User nobody
Group nogroup"
	mkdir -p "$root/bin"
	cp "$WAYMARK_BUILD/waymark-fcgi" "$root/bin/waymark-fcgi"
	bindir=$root/bin
	# Readable by nobody's group only: a config file others can read is refused.
	sed "s|^db_socket *=.*|db_socket = $dbsock|" "$WAYMARK_VAR/waymark.conf" > "$root/waymark.conf"
	chgrp nogroup "$root/waymark.conf"
	chmod 640 "$root/waymark.conf"
	conf=$root/waymark.conf
	logdir=$root/logs
fi
mkdir -p "$root/logs" "$root/run" "$root/fcgid"
[ "$(id -u)" = 0 ] && chown nobody:nogroup "$root/fcgid" && chmod 1777 "$root/logs"
# Sanitizer reports of the workers go to a folder they can write; they are
# copied back into the run's log folder at the end, where run-tests looks.
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
FcgidInitialEnv WAYMARK_WORKER_THREADS 1
FcgidMaxProcessesPerClass 64
FcgidMinProcessesPerClass 2
FcgidMaxRequestsPerProcess 0
FcgidMaxRequestLen 6291456
FcgidIOTimeout 80
<Location />
    SetHandler fcgid-script
</Location>
Alias / $bindir/waymark-fcgi/
<Directory $bindir>
    <Files waymark-fcgi>
        Options +ExecCGI
        Require all granted
    </Files>
</Directory>
CONF
for v in ASAN_OPTIONS UBSAN_OPTIONS TSAN_OPTIONS; do
	[ -n "${!v:-}" ] && echo "FcgidInitialEnv $v ${!v//$WAYMARK_VAR\/log/$logdir}" >> "$root/httpd.conf"
done
cleanup() {
	if [ -f "$root/run/httpd.pid" ]; then
		local pid; pid=$(cat "$root/run/httpd.pid")
		kill -TERM "$pid" 2>/dev/null
		for _ in $(seq 50); do kill -0 "$pid" 2>/dev/null || break; sleep 0.1; done
	fi
	if [ "$logdir" != "$WAYMARK_VAR/log" ]; then
		cp "$logdir"/asan.* "$logdir"/ubsan.* "$logdir"/tsan.* "$WAYMARK_VAR/log/" 2>/dev/null
		cp "$root/logs/error.log" "$WAYMARK_VAR/log/apache-error.log" 2>/dev/null
		rm -rf "$root"
	fi
}
trap cleanup EXIT
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
