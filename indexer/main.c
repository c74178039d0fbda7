/*
 * waymark-indexer: the only writer of chain facts. Reads, with eth_getLogs
 * in bounded block ranges and only past the confirmation depth, four
 * sources, each with its own checkpoint: the companion contract's
 * RoutedBoon events (store.c), and the tips contract's ten events, the
 * attestation contract's mints and burns and the identity registry's
 * registrations, transfers and agent wallets (tipstore.c). Each range is
 * stored with its checkpoint in one transaction, so the indexer can be
 * killed at any moment and resume without loss or duplicates. Before each
 * range it checks that the checkpoint block is still canonical; if not, it
 * walks back through the block hashes it recorded to the fork point and
 * removes what lies above. The sources take turns, one range each. A dense
 * tips-kind range comes in pieces, the next fetched by a thread while this
 * one is stored (index_range; docs/ARCHITECTURE.md, Indexer).
 * RPC or database failures are recorded for /health and retried with
 * exponential backoff, each source on its own (one stuck source does
 * not hold the others back).
 * Several may run against one database (one per host): only the holder
 * of the lease indexes, the others stand by (lease.h; docs/ARCHITECTURE.md,
 * Indexer).
 *
 * Usage: waymark-indexer [-c config] [-x]
 *   -x  exit once caught up with the safe head, printing throughput
 * SIGTERM (SIGINT, SIGQUIT, SIGUSR1): finish the current step, release
 * the lease, then exit 0.
 * With -x a standby waits for the lease before it indexes.
 * Started as root, it becomes run_user (lib/runas.h) once the configuration
 * is read, before it opens a connection.
 */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cabundle.h"
#include "config.h"
#include "db.h"
#include "hex.h"
#include "lease.h"
#include "routedboon.h"
#include "rpc.h"
#include "runas.h"
#include "store.h"
#include "tipevent.h"
#include "banned.h"

#define BLOCK_BATCH 500
/* A range with at least this many events makes its source's next range come in pieces. */
#define DENSE_EVENTS 1000
#define BACKOFF_MIN_MS 500
#define BACKOFF_MAX_MS 30000

static volatile sig_atomic_t stopping;

static void
on_term(int signo)
{
	(void)signo;
	stopping = 1;
}

enum src_kind { SRC_ROUTED, SRC_TIPS, SRC_ATTESTATION, SRC_REGISTRY, SRC__MAX };

/* One contract the indexer follows, with its own checkpoint. */
struct source {
	enum src_kind kind;
	const char *name;
	struct store st;
	uint8_t topics[TIPEV_TOPICS_MAX][32];   /* topic0 values asked for */
	size_t ntopics;
	char contract_text[43];
	uint64_t range;
	bool dense;                /* its last range had DENSE_EVENTS or more */
	uint64_t backoff;          /* ms before the next try after a failure */
	double retry_at;           /* monotonic seconds; 0: due now */
};

struct ix {
	const struct config *cfg;
	struct db db;
	struct rpc rpc;
	struct rpc rpc_ahead;      /* the fetching thread's (index_range) */
	struct source src[SRC__MAX];
	size_t nsrc;
	struct source *cur;        /* the source being stepped */
	struct lease lease;
	bool lease_failing;        /* the last lease statement failed (logged once) */
	bool standby_said;         /* "standing by" is logged since it last held the lease */
	uint64_t indexed;          /* events stored by this process */
	char err[600];
};

static void
sleep_ms(uint64_t ms)
{
	struct timespec ts = { .tv_sec = (time_t)(ms / 1000), .tv_nsec = (long)(ms % 1000) * 1000000 };

	while (!stopping && nanosleep(&ts, &ts) != 0)
		;
}

static double
now_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* eth_blockNumber */
static int
chain_head(struct ix *x, uint64_t *head)
{
	json_object *res = NULL;
	int rc = -1;

	if (rpc_call(&x->rpc, "eth_blockNumber", "[]", &res) == RPC_OK &&
	    json_object_is_type(res, json_type_string) &&
	    rpc_hex_u64(json_object_get_string(res), head) == 0)
		rc = 0;
	else if (x->rpc.err[0] == '\0')
		snprintf(x->rpc.err, sizeof(x->rpc.err), "rpc: eth_blockNumber answered no quantity");
	json_object_put(res);
	if (rc < 0)
		snprintf(x->err, sizeof(x->err), "%s", x->rpc.err);
	return rc;
}

/*
 * What /health may show of an error (lib/rpc.h writes "rpc: ..." texts,
 * some quoting the node): an RPC failure as a code, rpc_node_error (the
 * node refused a call), rpc_bad_reply (an answer of the wrong shape) or
 * rpc_unavailable (no answer); a database failure as database_error; the
 * indexer's own findings (a log it cannot decode) as they are.
 */
static const char *
public_error(const char *err)
{
	if (strncmp(err, "rpc: node error", 15) == 0)
		return "rpc_node_error";
	if (strncmp(err, "rpc: reply", 10) == 0 || strncmp(err, "rpc: batch reply", 16) == 0)
		return "rpc_bad_reply";
	if (strncmp(err, "rpc:", 4) == 0)
		return "rpc_unavailable";
	if (strncmp(err, "database:", 9) == 0)
		return "database_error";
	return err;
}

/*
 * Hashes and timestamps of blocks nums[0..n) (batched). found[i] is false
 * for a block the node does not have (past its head after a reorg).
 */
static int
fetch_blocks(struct rpc *rpc, const uint64_t *nums, size_t n, uint8_t (*hashes)[32], uint64_t *times,
    bool *found, char *err, size_t errcap)
{
	for (size_t i = 0; i < n; i += BLOCK_BATCH) {
		size_t k = n - i < BLOCK_BATCH ? n - i : BLOCK_BATCH;
		char (*pbuf)[48] = calloc(k, sizeof(*pbuf));
		const char **params = calloc(k, sizeof(*params));
		json_object **res = calloc(k, sizeof(*res));
		int rc = 0;

		if (pbuf == NULL || params == NULL || res == NULL) {
			free(pbuf);
			free(params);
			free(res);
			snprintf(err, errcap, "out of memory");
			return -1;
		}
		for (size_t j = 0; j < k; j++) {
			snprintf(pbuf[j], sizeof(pbuf[j]), "[\"0x%" PRIx64 "\",false]", nums[i + j]);
			params[j] = pbuf[j];
		}
		if (rpc_batch(rpc, "eth_getBlockByNumber", params, k, res) != RPC_OK) {
			snprintf(err, errcap, "%s", rpc->err);
			rc = -1;
		}
		for (size_t j = 0; j < k && rc == 0; j++) {
			found[i + j] = res[j] != NULL;
			if (!found[i + j])
				continue;
			if (rpc_block_ref(res[j], hashes[i + j], &times[i + j]) < 0) {
				snprintf(err, errcap, "rpc: block %" PRIu64 " lacks hash or timestamp",
				    nums[i + j]);
				rc = -1;
			}
		}
		for (size_t j = 0; j < k; j++)
			json_object_put(res[j]);
		free(pbuf);
		free(params);
		free(res);
		if (rc < 0)
			return -1;
	}
	return 0;
}

static int
db_fail(struct ix *x, const char *what)
{
	snprintf(x->err, sizeof(x->err), "database: %s: %s", what, x->db.err);
	return -1;
}

/* The checkpoint block is no longer canonical: roll back to the fork. */
static int
handle_reorg(struct ix *x, int64_t from)
{
	struct source *src = x->cur;
	struct block_ref refs[256];
	int64_t below = from, fork = (int64_t)src->st.start_block - 1;
	size_t n, removed;

	for (;;) {
		uint64_t nums[256], times[256];
		uint8_t hashes[256][32];
		bool found[256], matched = false;

		if (store_recent_blocks(&src->st, below, refs, 256, &n) != DB_OK)
			return db_fail(x, "reading block hashes");
		if (n == 0)
			break;
		for (size_t i = 0; i < n; i++)
			nums[i] = refs[i].number;
		if (fetch_blocks(&x->rpc, nums, n, hashes, times, found, x->err, sizeof(x->err)) < 0)
			return -1;
		for (size_t i = 0; i < n && !matched; i++)
			if (found[i] && memcmp(hashes[i], refs[i].hash, 32) == 0) {
				fork = (int64_t)refs[i].number;
				matched = true;
			}
		if (matched || n < 256)
			break;
		below = (int64_t)refs[n - 1].number - 1;
	}
	if ((src->kind == SRC_ROUTED ? store_rollback(&src->st, fork, &removed) :
	    tipstore_rollback(&src->st, fork, &removed)) != DB_OK)
		return db_fail(x, "rolling back a reorg");
	fprintf(stderr, "waymark-indexer: reorg: blocks above %" PRId64 " are no longer canonical; "
	    "removed %zu %s events\n", fork, removed, src->name);
	return 0;
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x > y) - (x < y);
}

/* The block of row i of either kind of row. */
static void
row_block(const struct source *src, void *rows, size_t i, uint64_t *num, const uint8_t **hash,
    uint64_t **time)
{
	if (src->kind == SRC_ROUTED) {
		struct routedboon *r = (struct routedboon *)rows + i;

		*num = r->block_number;
		*hash = r->block_hash;
		*time = &r->block_time;
	} else {
		struct tipevent *e = (struct tipevent *)rows + i;

		*num = e->block_number;
		*hash = e->block_hash;
		*time = &e->block_time;
	}
}

/* The eth_getLogs filter: the contract and its topic0 values. */
static void
log_filter(const struct source *src, uint64_t from, uint64_t to, char *out, size_t cap)
{
	char thex[67];
	size_t o;

	o = (size_t)snprintf(out, cap, "[{\"address\":\"%s\",\"topics\":[[", src->contract_text);
	for (size_t i = 0; i < src->ntopics && o < cap; i++)
		o += (size_t)snprintf(out + o, cap - o, "%s\"%s\"", i ? "," : "",
		    hex_encode(src->topics[i], 32, thex));
	if (o < cap)
		snprintf(out + o, cap - o, "]],\"fromBlock\":\"0x%" PRIx64 "\",\"toBlock\":\"0x%" PRIx64 "\"}]",
		    from, to);
}

#define PIECE_SKIPPED 2
/*
 * A stretch of a range fetched on its own: its logs decoded, each checked
 * against the block the chain has now and given that block's time.
 */
struct piece {
	uint64_t from, to;
	bool last;                 /* ends the range: `to` is the checkpoint block */
	void *rows;                /* struct routedboon or struct tipevent, by the source */
	size_t n;
	uint64_t *nums;            /* distinct blocks of its logs, ascending, then `to` when last */
	uint8_t (*hashes)[32];     /* their hashes */
	size_t nb;
	bool recheck;              /* (last piece) re-read block recheck_num after its own: */
	uint64_t recheck_num;      /* the highest block with logs of the earlier pieces, */
	uint8_t recheck_hash[32];  /* whose hash they read */
	int rc;                    /* 0; 1: the node refused it (retry smaller); -1: failed;
	                            * PIECE_SKIPPED: not fetched, the range being abandoned */
	char err[600];
};

static void
piece_free(struct piece *p)
{
	free(p->rows);
	free(p->nums);
	free(p->hashes);
	p->rows = NULL;
	p->nums = NULL;
	p->hashes = NULL;
}

/* Fetch piece p of src over rpc; p->rc and p->err say how it went. */
static void
fetch_piece(struct rpc *rpc, const struct source *src, struct piece *p)
{
	char params[1200], err[160];
	json_object *logs = NULL;
	uint64_t *times = NULL;
	bool *found = NULL;
	size_t n, nb = 0;
	enum rpc_rc rrc;

	p->rc = -1;
	log_filter(src, p->from, p->to, params, sizeof(params));
	rrc = rpc_call(rpc, "eth_getLogs", params, &logs);
	if (rrc == RPC_ERROR && p->to > p->from) {
		p->rc = 1;
		goto out;
	}
	if (rrc != RPC_OK || !json_object_is_type(logs, json_type_array)) {
		snprintf(p->err, sizeof(p->err), "%s", rrc == RPC_OK ? "rpc: eth_getLogs gave no array" : rpc->err);
		goto out;
	}
	n = json_object_array_length(logs);
	p->rows = calloc(n + 1, src->kind == SRC_ROUTED ? sizeof(struct routedboon) : sizeof(struct tipevent));
	p->nums = calloc(n + 1, sizeof(*p->nums));
	if (p->rows == NULL || p->nums == NULL) {
		snprintf(p->err, sizeof(p->err), "out of memory");
		goto out;
	}
	for (size_t i = 0; i < n; i++) {
		json_object *lg = json_object_array_get_idx(logs, i);
		uint64_t num, *tp;
		const uint8_t *hp;
		int d;

		if (src->kind == SRC_ROUTED)
			d = routedboon_decode(lg, (struct routedboon *)p->rows + p->n, err, sizeof(err));
		else
			d = tipev_decode(lg, src->kind == SRC_TIPS ? TIPSRC_TIPS : src->kind == SRC_ATTESTATION ?
			    TIPSRC_ATTESTATION : TIPSRC_REGISTRY, (struct tipevent *)p->rows + p->n, err, sizeof(err));
		if (d < 0) {
			snprintf(p->err, sizeof(p->err), "%s log %zu of blocks %" PRIu64 "-%" PRIu64 ": %s",
			    src->name, i, p->from, p->to, err);
			goto out;
		}
		if (d > 0)
			continue;       /* an event of no interest (another metadata key) */
		row_block(src, p->rows, p->n, &num, &hp, &tp);
		if (num < p->from || num > p->to) {
			snprintf(p->err, sizeof(p->err), "rpc: a log outside the asked range");
			goto out;
		}
		p->nums[nb++] = num;
		p->n++;
	}
	json_object_put(logs);
	logs = NULL;
	if (p->last)
		p->nums[nb++] = p->to;
	qsort(p->nums, nb, sizeof(*p->nums), cmp_u64);
	{
		size_t m = 0;

		for (size_t i = 0; i < nb; i++)
			if (m == 0 || p->nums[m - 1] != p->nums[i])
				p->nums[m++] = p->nums[i];
		nb = m;
	}
	p->hashes = calloc(nb + 1, sizeof(*p->hashes));
	times = calloc(nb + 1, sizeof(*times));
	found = calloc(nb + 1, sizeof(*found));
	if (p->hashes == NULL || times == NULL || found == NULL) {
		snprintf(p->err, sizeof(p->err), "out of memory");
		goto out;
	}
	if (fetch_blocks(rpc, p->nums, nb, p->hashes, times, found, p->err, sizeof(p->err)) < 0)
		goto out;
	/* Every log must come from the block the chain has now, else retry. */
	for (size_t i = 0; i < p->n; i++) {
		uint64_t num, *tp;
		const uint8_t *hp;
		size_t k = 0;

		row_block(src, p->rows, i, &num, &hp, &tp);
		while (p->nums[k] != num)
			k++;
		if (!found[k] || memcmp(p->hashes[k], hp, 32) != 0) {
			snprintf(p->err, sizeof(p->err), "chain changed while reading blocks %" PRIu64 "-%"
			    PRIu64 "; retrying", p->from, p->to);
			goto out;
		}
		*tp = times[k];
	}
	if (p->last && !found[nb - 1]) {
		snprintf(p->err, sizeof(p->err), "rpc: block %" PRIu64 " not found", p->to);
		goto out;
	}
	/*
	 * The earlier pieces read their blocks a while ago: their highest
	 * block with logs must still be the chain's (its hash commits to every
	 * block below it), else a reorg in between would go unnoticed.
	 */
	if (p->recheck) {
		uint8_t h[32];
		uint64_t t;
		bool f;

		if (fetch_blocks(rpc, &p->recheck_num, 1, &h, &t, &f, p->err, sizeof(p->err)) < 0)
			goto out;
		if (!f || memcmp(h, p->recheck_hash, 32) != 0) {
			snprintf(p->err, sizeof(p->err), "chain changed while reading blocks %" PRIu64 "-%"
			    PRIu64 "; retrying", p->recheck_num, p->to);
			goto out;
		}
	}
	p->nb = nb;
	p->rc = 0;
out:
	json_object_put(logs);
	free(times);
	free(found);
}

/*
 * A range in pieces (struct tipfeed for the tips store): the pieces are
 * fetched in order by a thread of their own with its own RPC connection,
 * so the next is read from the node while this one is stored.
 */
#define PIECES_MAX 4
struct pieces {
	struct tipfeed feed;       /* first: the store sees only this */
	const struct source *src;
	struct rpc *rpc;
	struct piece p[PIECES_MAX];
	size_t np;
	pthread_mutex_t mu;
	pthread_cond_t cv;
	size_t ready;              /* pieces fetched (or given up on) */
	bool stop;                 /* the range is abandoned: fetch no more */
	bool fed_failure;          /* the store was told a piece failed (main thread) */
	bool join_failed;          /* joining the pieces ran out of memory (main thread) */
	struct block_ref *refs;    /* the blocks seen, once joined */
};

static void *
fetch_pieces(void *arg)
{
	struct pieces *ps = arg;
	bool failed = false;

	for (size_t i = 0; i < ps->np; i++) {
		pthread_mutex_lock(&ps->mu);
		failed = failed || ps->stop;
		pthread_mutex_unlock(&ps->mu);
		if (failed) {
			ps->p[i].rc = PIECE_SKIPPED;
		} else {
			struct piece *p = &ps->p[i];

			/* The pieces ascend: the latest earlier one with logs has the highest block. */
			for (size_t j = i; p->last && j-- > 0 && !p->recheck;)
				if (ps->p[j].nb > 0) {
					p->recheck = true;
					p->recheck_num = ps->p[j].nums[ps->p[j].nb - 1];
					memcpy(p->recheck_hash, ps->p[j].hashes[ps->p[j].nb - 1], 32);
				}
			fetch_piece(ps->rpc, ps->src, p);
			failed = ps->p[i].rc != 0;
		}
		pthread_mutex_lock(&ps->mu);
		ps->ready = i + 1;
		pthread_cond_broadcast(&ps->cv);
		pthread_mutex_unlock(&ps->mu);
	}
	return NULL;
}

/*
 * The whole range's blocks from its pieces (once, on the first call after
 * the last): every block seen but the last piece's last, `to`, which is
 * the checkpoint. The events stay in their pieces.
 */
static int
join_pieces(struct pieces *ps)
{
	const struct piece *last = &ps->p[ps->np - 1];
	size_t nb = 0, k = 0;

	if (ps->refs != NULL)
		return 0;
	for (size_t i = 0; i < ps->np; i++)
		nb += ps->p[i].nb;
	if ((ps->refs = calloc(nb + 1, sizeof(*ps->refs))) == NULL)
		return -1;
	for (size_t i = 0; i < ps->np; i++) {
		const struct piece *p = &ps->p[i];

		for (size_t j = 0; j < p->nb - (p == last ? 1 : 0); j++, k++) {
			ps->refs[k].number = p->nums[j];
			memcpy(ps->refs[k].hash, p->hashes[j], 32);
		}
	}
	ps->feed.blocks = ps->refs;
	ps->feed.nb = k;
	ps->feed.to = last->to;
	ps->feed.to_hash = last->hashes[last->nb - 1];
	return 0;
}

static int
piece_ready(struct tipfeed *f, size_t i, const struct tipevent **ev, size_t *n)
{
	struct pieces *ps = (struct pieces *)f;
	int rc;

	if (i >= ps->np) {
		pthread_mutex_lock(&ps->mu);
		while (ps->ready < ps->np)
			pthread_cond_wait(&ps->cv, &ps->mu);
		pthread_mutex_unlock(&ps->mu);
		if (join_pieces(ps) == 0)
			return 1;
		ps->join_failed = true;
		return -1;
	}
	pthread_mutex_lock(&ps->mu);
	while (ps->ready <= i)
		pthread_cond_wait(&ps->cv, &ps->mu);
	pthread_mutex_unlock(&ps->mu);
	rc = ps->p[i].rc;
	*ev = ps->p[i].rows;
	*n = ps->p[i].n;
	if (rc != 0)
		ps->fed_failure = true;
	return rc == 0 ? 0 : -1;
}

/*
 * How many pieces [from, to] of src is fetched in: one, unless the source
 * is tips-kind, the range spans enough blocks and its last range was
 * dense (many events: the store then takes long enough to hide a fetch).
 */
static size_t
piece_count(const struct source *src, uint64_t from, uint64_t to)
{
	if (src->kind == SRC_ROUTED || !src->dense || to - from + 1 < 2 * PIECES_MAX)
		return 1;
	return PIECES_MAX;
}

/*
 * Index [from, to] of the current source. Returns 0, 1 when the range must
 * be retried smaller (the node refused it), or -1 on error.
 */
static int
index_range(struct ix *x, uint64_t from, uint64_t to)
{
	struct source *src = x->cur;
	struct pieces ps = { .feed = { .piece = piece_ready }, .src = src, .rpc = &x->rpc_ahead };
	uint64_t span = to - from + 1;
	size_t stored = 0, events = 0;
	pthread_t th;
	bool threaded = false, tried = false, joined = true;
	enum db_rc drc = DB_OK;
	int rc = -1;

	pthread_mutex_init(&ps.mu, NULL);
	pthread_cond_init(&ps.cv, NULL);
	ps.np = piece_count(src, from, to);
	for (size_t i = 0; i < ps.np; i++) {
		ps.p[i].from = from + span * i / ps.np;
		ps.p[i].to = from + span * (i + 1) / ps.np - 1;
	}
	ps.p[ps.np - 1].last = true;
	if (ps.np > 1 && pthread_create(&th, NULL, fetch_pieces, &ps) == 0) {
		threaded = true;
	} else {
		/* One piece, or no thread: fetch here, over the main connection. */
		ps.rpc = &x->rpc;
		fetch_pieces(&ps);
	}
	/*
	 * Store unless the fetch, done already, failed. With a thread, the
	 * tips store takes each piece as it comes; its transaction stays open
	 * while it waits for the next (docs/ARCHITECTURE.md, Indexer).
	 */
	if (!threaded && ps.p[ps.np - 1].rc != 0) {
		/* nothing to store */
	} else if (src->kind == SRC_ROUTED) {
		struct tipfeed *f = &ps.feed;

		/* One piece always (piece_count): its rows are the range's. */
		tried = true;
		if ((joined = join_pieces(&ps) == 0))
			drc = store_range(&src->st, ps.p[0].rows, ps.p[0].n, f->blocks, f->nb, f->to, f->to_hash,
			    &stored);
	} else {
		tried = true;
		drc = tipstore_range(&src->st, &ps.feed, &stored);
	}
	if (threaded) {
		pthread_mutex_lock(&ps.mu);
		ps.stop = true;
		pthread_mutex_unlock(&ps.mu);
		pthread_join(th, NULL);
	}
	/*
	 * A piece's failure is the range's error when the store did not run or
	 * stopped for it; a piece that failed after the store had failed on
	 * its own does not hide the database's error.
	 */
	for (size_t i = 0; i < ps.np && (!tried || ps.fed_failure); i++)
		if (ps.p[i].rc == 1 || ps.p[i].rc == -1) {
			if (ps.p[i].rc == 1)
				rc = 1;
			else
				snprintf(x->err, sizeof(x->err), "%s", ps.p[i].err);
			goto out;
		}
	if (!joined || ps.join_failed) {
		snprintf(x->err, sizeof(x->err), "out of memory joining the pieces of blocks %" PRIu64 "-%" PRIu64,
		    from, to);
		goto out;
	}
	if (drc != DB_OK) {
		db_fail(x, "storing a range");
		goto out;
	}
	for (size_t i = 0; i < ps.np; i++)
		events += ps.p[i].n;
	src->dense = events >= DENSE_EVENTS;
	x->indexed += stored;
	rc = 0;
out:
	for (size_t i = 0; i < ps.np; i++)
		piece_free(&ps.p[i]);
	free(ps.refs);
	pthread_mutex_destroy(&ps.mu);
	pthread_cond_destroy(&ps.cv);
	return rc;
}

/*
 * One step: verify the checkpoint, index the next range. Returns 1 when
 * caught up (nothing to do), 0 after progress, -1 on error.
 */
static int
step(struct ix *x, uint64_t *safe_out)
{
	struct checkpoint cp;
	uint64_t head, safe, from, to;
	int r;

	if (chain_head(x, &head) < 0)
		return -1;
	if (store_checkpoint(&x->cur->st, &cp) != DB_OK || store_note_head(&x->cur->st, head) != DB_OK)
		return db_fail(x, "reading the checkpoint");
	safe = head >= x->cfg->confirmations ? head - x->cfg->confirmations : 0;
	*safe_out = safe;
	if (cp.has_hash && cp.number >= 0) {
		uint64_t num = (uint64_t)cp.number, t;
		uint8_t h[32];
		bool found;

		if (fetch_blocks(&x->rpc, &num, 1, &h, &t, &found, x->err, sizeof(x->err)) < 0)
			return -1;
		if (!found || memcmp(h, cp.hash, 32) != 0)
			return handle_reorg(x, cp.number);
	}
	if (cp.number >= 0 && (uint64_t)cp.number >= safe)
		return 1;
	from = (uint64_t)(cp.number + 1);
	if (head < x->cfg->confirmations || from > safe)
		return 1;
	to = safe - from + 1 > x->cur->range ? from + x->cur->range - 1 : safe;
	while ((r = index_range(x, from, to)) == 1) {
		/* The node refused the range (too many results): halve it. */
		x->cur->range = (to - from + 1) / 2 ? (to - from + 1) / 2 : 1;
		to = from + x->cur->range - 1;
	}
	return r;
}

/* Follow one more contract; a zero address turns the source off. */
static void
add_source(struct ix *x, enum src_kind kind, const char *name, const struct addr *a, uint64_t start)
{
	struct source *src;

	if (kind != SRC_ROUTED && addr_is_zero(a))
		return;
	src = &x->src[x->nsrc++];
	src->kind = kind;
	src->name = name;
	src->range = x->cfg->indexer_block_range;
	src->dense = true;         /* until a range says otherwise */
	src->backoff = BACKOFF_MIN_MS;
	addr_format_lower(a, src->contract_text);
	src->st = (struct store){ .db = &x->db, .chain_id = x->cfg->chain_id, .start_block = start,
	    .lease = &x->lease };
	memcpy(src->st.contract_hex, src->contract_text + 2, 41);
	if (kind == SRC_ROUTED) {
		routedboon_topic0(src->topics[0]);
		src->ntopics = 1;
	} else {
		src->ntopics = tipev_topics(kind == SRC_TIPS ? TIPSRC_TIPS : kind == SRC_ATTESTATION ?
		    TIPSRC_ATTESTATION : TIPSRC_REGISTRY, src->topics);
	}
}

/*
 * The lease's turn (lease.h): the holder renews it, a standby tries to
 * take it; the log says when this process becomes the holder or a
 * standby. Returns when the next turn is due (monotonic seconds): a
 * third of the lease on for the holder, a fifth for a standby.
 */
static double
lease_turn(struct ix *x)
{
	struct lease *l = &x->lease;
	bool was = l->held, holds = false;
	char who[LEASE_ID_MAX];
	int64_t left;

	if ((was ? lease_renew(l, &holds) : lease_take(l, &holds)) != DB_OK) {
		if (!x->lease_failing)
			fprintf(stderr, "waymark-indexer: lease: cannot %s the lease: %s (trying again)\n",
			    was ? "renew" : "take", x->db.err);
		x->lease_failing = true;
		return now_s() + (double)l->ms / 5000;
	}
	x->lease_failing = false;
	if (holds && !was) {
		fprintf(stderr, "waymark-indexer: lease: %s holds the indexer lease of chain %" PRIu64
		    " now (%" PRIu64 " ms, renewed every %" PRIu64 " ms): indexing\n", l->id, l->chain_id,
		    l->ms, l->ms / 3);
		x->standby_said = false;
	} else if (!holds && was) {
		fprintf(stderr, "waymark-indexer: lease: lost the indexer lease (it expired before this "
		    "renewal): standing by\n");
	}
	if (!holds && !x->standby_said) {
		if (lease_holder(l, who, sizeof(who), &left) != DB_OK)
			snprintf(who, sizeof(who), "?");
		if (who[0] != '\0')
			fprintf(stderr, "waymark-indexer: lease: %s stands by: %s holds the lease for %" PRId64
			    " ms more\n", l->id, who, left);
		else
			fprintf(stderr, "waymark-indexer: lease: %s stands by: the lease is free, trying again\n",
			    l->id);
		x->standby_said = true;
	}
	return now_s() + (double)l->ms / (holds ? 3000 : 5000);
}

int
main(int argc, char **argv)
{
	const char *conf = getenv("WAYMARK_CONFIG");
	struct config cfg;
	struct ix x;
	struct sigaction sa;
	char err[512], addr[43];
	bool exit_at_head = false;
	uint64_t safe = 0;
	double t0, lease_due = 0;
	int opt;

	while ((opt = getopt(argc, argv, "c:x")) != -1) {
		switch (opt) {
		case 'c': conf = optarg; break;
		case 'x': exit_at_head = true; break;
		default:
			fprintf(stderr, "usage: waymark-indexer [-c config] [-x]\n");
			return 2;
		}
	}
	if (config_load(&cfg, conf, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-indexer: %s\n", err);
		return 2;
	}
	if (cfg.rpc_url[0] == '\0') {
		fprintf(stderr, "waymark-indexer: config: rpc_url (WAYMARK_RPC_URL) is required\n");
		return 2;
	}
	/* Read while still root: run_user need not be able to read it (lib/cabundle.h). */
	if (cabundle_load(cfg.tls_ca_file, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-indexer: %s\n", err);
		return 2;
	}
	if (runas_drop(cfg.run_user, err, sizeof(err)) < 0) {
		fprintf(stderr, "waymark-indexer: %s\n", err);
		return 1;
	}
	memset(&x, 0, sizeof(x));
	x.cfg = &cfg;
	db_init_sole_writer(&x.db, &cfg);
	if (rpc_init(&x.rpc, cfg.rpc_url, (long)cfg.rpc_timeout_ms, cfg.tls_ca_file) < 0 ||
	    rpc_init(&x.rpc_ahead, cfg.rpc_url, (long)cfg.rpc_timeout_ms, cfg.tls_ca_file) < 0) {
		fprintf(stderr, "waymark-indexer: cannot set up HTTP\n");
		return 1;
	}
	lease_init(&x.lease, &x.db, &cfg);
	add_source(&x, SRC_ROUTED, "routed", &cfg.companion_address, cfg.companion_start_block);
	add_source(&x, SRC_TIPS, "tips", &cfg.tips_address, cfg.tips_start_block);
	add_source(&x, SRC_ATTESTATION, "attestation", &cfg.attestation_address, cfg.attestation_start_block);
	add_source(&x, SRC_REGISTRY, "registry", &cfg.identity_registry_address,
	    cfg.identity_registry_start_block);

	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_term;
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	/* multiwatch (tools/stack) stops its child with SIGQUIT; its default "graceful" signal is SIGUSR1. */
	sigaction(SIGQUIT, &sa, NULL);
	sigaction(SIGUSR1, &sa, NULL);
	for (size_t i = 0; i < x.nsrc; i++) {
		struct addr a;

		addr_parse(x.src[i].contract_text, strlen(x.src[i].contract_text), &a);
		fprintf(stderr, "waymark-indexer: %s %s on chain %" PRIu64 " from block %" PRIu64
		    ", %" PRIu64 " confirmations, ranges of %" PRIu64 " blocks\n", x.src[i].name,
		    addr_format(&a, addr), cfg.chain_id, x.src[i].st.start_block, cfg.confirmations,
		    x.src[i].range);
	}
	fprintf(stderr, "waymark-indexer: lease: this indexer is %s; leases of %" PRIu64 " ms\n", x.lease.id,
	    cfg.indexer_lease_ms);
	t0 = now_s();
	while (!stopping) {
		bool idle = true, waiting = false;
		double now = now_s(), wake = now + (double)cfg.indexer_poll_ms / 1000;

		if (now >= lease_due)
			lease_due = lease_turn(&x);
		if (!x.lease.held) {
			now = now_s();
			if (lease_due > now)
				sleep_ms((uint64_t)((lease_due - now) * 1000) + 1);
			continue;
		}
		if (lease_due < wake)
			wake = lease_due;

		/*
		 * The sources take turns: one range (or one reorg repair) each.
		 * A failing source backs off on its own, so the others go on.
		 */
		for (size_t i = 0; i < x.nsrc && !stopping; i++) {
			struct source *src = &x.src[i];
			char msg[sizeof(x.err) + 32];
			int r;

			if (src->retry_at > now) {
				waiting = true;
				if (src->retry_at < wake)
					wake = src->retry_at;
				continue;
			}
			/* A step may be long (a backfill): renew between them too. */
			if (now_s() >= lease_due) {
				lease_due = lease_turn(&x);
				if (!x.lease.held)
					break;
			}
			x.cur = src;
			r = step(&x, &safe);
			if (r < 0 && x.lease.lost) {
				/* A fence found the lease gone: nothing was stored; stand by. */
				fprintf(stderr, "waymark-indexer: lease: lost the indexer lease (%s): standing by\n",
				    x.err);
				x.lease.lost = false;
				lease_due = 0;
				break;
			}
			if (r < 0) {
				fprintf(stderr, "waymark-indexer: %s: %s (retrying in %" PRIu64 " ms)\n", src->name,
				    x.err, src->backoff);
				/* /health shows one error: a tip source's says which it is;
				 * an RPC failure by its code only (the node's words stay in
				 * this log). */
				snprintf(msg, sizeof(msg), "%s%s%s", src->kind == SRC_ROUTED ? "" : src->name,
				    src->kind == SRC_ROUTED ? "" : ": ", public_error(x.err));
				if (store_note_error(&src->st, msg) != DB_OK)
					db_close(&x.db);
				src->retry_at = now_s() + (double)src->backoff / 1000;
				src->backoff = src->backoff * 2 > BACKOFF_MAX_MS ? BACKOFF_MAX_MS : src->backoff * 2;
				waiting = true;
				if (src->retry_at < wake)
					wake = src->retry_at;
				continue;
			}
			src->backoff = BACKOFF_MIN_MS;
			src->retry_at = 0;
			if (r != 1)
				idle = false;
		}
		if (!x.lease.held)
			continue;
		if (!idle)
			continue;
		if (exit_at_head && !waiting)
			break;
		now = now_s();
		if (wake > now)
			sleep_ms((uint64_t)((wake - now) * 1000) + 1);
	}
	if (x.lease.held) {
		if (lease_release(&x.lease) == DB_OK)
			fprintf(stderr, "waymark-indexer: lease: released\n");
		else
			fprintf(stderr, "waymark-indexer: lease: cannot release the lease: %s (it expires by "
			    "itself)\n", x.db.err);
	}
	if (exit_at_head) {
		double dt = now_s() - t0;

		printf("indexed %" PRIu64 " events in %.3f s (%.0f events/s), safe head %" PRIu64 "\n",
		    x.indexed, dt, dt > 0 ? (double)x.indexed / dt : 0.0, safe);
	}
	rpc_release(&x.rpc);
	rpc_release(&x.rpc_ahead);
	cabundle_release();
	db_close(&x.db);
	mysql_library_end();
	return 0;
}
