#!/usr/bin/env bash
# Galera (issue 29, first part): a real three-node MariaDB Galera cluster on
# this machine (tools/galera, ports WAYMARK_TEST_PORT_BASE + 200..211).
# - Two `waymark migrate` runs at once against two different nodes apply
#   each file exactly once (the lock row, lib/migrate.h), three times over
#   with the pair of nodes turned; a lock row left by a crashed run is taken
#   over once it expired; a live one makes a run wait until it is gone.
# - db_txn on the cluster (t/galera/dbcert.c): a conflict another node
#   committed first is retried, a unique key raced from two nodes has one
#   winner and the loser's rerun sees it, SIWX challenges raced from two
#   nodes are consumed once each.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
tool=$WAYMARK_BUILD/waymark
n=$(ls "$top"/sql/*.sql | wc -l)
# Beside the suite's stack, not in a mktemp directory: as root the nodes run
# as nobody (tools/galera), who must be able to reach their directories.
export WAYMARK_GALERA_VAR=$WAYMARK_VAR-galera
export WAYMARK_GALERA_PORT=$((WAYMARK_TEST_PORT_BASE + 200))
G=$WAYMARK_GALERA_VAR
rm -rf "$G"
trap '"$top/tools/galera" stop >/dev/null 2>&1' EXIT
started=$(date +%s)
out=$("$top/tools/galera" start 2>&1); rc=$?
if ! ok $rc "three Galera nodes start, join and sync ($(( $(date +%s) - started )) s)"; then
	printf '%s\n' "$out" | sed 's/^/# /'
	echo "Bail out! no cluster"
	exit 1
fi
# Reads wait until the node has applied what the cluster committed before
# them (a node applies other nodes' write sets a moment after they commit).
g() { "$top/tools/galera" sql "$1" "SET SESSION wsrep_sync_wait = 15; $2"; }
status() { g "$1" "SHOW STATUS LIKE '$2'" | cut -f2; }
is "$(status 1 wsrep_cluster_size)/$(status 2 wsrep_cluster_size)/$(status 3 wsrep_cluster_size)" 3/3/3 \
	"every node sees a cluster of three"
is "$(status 1 wsrep_local_state_comment)/$(status 2 wsrep_local_state_comment)/$(status 3 wsrep_local_state_comment)" \
	Synced/Synced/Synced "every node is Synced"
is "$(status 2 wsrep_cluster_status)" Primary "in the primary component"

pw=$(od -An -N12 -tx1 /dev/urandom | tr -d ' \n')
g 1 "CREATE USER 'waymark'@'localhost' IDENTIFIED BY '$pw'"
# conf NODE DB: a configuration for node NODE's socket and database DB.
conf() {
	local f=$G/node$1-$2.conf
	# 0600: a configuration others may read is refused (INSTALL section 11).
	(umask 077 && printf 'db_socket = %s\ndb_user = waymark\ndb_password = %s\ndb_name = %s\n' \
		"$G/n$1/run/mysqld.sock" "$pw" "$2" > "$f")
	echo "$f"
}
# newdb DB: made on node 1; the others are waited for, since a node that
# has not applied it yet would refuse a connection to it.
newdb() {
	g 1 "CREATE DATABASE $1 CHARACTER SET utf8mb4 COLLATE utf8mb4_bin;
		GRANT ALL PRIVILEGES ON $1.* TO 'waymark'@'localhost'"
	g 2 "SELECT 1" >/dev/null; g 3 "SELECT 1" >/dev/null
}
# applied OUT: the count a migrate run printed, 0 when it printed none (it failed).
applied() { local k; k=$(sed -n 's/^migrations: \([0-9]*\) applied$/\1/p' "$1"); echo "${k:-0}"; }

# Two runs at once on two nodes, three rounds with the pair turned.
for r in 1 2 3; do
	x=$r; y=$(( r % 3 + 1 )); z=$(( (r + 1) % 3 + 1 )); db=waymark_r$r
	newdb "$db"
	"$tool" -c "$(conf "$x" "$db")" migrate "$top/sql" > "$G/m$r-a.out" 2>&1 & pa=$!
	"$tool" -c "$(conf "$y" "$db")" migrate "$top/sql" > "$G/m$r-b.out" 2>&1 & pb=$!
	wait $pa; ra=$?
	wait $pb; rb=$?
	is "$ra/$rb" 0/0 "round $r: both runs (node $x, node $y) succeed"
	[ "$ra/$rb" = 0/0 ] || sed 's/^/# /' "$G/m$r-a.out" "$G/m$r-b.out"
	is "$(( $(applied "$G/m$r-a.out") + $(applied "$G/m$r-b.out") ))" "$n" \
		"round $r: together they applied the $n files once ($(applied "$G/m$r-a.out") + $(applied "$G/m$r-b.out"))"
	is "$(g "$z" "SELECT COUNT(*), COUNT(DISTINCT version), MIN(version), MAX(version) FROM $db.schema_migrations")" \
		"$(printf '%s\t%s\t1\t%s' "$n" "$n" "$n")" "round $r: node $z holds one record per file"
	is "$(g "$z" "SELECT COUNT(*) FROM $db.schema_migrate_lock")" 0 "round $r: the lock row is gone"
done

# A lock row of a run that crashed: expired, it is taken over.
newdb waymark_exp
g 1 "CREATE TABLE waymark_exp.schema_migrate_lock (id TINYINT UNSIGNED NOT NULL PRIMARY KEY,
	holder VARCHAR(128) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE=InnoDB;
	INSERT INTO waymark_exp.schema_migrate_lock VALUES (1, 'crashed/1/0', UTC_TIMESTAMP(6) - INTERVAL 1 SECOND)"
out=$("$tool" -c "$(conf 3 waymark_exp)" migrate "$top/sql" 2>&1); rc=$?
ok $rc "a run on node 3 takes over the expired lock row of a crashed run on node 1"
is "$(applied <(printf '%s\n' "$out"))" "$n" "and applies every file"

# A live lock row: a run waits for it, and goes on once it is gone.
newdb waymark_wait
g 1 "CREATE TABLE waymark_wait.schema_migrate_lock (id TINYINT UNSIGNED NOT NULL PRIMARY KEY,
	holder VARCHAR(128) NOT NULL, expires_at DATETIME(6) NOT NULL) ENGINE=InnoDB;
	INSERT INTO waymark_wait.schema_migrate_lock VALUES (1, 'elsewhere/2/0', UTC_TIMESTAMP(6) + INTERVAL 600 SECOND)"
"$tool" -c "$(conf 2 waymark_wait)" migrate "$top/sql" > "$G/wait.out" 2>&1 & waiter=$!
sleep 3
state=$(kill -0 $waiter 2>/dev/null && echo waiting)
is "$state" waiting "a run on node 2 waits while node 1's row is live"
[ "$state" = waiting ] || sed 's/^/# /' "$G/wait.out"
is "$(g 3 "SELECT COUNT(*) FROM information_schema.tables WHERE table_schema = 'waymark_wait'
	AND table_name = 'schema_migrations'")" 0 "and has applied nothing"
g 3 "DELETE FROM waymark_wait.schema_migrate_lock"
wait $waiter; rc=$?
ok $rc "once the row is deleted (on node 3) the run goes on"
is "$(applied "$G/wait.out")" "$n" "and applies every file"

# db_txn on the cluster, through lib/db.c and lib/siwxstore.c.
out=$("$WAYMARK_BUILD/galera/dbcert.t" "$(conf 2 waymark_r1)" "$(conf 3 waymark_r1)" 2>&1); rc=$?
printf '%s\n' "$out" | sed 's/^/#   /'
ok $rc "t/galera/dbcert passes against nodes 2 and 3"
is "$(printf '%s\n' "$out" | grep -c '^not ok')" 0 "with no failed check"
like "$(printf '%s\n' "$out" | tail -n 1)" '^1\.\.[1-9][0-9]$' "and ran its whole plan"

started=$(date +%s)
"$top/tools/galera" stop >/dev/null 2>&1; ok $? "the cluster stops ($(( $(date +%s) - started )) s)"
is "$(ls "$G"/n*/run/mariadbd.pid 2>/dev/null | while read -r f; do kill -0 "$(cat "$f")" 2>/dev/null && echo "$f"; done)" "" \
	"no node is left running"
trap - EXIT
done_testing
