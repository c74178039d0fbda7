/*
 * The allocation-failure torture run of the request path (curl's idea):
 * a fixed set of requests goes through the real gatekeeper, dispatch table
 * and handlers in this process, against the test stack's MariaDB. Each
 * request is first served as is, counting the allocations made while it
 * is served; then again for N = 1, 2, ... with the Nth allocation failing,
 * until a run makes fewer than N allocations (nothing was injected).
 *
 * Counted: malloc, calloc, realloc, strdup and strndup called while a
 * request is served, from our code or from the libraries it calls (json-c,
 * libc, the MariaDB client, OpenSSL), through overrides of those symbols in
 * this program. Each run must answer the normal answer (the same status;
 * for answers that do not depend on the database, the same bytes) or a 5xx
 * with the JSON error shape; never a crash, a hang (an alarm stops it), a
 * different 4xx, or a body that is not the JSON it claims. Under ASan the
 * leak check runs after each request's series, so a leak on any failure
 * path is a failure here (docs/ARCHITECTURE.md, HTTP conventions).
 *
 * Needs the test stack: WAYMARK_VAR names it (tools/run-tests sets it);
 * without it the run fails rather than skips.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <curl/curl.h>
#include <mysql.h>

#include "config.h"
#include "db.h"
#include "gate.h"
#include "json.h"
#include "brand.h"
#include "sig.h"
#include "table.h"
#include "tap.h"
#include "banned.h"

#if defined(__SANITIZE_ADDRESS__)
#define TORTURE_LSAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define TORTURE_LSAN 1
#endif
#endif
#ifdef TORTURE_LSAN
#include <sanitizer/lsan_interface.h>

/*
 * json-c 0.16 loses one allocation of its own on one failure path:
 * json_object_object_add_ex copies a new member's key (strdup), then the
 * insert fails when the object's hash table cannot grow (an object past
 * ten members) and the copy is never freed. No caller can free it, and it
 * happens only when an allocation already failed; every other leak still
 * fails this run.
 */
const char *__lsan_default_suppressions(void);
const char *
__lsan_default_suppressions(void)
{
	return "leak:json_object_object_add_ex\n";
}

/* Quiet about the suppression itself: any text in the log is a report (tools/run-tests). */
const char *__lsan_default_options(void);
const char *
__lsan_default_options(void)
{
	return "print_suppressions=0";
}
#endif

/* ---- the allocator hook ---- */

/*
 * The allocator underneath: the sanitizer's when one is linked (its
 * interceptors are what malloc would have been), else glibc's.
 */
#if defined(TORTURE_LSAN) || defined(__SANITIZE_THREAD__)
void *__interceptor_malloc(size_t n);
void *__interceptor_calloc(size_t a, size_t b);
void *__interceptor_realloc(void *p, size_t n);
#define real_malloc __interceptor_malloc
#define real_calloc __interceptor_calloc
#define real_realloc __interceptor_realloc
#else
void *__libc_malloc(size_t n);
void *__libc_calloc(size_t a, size_t b);
void *__libc_realloc(void *p, size_t n);
#define real_malloc __libc_malloc
#define real_calloc __libc_calloc
#define real_realloc __libc_realloc
#endif

/* The hooks run before the sanitizer has set itself up: not instrumented. */
#if defined(TORTURE_LSAN) || defined(__SANITIZE_THREAD__)
#define HOOK __attribute__((no_sanitize("address", "thread", "undefined")))
#else
#define HOOK
#endif

static bool counting;           /* a request is being served */
static unsigned long n_alloc;   /* allocations counted in this run */
static unsigned long fail_at;   /* fail this one (1-based); 0: none */
static bool injected;           /* this run had its failure */

/*
 * Under LeakSanitizer the MariaDB client's own allocations are not failed:
 * its out-of-memory paths leak what they had built (a limitation of the
 * library, not of our code), and a leak report must name ours. The plain
 * build fails them too, which is how a connection left in an unknown
 * state after such a failure was found (lib/db.c closes it now).
 */
HOOK static bool
from_client_library(void *ra)
{
#ifdef TORTURE_LSAN
	static void *base;
	Dl_info info;

	if (base == NULL && dladdr((void *)mysql_init, &info) && info.dli_fbase)
		base = info.dli_fbase;
	return base && dladdr(ra, &info) && info.dli_fbase == base;
#else
	(void)ra;
	return false;
#endif
}

/* Whether this allocation, made from ra, is the one to fail. */
HOOK static bool
fail_now(void *ra)
{
	if (!counting || from_client_library(ra))
		return false;
	if (++n_alloc == fail_at) {
		injected = true;
		return true;
	}
	return false;
}

HOOK void *
malloc(size_t n)
{
	return fail_now(__builtin_return_address(0)) ? NULL : real_malloc(n);
}

HOOK void *
calloc(size_t a, size_t b)
{
	return fail_now(__builtin_return_address(0)) ? NULL : real_calloc(a, b);
}

HOOK void *
realloc(void *p, size_t n)
{
	return fail_now(__builtin_return_address(0)) ? NULL : real_realloc(p, n);
}

HOOK char *
strdup(const char *s)
{
	size_t n = strlen(s) + 1;
	char *d = fail_now(__builtin_return_address(0)) ? NULL : real_malloc(n);

	if (d)
		memcpy(d, s, n);
	return d;
}

HOOK char *
strndup(const char *s, size_t max)
{
	size_t n = strnlen(s, max);
	char *d = fail_now(__builtin_return_address(0)) ? NULL : real_malloc(n + 1);

	if (d) {
		memcpy(d, s, n);
		d[n] = '\0';
	}
	return d;
}

/* ---- the requests ---- */

enum check {
	SAME_BYTES,     /* the answer does not depend on the database: byte for byte */
	SAME_STATUS,    /* a database read other tests may change: same status, a JSON body */
	SAME_PAGE,      /* a website page: same status, an HTML document with at least the
	                 * normal answer's articles (search results); a 5xx an error page or
	                 * the JSON error shape */
};

struct treq {
	const char *name;
	const char *method;
	const char *uri;
	const char *content_type;
	const char *body;
	const char *headers[4];   /* "name: value", lowercase names */
	enum check check;
};

#define RID "0x0000000000000000000000000000000000000000000000000000000000000001"
/* t/fuzz/corpus/x402/header-payment with a 66-byte signature: well-formed, for another URL. */
#define PAY_OTHER_RESOURCE "payment-signature: " \
	    "eyJ4NDAyVmVyc2lvbiI6MiwicmVzb3VyY2UiOnsidXJsIjoiaHR0cHM6Ly9hcGkuZXhhbXBsZS5vcmcv" \
	    "YXBpL3YxL3g0MDIvcm91dGVzL3giLCJkZXNjcmlwdGlvbiI6ImZ1enoiLCJtaW1lVHlwZSI6ImFwcGxp" \
	    "Y2F0aW9uL2pzb24ifSwiYWNjZXB0ZWQiOnsic2NoZW1lIjoiZXhhY3QiLCJuZXR3b3JrIjoiZWlwMTU1" \
	    "Ojg0NTMiLCJhbW91bnQiOiIxMDAwMCIsImFzc2V0IjoiMHg4MzM1ODlmQ0Q2ZURiNkUwOGY0YzdDMzJE" \
	    "NGY3MWI1NGJkQTAyOTEzIiwicGF5VG8iOiIweDIwOTY5M0JjNmFmYzBDNTMyOGJBMzZGYUYwM0M1MTRF" \
	    "RjMxMjI4N0MiLCJtYXhUaW1lb3V0U2Vjb25kcyI6NjAsImV4dHJhIjp7Im5hbWUiOiJVU0QgQ29pbiIs" \
	    "InZlcnNpb24iOiIyIn19LCJwYXlsb2FkIjp7ImF1dGhvcml6YXRpb24iOnsiZnJvbSI6IjB4ODU3YjA2" \
	    "NTE5RTkxZTNBNTQ1Mzg3OTFiRGJiMEUyMjM3M2UzNmI2NiIsInRvIjoiMHgyMDk2OTNCYzZhZmMwQzUz" \
	    "MjhiQTM2RmFGMDNDNTE0RUYzMTIyODdDIiwidmFsdWUiOiIxMDAwMCIsInZhbGlkQWZ0ZXIiOiIxNzQw" \
	    "NjcyMDg5IiwidmFsaWRCZWZvcmUiOiIxNzQwNjcyMTU0Iiwibm9uY2UiOiIweGYzZjNmM2YzZjNmM2Yz" \
	    "ZjNmM2YzZjNmM2YzZjNmM2YzZjNmM2YzZjNmM2YzZjNmM2YzZjNmM2YzZjNmM2YzZjMifSwic2lnbmF0" \
	    "dXJlIjoiMHgxMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTEx" \
	    "MTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTExMTEx" \
	    "MTExMTExMTExMTExMTExMTExMTEifSwiZXh0ZW5zaW9ucyI6e319"
/* The first proof of t/vectors/siwx.json: signed for 127.0.0.1:8080, not the test stack. */
#define SIWX_OTHER_DOMAIN "sign-in-with-x: " \
	    "eyJkb21haW4iOiIxMjcuMC4wLjE6ODA4MCIsImFkZHJlc3MiOiIweGYzOUZkNmU1MWFhZDg4RjZGNGNl" \
	    "NmFCODgyNzI3OWNmZkZiOTIyNjYiLCJzdGF0ZW1lbnQiOiJTaWduIGluIHRvIHdheW1hcmsgdG8gbWFu" \
	    "YWdlIHlvdXIgcHJvZmlsZS4iLCJ1cmkiOiJodHRwOi8vMTI3LjAuMC4xOjgwODAvYXBpL3YxL3g0MDIv" \
	    "cHJvZmlsZXMiLCJ2ZXJzaW9uIjoiMSIsImNoYWluSWQiOiJlaXAxNTU6ODQ1MyIsInR5cGUiOiJlaXAx" \
	    "OTEiLCJub25jZSI6ImExYjJjM2Q0ZTVmNjc4OTBhMWIyYzNkNGU1ZjY3ODkwIiwiaXNzdWVkQXQiOiIy" \
	    "MDI2LTExLTIzVDEwOjMwOjAwLjAwMFoiLCJleHBpcmF0aW9uVGltZSI6IjIwMjYtMTEtMjNUMTA6MzU6" \
	    "MDAuMDAwWiIsInJlc291cmNlcyI6WyJodHRwOi8vMTI3LjAuMC4xOjgwODAvYXBpL3YxL3g0MDIvcHJv" \
	    "ZmlsZXMiXSwic2lnbmF0dXJlIjoiMHg4ZDNhYzNiMjI0NjU4NzZkNWU3ZTBhNjYzOWMxYTk5N2YwMzBi" \
	    "MGJhZGE1ZDRkMTFmZmFkYzFiMjEyOTJkMjlhMDdkNDgyZjUxZDU5YmM4MDFhODY4YTE0MTM5NDAzMWY4" \
	    "Y2NhMzRiYmRhMzQ5ZGU1MmExYWM4MjBiYmYxZGUwNzFiIn0="
#define MCP_CALL(tool, args) \
	"{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"name\":\"" tool \
	"\",\"arguments\":" args "}}"

static const struct treq reqs[] = {
	/* free reads */
	{ "GET /health", "GET", "/health", .check = SAME_STATUS },
	{ "GET economics", "GET", "/api/v1/x402/economics", .check = SAME_BYTES },
	{ "GET discovery", "GET", "/api/v1/x402/discovery?q=weather&limit=3", .check = SAME_STATUS },
	{ "GET site discover", "GET", "/api/site/x402/discover?limit=2", .check = SAME_STATUS },
	{ "GET site route reviews", "GET", "/api/site/x402/routes/" RID "/reviews?limit=2",
	    .check = SAME_STATUS },
	{ "GET receipt", "GET", "/api/v1/receipts/" RID, .check = SAME_STATUS },
	{ "GET attestation", "GET", "/api/v1/attestations/1", .check = SAME_STATUS },
	{ "GET site link wallet", "GET", "/api/site/link/wallet?address="
	    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", .check = SAME_STATUS },
	{ "GET site wallet endpoints", "GET", "/api/site/x402/wallet-endpoints?wallet="
	    "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", .check = SAME_STATUS },
	{ "GET /mcp description", "GET", "/mcp", .check = SAME_BYTES },
	/* website pages (HTML) */
	{ "GET search page", "GET", "/?q=weather", .check = SAME_PAGE },
	{ "GET route page", "GET", "/routes/" RID, .check = SAME_PAGE },
	{ "GET handle page", "GET", "/handles/github:alice", .check = SAME_PAGE },
	{ "GET board page", "GET", "/board", .check = SAME_PAGE },
	{ "GET A2A extension page", "GET", "/docs/a2a/extensions/" BRAND_LOWER "-agent-recognition/v0.1",
	    .check = SAME_PAGE },
	{ "GET documentation index", "GET", "/docs", .check = SAME_PAGE },
	{ "GET points policy page", "GET", "/docs/points-policy", .check = SAME_PAGE },
	{ "GET score policy page", "GET", "/docs/score-policy", .check = SAME_PAGE },
	{ "GET payment guide", "GET", "/docs/pay-and-sign-in", .check = SAME_PAGE },
	{ "GET retired feed", "GET", "/api/feed", .check = SAME_BYTES },
	/* bad input */
	{ "unknown path", "GET", "/api/v1/nothing-here", .check = SAME_BYTES },
	{ "wrong method", "DELETE", "/api/v1/x402/economics", .check = SAME_BYTES },
	{ "unknown query parameter", "GET", "/api/v1/x402/discovery?colour=red", .check = SAME_BYTES },
	{ "bad percent escape", "GET", "/api/v1/x402/discovery?q=%zz", .check = SAME_BYTES },
	{ "field out of range", "GET", "/api/v1/x402/discovery?limit=99", .check = SAME_BYTES },
	{ "body not JSON", "POST", "/api/v1/x402/review-draft", "application/json", "{\"routeId\":",
	    .check = SAME_BYTES },
	{ "duplicate member", "POST", "/api/v1/x402/review-draft", "application/json",
	    "{\"routeId\":\"" RID "\",\"routeId\":\"" RID "\"}", .check = SAME_BYTES },
	{ "wrong content type", "POST", "/api/v1/x402/review-draft", "text/plain", "x",
	    .check = SAME_BYTES },
	{ "strict: unknown member", "POST", "/api/v1/workflows/cost-preview", "application/json",
	    "{\"nope\":1}", .check = SAME_BYTES },
	/* POSTs */
	{ "POST review-draft", "POST", "/api/v1/x402/review-draft", "application/json",
	    "{\"routeId\":\"" RID "\",\"observation\":\"It answered with the forecast in 80 ms.\"}",
	    .check = SAME_BYTES },
	{ "POST review-prepare", "POST", "/api/v1/x402/review-prepare", "application/json",
	    "{\"routeId\":\"" RID "\",\"outcome\":\"response_received\",\"schemaCheck\":\"passed\"}",
	    .check = SAME_BYTES },
	{ "POST cost-preview", "POST", "/api/v1/workflows/cost-preview", "application/json",
	    "{\"requests\":[{\"method\":\"GET\",\"path\":\"/api/v1/x402/routes/" RID "\",\"quantity\":3},"
	    "{\"method\":\"POST\",\"path\":\"/api/v1/score\"}]}", .check = SAME_BYTES },
	{ "POST /mcp initialize", "POST", "/mcp", "application/json",
	    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
	    "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
	    "\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}", .check = SAME_BYTES },
	{ "POST /mcp tools/list", "POST", "/mcp", "application/json",
	    "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}", .check = SAME_BYTES },
	{ "POST /mcp draft tool", "POST", "/mcp", "application/json",
	    MCP_CALL(BRAND_LOWER "_draft_review", "{\"routeId\":\"" RID "\",\"observation\":\"ok\"}"),
	    .check = SAME_BYTES },
	{ "POST /mcp bad argument", "POST", "/mcp", "application/json",
	    MCP_CALL(BRAND_LOWER "_discovery", "{\"limit\":0}"), .check = SAME_BYTES },
	{ "POST /mcp discovery tool", "POST", "/mcp", "application/json",
	    MCP_CALL(BRAND_LOWER "_discovery", "{\"q\":\"weather\",\"limit\":2}"),
	    .check = SAME_STATUS },
	/* a valid signed publication (t/vectors/route-contexts.json), so the handler runs */
	{ "POST route context, signed note", "POST", "/api/v1/x402/route-contexts", "application/json",
	    "{\"noteJson\":\"{\\\"version\\\":\\\"1\\\",\\\"route\\\":{\\\"publicEndpointUrl\\\":\\\""
	    "https://api.example.com/v1/forecast\\\",\\\"method\\\":\\\"GET\\\"},\\\"intent\\\":\\\"R"
	    "eturns a 7-day weather forecast for a latitude and longitude.\\\",\\\"fit\\\":\\\"Use wh"
	    "en an agent needs hourly or daily forecasts for one place; one paid call per place.\\\","
	    "\\\"limits\\\":[\\\"Land areas only.\\\",\\\"No forecasts beyond 7 days.\\\"],\\\"reques"
	    "tSchemaUri\\\":\\\"https://api.example.com/schemas/forecast.json\\\",\\\"documentationUr"
	    "i\\\":null,\\\"contextUris\\\":[\\\"ipfs://bafybeigdyrzt5sfp7udm7hu76uh7y26nf3efuylqabf3"
	    "oclgtqy55fbzdi\\\"],\\\"createdAt\\\":1767225600,\\\"expiresAt\\\":1798761600}\",\"offer"
	    "Json\":\"{\\\"version\\\":\\\"1\\\",\\\"noteEndpoint\\\":\\\"https://notes.example.com/r"
	    "oute-note\\\",\\\"method\\\":\\\"GET\\\",\\\"network\\\":\\\"eip155:8453\\\",\\\"asset"
	    "\\\":\\\"0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913\\\",\\\"payTo\\\":\\\"0xf39Fd6e51aad"
	    "88F6F4ce6aB8827279cffFb92266\\\",\\\"amountAtomic\\\":\\\"1000\\\",\\\"responseDigest"
	    "\\\":\\\"0x0403b81098a734380b486b90c9c7e4d838784bd6bbded9b73616b1dd22133a30\\\",\\\"resp"
	    "onseBytes\\\":552,\\\"expiresAt\\\":1798761600}\",\"signature\":\"0xc0b62c4d441d49e8fe31"
	    "e85336899f6f4db3130ce6376514a951d568b904fa4e1d1d2c676de8405769548584f0c9130eede365fedd16"
	    "260680030c140f40ddea1b\"}",
	    .check = SAME_STATUS },
	/* the agent surface (docs/PROTOCOL.md, Agents: A2A and ACP); tasks carry fresh ids */
	{ "GET agent card", "GET", "/.well-known/agent-card.json", .check = SAME_BYTES },
	{ "GET /a2a", "GET", "/a2a", .check = SAME_BYTES },
	{ "A2A unsupported operation", "GET", "/a2a/tasks/t1", .check = SAME_BYTES },
	{ "A2A lookup skill", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"skillId\":\"" BRAND_LOWER ".lookup_recognition\",\"params\":{\"txHash\":\"" RID "\"}}",
	    .check = SAME_STATUS },
	{ "A2A reputation skill", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"message\":{\"messageId\":\"m1\",\"role\":\"ROLE_USER\",\"parts\":[{\"data\":"
	    "{\"skillId\":\"" BRAND_LOWER ".lookup_agent_reputation\",\"params\":{\"recipient\":"
	    "\"agent:1\"}}}]}}", .check = SAME_STATUS },
	{ "A2A suggestion skill", "POST", "/a2a/message:send", "application/json",
	    "{\"skillId\":\"" BRAND_LOWER ".suggest_recognition\",\"params\":{\"recipient\":"
	    "\"agent:1\",\"acpJobId\":\"j-1\",\"amountUsdc\":\"0.5\",\"evidence\":{\"uris\":"
	    "[\"https://example.com/a\"]}}}", .check = SAME_STATUS },
	{ "A2A handoff skill", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"skillId\":\"" BRAND_LOWER ".score_agent\"}", .check = SAME_STATUS },
	{ "A2A text, no skill", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"message\":{\"messageId\":\"m2\",\"role\":\"ROLE_USER\",\"parts\":[{\"text\":"
	    "\"weather\"}]},\"configuration\":{\"acceptedOutputModes\":[\"text/plain\"]}}",
	    .check = SAME_STATUS },
	{ "A2A unknown skill", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"skillId\":\"nope\"}", .check = SAME_STATUS },
	{ "A2A malformed body", "POST", "/a2a/message:send", "application/a2a+json",
	    "{\"message\":{\"kind\":\"message\"}}", .check = SAME_BYTES },
	{ "A2A wrong content type", "POST", "/a2a/message:send", "text/plain", "x",
	    .check = SAME_BYTES },
	{ "GET ACP resources", "GET", "/api/v1/acp/resources", .check = SAME_BYTES },
	{ "POST ACP suggestion", "POST", "/api/v1/acp/recognition-suggestion", "application/json",
	    "{\"recipient\":\"agent:3\",\"acpJobId\":\"job-9\",\"reason\":\"fast\","
	    "\"amountUsdc\":\"1.5\",\"mintAttestation\":true}", .check = SAME_BYTES },
	{ "POST /mcp claim help tool", "POST", "/mcp", "application/json",
	    MCP_CALL(BRAND_LOWER "_claim_help", "{\"handle\":\"github:alice\"}"),
	    .check = SAME_STATUS },
	/* paid rows, before any facilitator call */
	{ "paid read, no payment", "GET", "/api/v1/x402/routes?limit=2", .check = SAME_BYTES },
	{ "paid read, bad payment", "GET", "/api/v1/x402/routes/" RID, .check = SAME_BYTES,
	    .headers = { "payment-signature: bm90IGEgcGF5bWVudA==" } },
	/* past decoding and the shape: a smart-wallet signature (left to the facilitator) on a
	 * payment for another resource, refused at the binding check */
	{ "paid read, payment for another resource", "GET", "/api/v1/x402/routes/" RID,
	    .check = SAME_BYTES, .headers = { PAY_OTHER_RESOURCE } },
	/* a paid row's prepay hook, with the database, before any payment */
	{ "paid feed, unknown profile", "GET",
	    "/api/v1/x402/profiles/00000000-0000-4000-8000-000000000000/activity", .check = SAME_STATUS },
	/* a sign-in row past the header's shape: a well-formed proof for another domain */
	{ "sign-in, proof for another domain", "POST", "/api/v1/x402/profiles", "application/json",
	    "{\"controllerAccount\":\"eip155:8453:0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266\"}",
	    .check = SAME_STATUS, .headers = { SIWX_OTHER_DOMAIN } },
};

#define NREQS (sizeof(reqs) / sizeof(reqs[0]))

struct body_reader {
	const char *p;
	size_t left;
};

static long
read_mem(void *ctx, uint8_t *buf, size_t n)
{
	struct body_reader *b = ctx;

	if (n > b->left)
		n = b->left;
	memcpy(buf, b->p, n);
	b->p += n;
	b->left -= n;
	return (long)n;
}

struct answer {
	int status;
	char *body;     /* a copy, made outside the counted part */
	size_t len;
};

static int quiet_fd = -1, saved_fd = -1;

/* Serve t once into a (counting while the gate runs, as the worker would). */
static void
serve(struct gate *g, const struct treq *t, struct answer *a)
{
	struct body_reader br = { t->body, t->body ? strlen(t->body) : 0 };
	const char *q = strchr(t->uri, '?');
	char names[4][64];
	struct req r;
	struct resp w;

	memset(&r, 0, sizeof(r));
	pool_init(&r.pool, 32u * 1024 * 1024);
	resp_init(&w);
	g->read_ctx = &br;
	r.method_text = t->method;
	r.method = http_method_parse(t->method);
	r.content_type = t->content_type;
	r.content_length = br.left;
	r.query = q ? q + 1 : "";
	for (size_t i = 0; i < 4 && t->headers[i]; i++) {
		const char *c = strchr(t->headers[i], ':');
		size_t n = (size_t)(c - t->headers[i]);

		snprintf(names[i], sizeof(names[i]), "%.*s", (int)n, t->headers[i]);
		r.headers[r.nheaders].name = names[i];
		r.headers[r.nheaders].value = c + 2;
		r.nheaders++;
	}
	/* the gate logs each internal error: thousands here, so not to the TAP output */
	if (quiet_fd >= 0) {
		fflush(stderr);
		dup2(quiet_fd, 2);
	}
	n_alloc = 0;
	injected = false;
	counting = true;
	/* the path is copied into the request pool, as fcgi/main.c does */
	r.path = q ? pool_strndup(&r.pool, t->uri, (size_t)(q - t->uri)) : t->uri;
	if (r.path == NULL)
		resp_fail(&w, ERR_INTERNAL, NULL, NULL);
	else
		gate_run(g, &r, &w);
	counting = false;
	if (quiet_fd >= 0) {
		fflush(stderr);
		dup2(saved_fd, 2);
	}
	a->status = w.status;
	a->len = w.body.len;
	a->body = real_malloc(a->len + 1);
	if (a->body == NULL)
		abort();
	memcpy(a->body, w.body.p ? w.body.p : "", a->len);
	a->body[a->len] = '\0';
	resp_release(&w);
	pool_release(&r.pool);
}

/* Whether body is a JSON error object {"error": string, "message": string, ...}. */
static bool
error_shape(const struct answer *a)
{
	json_object *o = NULL, *e = NULL, *m = NULL;
	bool good;

	if (json_parse_strict(a->body, a->len, NULL, &o, NULL) < 0)
		return false;
	good = json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, "error", &e) &&
	    json_object_is_type(e, json_type_string) && json_object_object_get_ex(o, "message", &m) &&
	    json_object_is_type(m, json_type_string);
	/* The A2A rows: google.rpc.Status {"error": {code, status, message, details}} (lib/a2a.h). */
	if (!good && json_object_is_type(o, json_type_object) &&
	    json_object_object_get_ex(o, "error", &e) && json_object_is_type(e, json_type_object))
		good = json_object_object_get_ex(e, "message", &m) &&
		    json_object_is_type(m, json_type_string) &&
		    json_object_object_get_ex(e, "code", &m) && json_object_is_type(m, json_type_int);
	json_object_put(o);
	return good;
}

/* Whether a is /mcp's JSON-RPC "Internal error" (-32603) with no result. */
static bool
rpc_internal(const struct treq *t, const struct answer *a)
{
	json_object *o = NULL, *e, *c;
	bool good = false;

	if (strcmp(t->uri, "/mcp") != 0 ||
	    json_parse_strict(a->body, a->len, NULL, &o, NULL) < 0)
		return false;
	if (json_object_is_type(o, json_type_object) && json_object_object_get_ex(o, "error", &e) &&
	    json_object_object_get_ex(e, "code", &c) && json_object_is_type(c, json_type_int))
		good = json_object_get_int(c) == -32603 && !json_object_object_get_ex(o, "result", NULL);
	json_object_put(o);
	return good;
}

static bool
is_json(const struct answer *a)
{
	json_object *o = NULL;
	bool good;

	if (a->len == 0)
		return false;
	good = json_parse_strict(a->body, a->len, NULL, &o, NULL) == 0 && o != NULL;
	json_object_put(o);
	return good;
}

/* The length of the top-level array member name of a JSON object answer; -1 when there is none. */
static long
array_length(const struct answer *a, const char *name)
{
	json_object *o = NULL, *v;
	long n = -1;

	if (a->len > 0 && json_parse_strict(a->body, a->len, NULL, &o, NULL) == 0 &&
	    json_object_object_get_ex(o, name, &v) && json_object_is_type(v, json_type_array))
		n = (long)json_object_array_length(v);
	json_object_put(o);
	return n;
}

/*
 * Whether a run with a failure injected answered acceptably; why in
 * why[cap] when not. A JSON-RPC answer of /mcp may carry the failure as a
 * JSON-RPC or tool error with a 5xx-class code inside a 200. A 200 with
 * an empty body (or none) is never acceptable, and neither is a discovery
 * answer with fewer candidates than the normal one: a failure must not
 * pass for an empty success.
 */
/* How many times needle occurs in the answer's body. */
static size_t
count_of(const struct answer *a, const char *needle)
{
	size_t n = 0, k = strlen(needle);

	for (size_t i = 0; a->body && i + k <= a->len; i++)
		if (memcmp(a->body + i, needle, k) == 0)
			n++;
	return n;
}

/* True when the answer is a whole HTML document. */
static bool
is_page(const struct answer *a)
{
	static const char head[] = "<!doctype html>";

	return a->body && a->len >= sizeof(head) - 1 && memcmp(a->body, head, sizeof(head) - 1) == 0 &&
	    count_of(a, "</html>") == 1;
}

/* acceptable() for a website page (SAME_PAGE). */
static bool
page_acceptable(const struct answer *base, const struct answer *a, char *why, size_t cap)
{
	if (a->status >= 500) {
		if (is_page(a) || error_shape(a))
			return true;
		snprintf(why, cap, "%d that is neither an error page nor the error shape: %.200s",
		    a->status, a->body ? a->body : "");
		return false;
	}
	if (a->status != base->status || !is_page(a)) {
		snprintf(why, cap, "%d where the answer is a %d page (or a 5xx): %.200s", a->status,
		    base->status, a->body ? a->body : "");
		return false;
	}
	if (count_of(a, "<article") < count_of(base, "<article")) {
		snprintf(why, cap, "a page with %zu results where the answer has %zu",
		    count_of(a, "<article"), count_of(base, "<article"));
		return false;
	}
	return true;
}

static bool
acceptable(const struct treq *t, const struct answer *base, const struct answer *a, char *why,
    size_t cap)
{
	long want, got;

	if (t->check == SAME_PAGE)
		return page_acceptable(base, a, why, cap);

	if (a->status == 200 && a->len == 0) {
		snprintf(why, cap, "200 with an empty body");
		return false;
	}
	if (a->status == 200 && (want = array_length(base, "candidates")) > 0 &&
	    (got = array_length(a, "candidates")) < want) {
		snprintf(why, cap, "200 with %ld candidates where the answer has %ld", got < 0 ? 0 : got,
		    want);
		return false;
	}
	if (a->status >= 500) {
		if (error_shape(a) || rpc_internal(t, a))
			return true;
		snprintf(why, cap, "%d without the JSON error shape: %.200s", a->status, a->body);
		return false;
	}
	if (a->status != base->status) {
		snprintf(why, cap, "%d where the answer is %d (or a 5xx): %.200s", a->status,
		    base->status, a->body);
		return false;
	}
	if (base->len && !is_json(a)) {
		snprintf(why, cap, "%d with a body that is not JSON: %.200s", a->status, a->body);
		return false;
	}
	if (t->check == SAME_BYTES && (a->len != base->len || memcmp(a->body, base->body, a->len))) {
		json_object *o = NULL, *res, *sc, *err;
		bool tool_internal = false;

		/* /mcp: an internal error reported inside the JSON-RPC answer */
		if (strcmp(t->uri, "/mcp") == 0 && strcmp(t->method, "POST") == 0 &&
		    json_parse_strict(a->body, a->len, NULL, &o, NULL) == 0) {
			if (json_object_object_get_ex(o, "error", &err) &&
			    json_object_object_get_ex(err, "code", &sc))
				tool_internal = json_object_get_int(sc) == -32603;
			else if (json_object_object_get_ex(o, "result", &res) &&
			    json_object_object_get_ex(res, "structuredContent", &sc) &&
			    json_object_object_get_ex(sc, "error", &err))
				tool_internal = strcmp(json_object_get_string(err), "internal_error") == 0;
		}
		json_object_put(o);
		if (tool_internal)
			return true;
		{
			size_t at = 0;

			while (at < a->len && at < base->len && a->body[at] == base->body[at])
				at++;
			at = at > 60 ? at - 60 : 0;
			snprintf(why, cap, "%d, the body differs from the normal answer near byte %zu: "
			    "%.160s", a->status, at + 60, a->body + at);
		}
		return false;
	}
	return true;
}

static const struct treq *current;
static unsigned long current_n;

static void
on_alarm(int signo)
{
	char line[256];
	int n;

	(void)signo;
	n = snprintf(line, sizeof(line), "not ok - %s, allocation %lu fails: no answer within the "
	    "time limit (a hang)\n", current ? current->name : "?", current_n);
	if (n > 0)
		(void)!write(1, line, (size_t)n);
	_exit(1);
}

int
main(void)
{
	const char *var = getenv("WAYMARK_VAR"), *cap_env = getenv("WAYMARK_TORTURE_MAX_N");
	unsigned long cap = cap_env ? strtoul(cap_env, NULL, 10) : 20000, total_runs = 0;
	char path[1024], err[256];
	struct config cfg;
	struct db db;
	struct gate g;
	time_t t0 = time(NULL);
	bool verbose = getenv("WAYMARK_TORTURE_VERBOSE") != NULL;

	if (!ok(var != NULL, "WAYMARK_VAR names the test stack (run through tools/run-tests)"))
		return done_testing();
	snprintf(path, sizeof(path), "%s/waymark.conf", var);
	if (!ok(config_load(&cfg, path, err, sizeof(err)) == 0, "the test stack's configuration loads"))
		return done_testing();
	if (!ok(sig_init() == 0 && mysql_library_init(0, NULL, NULL) == 0 &&
	    curl_global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK, "libraries initialised"))
		return done_testing();
	db_init(&db, &cfg);
	if (!ok(db_connect(&db) == DB_OK, "the suite's MariaDB is reachable"))
		return done_testing();
	g = (struct gate){ .table = endpoints, .ntable = nendpoints, .cfg = &cfg, .db = &db,
	    .read_body = read_mem };
	signal(SIGALRM, on_alarm);
	if (!verbose && (saved_fd = dup(2)) >= 0)
		quiet_fd = open("/dev/null", O_WRONLY);
	setvbuf(stdout, NULL, _IOLBF, 0);

	for (size_t i = 0; i < NREQS; i++) {
		const struct treq *t = &reqs[i];
		struct answer base, a;
		unsigned long n, bad = 0, errors = 0, allocs;
		char why[512] = "", first[600] = "";

		current = t;
		current_n = 0;
		alarm(30);
		fail_at = 0;
		serve(&g, t, &base);
		allocs = n_alloc;
		/* a 200 always has a body; another status may have none */
		if (!ok(base.status > 0 && base.status < 500 &&
		    (base.len == 0 ? base.status != 200 : t->check == SAME_PAGE ? is_page(&base) :
		    is_json(&base)),
		    "%s: the normal answer (%d, %lu allocations)", t->name, base.status, allocs)) {
			printf("#   %.300s\n", base.body);
			free(base.body);
			continue;
		}
		for (n = 1; n <= cap; n++) {
			current_n = n;
			alarm(30);
			fail_at = n;
			if (verbose)
				fprintf(stderr, "torture: %s, allocation %lu fails\n", t->name, n);
			serve(&g, t, &a);
			fail_at = 0;
			total_runs++;
			if (!injected) {
				free(a.body);
				break;
			}
			if (a.status >= 500)
				errors++;
			if (!acceptable(t, &base, &a, why, sizeof(why))) {
				if (bad++ == 0)
					snprintf(first, sizeof(first), "allocation %lu: %s", n, why);
			}
			free(a.body);
		}
		alarm(0);
		ok(bad == 0, "%s: %lu runs, each a clean error (%lu) or the normal answer", t->name,
		    n - 1, errors);
		if (bad)
			printf("#   %lu bad; first at %s\n", bad, first);
		ok(n <= cap, "%s: a run completed with no failure injected (N up to %lu)", t->name, cap);
#ifdef TORTURE_LSAN
		ok(__lsan_do_recoverable_leak_check() == 0, "%s: no leak on any failure path", t->name);
#endif
		free(base.body);
	}
	printf("# %lu runs in %ld s\n", total_runs, (long)(time(NULL) - t0));
	db_close(&db);
	curl_global_cleanup();
	mysql_library_end();
	sig_release();
	return done_testing();
}
