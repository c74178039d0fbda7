/*
 * nodecap.h: chain calls made for requests that pay nothing (a contract
 * wallet's signature check, lib/walletsig.h; an agent's recognition
 * preview, handlers/skills.c), bounded so that no flood of them can pin the
 * remote pool or spend the node's quota (docs/ARCHITECTURE.md, Worker).
 *
 * One use is one request's calls: it takes a place under the limit given
 * to nodecap_limit (sigcheck_max_in_flight, shared by the processes of a
 * pool on this host through a slot file) at its first call, and holds it
 * until nodecap_end; past the limit it gets no node at once (u->full),
 * nothing asked. All its calls share one budget of milliseconds
 * (sigcheck_timeout_ms), well below what nginx waits: each call gets what
 * is left of it as its timeout, and none is made once it is spent.
 *
 * The node is the calling thread's own connection (rpc_shared in lib/rpc).
 * The limit is set once before any thread starts and only read after.
 *
 * Return conventions: nodecap_node returns the node or NULL (then u->full
 * tells a full cap from a spent budget or no node); the rest return nothing.
 */
#ifndef WAYMARK_NODECAP_H
#define WAYMARK_NODECAP_H

#include <stdbool.h>
#include <stdint.h>

#include "admit.h"
#include "config.h"
#include "rpc.h"

struct nodecap_use {
	const struct config *cfg;
	const char *who;             /* for the log: "walletsig", "preview" */
	uint64_t budget_ms;
	struct admit_ticket ticket;
	bool admitted;
	bool full;                   /* nodecap_node found the cap full */
	uint64_t deadline;           /* clock_ms(), set with the place */
};

/* The limit for the whole process; NULL (the default) for none. Called once before any thread starts. */
void nodecap_limit(struct admit *a);

/* A use of cfg->rpc_url by who with budget_ms for all its calls; nothing is taken yet. */
void nodecap_begin(struct nodecap_use *u, const struct config *cfg, const char *who, uint64_t budget_ms);

/*
 * The node for the use's next call, its timeout what is left of the
 * budget; NULL when no rpc_url is configured or it cannot be set up, when
 * the cap is full (u->full), or when the budget is spent. Logged, never
 * with the call's data.
 */
struct rpc *nodecap_node(struct nodecap_use *u);

/* Give back the place, if one was taken. */
void nodecap_end(struct nodecap_use *u);

#endif
