#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "abi.h"
#include "hex.h"
#include "keccak.h"
#include "routedboon.h"
#include "rpc.h"
#include "json.h"
#include "banned.h"

void
routedboon_topic0(uint8_t out[32])
{
	keccak256(ROUTEDBOON_SIGNATURE, strlen(ROUTEDBOON_SIGNATURE), out);
}

static int
get_b32(json_object *o, const char *key, uint8_t out[32])
{
	const char *s = json_member_string(o, key, NULL);

	return s ? hex_decode_fixed(s, strlen(s), out, 32, true) : -1;
}

static int
get_u64(json_object *o, const char *key, uint64_t *out)
{
	return rpc_hex_u64(json_member_string(o, key, NULL), out);
}

int
routedboon_decode(json_object *log, struct routedboon *out, char *err, size_t cap)
{
	json_object *topics = NULL, *removed = NULL;
	uint8_t t[32], want[32], data[5 * 32];
	const char *addr_s, *data_s;
	size_t dlen = 0;

	memset(out, 0, sizeof(*out));
	if (json_object_object_get_ex(log, "removed", &removed) && json_object_get_boolean(removed)) {
		snprintf(err, cap, "log is marked removed");
		return -1;
	}
	addr_s = json_member_string(log, "address", NULL);
	if (addr_s == NULL || addr_parse(addr_s, strlen(addr_s), &out->contract) < 0 ||
	    get_u64(log, "blockNumber", &out->block_number) < 0 ||
	    get_b32(log, "blockHash", out->block_hash) < 0 ||
	    get_b32(log, "transactionHash", out->tx_hash) < 0 ||
	    get_u64(log, "logIndex", &out->log_index) < 0) {
		snprintf(err, cap, "log lacks address, block, transaction or log index");
		return -1;
	}
	if (json_member_string(log, "blockTimestamp", NULL))
		get_u64(log, "blockTimestamp", &out->block_time);
	if (!json_object_object_get_ex(log, "topics", &topics) ||
	    !json_object_is_type(topics, json_type_array) || json_object_array_length(topics) != 4) {
		snprintf(err, cap, "Routed" BRAND_CAPITAL " has 4 topics");
		return -1;
	}
	routedboon_topic0(want);
	for (size_t i = 0; i < 4; i++) {
		json_object *ti = json_object_array_get_idx(topics, i);
		const char *s = json_object_is_type(ti, json_type_string) ? json_object_get_string(ti) : NULL;

		if (s == NULL || hex_decode_fixed(s, strlen(s), t, 32, true) < 0) {
			snprintf(err, cap, "topic %zu is not 32 bytes", i);
			return -1;
		}
		if (i == 0 && memcmp(t, want, 32) != 0) {
			snprintf(err, cap, "topic0 is not Routed" BRAND_CAPITAL);
			return -1;
		}
		if (i == 1)
			memcpy(out->route_id, t, 32);
		if (i == 2 && abi_read_address(t, 32, 0, &out->tipper) < 0) {
			snprintf(err, cap, "tipper topic is not an address");
			return -1;
		}
		if (i == 3)
			memcpy(out->context_ref, t, 32);
	}
	data_s = json_member_string(log, "data", NULL);
	if (data_s == NULL || hex_decode(data_s, strlen(data_s), data, sizeof(data), &dlen) < 0 ||
	    dlen != sizeof(data)) {
		snprintf(err, cap, "data is not 5 words");
		return -1;
	}
	if (abi_read_address(data, dlen, 0, &out->endpoint_pay_to) < 0 ||
	    abi_read_uint256(data, dlen, 32, &out->endpoint_usdc) < 0 ||
	    abi_read_address(data, dlen, 64, &out->network_pay_to) < 0 ||
	    abi_read_uint256(data, dlen, 96, &out->network_usdc) < 0 ||
	    abi_read_uint256(data, dlen, 128, &out->boon_burned) < 0) {
		snprintf(err, cap, "data words do not decode");
		return -1;
	}
	return 0;
}
