#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "handle.h"
#include "hex.h"
#include "keccak.h"
#include "rpc.h"
#include "tipevent.h"
#include "utf8.h"
#include "json.h"
#include "banned.h"

#define DATA_MAX 65536      /* bytes of log data read (a registry URI may be long) */

struct evdef {
	enum tipev_kind kind;
	enum tipev_source src;
	const char *name;
	const char *signature;
	size_t topics;          /* topic0 included */
	const char *topic0;     /* keccak256(signature), hex (t/unit/tipevent.c checks it) */
};

static const struct evdef defs[TIPEV__MAX] = {
	{ TIPEV_TIP, TIPSRC_TIPS, "Tip",
	    "Tip(uint256,bytes32,address,address,string,string,uint256,bool)", 4,
	    "16e22f4b486563fb21a8617caf12dfbcd4f4481075d8b1533851f5b84e22706f" },
	{ TIPEV_TIP_ESCROWED, TIPSRC_TIPS, "TipEscrowed",
	    "TipEscrowed(uint256,bytes32,address,string,string,uint256,bool)", 4,
	    "02994f50064e2a82849e37bad6869231d8049b31e4559aac6dcccf0e6ab7de40" },
	{ TIPEV_TIP_AGENT, TIPSRC_TIPS, "TipAgent",
	    "TipAgent(uint256,uint256,address,address,string,uint256,bool)", 4,
	    "107d5bf0475baf1dbf9d58305208dd380a37b30371b2ba70f887b824af1c71f6" },
	{ TIPEV_PRIVATE_TIP, TIPSRC_TIPS, "PrivateTip",
	    "PrivateTip(uint256,bytes32,address,string,bytes32)", 4,
	    "420858c6430a2492382d929c9f5602d9ef4b8fc2ad37e1297f7d3617cfbf9174" },
	{ TIPEV_PRIVATE_TIP_ESCROWED, TIPSRC_TIPS, "PrivateTipEscrowed",
	    "PrivateTipEscrowed(uint256,bytes32,address,string,bytes32,bool)", 4,
	    "fd46b1cbfdc53eed336809d8d5dc651d222f5f4acfdb9d78b3c3157e027abd89" },
	{ TIPEV_ESCROWED_CLAIMED, TIPSRC_TIPS, "EscrowedClaimed",
	    "EscrowedClaimed(uint256,bytes32,address,uint256)", 4,
	    "def83b2b4deb8e62de05870ac5e8e4ce858b846360dd3648f85816c9e0b1b6d6" },
	{ TIPEV_ESCROWED_REFUNDED, TIPSRC_TIPS, "EscrowedRefunded",
	    "EscrowedRefunded(uint256,bytes32,address,uint256)", 4,
	    "442fbe020a58b79e546d47e74ab18dc5ac14f22b8ccd1987e35fab5c897e5384" },
	{ TIPEV_DEFERRED_ATTESTATION_MINTED, TIPSRC_TIPS, "DeferredAttestationMinted",
	    "DeferredAttestationMinted(uint256,address,bytes32)", 4,
	    "d4c04e4e2665b731ddcc13f18784d6f4ac60ebea23c00faf18189794201aa06a" },
	{ TIPEV_LINKED, TIPSRC_TIPS, "Linked", "Linked(bytes32,address)", 3,
	    "d43d353a108d85015ac24147275f0b1ffe2af030894a0bfdcb321c677ef2b871" },
	{ TIPEV_RELINKED, TIPSRC_TIPS, "Relinked", "Relinked(bytes32,address,address)", 4,
	    "d5e88b52d6ae9684bb2c279d1218c33d87d5898553ab1e0f79f05b400206622d" },
	{ TIPEV_ATTESTATION_MINTED, TIPSRC_ATTESTATION, "AttestationMinted",
	    "AttestationMinted(uint256,address,bytes32)", 4,
	    "8271fc9b54b2baef3acf74491f1feb7c6ee9316eae3f59fa92b28164941d12a5" },
	{ TIPEV_ATTESTATION_BURNED, TIPSRC_ATTESTATION, "AttestationBurned",
	    "AttestationBurned(uint256,address)", 3,
	    "0140478d6846adc0a3bcb5950916058f1dff03686443cdf3b9f5d572b766f679" },
	{ TIPEV_AGENT_REGISTERED, TIPSRC_REGISTRY, "AgentRegistered",
	    "Registered(uint256,string,address)", 3,
	    "ca52e62c367d81bb2e328eb795f7c7ba24afb478408a26c0e201d155c449bc4a" },
	{ TIPEV_AGENT_TRANSFER, TIPSRC_REGISTRY, "AgentTransfer",
	    "Transfer(address,address,uint256)", 4,
	    "ddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef" },
	{ TIPEV_AGENT_WALLET_SET, TIPSRC_REGISTRY, "AgentWalletSet",
	    "MetadataSet(uint256,string,string,bytes)", 3,
	    "2c149ed548c6d2993cd73efe187df6eccabe4538091b33adbd25fafdb8a1468b" },
};

const char *
tipev_name(enum tipev_kind k)
{
	return (unsigned)k < TIPEV__MAX ? defs[k].name : "?";
}

const char *
tipev_signature(enum tipev_kind k)
{
	return (unsigned)k < TIPEV__MAX ? defs[k].signature : "?";
}

size_t
tipev_topics(enum tipev_source src, uint8_t out[TIPEV_TOPICS_MAX][32])
{
	size_t n = 0;

	for (size_t i = 0; i < TIPEV__MAX && n < TIPEV_TOPICS_MAX; i++)
		if (defs[i].src == src && hex_decode_fixed(defs[i].topic0, 64, out[n], 32, false) == 0)
			n++;
	return n;
}

bool
tipev_creates_tip(enum tipev_kind k)
{
	return k == TIPEV_TIP || k == TIPEV_TIP_ESCROWED || k == TIPEV_TIP_AGENT ||
	    k == TIPEV_PRIVATE_TIP || k == TIPEV_PRIVATE_TIP_ESCROWED;
}

bool
tipev_is_private(enum tipev_kind k)
{
	return k == TIPEV_PRIVATE_TIP || k == TIPEV_PRIVATE_TIP_ESCROWED;
}

static int
get_b32(json_object *o, const char *key, uint8_t out[32])
{
	const char *s = json_member_string(o, key, NULL);

	return s ? hex_decode_fixed(s, strlen(s), out, 32, true) : -1;
}

/* Text as valid UTF-8 into out (3 * n + 1 bytes): each bad byte becomes U+FFFD. */
static void
clean_text(const uint8_t *p, size_t n, char *out)
{
	size_t o = 0;

	for (size_t i = 0; i < n;) {
		uint32_t cp;
		int k = utf8_decode(p + i, n - i, &cp);

		if (k > 0) {
			memcpy(out + o, p + i, (size_t)k);
			o += (size_t)k;
			i += (size_t)k;
		} else {
			memcpy(out + o, "\xef\xbf\xbd", 3);
			o += 3;
			i++;
		}
	}
	out[o] = '\0';
}

/* A string of data at head word `head`, at most max bytes, cleaned into out. */
static int
read_text(const uint8_t *data, size_t len, size_t head, size_t max, char *out)
{
	const uint8_t *p;
	size_t n;

	if (abi_read_dynamic(data, len, head, &p, &n) < 0 || n > max)
		return -1;
	clean_text(p, n, out);
	return 0;
}

/* A topic word as a uint64 tip id (no larger id is ever stored). */
static int
topic_u64(const uint8_t t[32], uint64_t *out)
{
	return abi_read_uint64(t, 32, 0, out);
}

static void
agent_of(const uint8_t t[32], struct tipevent *out)
{
	struct u256 v;
	char dec[U256_DEC_MAX + 1];

	u256_from_be(&v, t);
	u256_format_dec(&v, dec);
	snprintf(out->agent_id, sizeof(out->agent_id), "%s", dec);
	out->has_agent_id = true;
}

/* displayHandle is a canonical handle whose keccak256 is the handle hash. */
static bool
canonical(const struct tipevent *e)
{
	struct handle h;
	uint8_t hh[32];
	size_t n = strlen(e->display);

	if (handle_parse(e->display, n, &h) != HANDLE_OK || h.len != n || memcmp(h.text, e->display, n) != 0)
		return false;
	handle_hash(&h, hh);
	return memcmp(hh, e->handle_hash, 32) == 0;
}

static int
fail(char *err, size_t cap, const char *what, const char *name)
{
	snprintf(err, cap, "%s: %s", name, what);
	return -1;
}

int
tipev_decode(json_object *log, enum tipev_source src, struct tipevent *out, char *err, size_t cap)
{
	static const char wallet_key[] = "agentWallet";
	json_object *topics = NULL, *removed = NULL;
	uint8_t t[4][32], key_hash[32], data[DATA_MAX];
	char t0hex[2 * 32 + 1];
	const char *addr_s, *data_s, *name;
	size_t nt, dlen = 0;
	const struct evdef *d = NULL;

	memset(out, 0, sizeof(*out));
	out->mint_attestation = -1;
	if (json_object_object_get_ex(log, "removed", &removed) && json_object_get_boolean(removed)) {
		snprintf(err, cap, "log is marked removed");
		return -1;
	}
	addr_s = json_member_string(log, "address", NULL);
	if (addr_s == NULL || addr_parse(addr_s, strlen(addr_s), &out->contract) < 0 ||
	    rpc_hex_u64(json_member_string(log, "blockNumber", NULL), &out->block_number) < 0 ||
	    get_b32(log, "blockHash", out->block_hash) < 0 ||
	    get_b32(log, "transactionHash", out->tx_hash) < 0 ||
	    rpc_hex_u64(json_member_string(log, "logIndex", NULL), &out->log_index) < 0) {
		snprintf(err, cap, "log lacks address, block, transaction or log index");
		return -1;
	}
	if (json_member_string(log, "blockTimestamp", NULL))
		rpc_hex_u64(json_member_string(log, "blockTimestamp", NULL), &out->block_time);
	if (!json_object_object_get_ex(log, "topics", &topics) ||
	    !json_object_is_type(topics, json_type_array) || (nt = json_object_array_length(topics)) == 0 ||
	    nt > 4) {
		snprintf(err, cap, "log has no topics or more than 4");
		return -1;
	}
	for (size_t i = 0; i < nt; i++) {
		json_object *ti = json_object_array_get_idx(topics, i);
		const char *s = json_object_is_type(ti, json_type_string) ? json_object_get_string(ti) : NULL;

		if (s == NULL || hex_decode_fixed(s, strlen(s), t[i], 32, true) < 0) {
			snprintf(err, cap, "topic %zu is not 32 bytes", i);
			return -1;
		}
	}
	hex_digits(t[0], 32, t0hex);
	for (size_t i = 0; i < TIPEV__MAX && d == NULL; i++)
		if (defs[i].src == src && memcmp(defs[i].topic0, t0hex, 64) == 0)
			d = &defs[i];
	if (d == NULL)
		return 1;       /* another event of the contract (Locked, Approval, ...) */
	name = d->name;
	out->kind = d->kind;
	if (nt != d->topics) {
		/* A registry Transfer with a different count is another contract's shape. */
		snprintf(err, cap, "%s has %zu topics, not %zu", name, nt, d->topics);
		return -1;
	}
	if (d->kind == TIPEV_AGENT_WALLET_SET) {
		keccak256(wallet_key, sizeof(wallet_key) - 1, key_hash);
		if (memcmp(t[2], key_hash, 32) != 0)
			return 1;       /* another metadata key: its value is not read */
	}
	/* Registered's data is the agent URI, which is not kept (and may be long). */
	if (d->kind != TIPEV_AGENT_REGISTERED) {
		data_s = json_member_string(log, "data", NULL);
		if (data_s == NULL || hex_decode(data_s, strlen(data_s), data, sizeof(data), &dlen) < 0)
			return fail(err, cap, "data is not hex or is too long", name);
	}

	switch (d->kind) {
	case TIPEV_TIP:
	case TIPEV_TIP_ESCROWED:
	case TIPEV_PRIVATE_TIP:
	case TIPEV_PRIVATE_TIP_ESCROWED:
	case TIPEV_ESCROWED_CLAIMED:
	case TIPEV_ESCROWED_REFUNDED:
		if (topic_u64(t[1], &out->tip_id) < 0)
			return fail(err, cap, "tip id is 2^64 or more", name);
		out->has_tip_id = out->has_handle_hash = out->has_actor = true;
		memcpy(out->handle_hash, t[2], 32);
		if (abi_read_address(t[3], 32, 0, &out->actor) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		break;
	case TIPEV_TIP_AGENT:
		if (topic_u64(t[1], &out->tip_id) < 0)
			return fail(err, cap, "tip id is 2^64 or more", name);
		out->has_tip_id = out->has_actor = true;
		agent_of(t[2], out);
		if (abi_read_address(t[3], 32, 0, &out->actor) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		break;
	default:
		break;
	}

	switch (d->kind) {
	case TIPEV_TIP:
		if (abi_read_address(data, dlen, 0, &out->wallet) < 0 ||
		    read_text(data, dlen, 32, TIPEV_HANDLE_MAX, out->display) < 0 ||
		    read_text(data, dlen, 64, TIPEV_NOTE_MAX, out->note) < 0 ||
		    abi_read_uint256(data, dlen, 96, &out->usdc) < 0)
			goto bad_data;
		goto tip_tail;
	case TIPEV_TIP_ESCROWED:
		if (read_text(data, dlen, 0, TIPEV_HANDLE_MAX, out->display) < 0 ||
		    read_text(data, dlen, 32, TIPEV_NOTE_MAX, out->note) < 0 ||
		    abi_read_uint256(data, dlen, 64, &out->usdc) < 0)
			goto bad_data;
		{
			bool b;

			if (abi_read_bool(data, dlen, 96, &b) < 0)
				goto bad_data;
			out->mint_attestation = b;
		}
		out->has_display = out->has_note = out->has_usdc = true;
		out->display_canonical = canonical(out);
		return 0;
	case TIPEV_TIP_AGENT:
		if (abi_read_address(data, dlen, 0, &out->wallet) < 0 ||
		    read_text(data, dlen, 32, TIPEV_NOTE_MAX, out->note) < 0 ||
		    abi_read_uint256(data, dlen, 64, &out->usdc) < 0)
			goto bad_data;
		{
			bool b;

			if (abi_read_bool(data, dlen, 96, &b) < 0)
				goto bad_data;
			out->mint_attestation = b;
		}
		out->has_wallet = out->has_note = out->has_usdc = out->has_display = true;
		out->has_handle_hash = true;
		snprintf(out->display, sizeof(out->display), "agent:%s", out->agent_id);
		keccak256(out->display, strlen(out->display), out->handle_hash);
		out->display_canonical = strcmp(out->agent_id, "0") != 0;
		return 0;
	case TIPEV_PRIVATE_TIP:
	case TIPEV_PRIVATE_TIP_ESCROWED:
		if (read_text(data, dlen, 0, TIPEV_HANDLE_MAX, out->display) < 0 ||
		    abi_read_bytes32(data, dlen, 32, out->commitment) < 0)
			goto bad_data;
		if (d->kind == TIPEV_PRIVATE_TIP_ESCROWED) {
			bool b;

			if (abi_read_bool(data, dlen, 64, &b) < 0)
				goto bad_data;
			out->mint_attestation = b;
		}
		out->has_display = out->has_commitment = true;
		out->display_canonical = canonical(out);
		return 0;
	case TIPEV_ESCROWED_CLAIMED:
	case TIPEV_ESCROWED_REFUNDED:
		if (dlen != 32 || abi_read_uint256(data, dlen, 0, &out->usdc) < 0)
			goto bad_data;
		out->has_usdc = true;
		if (d->kind == TIPEV_ESCROWED_CLAIMED) {
			/* The indexed address is the claimer, not the tipper. */
			out->wallet = out->actor;
			out->has_wallet = true;
			out->has_actor = false;
			memset(&out->actor, 0, sizeof(out->actor));
		}
		return 0;
	case TIPEV_DEFERRED_ATTESTATION_MINTED:
	case TIPEV_ATTESTATION_MINTED:
		if (topic_u64(t[1], &out->tip_id) < 0)
			return fail(err, cap, "tip id is 2^64 or more", name);
		if (abi_read_address(t[2], 32, 0, &out->wallet) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		memcpy(out->handle_hash, t[3], 32);
		out->has_tip_id = out->has_wallet = out->has_handle_hash = true;
		return 0;
	case TIPEV_ATTESTATION_BURNED:
		if (topic_u64(t[1], &out->tip_id) < 0)
			return fail(err, cap, "tip id is 2^64 or more", name);
		if (abi_read_address(t[2], 32, 0, &out->wallet) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		out->has_tip_id = out->has_wallet = true;
		return 0;
	case TIPEV_LINKED:
		memcpy(out->handle_hash, t[1], 32);
		if (abi_read_address(t[2], 32, 0, &out->wallet) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		out->has_handle_hash = out->has_wallet = true;
		return 0;
	case TIPEV_RELINKED:
		memcpy(out->handle_hash, t[1], 32);
		if (abi_read_address(t[2], 32, 0, &out->actor) < 0 ||
		    abi_read_address(t[3], 32, 0, &out->wallet) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		out->has_handle_hash = out->has_actor = out->has_wallet = true;
		return 0;
	case TIPEV_AGENT_REGISTERED:
		agent_of(t[1], out);
		if (abi_read_address(t[2], 32, 0, &out->actor) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		out->wallet = out->actor;
		out->has_actor = out->has_wallet = true;
		return 0;
	case TIPEV_AGENT_TRANSFER:
		if (abi_read_address(t[1], 32, 0, &out->actor) < 0 ||
		    abi_read_address(t[2], 32, 0, &out->wallet) < 0)
			return fail(err, cap, "address topic has high bits set", name);
		agent_of(t[3], out);
		out->has_actor = out->has_wallet = true;
		return 0;
	case TIPEV_AGENT_WALLET_SET: {
		const uint8_t *p;
		size_t n;

		agent_of(t[1], out);
		if (abi_read_dynamic(data, dlen, 32, &p, &n) < 0)
			goto bad_data;
		/* The wallet is the value's first 20 bytes, zero-padded; none: cleared. */
		if (n > 0) {
			memcpy(out->wallet.b, p, n < 20 ? n : 20);
			out->has_wallet = !addr_is_zero(&out->wallet);
		}
		return 0;
	}
	default:
		break;
	}
	return fail(err, cap, "unexpected event", name);

tip_tail:
	{
		bool b;

		if (abi_read_bool(data, dlen, 128, &b) < 0)
			goto bad_data;
		out->mint_attestation = b;
	}
	out->has_wallet = out->has_display = out->has_note = out->has_usdc = true;
	out->display_canonical = canonical(out);
	return 0;
bad_data:
	return fail(err, cap, "data words do not decode", name);
}
