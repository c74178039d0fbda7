/*
 * tipstore.c: the tips, attestation and registry sources' side of the
 * store (sql/012_tips.sql; docs/ARCHITECTURE.md, Indexer). Each range
 * inserts its logs into tip_events (INSERT IGNORE on chain, tx, log
 * index), moves its contract's checkpoint, and recomputes from tip_events
 * every derived row whose key the range touched, all in one transaction.
 * A rollback deletes the contract's events above the fork and recomputes
 * the same way, so derived rows never depend on the order events came in.
 *
 * The link and registry events' keys are also filed by handle and by agent
 * (tip_link_keys, tip_agent_keys), the only lookups by either; the tips a
 * range creates are written by block, in one statement.
 *
 * Every read of tip_events and tips names its index (FORCE INDEX): inside
 * the range's transaction the tables' statistics still describe them as
 * they were before its thousands of inserts (empty on a first backfill),
 * and the optimizer then scans a chain's whole prefix for every row,
 * turning a 20,000-event range into hundreds of millions of reads.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hex.h"
#include "keccak.h"
#include "sql.h"
#include "store.h"
#include "banned.h"

#define SQL_MAX (64u * 1024 * 1024)
#define ROWS_PER_INSERT 1000
/*
 * Keys per IN list. Longer lists are turned by MariaDB into a joined
 * table of values (in_predicate_conversion_threshold, 1000), planned as a
 * scan of the chain's whole prefix: refreshes go in slices of this size.
 */
#define KEYS_PER_STATEMENT 500
#define KEY_LEN 80          /* hex of 32 bytes, or a decimal agent id / tip id */

/*
 * The link events (agent events) of a handle (agent): its keys in k, each
 * joined to its event e (sql/015_tip_event_keys.sql). k is read first, by
 * its primary key, then each e by its own.
 */
#define KEYED_EVENTS(table, k, e)                                                   \
	table " " k " FORCE INDEX (PRIMARY) STRAIGHT_JOIN tip_events " e " FORCE INDEX (PRIMARY) ON " \
	e ".chain_id = " k ".chain_id AND " e ".tx_hash = " k ".tx_hash AND " e ".log_index = " k ".log_index"
#define LINK_EVENTS(k, e) KEYED_EVENTS("tip_link_keys", k, e)
#define AGENT_EVENTS(k, e) KEYED_EVENTS("tip_agent_keys", k, e)
/*
 * Delete the keys in table (filed by column col) of this contract's events
 * above a block: each event found by block, then its key by primary key.
 * Takes the chain, the contract and the block.
 */
#define KEYS_ABOVE(table, col)                                                      \
	"DELETE k FROM tip_events e FORCE INDEX (by_block) STRAIGHT_JOIN " table " k FORCE INDEX (PRIMARY) " \
	"ON k.chain_id = e.chain_id AND k." col " = e." col " AND k.tx_hash = e.tx_hash "         \
	"AND k.log_index = e.log_index WHERE e.chain_id = ? AND e.contract = ? AND e.block_number > ?"

/* Amounts burned by the tipper (docs/PROTOCOL.md, Tips). */
#define PRIVATE_TIP_BURN "500000000000000000000000"
#define ATTESTATION_BURN "3000000000000000000000000"

/* A set of keys as text: lowercase hex (no 0x) or decimal. */
struct keys {
	char (*v)[KEY_LEN + 1];
	size_t n, cap;
	bool oom;
};

static void
keys_add(struct keys *k, const char *s)
{
	if (k->n == k->cap) {
		size_t cap = k->cap ? 2 * k->cap : 64;
		char (*g)[KEY_LEN + 1] = realloc(k->v, cap * sizeof(*k->v));

		if (g == NULL) {
			k->oom = true;
			return;
		}
		k->v = g;
		k->cap = cap;
	}
	snprintf(k->v[k->n++], KEY_LEN + 1, "%s", s);
}

static void
keys_hex(struct keys *k, const uint8_t *b, size_t n)
{
	char h[2 * 32 + 1];

	keys_add(k, hex_digits(b, n, h));
}

static void
keys_u64(struct keys *k, uint64_t v)
{
	char d[24];

	snprintf(d, sizeof(d), "%" PRIu64, v);
	keys_add(k, d);
}

static int
key_cmp(const void *a, const void *b)
{
	return strcmp(a, b);
}

static void
keys_uniq(struct keys *k)
{
	size_t m = 0;

	if (k->n == 0)
		return;
	qsort(k->v, k->n, sizeof(k->v[0]), key_cmp);
	for (size_t i = 0; i < k->n; i++)
		if (m == 0 || strcmp(k->v[m - 1], k->v[i]) != 0) {
			if (m != i)
				memcpy(k->v[m], k->v[i], sizeof(k->v[0]));
			m++;
		}
	k->n = m;
}

static void
keys_free(struct keys *k)
{
	free(k->v);
	memset(k, 0, sizeof(*k));
}

/* The keys of k from i on, at most KEYS_PER_STATEMENT of them (a view: never freed). */
static struct keys
keys_slice(const struct keys *k, size_t i)
{
	return (struct keys){ .v = k->v + i, .n = k->n - i < KEYS_PER_STATEMENT ? k->n - i : KEYS_PER_STATEMENT };
}

enum key_type { K_HEX, K_U64, K_TEXT };

/* "?,?,..." with each key as bytes, a number or text. */
static void
add_list(struct sql *q, const struct keys *k, enum key_type t)
{
	for (size_t i = 0; i < k->n; i++) {
		struct sqlv v;

		if (t == K_HEX) {
			v = SQL_HEX(k->v[i]);
		} else if (t == K_U64) {
			char *end;
			unsigned long long u = strtoull(k->v[i], &end, 10);

			v = SQL_U64(u);
		} else {
			v = SQL_TEXT(k->v[i]);
		}
		if (i)
			sql_add(q, ",");
		sql_add(q, "?", v);
	}
}

static void
contract_bytes(const struct store *s, uint8_t out[20])
{
	if (hex_decode_fixed(s->contract_hex, strlen(s->contract_hex), out, 20, false) < 0)
		memset(out, 0, 20);
}

/* Keys of the rows a change may move. */
struct touched {
	struct keys tips, links, agents;     /* tip ids; handle hashes of link events; agent ids */
	struct keys handles, wallets;        /* of the tips before and after */
	struct keys attest;                  /* tip ids whose attestation events changed */
	/*
	 * Of tips, those whose creating event a range brought, all in blocks
	 * lo..hi of the store's contract: they are written by block, in one
	 * statement, rather than by id (which costs an index probe per id).
	 */
	struct keys created;
	uint64_t lo, hi;
};

static void
touched_free(struct touched *t)
{
	keys_free(&t->attest);
	keys_free(&t->created);
	keys_free(&t->tips);
	keys_free(&t->links);
	keys_free(&t->agents);
	keys_free(&t->handles);
	keys_free(&t->wallets);
}

/* f over k in slices of KEYS_PER_STATEMENT keys. */
static enum db_rc
each_slice(struct store *s, struct sql *q, const struct keys *k,
    enum db_rc (*f)(struct store *, struct sql *, const struct keys *))
{
	enum db_rc rc = DB_OK;

	for (size_t i = 0; i < k->n && rc == DB_OK; i += KEYS_PER_STATEMENT) {
		struct keys slice = keys_slice(k, i);

		rc = f(s, q, &slice);
	}
	return rc;
}

/* Handle hashes, tippers and recipients of the tips t->tips, as they are now. */
static enum db_rc
collect_tip_keys(struct store *s, struct sql *q, struct touched *t)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	for (size_t i = 0; i < t->tips.n; i += KEYS_PER_STATEMENT) {
		struct keys slice = keys_slice(&t->tips, i);

		sql_reset(q);
		sql_add(q, "SELECT LOWER(HEX(handle_hash)), LOWER(HEX(tipper)), LOWER(HEX(recipient)) "
		    "FROM tips FORCE INDEX (PRIMARY) WHERE chain_id = ? AND tip_id IN (", SQL_U64(s->chain_id));
		add_list(q, &slice, K_U64);
		sql_add(q, ")");
		if ((rc = db_query(s->db, q, &res)) != DB_OK)
			return rc;
		while (res && (row = mysql_fetch_row(res)) != NULL) {
			if (row[0])
				keys_add(&t->handles, row[0]);
			if (row[1])
				keys_add(&t->wallets, row[1]);
			if (row[2])
				keys_add(&t->wallets, row[2]);
		}
		if (res)
			mysql_free_result(res);
		res = NULL;
	}
	return t->handles.oom || t->wallets.oom ? DB_ERROR : DB_OK;
}

/*
 * The statement that writes tips rows from their events, up to the
 * condition on the creating events c, which the caller adds, then ") x".
 * by_block: c are read by block (and the rows replace any they meet);
 * else by tip id, for ids whose rows were just deleted. One creating
 * event per tip, at most one settlement (a claim or a refund: one join
 * each, so each is one index lookup). A private push does not say
 * whether it asked for an attestation: the mint tells.
 */
static void
tips_statement(struct store *s, struct sql *q, bool by_block)
{
	if (by_block)
		sql_add(q, "REPLACE");
	else
		sql_add(q, "INSERT");
	sql_add(q, " INTO tips (chain_id, tip_id, contract, kind, is_private, handle_hash, handle, "
	    "agent_id, tipper, recipient, usdc_amount, note, private_commitment, mint_attestation, "
	    "boon_burned, status, tx_hash, log_index, block_number, block_time, settled_tx_hash, "
	    "settled_log_index, settled_block_number, settled_block_time) "
	    "SELECT chain_id, tip_id, contract, IF(agent, 'agent', 'handle'), priv, handle_hash, "
	    "display_handle, IF(agent, SUBSTRING(display_handle, 7), NULL), actor, recipient, "
	    "IF(priv, NULL, usdc_amount), IF(priv, NULL, IFNULL(note, '')), private_commitment, mint, "
	    "IF(priv, ?, 0) + IF(mint, ?, 0), status, tx_hash, log_index, block_number, block_time, "
	    "s_tx, s_li, s_bn, s_bt FROM (SELECT c.chain_id, c.tip_id, c.contract, "
	    "c.display_handle LIKE 'agent:%' AS agent, "
	    "c.event IN ('PrivateTip', 'PrivateTipEscrowed') AS priv, c.handle_hash, c.display_handle, "
	    "c.actor, CASE WHEN cl.tip_id IS NOT NULL THEN cl.wallet WHEN rf.tip_id IS NOT NULL THEN NULL "
	    "ELSE c.wallet END AS recipient, c.usdc_amount, c.note, c.private_commitment, "
	    "COALESCE(c.mint_attestation, EXISTS(SELECT 1 FROM tip_events a FORCE INDEX (by_tip) WHERE a.chain_id = c.chain_id "
	    "AND a.tip_id = c.tip_id AND a.event = 'AttestationMinted')) AS mint, "
	    "CASE WHEN cl.tip_id IS NOT NULL THEN 'claimed' WHEN rf.tip_id IS NOT NULL THEN 'refunded' "
	    "ELSE IF(c.event IN ('TipEscrowed', 'PrivateTipEscrowed'), 'escrowed', 'pushed') END AS status, "
	    "c.tx_hash, c.log_index, c.block_number, c.block_time, COALESCE(cl.tx_hash, rf.tx_hash) AS s_tx, "
	    "COALESCE(cl.log_index, rf.log_index) AS s_li, COALESCE(cl.block_number, rf.block_number) AS s_bn, "
	    "COALESCE(cl.block_time, rf.block_time) AS s_bt FROM tip_events c ",
	    SQL_DEC(PRIVATE_TIP_BURN), SQL_DEC(ATTESTATION_BURN));
	if (by_block)
		sql_add(q, "FORCE INDEX (by_block) ");
	else
		sql_add(q, "FORCE INDEX (by_tip) ");
	sql_add(q, "LEFT JOIN tip_events cl FORCE INDEX (by_tip) ON cl.chain_id = c.chain_id AND cl.tip_id = c.tip_id "
	    "AND cl.event = 'EscrowedClaimed' "
	    "LEFT JOIN tip_events rf FORCE INDEX (by_tip) ON rf.chain_id = c.chain_id AND rf.tip_id = c.tip_id "
	    "AND rf.event = 'EscrowedRefunded' "
	    "WHERE c.chain_id = ? AND c.event IN ('Tip', 'TipEscrowed', 'TipAgent', 'PrivateTip', "
	    "'PrivateTipEscrowed') AND ", SQL_U64(s->chain_id));
}

/* The listed tips, deleted and written again from their events (an id with no creating event gets no row). */
static enum db_rc
refresh_tips(struct store *s, struct sql *q, const struct keys *tips)
{
	enum db_rc rc;

	if (tips->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM tips WHERE chain_id = ? AND tip_id IN (", SQL_U64(s->chain_id));
	add_list(q, tips, K_U64);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	tips_statement(s, q, false);
	sql_add(q, "c.tip_id IN (");
	add_list(q, tips, K_U64);
	sql_add(q, ")) x");
	return db_exec(s->db, q);
}

/* The tips created in blocks lo..hi of the store's contract, in one statement. */
static enum db_rc
refresh_created(struct store *s, struct sql *q, const struct touched *t)
{
	uint8_t ct[20];

	if (t->created.n == 0)
		return DB_OK;
	contract_bytes(s, ct);
	sql_reset(q);
	tips_statement(s, q, true);
	sql_add(q, "c.contract = ? AND c.block_number BETWEEN ? AND ?) x", SQL_BYTES(ct, 20), SQL_U64(t->lo),
	    SQL_U64(t->hi));
	return db_exec(s->db, q);
}

/* a - b, both sorted by keys_uniq, into out. */
static void
keys_minus(const struct keys *a, const struct keys *b, struct keys *out)
{
	size_t j = 0;

	for (size_t i = 0; i < a->n; i++) {
		int c = 1;

		while (j < b->n && (c = strcmp(b->v[j], a->v[i])) < 0)
			j++;
		if (j == b->n || c != 0)
			keys_add(out, a->v[i]);
	}
}

static enum db_rc
refresh_attestations(struct store *s, struct sql *q, const struct keys *tips)
{
	enum db_rc rc;

	if (tips->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM tip_attestations WHERE chain_id = ? AND tip_id IN (", SQL_U64(s->chain_id));
	add_list(q, tips, K_U64);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "INSERT INTO tip_attestations (chain_id, tip_id, contract, recipient, handle_hash, "
	    "tx_hash, log_index, block_number, minted_at, burned, burned_at) "
	    "SELECT m.chain_id, m.tip_id, m.contract, m.wallet, m.handle_hash, m.tx_hash, m.log_index, "
	    "m.block_number, m.block_time, b.tip_id IS NOT NULL, b.block_time FROM tip_events m FORCE INDEX (by_tip) "
	    "LEFT JOIN tip_events b FORCE INDEX (by_tip) ON b.chain_id = m.chain_id AND b.tip_id = m.tip_id "
	    "AND b.event = 'AttestationBurned' "
	    "WHERE m.chain_id = ? AND m.event = 'AttestationMinted' AND m.tip_id IN (", SQL_U64(s->chain_id));
	add_list(q, tips, K_U64);
	sql_add(q, ")");
	return db_exec(s->db, q);
}

static enum db_rc
refresh_handles(struct store *s, struct sql *q, const struct keys *handles)
{
	enum db_rc rc;

	if (handles->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM handle_tip_stats WHERE chain_id = ? AND handle_hash IN (", SQL_U64(s->chain_id));
	add_list(q, handles, K_HEX);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "INSERT INTO handle_tip_stats (chain_id, handle_hash, handle, tips_received, "
	    "private_received, pushed_count, escrowed_count, claimed_count, refunded_count, tipper_count, "
	    "total_usdc, received_usdc, pushed_usdc, escrowed_usdc, claimed_usdc, refunded_usdc, "
	    "first_tip_at, last_tip_at, last_tip_id) "
	    "SELECT chain_id, handle_hash, SUBSTRING(MAX(CONCAT(LPAD(tip_id, 20, '0'), handle)), 21), "
	    "COUNT(*), SUM(is_private), SUM(status = 'pushed'), SUM(status = 'escrowed'), "
	    "SUM(status = 'claimed'), SUM(status = 'refunded'), COUNT(DISTINCT tipper), "
	    "IFNULL(SUM(IF(status <> 'refunded', usdc_amount, 0)), 0), "
	    "IFNULL(SUM(IF(status IN ('pushed', 'claimed'), usdc_amount, 0)), 0), "
	    "IFNULL(SUM(IF(status = 'pushed', usdc_amount, 0)), 0), "
	    "IFNULL(SUM(IF(status = 'escrowed', usdc_amount, 0)), 0), "
	    "IFNULL(SUM(IF(status = 'claimed', usdc_amount, 0)), 0), "
	    "IFNULL(SUM(IF(status = 'refunded', usdc_amount, 0)), 0), "
	    "MIN(block_time), MAX(block_time), MAX(tip_id) FROM tips FORCE INDEX (by_handle) "
	    "WHERE chain_id = ? AND handle_hash IN (", SQL_U64(s->chain_id));
	add_list(q, handles, K_HEX);
	sql_add(q, ") GROUP BY chain_id, handle_hash");
	return db_exec(s->db, q);
}

static enum db_rc
refresh_wallets(struct store *s, struct sql *q, const struct keys *wallets)
{
	enum db_rc rc;

	if (wallets->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM wallet_tip_stats WHERE chain_id = ? AND wallet IN (", SQL_U64(s->chain_id));
	add_list(q, wallets, K_HEX);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "INSERT INTO wallet_tip_stats (chain_id, wallet, tips_sent, private_sent, "
	    "handles_tipped, sent_usdc, refunded_usdc, first_sent_at, last_sent_at, tips_paid, paid_usdc) "
	    "SELECT ?, w, SUM(sent), SUM(priv), COUNT(DISTINCT hh), IFNULL(SUM(s_usdc), 0), "
	    "IFNULL(SUM(r_usdc), 0), MIN(t), MAX(t), SUM(paid), IFNULL(SUM(p_usdc), 0) FROM ("
	    "SELECT tipper AS w, 1 AS sent, is_private AS priv, handle_hash AS hh, "
	    "IF(status <> 'refunded', usdc_amount, 0) AS s_usdc, "
	    "IF(status = 'refunded', usdc_amount, 0) AS r_usdc, block_time AS t, 0 AS paid, "
	    "CAST(NULL AS DECIMAL(65,0)) AS p_usdc FROM tips FORCE INDEX (by_tipper) WHERE chain_id = ? AND tipper IN (",
	    SQL_U64(s->chain_id), SQL_U64(s->chain_id));
	add_list(q, wallets, K_HEX);
	sql_add(q, ") UNION ALL SELECT recipient, 0, 0, NULL, NULL, NULL, NULL, 1, usdc_amount FROM tips FORCE INDEX (by_recipient) "
	    "WHERE chain_id = ? AND recipient IN (", SQL_U64(s->chain_id));
	add_list(q, wallets, K_HEX);
	sql_add(q, ")) x GROUP BY w");
	return db_exec(s->db, q);
}

static enum db_rc
refresh_links(struct store *s, struct sql *q, const struct keys *links)
{
	enum db_rc rc;

	if (links->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM handle_links WHERE chain_id = ? AND handle_hash IN (", SQL_U64(s->chain_id));
	add_list(q, links, K_HEX);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "INSERT INTO handle_links (chain_id, handle_hash, wallet, first_linked_at, linked_at, "
	    "link_tx_hash, link_block_number, relinks) "
	    "SELECT chain_id, handle_hash, wallet, f, block_time, tx_hash, block_number, r FROM ("
	    "SELECT e.chain_id, k.handle_hash, e.wallet, e.block_time, e.tx_hash, e.block_number, "
	    "MIN(e.block_time) OVER (PARTITION BY k.handle_hash) AS f, "
	    "SUM(e.event = 'Relinked') OVER (PARTITION BY k.handle_hash) AS r, "
	    "ROW_NUMBER() OVER (PARTITION BY k.handle_hash ORDER BY e.block_number DESC, e.log_index DESC) AS n "
	    "FROM " LINK_EVENTS("k", "e") " WHERE k.chain_id = ? AND e.event IN ('Linked', 'Relinked') "
	    "AND k.handle_hash IN (", SQL_U64(s->chain_id));
	add_list(q, links, K_HEX);
	sql_add(q, ")) x WHERE n = 1");
	return db_exec(s->db, q);
}

static enum db_rc
refresh_agents(struct store *s, struct sql *q, const struct keys *agents)
{
	static const uint8_t zero[20];
	enum db_rc rc;

	if (agents->n == 0)
		return DB_OK;
	sql_reset(q);
	sql_add(q, "DELETE FROM agents WHERE chain_id = ? AND agent_id IN (", SQL_U64(s->chain_id));
	add_list(q, agents, K_TEXT);
	sql_add(q, ")");
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	/*
	 * Owner: the latest of the registration and the transfers. Agent
	 * wallet: the latest of the registration (the owner), a set of the
	 * agentWallet key (NULL when cleared) and a transfer that is not the
	 * mint (which clears it).
	 */
	sql_add(q, "INSERT INTO agents (chain_id, agent_id, registry, owner, agent_wallet, payout_wallet, "
	    "registered_tx_hash, registered_block_number, registered_at, updated_block_number, updated_at) "
	    "SELECT chain_id, agent_id, contract, owner, aw, IFNULL(aw, owner), tx_hash, block_number, "
	    "block_time, ub, ut FROM (SELECT r.chain_id, r.agent_id, r.contract, r.tx_hash, r.block_number, "
	    "r.block_time, (SELECT IF(o.event = 'AgentRegistered', o.actor, o.wallet) FROM " AGENT_EVENTS("ok", "o")
	    " WHERE ok.chain_id = r.chain_id AND ok.agent_id = r.agent_id "
	    "AND o.event IN ('AgentRegistered', 'AgentTransfer') "
	    "ORDER BY o.block_number DESC, o.log_index DESC LIMIT 1) AS owner, "
	    "(SELECT IF(w.event = 'AgentTransfer', NULL, w.wallet) FROM " AGENT_EVENTS("wk", "w")
	    " WHERE wk.chain_id = r.chain_id AND wk.agent_id = r.agent_id "
	    "AND (w.event IN ('AgentRegistered', 'AgentWalletSet') OR (w.event = 'AgentTransfer' "
	    "AND w.actor <> ?)) ORDER BY w.block_number DESC, w.log_index DESC LIMIT 1) AS aw, "
	    "(SELECT MAX(u.block_number) FROM " AGENT_EVENTS("uk", "u") " WHERE uk.chain_id = r.chain_id "
	    "AND uk.agent_id = r.agent_id) AS ub, "
	    "(SELECT MAX(u.block_time) FROM " AGENT_EVENTS("uk", "u") " WHERE uk.chain_id = r.chain_id "
	    "AND uk.agent_id = r.agent_id) AS ut "
	    "FROM " AGENT_EVENTS("rk", "r") " WHERE rk.chain_id = ? AND r.event = 'AgentRegistered' AND rk.agent_id IN (",
	    SQL_BYTES(zero, 20), SQL_U64(s->chain_id));
	add_list(q, agents, K_TEXT);
	sql_add(q, ")) x WHERE owner IS NOT NULL");
	return db_exec(s->db, q);
}

static enum db_rc
refresh_chain(struct store *s, struct sql *q)
{
	enum db_rc rc;
	uint64_t c = s->chain_id;

	sql_reset(q);
	sql_add(q, "DELETE FROM tip_chain_stats WHERE chain_id = ?", SQL_U64(c));
	if ((rc = db_exec(s->db, q)) != DB_OK)
		return rc;
	sql_reset(q);
	sql_add(q, "INSERT INTO tip_chain_stats (chain_id, tips, private_tips, tippers, recipients, "
	    "total_usdc, pushed_usdc, escrowed_usdc, claimed_usdc, refunded_usdc, attestations, "
	    "linked_handles, agents) SELECT ?, IFNULL(SUM(tips_received), 0), "
	    "IFNULL(SUM(private_received), 0), (SELECT COUNT(*) FROM wallet_tip_stats WHERE chain_id = ? "
	    "AND tips_sent > 0), COUNT(*), IFNULL(SUM(total_usdc), 0), IFNULL(SUM(pushed_usdc), 0), "
	    "IFNULL(SUM(escrowed_usdc), 0), IFNULL(SUM(claimed_usdc), 0), IFNULL(SUM(refunded_usdc), 0), "
	    "(SELECT COUNT(*) FROM tip_attestations WHERE chain_id = ? AND burned = 0), "
	    "(SELECT COUNT(*) FROM handle_links WHERE chain_id = ?), "
	    "(SELECT COUNT(*) FROM agents WHERE chain_id = ?) FROM handle_tip_stats WHERE chain_id = ?",
	    SQL_U64(c), SQL_U64(c), SQL_U64(c), SQL_U64(c), SQL_U64(c), SQL_U64(c));
	return db_exec(s->db, q);
}

/* Everything derived from the touched keys, in dependency order. */
static enum db_rc
refresh(struct store *s, struct sql *q, struct touched *t)
{
	struct keys by_id = { 0 };
	enum db_rc rc;

	keys_uniq(&t->tips);
	keys_uniq(&t->links);
	keys_uniq(&t->agents);
	keys_uniq(&t->attest);
	keys_uniq(&t->created);
	keys_minus(&t->tips, &t->created, &by_id);
	if (t->tips.oom || t->links.oom || t->agents.oom || t->attest.oom || t->created.oom || by_id.oom) {
		keys_free(&by_id);
		return DB_ERROR;
	}
	rc = collect_tip_keys(s, q, t);                        /* before */
	if (rc == DB_OK)
		rc = each_slice(s, q, &by_id, refresh_tips);
	keys_free(&by_id);
	if (rc != DB_OK || (rc = refresh_created(s, q, t)) != DB_OK ||
	    (rc = each_slice(s, q, &t->attest, refresh_attestations)) != DB_OK ||
	    (rc = collect_tip_keys(s, q, t)) != DB_OK)          /* after */
		return rc;
	keys_uniq(&t->handles);
	keys_uniq(&t->wallets);
	if ((rc = each_slice(s, q, &t->handles, refresh_handles)) != DB_OK ||
	    (rc = each_slice(s, q, &t->wallets, refresh_wallets)) != DB_OK ||
	    (rc = each_slice(s, q, &t->links, refresh_links)) != DB_OK ||
	    (rc = each_slice(s, q, &t->agents, refresh_agents)) != DB_OK)
		return rc;
	return refresh_chain(s, q);
}

/* dec65 as store.c: a uint256 as DECIMAL(65,0) text; -1 when it has more digits. */
static int
dec65(const struct u256 *v, char out[U256_DEC_MAX + 1])
{
	u256_format_dec(v, out);
	return strlen(out) > 65 ? -1 : 0;
}

/*
 * Tip ids of claims and refunds in ev[] whose tip is private (created in
 * ev[] or already stored): their amounts are never written.
 */
static enum db_rc
private_settlements(struct store *s, struct sql *q, const struct tipevent *ev, size_t n, struct keys *out)
{
	struct keys ask = { 0 };
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc = DB_OK;

	for (size_t i = 0; i < n; i++) {
		if (tipev_is_private(ev[i].kind))
			keys_u64(out, ev[i].tip_id);
		if (ev[i].kind == TIPEV_ESCROWED_CLAIMED || ev[i].kind == TIPEV_ESCROWED_REFUNDED)
			keys_u64(&ask, ev[i].tip_id);
	}
	for (size_t i = 0; i < ask.n && rc == DB_OK; i += KEYS_PER_STATEMENT) {
		struct keys slice = keys_slice(&ask, i);

		sql_reset(q);
		sql_add(q, "SELECT tip_id FROM tip_events FORCE INDEX (by_tip) WHERE chain_id = ? "
		    "AND event IN ('PrivateTip', 'PrivateTipEscrowed') AND tip_id IN (", SQL_U64(s->chain_id));
		add_list(q, &slice, K_U64);
		sql_add(q, ")");
		if ((rc = db_query(s->db, q, &res)) == DB_OK) {
			while (res && (row = mysql_fetch_row(res)) != NULL)
				if (row[0])
					keys_add(out, row[0]);
		}
		if (res)
			mysql_free_result(res);
		res = NULL;
	}
	keys_free(&ask);
	if (rc == DB_OK && out->oom)
		rc = DB_ERROR;
	keys_uniq(out);
	return rc;
}

/* Whether the set k (sorted by keys_uniq) holds v. */
static bool
keys_has(const struct keys *k, uint64_t v)
{
	char d[24];

	snprintf(d, sizeof(d), "%" PRIu64, v);
	return k->n > 0 && bsearch(d, k->v, k->n, sizeof(k->v[0]), key_cmp) != NULL;
}

struct trange {
	struct store *s;
	struct tipfeed *f;
	size_t *stored;
	struct sql q;
};

/* The events ev[0..n) of one piece. */
static enum db_rc
insert_events(struct trange *g, const struct tipevent *ev, size_t n, const struct keys *private_ids)
{
	struct store *s = g->s;
	struct sql *q = &g->q;
	uint8_t ct[20];
	enum db_rc rc;

	contract_bytes(s, ct);
	for (size_t i = 0; i < n; i += ROWS_PER_INSERT) {
		size_t end = i + ROWS_PER_INSERT < n ? i + ROWS_PER_INSERT : n;

		sql_reset(q);
		sql_add(q, "INSERT IGNORE INTO tip_events (chain_id, tx_hash, log_index, contract, block_number, "
		    "block_hash, block_time, event, tip_id, handle_hash, agent_id, actor, wallet, usdc_amount, "
		    "mint_attestation, display_handle, note, private_commitment) VALUES ");
		for (size_t k = i; k < end; k++) {
			const struct tipevent *e = &ev[k];
			char usdc[U256_DEC_MAX + 1];
			bool hide = (e->kind == TIPEV_ESCROWED_CLAIMED || e->kind == TIPEV_ESCROWED_REFUNDED) &&
			    keys_has(private_ids, e->tip_id);

			if (e->has_usdc && dec65(&e->usdc, usdc) < 0) {
				snprintf(s->db->err, sizeof(s->db->err),
				    "an amount has more than 65 digits (block %" PRIu64 ")", e->block_number);
				return DB_ERROR;
			}
			if (k > i)
				sql_add(q, ",");
			sql_add(q, "(?,?,?,?,?,?,?,?,", SQL_U64(s->chain_id),
			    SQL_BYTES(e->tx_hash, 32), SQL_U64(e->log_index), SQL_BYTES(ct, 20),
			    SQL_U64(e->block_number), SQL_BYTES(e->block_hash, 32), SQL_U64(e->block_time),
			    SQL_TEXT(tipev_name(e->kind)));
			sql_add(q, "?,?,?,?,?,?,", e->has_tip_id ? SQL_U64(e->tip_id) : SQL_NULL,
			    SQL_BYTES(e->has_handle_hash ? e->handle_hash : NULL, 32),
			    SQL_TEXT(e->has_agent_id ? e->agent_id : NULL),
			    SQL_BYTES(e->has_actor ? e->actor.b : NULL, 20),
			    SQL_BYTES(e->has_wallet ? e->wallet.b : NULL, 20),
			    e->has_usdc && !hide ? SQL_DEC(usdc) : SQL_NULL);
			sql_add(q, "?,?,?,?)", e->mint_attestation < 0 ? SQL_NULL : SQL_BOOL(e->mint_attestation),
			    SQL_TEXT(e->has_display ? e->display : NULL),
			    SQL_TEXT(e->has_note && !tipev_is_private(e->kind) ? e->note : NULL),
			    SQL_BYTES(e->has_commitment ? e->commitment : NULL, 32));
		}
		if ((rc = db_exec(s->db, q)) != DB_OK)
			return rc;
		*g->stored += (size_t)mysql_affected_rows(s->db->my);
	}
	return DB_OK;
}

/*
 * The keys of a piece's link events (links) or registry events (else)
 * (sql/015_tip_event_keys.sql), INSERT IGNORE like the events, so a range
 * read twice stores them once.
 */
static enum db_rc
insert_keys(struct trange *g, const struct tipevent *ev, size_t n, bool links)
{
	struct sql *q = &g->q;
	bool any = false;

	sql_reset(q);
	if (links)
		sql_add(q, "INSERT IGNORE INTO tip_link_keys (chain_id, handle_hash, tx_hash, log_index) VALUES ");
	else
		sql_add(q, "INSERT IGNORE INTO tip_agent_keys (chain_id, agent_id, tx_hash, log_index) VALUES ");
	for (size_t i = 0; i < n; i++) {
		const struct tipevent *e = &ev[i];
		bool link = (e->kind == TIPEV_LINKED || e->kind == TIPEV_RELINKED) && e->has_handle_hash;
		bool agent = (e->kind == TIPEV_AGENT_REGISTERED || e->kind == TIPEV_AGENT_TRANSFER ||
		    e->kind == TIPEV_AGENT_WALLET_SET) && e->has_agent_id;

		if (links ? !link : !agent)
			continue;
		if (any)
			sql_add(q, ",");
		sql_add(q, "(?,?,?,?)", SQL_U64(g->s->chain_id),
		    links ? SQL_BYTES(e->handle_hash, 32) : SQL_TEXT(e->agent_id), SQL_BYTES(e->tx_hash, 32),
		    SQL_U64(e->log_index));
		any = true;
	}
	return any ? db_exec(g->s->db, q) : DB_OK;
}

/* A piece's handle preimages: canonical display handles, and agent:<id> of registrations. */
static enum db_rc
insert_names(struct trange *g, const struct tipevent *ev, size_t n)
{
	struct sql *q = &g->q;
	bool any = false;

	sql_reset(q);
	sql_add(q, "INSERT IGNORE INTO handle_names (handle_hash, handle) VALUES ");
	for (size_t i = 0; i < n; i++) {
		const struct tipevent *e = &ev[i];
		char name[6 + TIPEV_AGENT_ID_MAX + 1];
		uint8_t hh[32];

		if (e->has_display && e->display_canonical) {
			if (any)
				sql_add(q, ",");
			sql_add(q, "(?,?)", SQL_BYTES(e->handle_hash, 32), SQL_TEXT(e->display));
			any = true;
		} else if (e->kind == TIPEV_AGENT_REGISTERED && strcmp(e->agent_id, "0") != 0) {
			snprintf(name, sizeof(name), "agent:%s", e->agent_id);
			keccak256(name, strlen(name), hh);
			if (any)
				sql_add(q, ",");
			sql_add(q, "(?,?)", SQL_BYTES(hh, 32), SQL_TEXT(name));
			any = true;
		}
	}
	return any ? db_exec(g->s->db, q) : DB_OK;
}

/* The keys a piece's events touch, into t. */
static void
note_touched(struct touched *t, const struct tipevent *ev, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct tipevent *e = &ev[i];

		if (e->has_tip_id)
			keys_u64(&t->tips, e->tip_id);
		if (e->has_tip_id && tipev_creates_tip(e->kind)) {
			keys_u64(&t->created, e->tip_id);
			t->lo = e->block_number < t->lo ? e->block_number : t->lo;
			t->hi = e->block_number > t->hi ? e->block_number : t->hi;
		}
		if (e->has_tip_id && (e->kind == TIPEV_ATTESTATION_MINTED || e->kind == TIPEV_ATTESTATION_BURNED))
			keys_u64(&t->attest, e->tip_id);
		if (e->kind == TIPEV_LINKED || e->kind == TIPEV_RELINKED)
			keys_hex(&t->links, e->handle_hash, 32);
		if (e->kind == TIPEV_AGENT_REGISTERED || e->kind == TIPEV_AGENT_TRANSFER ||
		    e->kind == TIPEV_AGENT_WALLET_SET)
			keys_add(&t->agents, e->agent_id);
	}
}

static enum db_rc
range_body(struct db *db, void *arg)
{
	struct trange *g = arg;
	struct touched t = { .lo = UINT64_MAX };
	struct keys private_ids = { 0 };
	enum db_rc rc;

	(void)db;
	*g->stored = 0;
	if ((rc = store_lease_check(g->s)) != DB_OK)
		return rc;
	/* Each piece's rows as it arrives; then the checkpoint and the derived tables. */
	for (size_t i = 0;; i++) {
		const struct tipevent *ev;
		size_t n;
		int p = g->f->piece(g->f, i, &ev, &n);

		if (p > 0)
			break;
		if (p < 0) {
			snprintf(g->s->db->err, sizeof(g->s->db->err), "fetching the range failed");
			rc = DB_ERROR;
			goto out;
		}
		rc = private_settlements(g->s, &g->q, ev, n, &private_ids);
		if (rc == DB_OK)
			rc = insert_events(g, ev, n, &private_ids);
		keys_free(&private_ids);
		if (rc != DB_OK || (rc = insert_keys(g, ev, n, true)) != DB_OK ||
		    (rc = insert_keys(g, ev, n, false)) != DB_OK || (rc = insert_names(g, ev, n)) != DB_OK)
			goto out;
		note_touched(&t, ev, n);
	}
	if ((rc = store_advance(g->s, &g->q, g->f->blocks, g->f->nb, g->f->to, g->f->to_hash)) == DB_OK &&
	    (rc = refresh(g->s, &g->q, &t)) == DB_OK)
		rc = store_fence(g->s);
out:
	touched_free(&t);
	keys_free(&private_ids);
	return rc;
}

static int
sql_big(struct sql *q)
{
	char *p = malloc(SQL_MAX);

	sql_on(q, p, p ? SQL_MAX : 0);
	return p ? 0 : -1;
}

enum db_rc
tipstore_range(struct store *s, struct tipfeed *f, size_t *stored)
{
	struct trange g = { .s = s, .f = f, .stored = stored };
	enum db_rc rc = DB_ERROR;

	*stored = 0;
	if (sql_big(&g.q) == 0) {
		rc = db_txn(s->db, range_body, &g);
		free(g.q.p);
	}
	if (rc != DB_OK)
		*stored = 0;
	return rc;
}

struct tunwind {
	struct store *s;
	int64_t fork;
	size_t *removed;
	struct sql q;
};

/* Keys of one column of this contract's events above the fork into k. */
static enum db_rc
collect_above(struct tunwind *u, const char *select_list, struct keys *k)
{
	struct store *s = u->s;
	struct sql *q = &u->q;
	uint8_t ct[20];
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	contract_bytes(s, ct);
	sql_reset(q);
	/* select_list is one of the literals below, never data. */
	if (strcmp(select_list, "tip") == 0)
		sql_add(q, "SELECT DISTINCT tip_id FROM tip_events WHERE tip_id IS NOT NULL");
	else if (strcmp(select_list, "link") == 0)
		sql_add(q, "SELECT DISTINCT LOWER(HEX(handle_hash)) FROM tip_events "
		    "WHERE event IN ('Linked', 'Relinked')");
	else
		sql_add(q, "SELECT DISTINCT agent_id FROM tip_events WHERE event IN ('AgentRegistered', "
		    "'AgentTransfer', 'AgentWalletSet')");
	sql_add(q, " AND chain_id = ? AND contract = ? AND block_number > ?", SQL_U64(s->chain_id),
	    SQL_BYTES(ct, 20), SQL_I64(u->fork));
	if ((rc = db_query(s->db, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL)
		if (row[0])
			keys_add(k, row[0]);
	if (res)
		mysql_free_result(res);
	return k->oom ? DB_ERROR : DB_OK;
}

static enum db_rc
unwind_body(struct db *db, void *arg)
{
	struct tunwind *u = arg;
	struct store *s = u->s;
	struct sql *q = &u->q;
	struct touched t = { 0 };
	uint8_t ct[20];
	enum db_rc rc;

	(void)db;
	*u->removed = 0;
	if ((rc = store_lease_check(s)) != DB_OK)
		return rc;
	contract_bytes(s, ct);
	if ((rc = collect_above(u, "tip", &t.tips)) != DB_OK ||
	    (rc = collect_above(u, "link", &t.links)) != DB_OK ||
	    (rc = collect_above(u, "agent", &t.agents)) != DB_OK)
		goto out;
	/* Any tip above the fork may have lost an attestation event. */
	for (size_t i = 0; i < t.tips.n; i++)
		keys_add(&t.attest, t.tips.v[i]);
	/* The keys of the events about to go, found from the events (sql/015_tip_event_keys.sql). */
	for (int links = 1; links >= 0; links--) {
		sql_reset(q);
		if (links)
			sql_add(q, KEYS_ABOVE("tip_link_keys", "handle_hash"), SQL_U64(s->chain_id), SQL_BYTES(ct, 20),
			    SQL_I64(u->fork));
		else
			sql_add(q, KEYS_ABOVE("tip_agent_keys", "agent_id"), SQL_U64(s->chain_id), SQL_BYTES(ct, 20),
			    SQL_I64(u->fork));
		if ((rc = db_exec(s->db, q)) != DB_OK)
			goto out;
	}
	sql_reset(q);
	sql_add(q, "DELETE FROM tip_events WHERE chain_id = ? AND contract = ? AND block_number > ?",
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64(u->fork));
	if ((rc = db_exec(s->db, q)) != DB_OK)
		goto out;
	*u->removed = (size_t)mysql_affected_rows(s->db->my);
	sql_reset(q);
	sql_add(q, "DELETE FROM indexer_blocks WHERE chain_id = ? AND contract = ? AND block_number > ?",
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20), SQL_I64(u->fork));
	if ((rc = db_exec(s->db, q)) != DB_OK)
		goto out;
	sql_reset(q);
	sql_add(q, "UPDATE indexer_checkpoints c SET c.block_number = ?, "
	    "c.block_hash = (SELECT b.block_hash FROM indexer_blocks b WHERE b.chain_id = c.chain_id "
	    "AND b.contract = c.contract AND b.block_number = ?), c.updated_at = UTC_TIMESTAMP() "
	    "WHERE c.chain_id = ? AND c.contract = ?", SQL_I64(u->fork), SQL_I64(u->fork),
	    SQL_U64(s->chain_id), SQL_BYTES(ct, 20));
	if ((rc = db_exec(s->db, q)) != DB_OK)
		goto out;
	if ((rc = refresh(s, q, &t)) == DB_OK)
		rc = store_fence(s);
out:
	touched_free(&t);
	return rc;
}

enum db_rc
tipstore_rollback(struct store *s, int64_t fork, size_t *removed)
{
	struct tunwind u = { .s = s, .fork = fork, .removed = removed };
	enum db_rc rc = DB_ERROR;

	*removed = 0;
	if (sql_big(&u.q) == 0) {
		rc = db_txn(s->db, unwind_body, &u);
		free(u.q.p);
	}
	if (rc != DB_OK)
		*removed = 0;
	return rc;
}
