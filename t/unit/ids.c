/*
 * Related IDs: every settlement context, settlement series and action-key
 * vector of t/vectors/route-ids.json (the deployed protocol's published
 * vectors), then the rejections. Run from the top of the tree (or set
 * WAYMARK_TOP).
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <json-c/json.h>

#include "hex.h"
#include "ids.h"
#include "tap.h"
#include "banned.h"

#define VECTORS "t/vectors/route-ids.json"

static json_object *
load(const char *rel)
{
	const char *top = getenv("WAYMARK_TOP");
	char path[4096];
	int n = snprintf(path, sizeof(path), "%s%s%s", top ? top : "", top ? "/" : "", rel);

	if (n < 0 || (size_t)n >= sizeof(path))
		return NULL;
	return json_object_from_file(path);
}

static const char *
field(json_object *o, const char *key)
{
	json_object *v;

	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string))
		return "";
	return json_object_get_string(v);
}

static int
b32(json_object *o, const char *key, uint8_t out[32])
{
	const char *s = field(o, key);

	return hex_decode_fixed(s, strlen(s), out, 32, true);
}

static int
address(json_object *o, const char *key, struct addr *out)
{
	const char *s = field(o, key);

	return hex_decode_fixed(s, strlen(s), out->b, ADDR_LEN, true);
}

static const char *
hx(const uint8_t h[32])
{
	static char out[67];

	return hex_encode(h, 32, out);
}

static json_object *
list(json_object *root, const char *key)
{
	json_object *a;

	if (!json_object_object_get_ex(root, key, &a) || !json_object_is_type(a, json_type_array))
		return NULL;
	return a;
}

int
main(void)
{
	json_object *root = load(VECTORS);
	json_object *a;
	uint8_t h[32], tx[32], route[32], ctx[32], zero[32];
	struct addr asset, payto, tipper, zaddr;
	size_t i;

	if (!ok(root != NULL, "load %s", VECTORS))
		return done_testing();

	a = list(root, "settlementContexts");
	ok(a != NULL && json_object_array_length(a) == 1, "one settlementContexts vector to check");
	for (i = 0; a != NULL && i < json_object_array_length(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *net = field(v, "network");

		ok(b32(v, "transactionHash", tx) == 0 &&
		    ids_settlement_context_ref(net, strlen(net), tx, h) == 0,
		    "settlementContexts[%zu] computes", i);
		is_str(hx(h), field(v, "contextRef"), "settlementContexts[%zu] contextRef", i);
	}

	a = list(root, "settlementSeries");
	ok(a != NULL && json_object_array_length(a) == 1, "one settlementSeries vector to check");
	for (i = 0; a != NULL && i < json_object_array_length(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);
		const char *net = field(v, "network");

		ok(b32(v, "routeId", route) == 0 && address(v, "asset", &asset) == 0 &&
		    address(v, "payTo", &payto) == 0 &&
		    ids_settlement_series_id(route, net, strlen(net), &asset, &payto, h) == 0,
		    "settlementSeries[%zu] computes", i);
		is_str(hx(h), field(v, "settlementSeriesId"), "settlementSeries[%zu] id", i);
	}

	a = list(root, "actionKeys");
	ok(a != NULL && json_object_array_length(a) == 1, "one actionKeys vector to check");
	for (i = 0; a != NULL && i < json_object_array_length(a); i++) {
		json_object *v = json_object_array_get_idx(a, i);

		ok(address(v, "tipper", &tipper) == 0 && b32(v, "routeId", route) == 0 &&
		    b32(v, "contextRef", ctx) == 0 && ids_routed_action_key(&tipper, route, ctx, h) == 0,
		    "actionKeys[%zu] computes", i);
		is_str(hx(h), field(v, "actionKey"), "actionKeys[%zu] actionKey", i);
	}

	/* The figures of docs/PROTOCOL.md, Related IDs, independently of the file. */
	memset(tx, 0xab, 32);
	ok(ids_settlement_context_ref("eip155:8453", 11, tx, h) == 0, "context ref of (8453, 0xabab..)");
	is_str(hx(h), "0x82775f78b76c4e7fd112a5611dabfa15249137566cf977975e9dba676edb185f",
	    "context ref matches boon.md");

	/* networks */
	ok(ids_network_valid("eip155:1", 8), "eip155:1 valid");
	ok(ids_network_valid("eip155:84532", 12), "eip155:84532 valid");
	ok(!ids_network_valid("eip155:0", 8), "chain 0 rejected");
	ok(!ids_network_valid("eip155:08453", 12), "leading zero rejected");
	ok(!ids_network_valid("eip155:", 7), "empty reference rejected");
	ok(!ids_network_valid("eip155:-1", 9), "sign rejected");
	ok(!ids_network_valid("eip155:8453 ", 12), "trailing space rejected");
	ok(!ids_network_valid("EIP155:8453", 11), "namespace is case-sensitive");
	ok(!ids_network_valid("solana:5eykt4UsFv8P8NJdTREpY1vzqKqZKvdp", 39), "other namespaces rejected");
	ok(!ids_network_valid("eip155:8453x", 12), "non-digit rejected");
	ok(ids_network_valid("eip155:12345678901234567890123456789012", 39), "32-digit reference valid");
	ok(!ids_network_valid("eip155:123456789012345678901234567890123", 40), "33-digit reference rejected");
	ok(!ids_network_valid(NULL, 0), "NULL rejected");

	/* zero values and bad networks */
	memset(zero, 0, 32);
	memset(&zaddr, 0, sizeof(zaddr));
	memset(route, 0x11, 32);
	memset(ctx, 0x22, 32);
	memset(tipper.b, 0x11, ADDR_LEN);
	memset(asset.b, 0x33, ADDR_LEN);
	memset(payto.b, 0x44, ADDR_LEN);
	memset(h, 0x5a, 32);
	ok(ids_settlement_context_ref("eip155:8453", 11, zero, h) < 0, "context ref: zero txHash rejected");
	ok(ids_settlement_context_ref("eip155:08453", 12, tx, h) < 0, "context ref: non-canonical network");
	ok(ids_settlement_context_ref("8453", 4, tx, h) < 0, "context ref: bare chain id rejected");
	ok(ids_settlement_series_id(zero, "eip155:8453", 11, &asset, &payto, h) < 0,
	    "series: zero routeId rejected");
	ok(ids_settlement_series_id(route, "eip155:8453", 11, &zaddr, &payto, h) < 0,
	    "series: zero asset rejected");
	ok(ids_settlement_series_id(route, "eip155:8453", 11, &asset, &zaddr, h) < 0,
	    "series: zero payTo rejected");
	ok(ids_settlement_series_id(route, "eip155:0", 8, &asset, &payto, h) < 0, "series: chain 0 rejected");
	ok(ids_routed_action_key(&zaddr, route, ctx, h) < 0, "action key: zero tipper rejected");
	ok(ids_routed_action_key(&tipper, zero, ctx, h) < 0, "action key: zero routeId rejected");
	ok(ids_routed_action_key(&tipper, route, zero, h) < 0, "action key: zero contextRef rejected");
	uint8_t want[32];
	memset(want, 0x5a, 32);
	ok(memcmp(h, want, 32) == 0, "output untouched after rejections");
	ok(ids_hash_is_zero(zero) && !ids_hash_is_zero(route), "hash zero predicate");

	/* A different network changes the context ref (the network is bound). */
	uint8_t h1[32], h2[32];
	ok(ids_settlement_context_ref("eip155:8453", 11, tx, h1) == 0 &&
	    ids_settlement_context_ref("eip155:84532", 12, tx, h2) == 0 && memcmp(h1, h2, 32) != 0,
	    "network is bound into the context ref");

	json_object_put(root);
	return done_testing();
}
