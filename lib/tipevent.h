/*
 * tipevent.h: the logs of the tips contract (its ten events), of the
 * gratitude attestation contract and of the ERC-8004 identity registry,
 * decoded from eth_getLogs entries (docs/PROTOCOL.md, Tips):
 *
 *   tips:
 *     Tip(uint256 indexed tipId, bytes32 indexed handleHash, address indexed tipper,
 *         address recipient, string displayHandle, string note, uint256 usdcAmount,
 *         bool mintAttestation)
 *     TipEscrowed(uint256 indexed tipId, bytes32 indexed handleHash, address indexed tipper,
 *         string displayHandle, string note, uint256 usdcAmount, bool mintAttestation)
 *     TipAgent(uint256 indexed tipId, uint256 indexed agentId, address indexed tipper,
 *         address resolvedAgentWallet, string note, uint256 usdcAmount, bool mintAttestation)
 *     PrivateTip(uint256 indexed tipId, bytes32 indexed handleHash, address indexed tipper,
 *         string displayHandle, bytes32 privateCommitment)
 *     PrivateTipEscrowed(uint256 indexed tipId, bytes32 indexed handleHash,
 *         address indexed tipper, string displayHandle, bytes32 privateCommitment,
 *         bool mintAttestation)
 *     EscrowedClaimed(uint256 indexed tipId, bytes32 indexed handleHash,
 *         address indexed recipient, uint256 usdcAmount)
 *     EscrowedRefunded(uint256 indexed tipId, bytes32 indexed handleHash,
 *         address indexed tipper, uint256 usdcAmount)
 *     DeferredAttestationMinted(uint256 indexed tipId, address indexed recipient,
 *         bytes32 indexed handleHash)
 *     Linked(bytes32 indexed handleHash, address indexed wallet)
 *     Relinked(bytes32 indexed handleHash, address indexed oldWallet, address indexed newWallet)
 *   attestation:
 *     AttestationMinted(uint256 indexed tipId, address indexed recipient, bytes32 indexed handleHash)
 *     AttestationBurned(uint256 indexed tipId, address indexed holder)
 *   registry:
 *     Registered(uint256 indexed agentId, string agentURI, address indexed owner)
 *     Transfer(address indexed from, address indexed to, uint256 indexed tokenId)
 *     MetadataSet(uint256 indexed agentId, string indexed indexedMetadataKey,
 *         string metadataKey, bytes metadataValue)     -- only the agentWallet key
 *
 * Everything in a log is untrusted: lengths, offsets and words are checked
 * against the data, text is kept as valid UTF-8 (an invalid sequence
 * becomes U+FFFD), and the limits of the tips contract (display handle 90
 * bytes, note 280 bytes) are enforced. An agent tip's handle is derived:
 * agent:<decimal id> and its keccak256.
 */
#ifndef WAYMARK_TIPEVENT_H
#define WAYMARK_TIPEVENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <json-c/json.h>

#include "addr.h"
#include "u256.h"

#define TIPEV_HANDLE_MAX 90             /* bytes of a display handle on chain */
#define TIPEV_NOTE_MAX 280              /* bytes of a note on chain */
#define TIPEV_AGENT_ID_MAX 78           /* digits of 2^256 - 1 */
#define TIPEV_TOPICS_MAX 10             /* topic0 values of one source */

enum tipev_source {
	TIPSRC_TIPS,
	TIPSRC_ATTESTATION,
	TIPSRC_REGISTRY,
	TIPSRC__MAX
};

enum tipev_kind {
	TIPEV_TIP,
	TIPEV_TIP_ESCROWED,
	TIPEV_TIP_AGENT,
	TIPEV_PRIVATE_TIP,
	TIPEV_PRIVATE_TIP_ESCROWED,
	TIPEV_ESCROWED_CLAIMED,
	TIPEV_ESCROWED_REFUNDED,
	TIPEV_DEFERRED_ATTESTATION_MINTED,
	TIPEV_LINKED,
	TIPEV_RELINKED,
	TIPEV_ATTESTATION_MINTED,
	TIPEV_ATTESTATION_BURNED,
	TIPEV_AGENT_REGISTERED,
	TIPEV_AGENT_TRANSFER,
	TIPEV_AGENT_WALLET_SET,
	TIPEV__MAX
};

struct tipevent {
	enum tipev_kind kind;
	struct addr contract;
	uint64_t block_number;
	uint8_t block_hash[32];
	uint64_t block_time;        /* 0 when the log did not carry blockTimestamp */
	uint8_t tx_hash[32];
	uint64_t log_index;

	bool has_tip_id;
	uint64_t tip_id;            /* tip events; attestation token id */
	bool has_handle_hash;
	uint8_t handle_hash[32];
	bool has_agent_id;
	char agent_id[TIPEV_AGENT_ID_MAX + 1];  /* canonical decimal */
	bool has_actor;             /* tipper, old wallet, Transfer from, owner */
	struct addr actor;
	bool has_wallet;            /* see tip_events.wallet in sql/012_tips.sql */
	struct addr wallet;
	bool has_usdc;
	struct u256 usdc;
	int mint_attestation;       /* 0, 1, or -1 when the event does not say */
	bool has_display;
	char display[3 * TIPEV_HANDLE_MAX + 1];
	bool display_canonical;     /* display is a canonical handle hashing to handle_hash */
	bool has_note;
	char note[3 * TIPEV_NOTE_MAX + 1];
	bool has_commitment;
	uint8_t commitment[32];
};

/* The event's name as tip_events.event stores it. */
const char *tipev_name(enum tipev_kind k);

/* The event's signature, e.g. "Linked(bytes32,address)". */
const char *tipev_signature(enum tipev_kind k);

/* The topic0 values a source's logs are asked for; returns their count. */
size_t tipev_topics(enum tipev_source src, uint8_t out[TIPEV_TOPICS_MAX][32]);

/* True for the events that create a tip (Tip ... PrivateTipEscrowed). */
bool tipev_creates_tip(enum tipev_kind k);

/* True for the private-tip creations. */
bool tipev_is_private(enum tipev_kind k);

/*
 * Decode one log of source src. Returns 0 with *out filled, 1 for a log
 * of no interest (another metadata key, an event this source does not
 * index), or -1 with a reason in err[cap] when the log is malformed
 * (removed, missing fields, wrong topic count, data that does not decode,
 * a tip id of 2^64 or more, text over the contract's limits).
 */
int tipev_decode(json_object *log, enum tipev_source src, struct tipevent *out, char *err, size_t cap);

#endif
