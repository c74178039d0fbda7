/*
 * economics.h: GET /api/v1/x402/economics (docs/PROTOCOL.md, Free endpoints),
 * the free summary of
 * who gets paid for what, and the MCP tool boon_economics, which returns
 * the same object.
 *
 * Shape (version "1"; addresses EIP-55; amounts decimal strings):
 *   {version, network (CAIP-2),
 *    asset {symbol "USDC", address, decimals 6},
 *    payTo {paidReads, paidReviewPublication},
 *    facilitator {origin}            origin of facilitator_url only, never
 *                                    its path, query or credentials; null
 *                                    when it cannot be read
 *    prices [{resourceId, method, path, protocols (economics_protocols),
 *             price {usdc, atomic}}]  every paid row of the dispatch
 *                                    table, in table order
 *    recognitions {companionContract, gratuities (text),
 *                  burn {token {symbol, address, decimals 18}, amount,
 *                        atomic, to (0x...dEaD), per, fixed true}},
 *    experimental {tokenCredits {status "disabled", sold false},
 *                  buybacks {status "disabled", executed false},
 *                  fixedBurns {status "unchanged", changed false}},
 *    interpretation}
 * It is configuration and table, not a ledger and not a payment
 * authorization: the live 402 challenge is authoritative.
 *
 * Return conventions: the builders return a new object the caller puts
 * (json_object_put); economics_origin is an action (0 or -1).
 */
#ifndef WAYMARK_ECONOMICS_H
#define WAYMARK_ECONOMICS_H

#include <stddef.h>

#include <json-c/json.h>

#include "config.h"
#include "endpoint.h"

#define ECONOMICS_VERSION "1"
#define ECONOMICS_BURN_BOON "100000"   /* fixed burn per routed recognition, whole BOON */
#define ECONOMICS_BURN_SINK "0x000000000000000000000000000000000000dEaD"

/* The economics object for this configuration and the dispatch table. */
json_object *economics_json(const struct config *cfg);

/* The prices array for the paid rows of tab[0..n) (rows whose price does
 * not convert to atomic USDC are left out; t/unit keeps none such). */
json_object *economics_prices_json(const struct config *cfg, const struct endpoint *tab, size_t n);

/*
 * The payment protocols a paid row takes under cfg, as a new array:
 * ["x402"], and "mpp" beside it when mpp_secret is set (docs/PROTOCOL.md,
 * MPP payments). Economics, the cost preview and the agent skills list it.
 */
json_object *economics_protocols(const struct config *cfg);

/*
 * A row's price (a decimal USDC string, endpoint.h) as atomic units of
 * USDC's 6 decimals into out[cap]: "0.01" -> "10000". 0, or -1 when it is
 * not a price or does not fit.
 */
int economics_price_atomic(const char *price_usdc, char *out, size_t cap);

/*
 * "scheme://host[:port]" of an http or https URL into out[cap]: scheme
 * and host lowercased, userinfo dropped, the default port (80, 443)
 * dropped. 0, or -1 when url is not such a URL or out is too small.
 */
int economics_origin(const char *url, char *out, size_t cap);

#endif
