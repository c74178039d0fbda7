/*
 * tippoints.c: points from the tip index (tippoints.h; docs/PROTOCOL.md,
 * Points).
 */
#include <stdlib.h>
#include <string.h>

#include "tippoints.h"
#include "banned.h"

/*
 * Every tip read for points: the tip, its tipper and handle, the wallet it
 * paid, and its handle's current wallet (a linked social handle's, or an
 * agent's payout wallet).
 */
#define TIP_COLUMNS "t.tip_id, t.block_time, t.tipper, t.handle_hash, t.recipient, " \
	"COALESCE(l.wallet, a.payout_wallet), t.is_private, t.status = 'refunded', " \
	"IFNULL(t.usdc_amount, 0)"
#define TIP_FROM "tips t LEFT JOIN handle_links l ON l.chain_id = t.chain_id " \
	"AND l.handle_hash = t.handle_hash LEFT JOIN agents a ON a.chain_id = t.chain_id " \
	"AND a.agent_id = t.agent_id"

/* Wallets per back query (an IN list). */
#define BACK_CHUNK 200

struct tipvec {
	struct points_tip *v;
	size_t n, cap;
	bool failed;
};

static void
tipvec_free(struct tipvec *t)
{
	free(t->v);
	memset(t, 0, sizeof(*t));
}

static struct points_tip *
tipvec_push(struct tipvec *t)
{
	if (t->n == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 64;
		struct points_tip *v;

		if (t->cap >= TIPPOINTS_MAX_TIPS) {
			t->failed = true;
			return NULL;
		}
		if (cap > TIPPOINTS_MAX_TIPS)
			cap = TIPPOINTS_MAX_TIPS;
		v = realloc(t->v, cap * sizeof(*v));
		if (v == NULL) {
			t->failed = true;
			return NULL;
		}
		t->v = v;
		t->cap = cap;
	}
	memset(&t->v[t->n], 0, sizeof(t->v[0]));
	return &t->v[t->n++];
}

/* Append the rows of a TIP_COLUMNS query to t. */
static enum db_rc
read_tips(struct db *d, const struct sql *q, struct tipvec *t)
{
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	struct u256 usdc;
	enum db_rc rc;

	if ((rc = db_query(d, q, &res)) != DB_OK)
		return rc;
	while (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);
		struct points_tip *p = tipvec_push(t);

		if (p == NULL)
			break;
		if ((rc = db_row_u64(row, 0, "tip_id", &p->tip_id)) != DB_OK ||
		    (rc = db_row_u64(row, 1, "block_time", &p->time)) != DB_OK ||
		    (rc = db_row_bool(row, 6, "is_private", &p->is_private)) != DB_OK ||
		    (rc = db_row_bool(row, 7, "refunded", &p->refunded)) != DB_OK ||
		    (rc = db_row_u256(row, 8, "usdc_amount", &usdc)) != DB_OK)
			break;
		/* Saturated: only the floor is compared. */
		if (u256_to_u64(&usdc, &p->usdc) < 0)
			p->usdc = UINT64_MAX;
		if (row[2] && len[2] == 20)
			memcpy(p->tipper, row[2], 20);
		if (row[3] && len[3] == 32)
			memcpy(p->handle, row[3], 32);
		if (row[4] && len[4] == 20)
			points_tip_wallet(p, (const uint8_t *)row[4]);
		if (row[5] && len[5] == 20)
			points_tip_wallet(p, (const uint8_t *)row[5]);
	}
	if (res)
		mysql_free_result(res);
	return t->failed ? DB_ERROR : rc;
}

enum db_rc
tippoints_wallet_of(struct db *d, uint64_t chain, const char *handle, const uint8_t hash[32],
    uint8_t wallet[20], bool *found)
{
	char b[400];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	enum db_rc rc;

	*found = false;
	if (strncmp(handle, "agent:", 6) == 0)
		sql_add(&q, "SELECT payout_wallet FROM agents WHERE chain_id = ? AND agent_id = ?",
		    SQL_U64(chain), SQL_TEXT(handle + 6));
	else
		sql_add(&q, "SELECT wallet FROM handle_links WHERE chain_id = ? AND handle_hash = ?",
		    SQL_U64(chain), SQL_BYTES(hash, 32));
	if ((rc = db_query(d, &q, &res)) != DB_OK)
		return rc;
	if (res && (row = mysql_fetch_row(res)) != NULL) {
		unsigned long *len = mysql_fetch_lengths(res);

		if (row[0] && len[0] == 20) {
			memcpy(wallet, row[0], 20);
			*found = true;
		}
	}
	if (res)
		mysql_free_result(res);
	return DB_OK;
}

enum db_rc
tippoints_clock(struct db *d, uint64_t chain, uint64_t *as_of)
{
	char b[200];
	struct sql q = SQL_ON(b);
	bool found;

	sql_add(&q, "SELECT MAX(block_time) FROM tips WHERE chain_id = ?", SQL_U64(chain));
	return db_query_u64(d, &q, as_of, &found);
}

/* Tips sent by any wallet of w[0..n) (the circular rule's back tips of a handle). */
static enum db_rc
read_sent_by(struct db *d, uint64_t chain, uint8_t (*w)[20], size_t n, struct tipvec *t)
{
	size_t cap = 600 + BACK_CHUNK * 48;
	char *b = malloc(cap);
	enum db_rc rc = DB_OK;

	if (b == NULL)
		return DB_ERROR;
	for (size_t i = 0; i < n && rc == DB_OK; i += BACK_CHUNK) {
		struct sql q;

		sql_on(&q, b, cap);
		sql_add(&q, "SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND t.tipper IN (?",
		    SQL_U64(chain), SQL_BYTES(w[i], 20));
		for (size_t j = i + 1; j < n && j < i + BACK_CHUNK; j++)
			sql_add(&q, ", ?", SQL_BYTES(w[j], 20));
		sql_add(&q, ")");
		rc = read_tips(d, &q, t);
	}
	free(b);
	return rc;
}

static int
wallet_cmp(const void *a, const void *b)
{
	return memcmp(a, b, 20);
}

/*
 * The circular rule's back tips of t: every tip sent by a recipient
 * wallet of a tip in t, appended to back.
 */
static enum db_rc
read_back(struct db *d, uint64_t chain, const struct tipvec *t, struct tipvec *back)
{
	uint8_t (*w)[20];
	size_t nw = 0, k = 0;
	enum db_rc rc = DB_OK;

	if (t->n == 0)
		return DB_OK;
	if ((w = malloc(t->n * POINTS_WALLETS * 20)) == NULL)
		return DB_ERROR;
	for (size_t i = 0; i < t->n; i++)
		for (unsigned j = 0; j < t->v[i].nwallets; j++)
			memcpy(w[nw++], t->v[i].wallets[j], 20);
	qsort(w, nw, 20, wallet_cmp);
	for (size_t i = 0; i < nw; i++)
		if (k == 0 || memcmp(w[k - 1], w[i], 20) != 0)
			memmove(w[k++], w[i], 20);
	if (k > 0)
		rc = read_sent_by(d, chain, w, k, back);
	free(w);
	return rc;
}

/* Judge t (points_judge) against its back tips, read here into back. */
static enum db_rc
judge(struct db *d, uint64_t chain, struct tipvec *t, struct tipvec *back)
{
	enum db_rc rc;

	if ((rc = read_back(d, chain, t, back)) != DB_OK)
		return rc;
	return points_judge(t->v, t->n, back->v, back->n) < 0 ? DB_ERROR : DB_OK;
}

/* Tips to the handle, judged with the tips its recipients' wallets sent. */
static enum db_rc
received(struct db *d, uint64_t chain, const uint8_t hash[32], uint64_t as_of, struct points_total *out)
{
	char b[800];
	struct sql q = SQL_ON(b);
	struct tipvec t = { 0 }, back = { 0 };
	enum db_rc rc;

	memset(out, 0, sizeof(*out));
	sql_add(&q, "SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND t.handle_hash = ?",
	    SQL_U64(chain), SQL_BYTES(hash, 32));
	if ((rc = read_tips(d, &q, &t)) != DB_OK || t.n == 0)
		goto out;
	if ((rc = judge(d, chain, &t, &back)) != DB_OK)
		goto out;
	points_received(t.v, t.n, as_of, out);
out:
	tipvec_free(&t);
	tipvec_free(&back);
	return rc;
}

enum db_rc
tippoints_wallet(struct db *d, uint64_t chain, const uint8_t wallet[20], uint64_t as_of,
    struct points_total *out)
{
	char b[1600];
	struct sql q = SQL_ON(b);
	struct tipvec t = { 0 }, back = { 0 };
	enum db_rc rc;

	memset(out, 0, sizeof(*out));
	sql_add(&q, "SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND t.tipper = ?",
	    SQL_U64(chain), SQL_BYTES(wallet, 20));
	if ((rc = read_tips(d, &q, &t)) != DB_OK || t.n == 0)
		goto out;
	/* Tips that reached this wallet: paid to it, or to a handle whose wallet it is now. */
	sql_reset(&q);
	sql_add(&q, "SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND t.recipient = ? "
	    "UNION SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND l.wallet = ? "
	    "UNION SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND a.payout_wallet = ?",
	    SQL_U64(chain), SQL_BYTES(wallet, 20), SQL_U64(chain), SQL_BYTES(wallet, 20),
	    SQL_U64(chain), SQL_BYTES(wallet, 20));
	if ((rc = read_tips(d, &q, &back)) != DB_OK)
		goto out;
	if (points_judge(t.v, t.n, back.v, back.n) < 0) {
		rc = DB_ERROR;
		goto out;
	}
	points_sent(t.v, t.n, as_of, out);
out:
	tipvec_free(&t);
	tipvec_free(&back);
	return rc;
}

enum db_rc
tippoints_handle(struct db *d, uint64_t chain, const char *handle, const uint8_t hash[32],
    struct tippoints *out)
{
	enum db_rc rc;

	memset(out, 0, sizeof(*out));
	if ((rc = tippoints_wallet_of(d, chain, handle, hash, out->wallet, &out->linked)) != DB_OK ||
	    (rc = tippoints_clock(d, chain, &out->as_of)) != DB_OK ||
	    (rc = received(d, chain, hash, out->as_of, &out->received)) != DB_OK)
		return rc;
	if (out->linked)
		rc = tippoints_wallet(d, chain, out->wallet, out->as_of, &out->sent);
	return rc;
}

/* Pair order of the wanted tips: handle, then tipper. */
static int
want_pair_cmp(const void *pa, const void *pb)
{
	const struct tippoints_tip *a = pa, *b = pb;
	int c = memcmp(a->handle, b->handle, 32);

	return c != 0 ? c : memcmp(a->tipper, b->tipper, 20);
}

static int
want_id_cmp(const void *pa, const void *pb)
{
	const struct tippoints_tip *a = pa, *b = pb;

	return a->tip_id < b->tip_id ? -1 : a->tip_id > b->tip_id;
}

/*
 * The tips of every pair of want[0..n), one query per handle and chunk of
 * its distinct tippers (a receipt's tips are mostly one handle's).
 */
static enum db_rc
read_pairs(struct db *d, uint64_t chain, struct tippoints_tip *want, size_t n, struct tipvec *t)
{
	size_t cap = 600 + BACK_CHUNK * 48;
	char *b = malloc(cap);
	enum db_rc rc = DB_OK;

	if (b == NULL)
		return DB_ERROR;
	qsort(want, n, sizeof(*want), want_pair_cmp);
	for (size_t i = 0, j; i < n && rc == DB_OK; i = j) {
		struct sql q;
		size_t k = 1;

		sql_on(&q, b, cap);
		sql_add(&q, "SELECT " TIP_COLUMNS " FROM " TIP_FROM " WHERE t.chain_id = ? AND "
		    "t.handle_hash = ? AND t.tipper IN (?", SQL_U64(chain), SQL_BYTES(want[i].handle, 32),
		    SQL_BYTES(want[i].tipper, 20));
		/* The run of this handle; a chunk ends only where the tipper changes. */
		for (j = i + 1; j < n && memcmp(want[j].handle, want[i].handle, 32) == 0; j++) {
			if (memcmp(want[j].tipper, want[j - 1].tipper, 20) == 0)
				continue;
			if (k == BACK_CHUNK)
				break;
			sql_add(&q, ", ?", SQL_BYTES(want[j].tipper, 20));
			k++;
		}
		sql_add(&q, ")");
		rc = read_tips(d, &q, t);
	}
	free(b);
	return rc;
}

enum db_rc
tippoints_tips(struct db *d, uint64_t chain, struct tippoints_tip *want, size_t n)
{
	struct tipvec t = { 0 }, back = { 0 };
	enum db_rc rc;

	for (size_t i = 0; i < n; i++) {
		want[i].found = false;
		want[i].reason = POINTS_REFUNDED;
		want[i].rank = 0;
	}
	if (n == 0)
		return DB_OK;
	if ((rc = read_pairs(d, chain, want, n, &t)) != DB_OK || t.n == 0)
		goto out;
	if ((rc = judge(d, chain, &t, &back)) != DB_OK)
		goto out;
	qsort(want, n, sizeof(*want), want_id_cmp);
	for (size_t i = 0; i < t.n; i++) {
		struct tippoints_tip k = { .tip_id = t.v[i].tip_id }, *f;

		f = bsearch(&k, want, n, sizeof(*want), want_id_cmp);
		if (f != NULL) {
			f->found = true;
			f->reason = t.v[i].reason;
			f->rank = t.v[i].rank;
		}
	}
out:
	qsort(want, n, sizeof(*want), want_id_cmp);
	tipvec_free(&t);
	tipvec_free(&back);
	return rc;
}

const struct tippoints_tip *
tippoints_tip_find(const struct tippoints_tip *want, size_t n, uint64_t tip_id)
{
	struct tippoints_tip k = { .tip_id = tip_id };

	return bsearch(&k, want, n, sizeof(*want), want_id_cmp);
}
