#!/usr/bin/env bash
# The suite's shared MariaDB (tools/stack, WAYMARK_SHARED_DB): a test stack
# gets a database and a user of its own on it, made from the schema
# template; a second stack that would take the same database fails to
# start, saying so, instead of sharing it; a stack's user reaches its own
# database only; and a test cannot stop the shared server.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_SHARED_DB:?run through make test (tools/run-tests shares the main stack MariaDB)}"
base=$WAYMARK_VAR
export WAYMARK_CHAIN=none WAYMARK_SEED=0 WAYMARK_DB_NAME=wm_isolation
export WAYMARK_LISTEN=127.0.0.1:$((WAYMARK_TEST_PORT_BASE + 2))
a=$base-iso-a b=$base-iso-b
rm -rf "$a" "$b"
trap 'WAYMARK_VAR=$a "$top/tools/stack" stop >/dev/null 2>&1; WAYMARK_VAR=$b "$top/tools/stack" stop >/dev/null 2>&1' EXIT
root() { mariadb --defaults-file="$WAYMARK_SHARED_DB" -uroot -N -B mysql -e "$1"; }

WAYMARK_VAR=$a "$top/tools/stack" start >/dev/null
ok $? "a stack on the shared MariaDB starts"
is "$(root "SELECT COUNT(*) FROM information_schema.schemata WHERE schema_name = 'wm_isolation'")" 1 \
	"  its database is made on the shared server"
is "$(root "SELECT COUNT(*) FROM wm_isolation.schema_migrations")" "$(ls "$top"/sql/*.sql | wc -l)" \
	"  from the schema template: every migration recorded"
is "$(curl -s "http://$WAYMARK_LISTEN/health" | jq -r .database.reachable)" true "  its workers reach it"
is "$(mariadb --defaults-file="$a/my.cnf" -uroot -N -B -e 'SELECT DATABASE()')" wm_isolation \
	"  its my.cnf names its own database"

# A second stack that would take the same database: refused, loudly.
out=$(WAYMARK_VAR=$b WAYMARK_LISTEN=127.0.0.1:1 "$top/tools/stack" start 2>&1); rc=$?
is "$rc" 1 "a second stack naming the same database does not start"
like "$out" "cannot make database wm_isolation on the shared MariaDB" "  and says which database and why"
is "$(curl -s "http://$WAYMARK_LISTEN/health" | jq -r .database.reachable)" true "  the first stack is untouched"

# The stack's user has its own database and no other.
pw=$(cat "$a/secrets/db_password")
sock=$(sed -n 's/^socket=//p' "$WAYMARK_SHARED_DB" | head -n1)
mariadb -S "$sock" -u wm_isolation -p"$pw" -N -B -e 'SELECT COUNT(*) FROM wm_isolation.schema_migrations' >/dev/null 2>&1
ok $? "the stack's user reads its own database"
mariadb -S "$sock" -u wm_isolation -p"$pw" -N -B -e 'SELECT COUNT(*) FROM wm_template.schema_migrations' >/dev/null 2>&1
ok "$([ $? != 0 ] && echo 0 || echo 1)" "  and cannot read another (the template)"

# The shared server is not the test's to stop.
out=$(WAYMARK_VAR=$a "$top/tools/stack" db-stop 2>&1); rc=$?
is "$rc" 1 "tools/stack db-stop on a shared server is refused"
like "$out" "shared" "  saying the server is shared"
mariadb-admin --defaults-file="$WAYMARK_SHARED_DB" -uroot ping >/dev/null 2>&1
ok $? "  and the shared server still answers"
done_testing
