/*
 * nodecap.c: bounded chain calls of free requests (nodecap.h).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "nodecap.h"
#include "banned.h"

/* The cap (nodecap_limit); NULL: none. Written once before the threads start. */
static struct admit *cap;

void
nodecap_limit(struct admit *a)
{
	cap = a;
}

void
nodecap_begin(struct nodecap_use *u, const struct config *cfg, const char *who, uint64_t budget_ms)
{
	memset(u, 0, sizeof(*u));
	u->cfg = cfg;
	u->who = who;
	u->budget_ms = budget_ms;
	u->ticket.slot = -1;
}

struct rpc *
nodecap_node(struct nodecap_use *u)
{
	const struct config *cfg = u->cfg;
	uint64_t now;

	if (cfg->rpc_url[0] == '\0')
		return NULL;
	if (!u->admitted) {
		if (cap && !admit_enter(cap, &u->ticket)) {
			u->full = true;
			fprintf(stderr, "waymark: %s: sigcheck_max_in_flight (%u) requests are calling the "
			    "RPC: refused\n", u->who, cap->cap);
			return NULL;
		}
		u->admitted = true;
		u->deadline = clock_ms() + u->budget_ms;
	}
	if ((now = clock_ms()) >= u->deadline) {
		fprintf(stderr, "waymark: %s: its time for chain calls (%" PRIu64 " ms) is spent\n", u->who,
		    u->budget_ms);
		return NULL;
	}
	return rpc_shared(cfg->rpc_url, (long)(u->deadline - now), cfg->tls_ca_file);
}

void
nodecap_end(struct nodecap_use *u)
{
	if (u->admitted && cap)
		admit_leave(cap, &u->ticket);
	u->admitted = false;
}
