/*
 * routedboon.h: the routed-recognition event of the companion contract
 * (docs/PROTOCOL.md, Routed recognition):
 *
 *   RoutedBoon(bytes32 indexed routeId, address indexed tipper,
 *              bytes32 indexed contextRef, address endpointPayTo,
 *              uint256 endpointGratuityUsdc, address networkPayTo,
 *              uint256 networkGratuityUsdc, uint256 boonBurned)
 *
 * decoded from one eth_getLogs entry. Amounts stay uint256 (u256.h).
 */
#ifndef WAYMARK_ROUTEDBOON_H
#define WAYMARK_ROUTEDBOON_H

#include <stdint.h>

#include <json-c/json.h>

#include "brand.h"
#include "addr.h"
#include "u256.h"

#define ROUTEDBOON_SIGNATURE \
	"Routed" BRAND_CAPITAL "(bytes32,address,bytes32,address,uint256,address,uint256,uint256)"

struct routedboon {
	struct addr contract;
	uint64_t block_number;
	uint8_t block_hash[32];
	uint64_t block_time;        /* 0 when the log did not carry blockTimestamp */
	uint8_t tx_hash[32];
	uint64_t log_index;
	uint8_t route_id[32];
	struct addr tipper;
	uint8_t context_ref[32];
	struct addr endpoint_pay_to;
	struct u256 endpoint_usdc;
	struct addr network_pay_to;
	struct u256 network_usdc;
	struct u256 boon_burned;
};

/* topic0: keccak256 of ROUTEDBOON_SIGNATURE. */
void routedboon_topic0(uint8_t out[32]);

/*
 * Decode one log object. Returns 0, or -1 with a reason in err[cap] when
 * the log is not a well-formed RoutedBoon (wrong topic0 or topic count,
 * data not 5 words, an address word with high bits set, a removed log).
 */
int routedboon_decode(json_object *log, struct routedboon *out, char *err, size_t cap);

#endif
