/*
 * http.h: the request and response types every handler sees. They carry no
 * FastCGI detail: fcgi/ fills a struct req from its environment and writes
 * a struct resp back, so handlers can be driven by anything (tests too).
 *
 * Ownership: all strings in a req point into req->pool or into storage the
 * server layer keeps alive until the response is written. A resp owns its
 * two buffers; resp_release frees them.
 */
#ifndef WAYMARK_HTTP_H
#define WAYMARK_HTTP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "buf.h"
#include "err.h"
#include "pool.h"
#include "valid.h"

enum http_method {
	HM_GET,
	HM_HEAD,
	HM_POST,
	HM_PUT,
	HM_PATCH,
	HM_DELETE,
	HM_OPTIONS,
	HM__MAX
};

struct header {
	const char *name;  /* lowercase, '-' separated: "content-type" */
	const char *value;
};

#define REQ_MAX_HEADERS 64
#define REQ_MAX_PARAMS 8

struct path_param {
	const char *name;   /* from the route pattern, "{name}" */
	const char *value;  /* percent-decoded segment */
	size_t len;
};

struct config;
struct db;
struct endpoint;

/*
 * What the payment step (fcgi/pay.c) and a paid row's prepay hook and
 * handler tell each other; zero for other rows. See fcgi/pay.h.
 */
struct req;
struct resp;

struct req_pay {
	bool present;              /* a PAYMENT-SIGNATURE header came with the request */
	bool settled_earlier;      /* EP_PAY_RESUME: this authorization settled earlier here */
	uint8_t payer[20];         /* the payment's payer and nonce, once it parsed */
	uint8_t nonce[32];
	char tx[67];               /* the settlement transaction ("0x..."), "" while unknown */
	/* Set by the handler: the final write, run only after the payment
	 * settled (or settled earlier); it may rewrite the answer. */
	enum err (*finish)(struct req *r, struct resp *w);
	/* Set by prepay: undo its reservation when nothing is charged. */
	void (*cancel)(struct req *r);
	void *ctx;                 /* the hooks' own state, allocated from the request pool */
	/* Set by prepay: this request's payee instead of the configured pay_to
	 * (a private-tip unlock pays the tip's tipper). */
	bool pay_to_set;
	uint8_t pay_to[20];
};

/*
 * What the SIWX step (fcgi/siwx_gate.c) tells an AUTH_SIWX row's handler:
 * the wallet whose proof it verified and consumed; zero for other rows.
 */
struct req_siwx {
	bool verified;             /* always true when an AUTH_SIWX handler runs */
	uint8_t account[20];       /* the signer, on eip155:SIWX_CHAIN_ID */
	char caip10[64];           /* "eip155:8453:0x<EIP-55 address>" */
	const char *signature_kind; /* "eoa", "erc1271" or "erc6492" (static) */
	const char *request_id;    /* the signed Request ID of the proof (pool), NULL when none */
	uint8_t proof_digest[32];  /* EIP-191 digest of the signed text (what may be stored) */
};

struct req {
	struct pool pool;
	enum http_method method;   /* HM__MAX when the method is unknown */
	const char *method_text;
	const char *path;          /* raw path of the request target, no query */
	const char *query;         /* raw query string, "" when none */
	struct header headers[REQ_MAX_HEADERS];
	size_t nheaders;
	const char *content_type;  /* NULL when absent */
	const char *remote_addr;   /* the client's address as the web server saw it (REMOTE_ADDR), or NULL */
	uint64_t started_ms;       /* CLOCK_MONOTONIC milliseconds when the worker took the request */
	uint64_t content_length;
	const uint8_t *body;       /* NULL when there is none */
	size_t body_len;

	/* Filled by the gatekeeper before a handler runs. */
	const struct endpoint *ep;
	struct path_param params[REQ_MAX_PARAMS];
	size_t nparams;
	json_object *json;         /* strictly parsed body (owned by pool) */
	struct value vals[VALID_MAX_FIELDS]; /* one per row field, same order */
	const struct config *cfg;
	struct db *db;
	struct req_pay pay;
	struct req_siwx siwx;
};

struct resp {
	int status;
	const char *content_type;  /* static string */
	struct buf headers;        /* extra "Name: value\r\n" lines */
	struct buf body;
};

/* Parse a method token ("GET"); HM__MAX when unknown. */
enum http_method http_method_parse(const char *s);
const char *http_method_name(enum http_method m);

/* Header value by lowercase name, or NULL. */
const char *req_header(const struct req *r, const char *name);

/* The validated value of field `name` of this route, or NULL when the
 * field is not declared or was absent (and had no default). */
const struct value *req_val(const struct req *r, const char *name);

void resp_init(struct resp *w);
void resp_release(struct resp *w);

/* Add a header line; 0 or -1 (value contains CR/LF, or buffer full). */
int resp_header(struct resp *w, const char *name, const char *value);

/* Serialize obj as the body with status; 0 or -1. Does not take obj. */
int resp_json(struct resp *w, int status, json_object *obj);

/*
 * Write the error body for e: {"error", "message", "field"?}. A NULL fmt
 * uses the enum's default message. Returns e so handlers can
 * `return resp_fail(w, ERR_INVALID_FIELD, "limit", "...")`.
 */
__attribute__((format(printf, 4, 5)))
enum err resp_fail(struct resp *w, enum err e, const char *field, const char *fmt, ...);

#endif
