#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "addr.h"
#include "brand.h"
#include "ids.h"
#include "banned.h"

#define CONTEXT_TAG BRAND_LOWER ":x402-settlement-context:v1"
#define SERIES_TAG BRAND_LOWER ":x402-settlement-series:v1"
#define EIP155 "eip155:"

bool
ids_network_valid(const char *network, size_t len)
{
	size_t pre = sizeof(EIP155) - 1;

	if (network == NULL || len <= pre || len > IDS_NETWORK_MAX || memcmp(network, EIP155, pre) != 0)
		return false;
	if (network[pre] < '1' || network[pre] > '9')
		return false;
	for (size_t i = pre + 1; i < len; i++)
		if (network[i] < '0' || network[i] > '9')
			return false;
	return true;
}

bool
ids_hash_is_zero(const uint8_t h[32])
{
	uint8_t acc = 0;

	for (int i = 0; i < 32; i++)
		acc |= h[i];
	return acc == 0;
}

int
ids_settlement_context_ref(const char *network, size_t network_len, const uint8_t tx_hash[32],
    uint8_t out[32])
{
	if (!ids_network_valid(network, network_len) || ids_hash_is_zero(tx_hash))
		return -1;
	struct abi_arg args[] = {
		abi_string(CONTEXT_TAG, sizeof(CONTEXT_TAG) - 1),
		abi_string(network, network_len),
		abi_bytes32(tx_hash),
	};
	return abi_encode_hash(args, sizeof(args) / sizeof(args[0]), out);
}

int
ids_settlement_series_id(const uint8_t route_id[32], const char *network, size_t network_len,
    const struct addr *asset, const struct addr *pay_to, uint8_t out[32])
{
	if (ids_hash_is_zero(route_id) || !ids_network_valid(network, network_len) ||
	    addr_is_zero(asset) || addr_is_zero(pay_to))
		return -1;
	struct abi_arg args[] = {
		abi_string(SERIES_TAG, sizeof(SERIES_TAG) - 1),
		abi_bytes32(route_id),
		abi_string(network, network_len),
		abi_address(asset),
		abi_address(pay_to),
	};
	return abi_encode_hash(args, sizeof(args) / sizeof(args[0]), out);
}

int
ids_routed_action_key(const struct addr *tipper, const uint8_t route_id[32],
    const uint8_t context_ref[32], uint8_t out[32])
{
	if (addr_is_zero(tipper) || ids_hash_is_zero(route_id) || ids_hash_is_zero(context_ref))
		return -1;
	struct abi_arg args[] = {
		abi_address(tipper),
		abi_bytes32(route_id),
		abi_bytes32(context_ref),
	};
	return abi_encode_hash(args, sizeof(args) / sizeof(args[0]), out);
}
