/*
 * ids.h: the protocol's related IDs (docs/PROTOCOL.md, Related IDs),
 * each a keccak256 of an abi.encode tuple; the domain strings are built
 * from BRAND_LOWER (brand.h):
 *
 *   settlementContextRef = keccak256(abi.encode(
 *       string "<brand>:x402-settlement-context:v1", string network, bytes32 txHash))
 *   settlementSeriesId   = keccak256(abi.encode(
 *       string "<brand>:x402-settlement-series:v1", bytes32 routeId, string network,
 *       address asset, address payTo))
 *   routedBoonActionKey  = keccak256(abi.encode(address tipper, bytes32 routeId,
 *       bytes32 contextRef))
 *
 * The network must be canonical CAIP-2 "eip155:<positive decimal without
 * leading zero>"; zero hashes and zero addresses are rejected, as the
 * deployed protocol does.
 *
 * Return conventions: actions return 0, or -1 on invalid input (out is
 * then untouched); predicates return bool. Nothing allocates.
 */
#ifndef WAYMARK_IDS_H
#define WAYMARK_IDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"

#define IDS_NETWORK_MAX 39 /* "eip155:" + CAIP-2's 32-character reference */

/* True when network[0..len) is "eip155:" + 1..32 digits, first digit 1-9. */
bool ids_network_valid(const char *network, size_t len);

/* True when all 32 bytes are zero. */
bool ids_hash_is_zero(const uint8_t h[32]);

/* settlementContextRef(network, txHash); -1 on a bad network or zero txHash. */
int ids_settlement_context_ref(const char *network, size_t network_len, const uint8_t tx_hash[32],
    uint8_t out[32]);

/* settlementSeriesId; -1 on a bad network, zero routeId, zero asset or zero payTo. */
int ids_settlement_series_id(const uint8_t route_id[32], const char *network, size_t network_len,
    const struct addr *asset, const struct addr *pay_to, uint8_t out[32]);

/* routedBoonActionKey; -1 on a zero tipper, zero routeId or zero contextRef. */
int ids_routed_action_key(const struct addr *tipper, const uint8_t route_id[32],
    const uint8_t context_ref[32], uint8_t out[32]);

#endif
