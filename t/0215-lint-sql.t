#!/usr/bin/env bash
# The SQL door holds by lint (tools/lint-sql, run by make lint): a statement
# string-built outside lib/sql.h, a raw client call, a transaction outside
# db_txn, a way around sql_add (sql_add_ called directly, a struct sql made
# by hand) or a multi-statement connection outside the migrator fails lint,
# which names the file and line; the tree as it is passes. Needs no stack:
# it works on a copy of the tree.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
tree=$tmp/tree
mkdir -p "$tree"

# The tree as the work tree has it: tracked and new files, not ignored ones.
(cd "$top" && git ls-files -z --cached --others --exclude-standard |
	while IFS= read -r -d '' f; do [ -f "$f" ] && printf '%s\0' "$f"; done |
	xargs -0 cp --parents -t "$tree")
(cd "$tree" && git init -q && git add -A) || { echo "Bail out! cannot make a copy of the tree"; exit 1; }

out=$(cd "$tree" && tools/lint 2>&1); rc=$?
is "$rc" 0 "make lint passes on the tree as it is"
[ "$rc" = 0 ] || printf "%s\n" "$out" | sed "s/^/# /"
out=$(cd "$tree" && tools/lint-sql 2>&1); rc=$?
is "$rc" 0 "the SQL rule finds nothing in the tree"

# lint_with FILE CONTENT: add FILE to the copy, run the SQL rule (rc, and
# in out the lines naming FILE), then take FILE away again. The first case
# goes through the whole of make lint (LINT=tools/lint), to show that lint
# runs the rule; the others run the rule alone (tools/lint-sql), which is
# what lint runs, in a second instead of lint's several.
LINT=tools/lint
lint_with() {
	local f=$1
	printf '%s\n' "$2" > "$tree/$f"
	(cd "$tree" && git add -- "$f")
	out=$(cd "$tree" && $LINT 2>&1); rc=$?
	(cd "$tree" && git rm -q --cached -- "$f" && rm -f -- "$f")
	out=$(printf '%s\n' "$out" | grep -F -- "$f:")   # what lint says of FILE
}

# The deliberate one: a SELECT assembled with snprintf and %s, then run.
lint_with handlers/evil.c '#include <stdio.h>

#include "db.h"
#include "banned.h"

enum db_rc evil_lookup(struct db *db, const char *url, MYSQL_RES **res);

enum db_rc
evil_lookup(struct db *db, const char *url, MYSQL_RES **res)
{
	char q[512];

	snprintf(q, sizeof(q), "SELECT id FROM routes WHERE url = '\''%s'\''", url);
	return db_query(db, q, res);
}'
isnt_zero=$([ "$rc" != 0 ] && echo 1)
is "$isnt_zero" 1 "lint fails on a SELECT string-built with snprintf"
like "$out" 'handlers/evil\.c:13: SQL keyword SELECT in snprintf' "the message names the file, line and keyword"
LINT=tools/lint-sql

# The same with the format on the next line of the call, through buf_printf.
lint_with handlers/evil.c '#include "buf.h"
#include "banned.h"

void evil_insert(struct buf *b, const char *who);

void
evil_insert(struct buf *b, const char *who)
{
	buf_printf(b,
	    "INSERT INTO reviews (author) VALUES ('\''%s'\'')", who);
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on an INSERT built in a buffer"
like "$out" 'handlers/evil\.c:10: SQL keyword INSERT in buf_printf' "the line is the one holding the statement text"

# Raw client calls, escaping by hand, in an existing file.
n=$(wc -l < "$tree/handlers/health.c")
cp "$tree/handlers/health.c" "$tmp/health.c"
printf '%s\n' 'void evil_raw(struct db *db);' 'void' 'evil_raw(struct db *db)' '{' \
	'	mysql_query(db->my, "DELETE FROM routes");' \
	'	mysql_real_escape_string(db->my, NULL, NULL, 0);' '}' >> "$tree/handlers/health.c"
out=$(cd "$tree" && $LINT 2>&1); rc=$?
cp "$tmp/health.c" "$tree/handlers/health.c"
out=$(printf '%s\n' "$out" | grep -F -- "handlers/health.c:")
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on raw mysql_* calls"
like "$out" "handlers/health\\.c:$((n + 5)): mysql_query" "mysql_query is named with its line"
like "$out" "handlers/health\\.c:$((n + 6)): mysql_real_escape_string" "mysql_real_escape_string is named with its line"

lint_with indexer/evil.c '#include "db.h"
#include "banned.h"

void evil_txn(struct db *db);

void
evil_txn(struct db *db)
{
	db_begin(db);
	db_commit(db);
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on a transaction outside db_txn"
like "$out" 'indexer/evil\.c:9: db_begin' "db_begin is named"
like "$out" 'indexer/evil\.c:10: db_commit' "db_commit is named"

lint_with fcgi/evil.c '#include <mysql.h>
#include "banned.h"

unsigned long evil_flags(void);

unsigned long
evil_flags(void)
{
	return CLIENT_MULTI_STATEMENTS;
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on a multi-statement connection outside lib/db.c"
like "$out" 'fcgi/evil\.c:9: CLIENT_MULTI_STATEMENTS' "CLIENT_MULTI_STATEMENTS is named"

lint_with tools/evil.c '#include "db.h"
#include "banned.h"

void evil_script(struct db *db, const struct config *c);

void
evil_script(struct db *db, const struct config *c)
{
	db_init_script(db, c);
	db_exec_script(db, "DROP TABLE routes; SELECT 1");
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on the migrator's connection used elsewhere"
like "$out" 'tools/evil\.c:9: db_init_script' "db_init_script is named"
like "$out" 'tools/evil\.c:10: db_exec_script' "db_exec_script is named"

# Ways around sql_add's literal: calling sql_add_ with text, or a struct
# sql filled by hand.
lint_with handlers/evil.c '#include <stdio.h>
#include <string.h>

#include "db.h"
#include "banned.h"

enum db_rc evil_around(struct db *db, const char *text);

enum db_rc
evil_around(struct db *db, const char *text)
{
	char buf[256];
	struct sql q = { .p = buf, .len = strlen(text), .cap = sizeof(buf) };
	struct sql r = SQL_ON(buf);

	memcpy(buf, text, strlen(text) + 1);
	sql_add_(&r, text, NULL, 0);
	return db_exec(db, &q);
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on a way around sql_add"
like "$out" 'handlers/evil\.c:13: struct sql made by hand' "a hand-made struct sql is named"
like "$out" 'handlers/evil\.c:17: sql_add_' "a direct sql_add_ call is named"

# Galera: a table without a primary key, in a migration or in a C literal
# split over lines; another engine; a named lock or LOCK TABLES.
lint_with sql/020_evil.sql '-- 020: a table Galera cannot replicate safely.
CREATE TABLE evil_nokey (
    a INT NOT NULL,   -- a PRIMARY KEY in a comment does not count
    b INT NOT NULL,
    KEY by_a (a)
) ENGINE=InnoDB;
CREATE TABLE evil_keyed (a INT NOT NULL PRIMARY KEY) ENGINE=MyISAM;
CREATE TABLE evil_copy LIKE evil_keyed;
LOCK TABLES evil_keyed WRITE;'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on a migration with a table Galera cannot replicate"
like "$out" 'sql/020_evil\.sql:2: CREATE TABLE evil_nokey without a PRIMARY KEY' "a table without a primary key is named with its line"
like "$out" 'sql/020_evil\.sql:7: CREATE TABLE evil_keyed with ENGINE=MyISAM' "another engine is named"
like "$out" 'sql/020_evil\.sql:9: LOCK TABLES' "LOCK TABLES is named"
is "$(printf "%s\n" "$out" | grep -c evil_copy)" 0 "CREATE TABLE ... LIKE copies its key and passes"

lint_with lib/evil.c '#include "db.h"
#include "banned.h"

enum db_rc evil_schema(struct db *db);

enum db_rc
evil_schema(struct db *db)
{
	char b[256];
	struct sql q = SQL_ON(b), l = SQL_ON(b);

	sql_add(&q, "CREATE TABLE IF NOT EXISTS evil_scratch ("
	    "a INT NOT NULL, "
	    "b INT NOT NULL) ENGINE=InnoDB");
	sql_add(&l, "SELECT GET_LOCK('\''evil'\'', 10)");
	return db_exec(db, &q) == DB_OK ? db_exec(db, &l) : DB_ERROR;
}'
is "$([ "$rc" != 0 ] && [ -n "$out" ] && echo 1)" 1 "lint fails on C that makes a table without a key or takes a named lock"
like "$out" 'lib/evil\.c:12: CREATE TABLE evil_scratch without a PRIMARY KEY' "the statement split over literals is one text"
like "$out" 'lib/evil\.c:15: GET_LOCK' "GET_LOCK is named"

# What is not SQL stays allowed: comments that mention the calls, log
# text in lower case, and statements built the one way.
lint_with handlers/fine.c '#include <stdio.h>

#include "sql.h"
#include "banned.h"

/* Never mysql_query(db->my, "SELECT ...") or db_begin() here: see db_txn. */
int fine_msg(char *out, size_t cap, const char *what, unsigned long long id);

int
fine_msg(char *out, size_t cap, const char *what, unsigned long long id)
{
	char buf[128];
	struct sql q = SQL_ON(buf);

	sql_add(&q, "SELECT id FROM routes WHERE url = ?", SQL_TEXT(what));
	return snprintf(out, cap, "could not select %s for update (%llu)", what, id) < 0 || q.bad;
}'
is "$rc" 0 "comments, lower-case log text and sql_add pass"
is "$out" "" "lint says nothing of them"

done_testing
