/*
 * contexts.h: route contexts (docs/PROTOCOL.md, Route contexts): the reads
 * other handlers share.
 * Publication itself is h_route_contexts_post (table.h, contexts.c).
 *
 * A public context record is
 *   {version "boon.x402-route-context/v1", routeId, publisher (EIP-55),
 *    participantRoles [tipper|endpoint|network, at publication time],
 *    publishedAt, expiresAt (the note's, RFC 3339), publisherAccounts [],
 *    note {version, route {origin, method, publicPath, publicEndpointUrl},
 *          intent, fit, limits, requestSchemaUri, documentationUri,
 *          contextUris, createdAt, expiresAt},
 *    offer {version, noteEndpoint, method, network, asset, payTo,
 *           amountAtomic, responseDigest, responseBytes, expiresAt},
 *    verification {publisherSignature "valid", exactNoteBytes "valid",
 *                  challengeBinding "not_verified", endpointFetched false},
 *    signedPayload {noteJson, offerJson, signature}}
 * where noteJson and offerJson are the exact strings that were published
 * and signature is its bytes in lowercase hex. (publisherAccounts stays
 * empty until wallets can be linked to handles.)
 */
#ifndef WAYMARK_CONTEXTS_H
#define WAYMARK_CONTEXTS_H

#include <stdint.h>

#include <json-c/json.h>

#include "config.h"
#include "db.h"

#define CONTEXTS_ROUTE_MAX 50   /* records contexts_for_route returns at most */

/*
 * Append to out_array the public records (with signedPayload) of the
 * current contexts of route_id on cfg's chain: notes not yet expired now,
 * newest publication first, at most CONTEXTS_ROUTE_MAX. out_array owns
 * what is appended. Returns DB_OK, or the failing query's db_rc (DB_ERROR
 * also when a stored row cannot be turned into a record); out_array may
 * then hold part of the list.
 */
enum db_rc contexts_for_route(struct db *db, const struct config *cfg, const uint8_t route_id[32],
    json_object *out_array);

#endif
