/*
 * rpc.h: Ethereum JSON-RPC over HTTP (libcurl), single calls and batches.
 *
 * One struct rpc per thread holds a reusable curl handle (keep-alive to
 * the node, TLS session reused). Responses are bounded (RPC_MAX_RESPONSE) and parsed with the
 * strict parser; quantities stay hex strings for the caller to decode
 * with rpc_hex_u64 / u256_parse.
 *
 * Return conventions: enum rpc_rc (RPC_OK is 0). On failure err[] holds
 * one line for logs; it never goes to API clients.
 */
#ifndef WAYMARK_RPC_H
#define WAYMARK_RPC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#define RPC_MAX_RESPONSE (256u * 1024 * 1024)

enum rpc_rc {
	RPC_OK = 0,
	RPC_TRANSPORT,   /* connect/timeout/HTTP status: the node is unreachable */
	RPC_BAD_REPLY,   /* not JSON-RPC, or not the shape asked for */
	RPC_ERROR,       /* the node answered with a JSON-RPC error object */
};

struct rpc {
	void *curl;            /* CURL * */
	char url[2048];
	long timeout_ms;
	char ca_file[1024];    /* CA bundle for https, "" for the system's (lib/cabundle.h) */
	long error_code;       /* JSON-RPC error code of the last RPC_ERROR */
	char err[512];
};

/* 0, or -1 when curl cannot be set up or ca_file (NULL or "" for the
 * system's CAs) does not fit. */
int rpc_init(struct rpc *r, const char *url, long timeout_ms, const char *ca_file);
void rpc_release(struct rpc *r);

/*
 * The calling thread's own connection to url, made on first use and remade
 * when url or ca_file change; NULL when url is empty or curl cannot be set
 * up. timeout_ms holds for the calls made through it until the next
 * rpc_shared in this thread (callers with different timeouts share the
 * warm connection), so a caller asks for it again before its own calls.
 * Never freed by the caller: rpc_thread_release frees it when the thread
 * ends.
 */
struct rpc *rpc_shared(const char *url, long timeout_ms, const char *ca_file);

/* Free the calling thread's rpc_shared connection, if any. */
void rpc_thread_release(void);

/*
 * Call method with params (a JSON array as text, e.g. "[\"latest\",false]").
 * *result gets the "result" member (caller puts it; may be JSON null, which
 * json-c represents as NULL).
 */
enum rpc_rc rpc_call(struct rpc *r, const char *method, const char *params, json_object **result);

/*
 * A batch of n calls with the same method, params[i] for call i. results[i]
 * gets each result (caller puts them); any error in one call fails the batch.
 */
enum rpc_rc rpc_batch(struct rpc *r, const char *method, const char *const *params, size_t n,
    json_object **results);

/*
 * The reply parsers rpc_call and rpc_batch use, for a reply body
 * text[0..len) the node sent (untrusted): strict JSON of at most
 * RPC_MAX_RESPONSE bytes. rpc_reply_single takes the "result" of one reply
 * object as rpc_call does (RPC_ERROR with r->error_code and r->err for an
 * error object); rpc_reply_batch matches n replies to results[0..n) by
 * their ids 0..n-1, each id exactly once, as rpc_batch does. Only r->err
 * and r->error_code are used: r needs no connection.
 */
enum rpc_rc rpc_reply_single(struct rpc *r, const char *text, size_t len, json_object **result);
enum rpc_rc rpc_reply_batch(struct rpc *r, const char *text, size_t len, size_t n,
    json_object **results);

/* Parse a JSON-RPC quantity "0x1a" into *out; 0 or -1. */
int rpc_hex_u64(const char *s, uint64_t *out);

/* The hash and timestamp of an eth_getBlockByNumber result; 0, or -1 when either is missing or malformed. */
int rpc_block_ref(json_object *block, uint8_t hash[32], uint64_t *time);

#endif
