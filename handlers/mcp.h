/*
 * mcp.h: the read-only MCP tool surface at POST /mcp (docs/PROTOCOL.md,
 * MCP), split out of the handler
 * so the tests can drive it without FastCGI.
 *
 * Transport: stateless Streamable HTTP, JSON replies only (no SSE, no
 * Mcp-Session-Id). A GET whose Accept names text/event-stream (the
 * official TypeScript client's stream probe) answers 405, the only status
 * that client accepts for it; a plain GET answers the JSON description of
 * the tool surface. DELETE is not a row, so the gatekeeper answers 405.
 *
 * Database: the row is flagged EP_DB_TRY. initialize, ping, tools/list and
 * the tools other than discovery work without MariaDB; the discovery tool
 * then answers a tool error (isError) naming database_unavailable.
 *
 * Versions: initialize echoes a supported protocolVersion and answers
 * MCP_PROTOCOL_LATEST to anything else. A request other than initialize
 * whose MCP-Protocol-Version header names an unsupported version gets 400
 * (-32000, data.supported lists ours); without the header the version is
 * 2025-03-26, as the transport spec says.
 *
 * Batches: a JSON array is answered as a JSON-RPC batch only under
 * 2025-03-26 (the one supported version that has batches; at most
 * MCP_BATCH_MAX messages, initialize not among them). Under 2025-06-18
 * and 2025-11-25 an array is 400 -32600.
 *
 * Errors: a body that is not strict JSON never reaches this module: the
 * gatekeeper answers 400 invalid_json (or 413, 415) with the service's
 * JSON error body. A message that is not JSON-RPC 2.0: 400 -32600. An
 * unknown method: 200 -32601. Bad params, an unknown tool, or arguments
 * that are not an object: 200 -32602. Arguments that break the tool's
 * inputSchema: a tool result with isError true and the service's error
 * body ({error, message, field}) as structuredContent, so the model can
 * correct itself (MCP 2025-11-25, tools: input validation errors are
 * tool execution errors). Notifications and client responses: 202, no
 * body.
 *
 * Tools (names built from BRAND_LOWER): <brand>_discovery,
 * <brand>_economics, <brand>_draft_review, <brand>_prepare_review. Each
 * tool's arguments ARE the fields of the HTTP row it mirrors, so both
 * validate alike and the inputSchema is generated from the same fields:
 * {"type":"object","properties":{...},"required":[...],
 *  "additionalProperties":false}. No tool pays, signs, fetches a URL,
 * publishes or monitors.
 *
 * Origin: any Origin is accepted. The surface is public, unauthenticated,
 * read-only and stateless, so a DNS-rebinding page gains nothing it could
 * not fetch itself.
 *
 * Return conventions: builders return new objects the caller puts.
 */
#ifndef WAYMARK_MCP_H
#define WAYMARK_MCP_H

#include <json-c/json.h>

#include "http.h"
#include "valid.h"

#define MCP_PROTOCOL_LATEST "2025-11-25"
#define MCP_PROTOCOL_BATCH "2025-03-26"  /* the supported version with batches */
#define MCP_PROTOCOL_DEFAULT "2025-03-26" /* assumed without MCP-Protocol-Version */
#define MCP_BATCH_MAX 16

/* JSON-RPC 2.0 error codes used here. */
#define MCP_PARSE_ERROR (-32700)
#define MCP_INVALID_REQUEST (-32600)
#define MCP_METHOD_NOT_FOUND (-32601)
#define MCP_INVALID_PARAMS (-32602)
#define MCP_INTERNAL_ERROR (-32603)
#define MCP_BAD_REQUEST (-32000)         /* transport-level, as the TS server uses it */
#define MCP_SERVER_BUSY (-32001)         /* implementation-defined: too busy now, retry (data.retryAfterSeconds) */

/* Supported protocol versions, newest first, NULL-terminated. */
extern const char *const mcp_protocol_versions[];

/* The version to answer initialize with when the client asks for v. */
const char *mcp_negotiate(const char *v);

/* The inputSchema generated from a row's fields (NULL: no fields). */
json_object *mcp_input_schema(const struct field *f);

/* The "tools" array of a tools/list result. */
json_object *mcp_tools_json(void);

/*
 * The answer to a plain GET /mcp: {version, name, serverVersion,
 * transport, tools (as tools/list), actions (each false), interpretation}.
 */
json_object *mcp_describe_json(void);

/*
 * Answer one parsed POST body (r->cfg set; r->db connected for the
 * discovery tool). Returns the response body and its HTTP status in
 * *status, or NULL with *status 202 when nothing is due.
 */
json_object *mcp_answer(struct req *r, json_object *body, int *status);

#endif
