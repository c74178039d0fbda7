#!/usr/bin/env bash
# Failover between Galera nodes (issue 29; lib/db.h, Failover): a real
# three-node cluster (tools/galera, ports WAYMARK_TEST_PORT_BASE + 220..231,
# beside t/1100's) and a database migrated on it.
# - t/galera/dbfailover.c through lib/db.c: sessions wait for the cluster
#   (a write through node 1 is read at once through node 2, a SIWX
#   challenge issued through node 1 is consumed through node 2); SIGKILL of
#   the preferred node inside a transaction reruns it on the next node;
#   the dead node is skipped, and the connection returns once it is back;
#   node 3 isolated from the group (gmcast.isolate=1) is left for node 1,
#   and it answers a write with 1047.
# - /health of a worker pointed at the cluster (the worker itself over
#   FastCGI, as in t/0120): database.cluster {size, status, localState,
#   node}; with node 3 isolated, 503 database_not_primary from a worker
#   that can reach only node 3, 200 on node 1 from one that lists node 3
#   first; once node 3 rejoins, 200 again from the first.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
tool=$WAYMARK_BUILD/waymark
# Beside the suite's stack, not in a mktemp directory: as root the nodes run
# as nobody (tools/galera), who must be able to reach their directories.
export WAYMARK_GALERA_VAR=$WAYMARK_VAR-failover
export WAYMARK_GALERA_PORT=$((WAYMARK_TEST_PORT_BASE + 220))
G=$WAYMARK_GALERA_VAR
rm -rf "$G"
workers=()
cleanup() {
	local p
	for p in "${workers[@]}"; do kill -TERM "$p" 2>/dev/null; done
	"$top/tools/galera" stop >/dev/null 2>&1
}
trap cleanup EXIT
out=$("$top/tools/galera" start 2>&1)
if ! ok $? "three Galera nodes start, join and sync"; then
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "Bail out! no cluster"
	exit 1
fi
g() { "$top/tools/galera" sql "$1" "$2"; }
port() { echo $((WAYMARK_GALERA_PORT + 4 * ($1 - 1))); }
status() { g "$1" "SHOW STATUS LIKE '$2'" | cut -f2; }

# A TCP user (db_hosts are host:port) and a database, made on node 1.
pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
g 1 "CREATE USER 'waymark'@'127.0.0.1' IDENTIFIED BY '$pw';
	CREATE DATABASE waymark_fo CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
	GRANT ALL PRIVILEGES ON waymark_fo.* TO 'waymark'@'127.0.0.1'"
# conf NAME HOSTS [KEY=VALUE...]: a configuration 0600 (others may not read one).
conf() {
	local f=$G/$1.conf hosts=$2; shift 2
	(umask 077 && {
		printf 'db_hosts = %s\ndb_user = waymark\ndb_password = %s\ndb_name = waymark_fo\n' "$hosts" "$pw"
		printf 'health_ttl_ms = 0\n'
		for kv in "$@"; do printf '%s = %s\n' "${kv%%=*}" "${kv#*=}"; done
	} > "$f")
	echo "$f"
}
all=127.0.0.1:$(port 1),127.0.0.1:$(port 2),127.0.0.1:$(port 3)
# db_timeout: longer than the cluster's pause after a node dies (until the
# others declare it gone, about 5 s, writes and sync waits wait).
out=$(env -u WAYMARK_DB_SOCKET "$tool" -c "$(conf all "$all" db_timeout=20)" migrate "$top/sql" 2>&1)
like "$out" 'migrations: [0-9]+ applied' "the database is migrated through db_hosts (node 1 first)"
is "$(g 3 "SET SESSION wsrep_sync_wait = 15; SELECT COUNT(*) > 0 FROM waymark_fo.schema_migrations")" 1 \
	"node 3 holds the schema"

# The library's part.
out=$(env -u WAYMARK_DB_SOCKET "$WAYMARK_BUILD/galera/dbfailover.t" "$G/all.conf" "$top/tools/galera" 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/#   /'
ok $rc "t/galera/dbfailover passes"
is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "with no failed check"
like "$(printf '%s\n' "$out" | tail -n 1)" '^1\.\.[1-9][0-9]$' "and ran its whole plan"
is "$(status 3 wsrep_cluster_status)" non-Primary "it left node 3 isolated"

# /health of workers pointed at the cluster, node 3 still isolated.
# worker NAME HOSTS: a worker of one thread on its own socket.
worker() {
	local sock=$G/$1.sock
	rm -f "$sock"
	env -u WAYMARK_DB_SOCKET -u WAYMARK_CONFIG "$WAYMARK_BUILD/waymark-fcgi" -c "$(conf "$1" "$2")" \
		-s "$sock" -t 1 > "$G/$1.log" 2>&1 < /dev/null &
	workers+=($!)
	local n=0; until [ -S "$sock" ] || [ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
}
health() { # health NAME: sets status and body
	local out
	out=$(env -i REQUEST_METHOD=GET REQUEST_URI=/health cgi-fcgi -bind -connect "$G/$1.sock" | tr -d '\r')
	status=$(printf '%s\n' "$out" | sed -n 's/^Status: \([0-9]*\).*/\1/p' | head -n1)
	body=$(printf '%s\n' "$out" | sed '1,/^$/d')
}
worker only3 "127.0.0.1:$(port 3)"
worker three1 "127.0.0.1:$(port 3),127.0.0.1:$(port 1)"
health only3
is "$status" 503 "a worker that reaches only the isolated node answers /health 503"
is "$(jq -r .error <<<"$body")" database_not_primary "with database_not_primary"
health three1
is "$status" 200 "a worker that lists node 3 first answers 200"
is "$(jq -c '.database.cluster | [.size, .status, .localState, .node]' <<<"$body")" '[2,"Primary","Synced","node1"]' \
	"from node 1, in a primary component of two: database.cluster"
is "$(jq -r .database.reachable <<<"$body")" true "and the database part it always had"

# Node 3 rejoins: the first worker answers again, from node 3, once its mark ran out.
g 3 "SET GLOBAL wsrep_provider_options = 'gmcast.isolate=0'"
n=0
until [ "$(status 3 wsrep_local_state_comment)/$(status 3 wsrep_cluster_size)" = Synced/3 ] || [ $n -ge 1200 ]; do
	n=$((n + 1)); sleep 0.1
done
is "$(status 3 wsrep_local_state_comment)/$(status 3 wsrep_cluster_size)" Synced/3 "node 3 rejoins and syncs"
n=0
health only3
until [ "$status" = 200 ] || [ $n -ge 600 ]; do n=$((n + 1)); sleep 0.1; health only3; done
is "$status" 200 "the worker of node 3 answers /health 200 again"
is "$(jq -c '.database.cluster | [.size, .status, .localState, .node]' <<<"$body")" '[3,"Primary","Synced","node3"]' \
	"with node 3 in the whole cluster"
is "$(g 3 "SET SESSION wsrep_sync_wait = 15; SELECT COUNT(*) FROM waymark_fo.fo_test WHERE k = 1002")" 0 \
	"the write node 3 refused while isolated is nowhere"

cleanup
trap - EXIT
is "$(ls "$G"/n*/run/mariadbd.pid 2>/dev/null | while read -r f; do kill -0 "$(cat "$f")" 2>/dev/null && echo "$f"; done)" "" \
	"no node is left running"
done_testing
