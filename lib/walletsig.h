/*
 * walletsig.h: does this signature come from this wallet? EOA signatures
 * locally, contract wallets (ERC-1271) and not-yet-deployed contract
 * wallets (EIP-6492) through the configured JSON-RPC node (rpc_url).
 *
 * Verifier order (docs/PROTOCOL.md, Contract-wallet signatures; ERC-6492
 * requires 1271 before ecrecover for contracts):
 *  1. The signature ends in the 32-byte ERC-6492 suffix (0x6492 x 16): the
 *     wrapper abi.encode(factory, factoryCalldata, innerSig) is checked
 *     for a strict layout here (a malformed one is INVALID without any
 *     call), then one eth_call without "to" runs our own deployless
 *     validator (chain/contracts/SignatureValidator.sol, creation code in
 *     walletsig_validator.h): it deploys the wallet inside the simulation
 *     when needed and asks isValidSignature; the call answers 0x01 or 0x00.
 *     Nothing is deployed on chain. Kind WALLETSIG_ERC6492.
 *  2. A 64- or 65-byte signature: local ecrecover (lib/sig: v 0/1/27/28,
 *     EIP-2098 compact, low s). VALID when it recovers to the signer; no
 *     RPC is needed. Kind WALLETSIG_EOA.
 *  3. Otherwise (no match, another length or not ECDSA at all):
 *     eth_getCode(signer). Code (including an EIP-7702 delegation) ->
 *     eth_call isValidSignature(bytes32,bytes) on the signer: VALID only
 *     if the call succeeds and returns at least 32 bytes starting with the
 *     magic 0x1626ba7e; a revert or anything else is INVALID. Kind
 *     WALLETSIG_ERC1271. No code -> INVALID.
 *
 * Fail closed: a step that needs the chain when no rpc_url is configured,
 * the limit on checks full, the check's time spent, a transport failure
 * (connect, timeout, HTTP status), a reply that is not
 * JSON-RPC, or a node error other than an execution revert gives
 * WALLETSIG_UNAVAILABLE, never VALID. Callers answer 503
 * signature_check_unavailable (ERR_SIGNATURE_UNAVAILABLE) and charge
 * nothing. An execution revert (JSON-RPC error code 3, or a message naming
 * a revert) is a real answer: INVALID.
 *
 * Bounded (an ERC-6492 factory's calldata is the caller's, and the node is
 * the one the indexer and payments use): a check takes a
 * place under the limit of lib/nodecap.h (sigcheck_max_in_flight, shared
 * by the pool on this host) just before its first call, after every local
 * step, and holds it until it returns; past the limit it is UNAVAILABLE at
 * once, nothing asked. All the calls of one check share
 * cfg->sigcheck_timeout_ms: when it is spent the check is UNAVAILABLE.
 * Callers run their own cheap checks (shape, route, recognition, window)
 * before calling walletsig_verify. docs/ARCHITECTURE.md, Worker.
 *
 * The RPC connection is the calling thread's own one (rpc_shared in
 * lib/rpc: made on first need from cfg->rpc_url, reused across requests).
 * Signatures are at most WALLETSIG_MAX bytes.
 *
 * Return conventions: walletsig_verify and the decoders return enum
 * walletsig_rc (callers tell the three answers apart); the calldata
 * builders and walletsig_unwrap_6492 are actions (0 or -1); the is_*
 * functions are predicates. Nothing returned needs freeing, except the
 * caller's own struct buf.
 */
#ifndef WAYMARK_WALLETSIG_H
#define WAYMARK_WALLETSIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"
#include "buf.h"
#include "config.h"

#define WALLETSIG_MAX 4096           /* bytes of signature, wrapper included */
#define WALLETSIG_1271_MAGIC 0x1626ba7eu

enum walletsig_rc {
	WALLETSIG_VALID,
	WALLETSIG_INVALID,
	WALLETSIG_UNAVAILABLE,
};

enum walletsig_kind {
	WALLETSIG_EOA,
	WALLETSIG_ERC1271,
	WALLETSIG_ERC6492,
	WALLETSIG_KIND__MAX
};

/* The parts of an ERC-6492 wrapper; pointers into the signature given. */
struct walletsig_6492 {
	struct addr factory;
	const uint8_t *factory_calldata;
	size_t factory_calldata_len;
	const uint8_t *inner;
	size_t inner_len;
};

/*
 * Does sig[0..sig_len) come from signer for digest (see the order above)?
 * *kind (may be NULL) gets the kind of check that decided, also for
 * INVALID and UNAVAILABLE. A signature longer than WALLETSIG_MAX or empty
 * is INVALID.
 */
enum walletsig_rc walletsig_verify(const struct config *cfg, const uint8_t digest[32],
    const uint8_t *sig, size_t sig_len, const struct addr *signer, enum walletsig_kind *kind);

/* The reviews.signature_kind value of a kind: "eoa", or "erc1271" for 1271 and 6492. */
const char *walletsig_kind_column(enum walletsig_kind k);

/* True when sig ends in the 32-byte ERC-6492 suffix (and has room for it). */
bool walletsig_is_6492(const uint8_t *sig, size_t sig_len);

/*
 * Split an ERC-6492 signature into *out. 0, or -1 when it has no suffix
 * or the wrapper is not exactly abi.encode(address, bytes, bytes): head
 * offsets 0x60 and in order, lengths within the data, an address with a
 * zero upper 12 bytes, zero padding, nothing after the last member.
 */
int walletsig_unwrap_6492(const uint8_t *sig, size_t sig_len, struct walletsig_6492 *out);

/* "0x" + hex of isValidSignature(bytes32 digest, bytes sig) calldata into b. 0 or -1 (b full). */
int walletsig_1271_calldata(const uint8_t digest[32], const uint8_t *sig, size_t sig_len,
    struct buf *b);

/*
 * "0x" + hex of the deployless validator's creation code followed by
 * abi.encode(signer, digest, sig) into b. 0 or -1 (b full).
 */
int walletsig_validator_calldata(const struct addr *signer, const uint8_t digest[32],
    const uint8_t *sig, size_t sig_len, struct buf *b);

/*
 * An isValidSignature eth_call result ("0x" + hex): VALID when it is at
 * least 32 bytes and starts with the magic; INVALID for any other hex;
 * UNAVAILABLE when it is not "0x" + an even number of hex digits.
 */
enum walletsig_rc walletsig_decode_1271(const char *result);

/*
 * The validator eth_call result: "0x01" VALID, "0x00" INVALID (either
 * case of hex), anything else UNAVAILABLE (not our validator's answer).
 */
enum walletsig_rc walletsig_decode_validator(const char *result);

#endif
