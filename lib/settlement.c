/*
 * settlement.c: a USDC Transfer verified on the chain (settlement.h;
 * docs/ARCHITECTURE.md, Profile activity).
 */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "hex.h"
#include "rpc.h"
#include "settlement.h"
#include "json.h"
#include "banned.h"

/* keccak256("Transfer(address,address,uint256)") */
static const char transfer_topic[] =
    "0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef";

/* A 32-byte hex member key of o into out; 0 or -1. */
static int
b32_of(json_object *o, const char *key, uint8_t out[32])
{
	const char *s = json_member_string(o, key, NULL);

	return s && strlen(s) == 66 && hex_decode_fixed(s, 66, out, 32, true) == 0 ? 0 : -1;
}

/* A quantity member key of o ("0x1a") into out; 0 or -1. */
static int
qty_of(json_object *o, const char *key, uint64_t *out)
{
	const char *s = json_member_string(o, key, NULL);

	return s && rpc_hex_u64(s, out) == 0 ? 0 : -1;
}

/* A topic (32 bytes) holding address a in its low 20 bytes, the rest zero? */
static bool
topic_addr(json_object *t, struct addr *out)
{
	uint8_t b[32];
	static const uint8_t zero[12] = { 0 };

	if (!json_object_is_type(t, json_type_string) || json_object_get_string_len(t) != 66 ||
	    hex_decode_fixed(json_object_get_string(t), 66, b, 32, true) < 0 || memcmp(b, zero, 12) != 0)
		return false;
	memcpy(out->b, b + 12, ADDR_LEN);
	return true;
}

/*
 * Is log l a Transfer of w->token from w->from (and to w->to, of
 * *w->value, when given)? Its payee, value and index into *s.
 */
static bool
log_matches(json_object *l, const struct settlement_want *w, struct settlement *s, bool *indexed)
{
	json_object *topics = NULL, *rm = NULL, *t0;
	const char *a = json_member_string(l, "address", NULL), *d = json_member_string(l, "data", NULL);
	struct addr emitter, from;
	uint8_t word[32];

	/* A log index past the stored range is no index we can name. */
	*indexed = qty_of(l, "logIndex", &s->log_index) == 0 && s->log_index <= SETTLEMENT_LOG_INDEX_MAX;
	if (json_object_object_get_ex(l, "removed", &rm) && json_object_is_type(rm, json_type_boolean) &&
	    json_object_get_boolean(rm))
		return false;
	if (a == NULL || addr_parse(a, strlen(a), &emitter) < 0 || !addr_eq(&emitter, &w->token))
		return false;
	if (!json_object_object_get_ex(l, "topics", &topics) || !json_object_is_type(topics, json_type_array) ||
	    json_object_array_length(topics) != 3)
		return false;
	t0 = json_object_array_get_idx(topics, 0);
	if (!json_object_is_type(t0, json_type_string) || strcasecmp(json_object_get_string(t0), transfer_topic) != 0)
		return false;
	if (!topic_addr(json_object_array_get_idx(topics, 1), &from) || !addr_eq(&from, &w->from) ||
	    !topic_addr(json_object_array_get_idx(topics, 2), &s->to))
		return false;
	if (d == NULL || strlen(d) != 66 || hex_decode_fixed(d, 66, word, 32, true) < 0)
		return false;
	u256_from_be(&s->value, word);
	if (w->to && !addr_eq(&s->to, w->to))
		return false;
	if (w->value && u256_cmp(&s->value, w->value) != 0)
		return false;
	return *indexed;
}

enum settlement_rc
settlement_read(json_object *rcpt, const struct settlement_want *w, struct settlement *out)
{
	json_object *logs = NULL;
	const char *status;
	uint8_t tx[32];
	char dec[U256_DEC_MAX + 1];
	size_t found = 0;

	if (rcpt == NULL || json_object_is_type(rcpt, json_type_null))
		return SETTLEMENT_UNKNOWN_TX;
	if (!json_object_is_type(rcpt, json_type_object) || b32_of(rcpt, "transactionHash", tx) < 0 ||
	    memcmp(tx, w->tx, 32) != 0 || qty_of(rcpt, "blockNumber", &out->block_number) < 0 ||
	    b32_of(rcpt, "blockHash", out->block_hash) < 0 ||
	    (status = json_member_string(rcpt, "status", NULL)) == NULL ||
	    !json_object_object_get_ex(rcpt, "logs", &logs) || !json_object_is_type(logs, json_type_array))
		return SETTLEMENT_BAD_REPLY;
	if (strcmp(status, "0x1") != 0)
		return strcmp(status, "0x0") == 0 ? SETTLEMENT_FAILED : SETTLEMENT_BAD_REPLY;
	for (size_t i = 0; i < json_object_array_length(logs); i++) {
		struct settlement s = *out;
		bool indexed;

		if (!log_matches(json_object_array_get_idx(logs, i), w, &s, &indexed)) {
			if (w->log_index >= 0 && indexed && s.log_index == (uint64_t)w->log_index)
				return SETTLEMENT_NO_TRANSFER;
			continue;
		}
		if (w->log_index >= 0 && s.log_index != (uint64_t)w->log_index)
			continue;
		if (found++ == 0)
			*out = s;
	}
	if (found == 0)
		return SETTLEMENT_NO_TRANSFER;
	if (found > 1 && w->log_index < 0 && (w->to == NULL || w->value == NULL))
		return SETTLEMENT_AMBIGUOUS;
	if (u256_is_zero(&out->value))
		return SETTLEMENT_ZERO;
	u256_format_dec(&out->value, dec);
	if (strlen(dec) > SETTLEMENT_AMOUNT_DIGITS)
		return SETTLEMENT_TOO_LARGE;
	memcpy(out->amount, dec, strlen(dec) + 1);
	return SETTLEMENT_OK;
}

enum settlement_rc
settlement_verify(const struct config *cfg, const struct settlement_want *w, struct settlement *out)
{
	struct rpc *node = rpc_shared(cfg->rpc_url, (long)cfg->rpc_timeout_ms, cfg->tls_ca_file);
	json_object *rcpt = NULL, *head = NULL, *block = NULL;
	char params[128], hx[67];
	uint64_t top = 0;
	uint8_t hash[32];
	enum settlement_rc rc = SETTLEMENT_UNAVAILABLE;
	enum rpc_rc rr;

	memset(out, 0, sizeof(*out));
	if (node == NULL)
		return SETTLEMENT_UNAVAILABLE;
	snprintf(params, sizeof(params), "[\"%s\"]", hex_encode(w->tx, 32, hx));
	if ((rr = rpc_call(node, "eth_getTransactionReceipt", params, &rcpt)) != RPC_OK) {
		rc = rr == RPC_BAD_REPLY ? SETTLEMENT_BAD_REPLY : SETTLEMENT_UNAVAILABLE;
		goto out;
	}
	if ((rc = settlement_read(rcpt, w, out)) != SETTLEMENT_OK)
		goto out;
	if (rpc_call(node, "eth_blockNumber", "[]", &head) != RPC_OK ||
	    !json_object_is_type(head, json_type_string) || rpc_hex_u64(json_object_get_string(head), &top) < 0) {
		rc = SETTLEMENT_UNAVAILABLE;
		goto out;
	}
	if (top < out->block_number || top - out->block_number < cfg->confirmations) {
		rc = SETTLEMENT_UNCONFIRMED;
		goto out;
	}
	snprintf(params, sizeof(params), "[\"0x%" PRIx64 "\",false]", out->block_number);
	if (rpc_call(node, "eth_getBlockByNumber", params, &block) != RPC_OK) {
		rc = SETTLEMENT_UNAVAILABLE;
		goto out;
	}
	if (rpc_block_ref(block, hash, &out->block_time) < 0) {
		rc = SETTLEMENT_BAD_REPLY;
		goto out;
	}
	/* The receipt's block was replaced meanwhile (a reorganization). */
	rc = memcmp(hash, out->block_hash, 32) == 0 ? SETTLEMENT_OK : SETTLEMENT_UNCONFIRMED;
out:
	json_object_put(rcpt);
	json_object_put(head);
	json_object_put(block);
	return rc;
}

const char *
settlement_strerror(enum settlement_rc rc)
{
	switch (rc) {
	case SETTLEMENT_OK:
		return "The settlement is verified.";
	case SETTLEMENT_UNKNOWN_TX:
		return "The chain knows no mined transaction with this hash.";
	case SETTLEMENT_FAILED:
		return "The transaction failed (its receipt status is 0); it moved nothing.";
	case SETTLEMENT_NO_TRANSFER:
		return "The transaction holds no USDC Transfer from this wallet (at this logIndex) that "
		    "matches; only the configured USDC contract's Transfer logs from the wallet count.";
	case SETTLEMENT_AMBIGUOUS:
		return "The transaction holds several USDC Transfers from this wallet; name one with logIndex.";
	case SETTLEMENT_ZERO:
		return "The USDC Transfer moved nothing (value 0).";
	case SETTLEMENT_TOO_LARGE:
		return "The USDC Transfer's value is out of range.";
	case SETTLEMENT_UNCONFIRMED:
		return "The transaction does not have enough confirmations yet; try again after more blocks.";
	case SETTLEMENT_BAD_REPLY:
		return "The chain node's answer about this transaction could not be read.";
	case SETTLEMENT_UNAVAILABLE:
	default:
		return "The chain cannot be reached to verify the settlement.";
	}
}
