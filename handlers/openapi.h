/*
 * openapi.h: the machine-readable description of the interface, built from
 * the dispatch table and its field tables (docs/PROTOCOL.md, Interface
 * description): GET /openapi.json serves it and `waymark routes openapi`
 * prints it, so neither can drift from the rows the gatekeeper runs.
 *
 * The document is OpenAPI 3.1.0 with info.version 0.8.0 (the interface
 * version, docs/PROTOCOL.md, Interface description). Per row: an operation under the row's
 * pattern and method, its id as operationId, its path and query fields as
 * parameters, its body fields as the JSON request-body schema (closed on
 * EP_STRICT rows), and its answers: the success (201 where the row
 * creates, 202 where a paid publication may be settled but not finished),
 * the JSON error shape (components.schemas.Error) for every refusal the
 * gatekeeper can give that row, and for paid rows the 402 with both
 * challenges (PAYMENT-REQUIRED, WWW-Authenticate) and `x-payment-info`
 * {price {mode "fixed", currency "USD", amount}, protocols [{x402 {}},
 * {mpp {method, intent, currency}}], offers [{intent "charge", method
 * "evm", amount (atomic USDC), currency, description}]}: price and
 * protocols in the shape x402scan reads, offers in the shape of the MPP
 * discovery draft (present when MPP is offered; the draft's reader ignores
 * the other members and refuses flat offer members beside offers, so there
 * are none). The root carries the draft's x-service-info {categories, docs
 * {apiReference (docs_url), homepage (app_url), llms (/skill.md)}}; sign-in
 * rows carry security [{siwx: []}] and their own 402.
 *
 * It depends on the configuration only where the deployment does: MPP is
 * listed when mpp_secret is set (economics_protocols), with the configured
 * USDC contract as its currency. Servers is the relative "/", so one
 * document describes the service wherever it is served from.
 *
 * The documentation pages (handlers/pages_ref.c) render a row's operation
 * and the components its answers refer to, so the pages and the document
 * say the same.
 *
 * Return conventions: each function returns a new object the caller puts
 * (json_object_put), or NULL when memory ran out.
 */
#ifndef WAYMARK_OPENAPI_H
#define WAYMARK_OPENAPI_H

#include <stddef.h>

#include <json-c/json.h>

#include "config.h"
#include "endpoint.h"

#define OPENAPI_SPEC_VERSION "3.1.0"
#define OPENAPI_INFO_VERSION "0.8.0"   /* docs/PROTOCOL.md, Interface description */

/* The OpenAPI document of tab[0..n) under cfg. */
json_object *openapi_json(const struct config *cfg, const struct endpoint *tab, size_t n);

/* The operation of row e under cfg: what paths[pattern][method] holds. */
json_object *openapi_operation(const struct config *cfg, const struct endpoint *e);

/* components: the Error schema, the headers, the responses the operations refer to. */
json_object *openapi_components(void);

#endif
