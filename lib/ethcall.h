/*
 * ethcall.h: read-only contract calls (eth_call at "latest") over the
 * JSON-RPC connection of lib/rpc, batched: a call is a target and its
 * ABI calldata, a result is the returned bytes. Used where a request must
 * read the chain as it is now (docs/PROTOCOL.md, Agents: A2A and ACP:
 * the recognition preview).
 *
 * Return conventions: enum rpc_rc (RPC_OK is 0), as lib/rpc.h.
 */
#ifndef WAYMARK_ETHCALL_H
#define WAYMARK_ETHCALL_H

#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "rpc.h"
#include "u256.h"

#define ETHCALL_DATA_MAX (4 + 2 * 32) /* calldata of a call with up to two static words */
#define ETHCALL_MAX 8                 /* calls in one batch */

struct ethcall {
	struct addr to;
	uint8_t data[ETHCALL_DATA_MAX];
	size_t len;
	struct u256 word;          /* the first 32-byte word returned, once read */
};

/* call->data = selector(signature) with no argument; 0 or -1. */
int ethcall_set0(struct ethcall *c, const struct addr *to, const char *signature);

/* ... with one address argument. */
int ethcall_set_addr(struct ethcall *c, const struct addr *to, const char *signature,
    const struct addr *a);

/* ... with two address arguments. */
int ethcall_set_addr2(struct ethcall *c, const struct addr *to, const char *signature,
    const struct addr *a, const struct addr *b);

/* ... with one uint256 argument. */
int ethcall_set_uint(struct ethcall *c, const struct addr *to, const char *signature,
    const struct u256 *v);

/*
 * Run calls[0..n) (n <= ETHCALL_MAX) as one JSON-RPC batch and read each
 * first result word into calls[i].word. Any call that reverts, or a reply
 * shorter than a word, fails the batch (RPC_ERROR, RPC_BAD_REPLY).
 */
enum rpc_rc ethcall_batch(struct rpc *node, struct ethcall *calls, size_t n);

/*
 * Run one call. RPC_ERROR with *reverted true when the node reports an
 * execution revert (the call's answer, not an outage).
 */
enum rpc_rc ethcall_one(struct rpc *node, struct ethcall *c, bool *reverted);

#endif
