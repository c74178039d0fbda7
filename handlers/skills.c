/*
 * skills.c: the agent skills (skills.h; docs/PROTOCOL.md, Agents: A2A and
 * ACP). Each skill's run function takes validated params and fills one
 * result; the recognition preview reads the chain at request time
 * (lib/ethcall), the lookups read the index. Nothing here executes.
 */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "abi.h"
#include "addr.h"
#include "brand.h"
#include "config.h"
#include "db.h"
#include "decimal.h"
#include "economics.h"
#include "ethcall.h"
#include "nodecap.h"
#include "fields.h"
#include "handles.h"
#include "hex.h"
#include "json.h"
#include "review.h"
#include "rpc.h"
#include "skills.h"
#include "table.h"
#include "tippoints.h"
#include "tipreads.h"
#include "u256.h"
#include "utf8.h"
#include "banned.h"

#define NOTE_MAX 280              /* bytes of a tip's note (the tips contract's MAX_NOTE_LEN) */
#define EVIDENCE_URIS_MAX 10
#define EVIDENCE_IDS_MAX 20
#define USDC_DECIMALS 6

static const char *const ext_paths[EXT__MAX] = {
	[EXT_RECOGNITION_V01] = "/a2a/extensions/" BRAND_LOWER "-agent-recognition/v0.1",
	[EXT_RECOGNITION_V02] = "/a2a/extensions/" BRAND_LOWER "-agent-recognition/v0.2",
	[EXT_LEGACY_V01] = "/a2a/extensions/" BRAND_LOWER "-agent-payments/v0.1",
	[EXT_LEGACY_V02] = "/a2a/extensions/" BRAND_LOWER "-agent-payments/v0.2",
};

const char *const skill_ext_descriptions[EXT__MAX] = {
	[EXT_RECOGNITION_V01] = "Agent recognition v0.1 (canonical): recognition suggestions, "
	    "previews and records in artifact metadata; never executes a transaction.",
	[EXT_RECOGNITION_V02] = "Agent recognition v0.2: recognition targets an agent may advertise; "
	    "a discovered target is an invitation, never an authorization.",
	[EXT_LEGACY_V01] = "Deprecated alias of agent recognition v0.1 (Stage 1 duplicates the "
	    "legacy keys here during the compatibility window).",
	[EXT_LEGACY_V02] = "Deprecated alias of agent recognition v0.2.",
};

const char *
skill_ext_path(enum skill_ext e)
{
	return e < EXT__MAX ? ext_paths[e] : NULL;
}

char *
skill_ext_uri(const struct config *cfg, enum skill_ext e, char *out, size_t cap)
{
	int n = snprintf(out, cap, "%s%s", cfg->docs_url, ext_paths[e]);

	if (n < 0 || (size_t)n >= cap)
		out[0] = '\0';
	return out;
}

char *
skill_url(const struct config *cfg, const char *path, char *out, size_t cap)
{
	int n = snprintf(out, cap, "%s%s", cfg->public_base_url, path);

	if (n < 0 || (size_t)n >= cap)
		out[0] = '\0';
	return out;
}

/* ------------------------------------------------------------------ params */

const struct field suggestion_fields[] = {
	{ .name = "recipient", .src = VS_BODY, .type = VT_HANDLE, .required = true },
	{ .name = "acpJobId", .src = VS_BODY, .type = VT_STRING, .required = true, .min_len = 1,
	    .max_len = 128 },
	{ .name = "reason", .src = VS_BODY, .type = VT_STRING, .min_len = 1, .max_len = NOTE_MAX },
	{ .name = "amountUsdc", .src = VS_BODY, .type = VT_DECIMAL },
	{ .name = "mintAttestation", .src = VS_BODY, .type = VT_BOOL },
	{ .name = "evidence", .src = VS_BODY, .type = VT_OBJECT },
	{ .name = NULL },
};

static const struct field prepare_fields[] = {
	{ .name = "recipient", .src = VS_BODY, .type = VT_HANDLE, .required = true },
	{ .name = "settlementFrom", .src = VS_BODY, .type = VT_ADDRESS },
	{ .name = "amountUsdc", .src = VS_BODY, .type = VT_DECIMAL },
	{ .name = "amountUsdcBaseUnits", .src = VS_BODY, .type = VT_STRING, .min_len = 1,
	    .max_len = 78 },
	{ .name = "reason", .src = VS_BODY, .type = VT_STRING, .min_len = 1, .max_len = NOTE_MAX },
	{ .name = "evidence", .src = VS_BODY, .type = VT_OBJECT },
	{ .name = "mintAttestation", .src = VS_BODY, .type = VT_BOOL },
	{ .name = "requiresApproval", .src = VS_BODY, .type = VT_BOOL },
	/* As the echoed request carries it: only 6 (USDC) is accepted. */
	{ .name = "usdcDecimals", .src = VS_BODY, .type = VT_UINT, .min = USDC_DECIMALS,
	    .max = USDC_DECIMALS },
	{ .name = NULL },
};

static const struct field lookup_fields[] = {
	{ .name = "txHash", .src = VS_BODY, .type = VT_BYTES32, .required = true },
	{ .name = NULL },
};

static const struct field reputation_fields[] = {
	{ .name = "recipient", .src = VS_BODY, .type = VT_HANDLE, .required = true },
	{ .name = NULL },
};

static const struct field claim_fields[] = {
	{ .name = "handle", .src = VS_BODY, .type = VT_HANDLE, .required = true },
	{ .name = NULL },
};

static const struct value *
val(const struct skill *s, const struct value *v, const char *name)
{
	for (size_t i = 0; s->params && s->params[i].name; i++)
		if (strcmp(s->params[i].name, name) == 0)
			return v[i].present ? &v[i] : NULL;
	return NULL;
}

__attribute__((format(printf, 4, 5)))
static void
reject(struct skill_result *out, enum err e, const char *field, const char *fmt, ...)
{
	va_list ap;

	out->state = SKILL_REJECTED;
	out->err = e;
	out->field = field;
	/* Messages may quote untrusted input cut to fit: kept valid UTF-8. */
	va_start(ap, fmt);
	utf8_vformat(out->msg, sizeof(out->msg), fmt, ap);
	va_end(ap);
	snprintf(out->text, sizeof(out->text), "Rejected: %s", out->msg);
	utf8_repair(out->text);
	json_object_put(out->data);
	out->data = NULL;
}

static void
fail(struct skill_result *out, enum err e, const char *msg)
{
	out->state = SKILL_FAILED;
	out->err = e;
	out->field = NULL;
	utf8_copy(out->msg, sizeof(out->msg), msg ? msg : err_info(e)->message);
	snprintf(out->text, sizeof(out->text), "Failed: %s", out->msg);
	utf8_repair(out->text);
	json_object_put(out->data);
	out->data = NULL;
}

static json_object *
addr_json(const struct addr *a)
{
	char t[ADDR_TEXT_LEN + 1];

	return json_object_new_string(addr_format(a, t));
}

/* The agent id of a canonical handle agent:<N>, or NULL. */
static const char *
agent_of(const struct value *h)
{
	return h && strncmp(h->text, "agent:", 6) == 0 ? h->text + 6 : NULL;
}

/* A reason: the review text rules, at most NOTE_MAX bytes; 0 or -1 with why. */
static int
note_check(const struct value *v, char *why, size_t cap)
{
	if (v->len > NOTE_MAX) {
		snprintf(why, cap, "reason is at most %d bytes (the tip note's limit)", NOTE_MAX);
		return -1;
	}
	return review_text_check(v->text, v->len, why, cap);
}

/* An untrusted URI: http(s), at most 2048 bytes, no space or control byte. Never fetched. */
static bool
uri_ok(json_object *u)
{
	const char *s;
	size_t n;

	if (!json_object_is_type(u, json_type_string))
		return false;
	s = json_object_get_string(u);
	n = (size_t)json_object_get_string_len(u);
	if (n > 2048 || !(strncmp(s, "https://", 8) == 0 || strncmp(s, "http://", 7) == 0))
		return false;
	for (size_t i = 0; i < n; i++)
		if ((unsigned char)s[i] <= 0x20 || s[i] == 0x7f)
			return false;
	return n > 8;
}

/* evidence {uris?, artifactIds? (when ids)}: bounded lists; 0 or -1 with why. */
static int
evidence_check(json_object *e, bool ids, char *why, size_t cap)
{
	static const char *const with_ids[] = { "uris", "artifactIds", NULL };
	static const char *const uris_only[] = { "uris", NULL };
	const char *bad = NULL;
	json_object *a;

	if (json_check_keys(e, ids ? with_ids : uris_only, NULL, &bad) != JSON_KEYS_OK) {
		snprintf(why, cap, "evidence has the undeclared member %.64s", bad ? bad : "?");
		return -1;
	}
	if (json_object_object_get_ex(e, "uris", &a)) {
		size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;

		if (!json_object_is_type(a, json_type_array) || n > EVIDENCE_URIS_MAX) {
			snprintf(why, cap, "evidence.uris is an array of at most %d URLs",
			    EVIDENCE_URIS_MAX);
			return -1;
		}
		for (size_t i = 0; i < n; i++)
			if (!uri_ok(json_object_array_get_idx(a, i))) {
				snprintf(why, cap, "evidence.uris[%zu] is not an http(s) URL of at most "
				    "2048 bytes without spaces", i);
				return -1;
			}
	}
	if (ids && json_object_object_get_ex(e, "artifactIds", &a)) {
		size_t n = json_object_is_type(a, json_type_array) ? json_object_array_length(a) : 0;

		if (!json_object_is_type(a, json_type_array) || n > EVIDENCE_IDS_MAX) {
			snprintf(why, cap, "evidence.artifactIds is an array of at most %d strings",
			    EVIDENCE_IDS_MAX);
			return -1;
		}
		for (size_t i = 0; i < n; i++) {
			json_object *s = json_object_array_get_idx(a, i);

			if (!json_object_is_type(s, json_type_string) ||
			    json_object_get_string_len(s) < 1 || json_object_get_string_len(s) > 128) {
				snprintf(why, cap, "evidence.artifactIds[%zu] is a string of 1 to 128 bytes", i);
				return -1;
			}
		}
	}
	return 0;
}

/* A decimal USDC amount > 0 with at most 6 decimals into atomic[cap]; 0 or -1 with why. */
static int
usdc_atomic(const struct value *v, char *atomic, size_t cap, char *why, size_t wcap)
{
	struct decimal d;

	if (decimal_parse(v->text, v->len, &d) != DECIMAL_OK || decimal_is_zero(&d)) {
		snprintf(why, wcap, "amountUsdc must be a decimal amount greater than zero");
		return -1;
	}
	if (decimal_to_atomic(&d, USDC_DECIMALS, atomic, cap) != DECIMAL_OK) {
		snprintf(why, wcap, "amountUsdc has at most %d decimals (USDC)", USDC_DECIMALS);
		return -1;
	}
	return 0;
}

/* ------------------------------------------------------------------ suggestion */

static bool
job_id_ok(const char *s)
{
	for (; *s; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') || (*s >= '0' && *s <= '9') ||
		    *s == '.' || *s == '_' || *s == ':' || *s == '-'))
			return false;
	return true;
}

/* The suggestion's values are those of suggestion_fields, in order. */
enum { SG_RECIPIENT, SG_JOB, SG_REASON, SG_AMOUNT, SG_ATTEST, SG_EVIDENCE };

enum err
suggestion_build(struct req *r, const struct value *v, json_object **out, const char **field,
    char *msg, size_t cap)
{
	char atomic[DECIMAL_ATOMIC_BUFSZ], why[200], url[CONFIG_STR_MAX + 64], text[800];
	const char *agent = v[SG_RECIPIENT].present && strncmp(v[SG_RECIPIENT].text, "agent:", 6) == 0
	    ? v[SG_RECIPIENT].text : NULL;
	json_object *o, *sg, *safety, *acp;

	*out = NULL;
	*field = NULL;
	if (agent == NULL) {
		*field = "recipient";
		snprintf(msg, cap, "recipient must be an ERC-8004 agent handle agent:<N>.");
		return ERR_INVALID_FIELD;
	}
	if (!job_id_ok(v[SG_JOB].text)) {
		*field = "acpJobId";
		snprintf(msg, cap, "acpJobId is 1 to 128 of A-Z, a-z, 0-9 and . _ : -.");
		return ERR_INVALID_FIELD;
	}
	if (v[SG_REASON].present && note_check(&v[SG_REASON], why, sizeof(why)) < 0) {
		*field = "reason";
		snprintf(msg, cap, "reason: %s.", why);
		return ERR_INVALID_FIELD;
	}
	if (v[SG_AMOUNT].present && usdc_atomic(&v[SG_AMOUNT], atomic, sizeof(atomic), why,
	    sizeof(why)) < 0) {
		*field = "amountUsdc";
		snprintf(msg, cap, "%s.", why);
		return ERR_INVALID_FIELD;
	}
	if (v[SG_EVIDENCE].present && evidence_check(v[SG_EVIDENCE].object, false, why,
	    sizeof(why)) < 0) {
		*field = "evidence";
		snprintf(msg, cap, "%s.", why);
		return ERR_INVALID_FIELD;
	}
	o = json_object_new_object();
	snprintf(text, sizeof(text), "ACP job %s for %s is complete on the ACP side. If the operator "
	    "wants to recognize the agent, prepare a preview (skill " SKILL_PREPARE " at prepareUrl, "
	    "with the payer wallet as settlementFrom), review every call in it, and have a payer "
	    "client send it after explicit approval. Nothing has been executed, paid or published; "
	    "the reason and evidence are the caller's own words, unverified.", v[SG_JOB].text, agent);
	json_object_object_add(o, "message", json_object_new_string(text));
	json_object_object_add(o, "recipient", json_object_new_string(agent));
	if (v[SG_AMOUNT].present) {
		char shown[DECIMAL_TEXT_BUFSZ];

		sg = json_object_new_object();
		if (decimal_from_atomic(atomic, strlen(atomic), USDC_DECIMALS, shown, sizeof(shown)) !=
		    DECIMAL_OK)
			snprintf(shown, sizeof(shown), "%s", v[SG_AMOUNT].text);
		json_object_object_add(sg, "amountUsdc", json_object_new_string(shown));
		json_object_object_add(sg, "amountUsdcBaseUnits", json_object_new_string(atomic));
		json_object_object_add(sg, "note", json_object_new_string(
		    v[SG_REASON].present ? v[SG_REASON].text : ""));
		json_object_object_add(sg, "mintAttestation",
		    json_object_new_boolean(v[SG_ATTEST].present && v[SG_ATTEST].b));
		json_object_object_add(o, "suggested" BRAND_CAPITAL, sg);
	}
	json_object_object_add(o, "prepareUrl",
	    json_object_new_string(skill_url(r->cfg, "/a2a/message:send", url, sizeof(url))));
	safety = json_object_new_object();
	json_object_object_add(safety, "executesTransaction", json_object_new_boolean(0));
	json_object_object_add(safety, "settlementExecution", json_object_new_string("out_of_scope"));
	json_object_object_add(o, "safety", safety);
	acp = json_object_new_object();
	json_object_object_add(acp, "boundary", json_object_new_string(
	    "ACP remains the job, payment and escrow protocol: this suggestion neither pays for the "
	    "job nor settles, releases or refunds anything. A recognition is an optional, separate "
	    "onchain tip that a person approves after the job."));
	json_object_object_add(o, "acp", acp);
	*out = o;
	return ERR_NONE;
}

static void
run_suggest(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	char msg[256];
	const char *field = NULL;
	json_object *o = NULL;
	enum err e;

	(void)s;
	if ((e = suggestion_build(r, v, &o, &field, msg, sizeof(msg))) != ERR_NONE) {
		reject(out, e, field, "%s", msg);
		return;
	}
	out->data = o;
	snprintf(out->text, sizeof(out->text), "%s", json_object_get_string(
	    json_object_object_get(o, "message")));
}

/* ------------------------------------------------------------------ preview */

enum pre_status { PRE_OK, PRE_FAILED, PRE_UNKNOWN, PRE_MISSING, PRE_COVERED };
static const char *const pre_names[] = { "ok", "failed", "unknown", "missing",
	"covered_by_transaction" };

static void
precondition(json_object *list, const char *id, enum pre_status st, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
precondition(json_object *list, const char *id, enum pre_status st, const char *fmt, ...)
{
	json_object *p = json_object_new_object();
	char msg[300];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_object_object_add(p, "id", json_object_new_string(id));
	json_object_object_add(p, "status", json_object_new_string(pre_names[st]));
	json_object_object_add(p, "message", json_object_new_string(msg));
	json_object_array_add(list, p);
}

struct preview {
	const char *agent;            /* decimal id */
	struct u256 agent_id, amount, burn;
	char amount_text[U256_DEC_MAX + 1];
	bool attest, has_payer;
	struct addr payer, payout;
	const char *note;
	size_t note_len;
};

static json_object *
transaction(const struct config *cfg, int step, const char *purpose, const struct addr *from,
    const struct addr *to, const uint8_t *data, size_t len, const char *function,
    const char *description)
{
	json_object *t = json_object_new_object();
	char *hex = malloc(2 * len + 3);

	json_object_object_add(t, "step", json_object_new_int(step));
	json_object_object_add(t, "purpose", json_object_new_string(purpose));
	json_object_object_add(t, "chainId", json_object_new_int64((int64_t)cfg->chain_id));
	json_object_object_add(t, "from", addr_json(from));
	json_object_object_add(t, "to", addr_json(to));
	json_object_object_add(t, "value", json_object_new_string("0"));
	if (hex == NULL)
		json_alloc_failed();   /* a proposed call is never shown without its calldata */
	json_object_object_add(t, "data", hex ? json_object_new_string(hex_encode(data, len, hex)) : NULL);
	json_object_object_add(t, "function", json_object_new_string(function));
	json_object_object_add(t, "description", json_object_new_string(description));
	free(hex);
	return t;
}

/* approve(spender = the tips contract, amount) on token. */
static json_object *
approval(const struct config *cfg, int step, const char *purpose, const struct addr *from,
    const struct addr *token, const struct u256 *amount, const char *what)
{
	struct abi_arg args[2] = { abi_address(&cfg->tips_address), abi_uint256(amount) };
	uint8_t data[4 + 64];
	size_t len = 0;
	char desc[300], dec[U256_DEC_MAX + 1];

	if (abi_calldata("approve(address,uint256)", args, 2, data, sizeof(data), &len) < 0) {
		json_alloc_failed();
		return NULL;
	}
	snprintf(desc, sizeof(desc), "Allow the tips contract to take exactly %s base units of %s "
	    "from the payer.", u256_format_dec(amount, dec), what);
	return transaction(cfg, step, purpose, from, token, data, len, "approve(address,uint256)", desc);
}

#define TIP_AGENT_SIG "tipAgent(uint256,address,uint256,string,bool,(uint256,uint8,bytes32,bytes32))"

static json_object *
agent_tip(const struct config *cfg, int step, const struct preview *p)
{
	static const uint8_t zero[32];
	struct u256 z;
	struct abi_arg args[9];
	uint8_t data[4 + 11 * 32 + NOTE_MAX + 32];
	size_t len = 0;
	char desc[400], who[ADDR_TEXT_LEN + 1];

	u256_from_u64(&z, 0);
	args[0] = abi_uint256(&p->agent_id);
	args[1] = abi_address(&p->payout);
	args[2] = abi_uint256(&p->amount);
	args[3] = abi_string(p->note, p->note_len);
	args[4] = abi_bool(p->attest);
	args[5] = abi_uint256(&z);       /* permit: none (the allowance above pays the burn) */
	args[6] = abi_uint64(0);
	args[7] = abi_bytes32(zero);
	args[8] = abi_bytes32(zero);
	if (abi_calldata(TIP_AGENT_SIG, args, 9, data, sizeof(data), &len) < 0) {
		json_alloc_failed();
		return NULL;
	}
	snprintf(desc, sizeof(desc), "Send %s USDC base units to agent:%s, paid to %s (the ERC-8004 "
	    "payout wallet read now; the call reverts if it changed)%s.", p->amount_text, p->agent,
	    addr_format(&p->payout, who), p->attest ? ", burning " BRAND_UPPER " for a soulbound attestation" : "");
	return transaction(cfg, step, "agent_tip", &p->payer, &cfg->tips_address, data, len,
	    TIP_AGENT_SIG, desc);
}

/* The chain reads, through u; the status follows from the preconditions. */
static enum err
preview_reads(struct req *r, struct nodecap_use *u, struct preview *p, json_object *pre,
    json_object *txs, bool *failed_pre, bool *payout_known)
{
	const struct config *cfg = r->cfg;
	struct rpc *node = nodecap_node(u);
	struct ethcall c[ETHCALL_MAX];
	size_t n = 0, i_wallet, i_bal = 0, i_allow = 0, i_burn = 0, i_bbal = 0, i_ballow = 0;
	bool reverted = false, registered = true;
	char a[U256_DEC_MAX + 1], b[U256_DEC_MAX + 1];
	int step = 1;

	if (node == NULL)
		return ERR_CHAIN_UNAVAILABLE;
	i_wallet = n;
	if (ethcall_set_uint(&c[n++], &cfg->identity_registry_address, "getAgentWallet(uint256)",
	    &p->agent_id) < 0)
		return ERR_INTERNAL;
	if (p->attest) {
		i_burn = n;
		if (ethcall_set0(&c[n++], &cfg->tips_address, "ATTESTATION_BURN()") < 0)
			return ERR_INTERNAL;
	}
	if (p->has_payer) {
		i_bal = n;
		i_allow = n + 1;
		if (ethcall_set_addr(&c[n++], &cfg->usdc_address, "balanceOf(address)", &p->payer) < 0 ||
		    ethcall_set_addr2(&c[n++], &cfg->usdc_address, "allowance(address,address)",
		    &p->payer, &cfg->tips_address) < 0)
			return ERR_INTERNAL;
		if (p->attest) {
			i_bbal = n;
			i_ballow = n + 1;
			if (ethcall_set_addr(&c[n++], &cfg->boon_address, "balanceOf(address)",
			    &p->payer) < 0 ||
			    ethcall_set_addr2(&c[n++], &cfg->boon_address, "allowance(address,address)",
			    &p->payer, &cfg->tips_address) < 0)
				return ERR_INTERNAL;
		}
	}
	if (ethcall_batch(node, c, n) != RPC_OK)
		return ERR_CHAIN_UNAVAILABLE;
	if (p->attest)
		p->burn = c[i_burn].word;
	/* The payout: the agent wallet, else the owner (ownerOf reverts for an unknown agent). */
	{
		uint8_t w[32];

		u256_to_be(&c[i_wallet].word, w);
		memcpy(p->payout.b, w + 12, 20);
	}
	if (addr_is_zero(&p->payout)) {
		struct ethcall own;
		uint8_t w[32];

		if (ethcall_set_uint(&own, &cfg->identity_registry_address, "ownerOf(uint256)",
		    &p->agent_id) < 0)
			return ERR_INTERNAL;
		/* The second call gets what is left of the preview's time. */
		if ((node = nodecap_node(u)) == NULL)
			return ERR_CHAIN_UNAVAILABLE;
		if (ethcall_one(node, &own, &reverted) != RPC_OK) {
			if (!reverted)
				return ERR_CHAIN_UNAVAILABLE;
			registered = false;
		} else {
			u256_to_be(&own.word, w);
			memcpy(p->payout.b, w + 12, 20);
			registered = !addr_is_zero(&p->payout);
		}
	}
	*payout_known = registered;
	if (!p->has_payer)
		precondition(pre, "payer_wallet", PRE_MISSING,
		    "settlementFrom (the payer wallet) is needed for a complete preview.");
	else
		precondition(pre, "payer_wallet", PRE_OK, "The payer wallet is given.");
	if (!registered) {
		*failed_pre = true;
		precondition(pre, "agent_registered", PRE_FAILED,
		    "agent:%s is not registered in the ERC-8004 identity registry.", p->agent);
		return ERR_NONE;
	}
	precondition(pre, "agent_registered", PRE_OK, "agent:%s is registered; its payout wallet "
	    "was read from the registry just now.", p->agent);
	if (!p->has_payer)
		return ERR_NONE;
	if (addr_eq(&p->payout, &p->payer)) {
		*failed_pre = true;
		precondition(pre, "not_self_recognition", PRE_FAILED,
		    "The payer is the agent's payout wallet; the tips contract refuses a self-tip.");
	} else {
		precondition(pre, "not_self_recognition", PRE_OK, "The payer is not the payout wallet.");
	}
	if (u256_cmp(&c[i_bal].word, &p->amount) < 0) {
		*failed_pre = true;
		precondition(pre, "usdc_balance", PRE_FAILED, "The payer holds %s USDC base units; %s "
		    "are needed.", u256_format_dec(&c[i_bal].word, a), p->amount_text);
	} else {
		precondition(pre, "usdc_balance", PRE_OK, "The payer holds enough USDC.");
	}
	if (p->attest) {
		if (u256_cmp(&c[i_bbal].word, &p->burn) < 0) {
			*failed_pre = true;
			precondition(pre, BRAND_LOWER "_balance", PRE_FAILED, "The payer holds %s "
			    BRAND_UPPER " wei; the attestation burns %s.",
			    u256_format_dec(&c[i_bbal].word, a), u256_format_dec(&p->burn, b));
		} else {
			precondition(pre, BRAND_LOWER "_balance", PRE_OK,
			    "The payer holds enough " BRAND_UPPER " for the attestation burn.");
		}
	}
	if (*failed_pre)
		return ERR_NONE;
	if (u256_cmp(&c[i_allow].word, &p->amount) < 0) {
		precondition(pre, "usdc_allowance", PRE_COVERED, "The tips contract may take %s USDC "
		    "base units now; step %d approves the amount.", u256_format_dec(&c[i_allow].word, a),
		    step);
		json_object_array_add(txs, approval(cfg, step++, "approve_usdc", &p->payer,
		    &cfg->usdc_address, &p->amount, "USDC"));
	} else {
		precondition(pre, "usdc_allowance", PRE_OK, "The tips contract may already take the amount.");
	}
	if (p->attest) {
		if (u256_cmp(&c[i_ballow].word, &p->burn) < 0) {
			precondition(pre, BRAND_LOWER "_allowance", PRE_COVERED, "Step %d lets the tips "
			    "contract burn the attestation's " BRAND_UPPER ".", step);
			json_object_array_add(txs, approval(cfg, step++, "approve_" BRAND_LOWER, &p->payer,
			    &cfg->boon_address, &p->burn, BRAND_UPPER " (the attestation burn)"));
		} else {
			precondition(pre, BRAND_LOWER "_allowance", PRE_OK,
			    "The tips contract may already burn the " BRAND_UPPER ".");
		}
	}
	json_object_array_add(txs, agent_tip(cfg, step, p));
	return ERR_NONE;
}

/*
 * The preview's chain reads: a free request's, so under the cap and the
 * time of lib/nodecap.h (sigcheck_max_in_flight, sigcheck_timeout_ms),
 * far below what nginx waits. *busy when the cap was full.
 */
static enum err
preview_chain(struct req *r, struct preview *p, json_object *pre, json_object *txs,
    bool *failed_pre, bool *payout_known, bool *busy)
{
	struct nodecap_use u;
	enum err e;

	nodecap_begin(&u, r->cfg, "preview", r->cfg->sigcheck_timeout_ms);
	e = preview_reads(r, &u, p, pre, txs, failed_pre, payout_known);
	*busy = u.full;
	nodecap_end(&u);
	return e;
}

/* The normalized agentRecognitionRequest echoed beside the preview. */
static json_object *
request_json(const struct skill *s, const struct value *v, const struct preview *p)
{
	json_object *o = json_object_new_object();
	const struct value *e = val(s, v, "evidence");

	/* Only members the request may carry again, so a client can send it back as is. */
	json_object_object_add(o, "recipient", json_object_new_string(val(s, v, "recipient")->text));
	if (p->has_payer)
		json_object_object_add(o, "settlementFrom", addr_json(&p->payer));
	json_object_object_add(o, "amountUsdcBaseUnits", json_object_new_string(p->amount_text));
	json_object_object_add(o, "usdcDecimals", json_object_new_int(USDC_DECIMALS));
	if (p->note_len)
		json_object_object_add(o, "reason", json_object_new_string(p->note));
	json_object_object_add(o, "mintAttestation", json_object_new_boolean(p->attest));
	json_object_object_add(o, "requiresApproval", json_object_new_boolean(1));
	if (e) {
		json_object *copy = NULL;

		if (json_object_deep_copy(e->object, &copy, NULL) != 0)
			json_alloc_failed();   /* never an answer without what was asked */
		json_object_object_add(o, "evidence", copy);
	}
	return o;
}

static void
run_prepare(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	const struct value *h = val(s, v, "recipient"), *dec = val(s, v, "amountUsdc"),
	    *base = val(s, v, "amountUsdcBaseUnits"), *note = val(s, v, "reason"),
	    *from = val(s, v, "settlementFrom"), *ev = val(s, v, "evidence"),
	    *attest = val(s, v, "mintAttestation"), *appr = val(s, v, "requiresApproval");
	char atomic[DECIMAL_ATOMIC_BUFSZ], why[200], dec_burn[U256_DEC_MAX + 1];
	struct preview p = { 0 };
	json_object *o, *pre, *txs, *safety;
	bool failed_pre = false, payout_known = false, busy = false;
	const char *status;
	enum err e;

	if ((p.agent = agent_of(h)) == NULL) {
		reject(out, ERR_INVALID_FIELD, "recipient",
		    "recipient must be an ERC-8004 agent handle agent:<N>.");
		return;
	}
	u256_parse_dec(p.agent, strlen(p.agent), &p.agent_id);
	if (dec == NULL && base == NULL) {
		reject(out, ERR_MISSING_FIELD, "amountUsdcBaseUnits",
		    "One of amountUsdcBaseUnits (preferred, usdcDecimals 6) and amountUsdc is required.");
		return;
	}
	if (base && (base->text[0] < '1' || base->text[0] > '9' ||
	    strspn(base->text, "0123456789") != base->len ||
	    u256_parse_dec(base->text, base->len, &p.amount) < 0)) {
		reject(out, ERR_INVALID_FIELD, "amountUsdcBaseUnits",
		    "amountUsdcBaseUnits is a positive integer of USDC base units without leading zeros.");
		return;
	}
	if (dec) {
		struct u256 d;

		if (usdc_atomic(dec, atomic, sizeof(atomic), why, sizeof(why)) < 0 ||
		    u256_parse_dec(atomic, strlen(atomic), &d) < 0) {
			reject(out, ERR_INVALID_FIELD, "amountUsdc", "%s.", why);
			return;
		}
		if (base && u256_cmp(&d, &p.amount) != 0) {
			reject(out, ERR_INVALID_FIELD, "amountUsdc",
			    "amountUsdc and amountUsdcBaseUnits name different amounts.");
			return;
		}
		p.amount = d;
	}
	u256_format_dec(&p.amount, p.amount_text);
	p.note = note ? note->text : "";
	p.note_len = note ? note->len : 0;
	if (note && note_check(note, why, sizeof(why)) < 0) {
		reject(out, ERR_INVALID_FIELD, "reason", "reason: %s.", why);
		return;
	}
	if (ev && evidence_check(ev->object, true, why, sizeof(why)) < 0) {
		reject(out, ERR_INVALID_FIELD, "evidence", "%s.", why);
		return;
	}
	if (appr && !appr->b) {
		reject(out, ERR_INVALID_FIELD, "requiresApproval", "This service never executes: every "
		    "recognition needs a person's approval, so requiresApproval cannot be false.");
		return;
	}
	p.attest = attest && attest->b;
	if ((p.has_payer = from != NULL))
		p.payer = from->addr;
	u256_from_u64(&p.burn, 0);

	pre = json_object_new_array();
	txs = json_object_new_array();
	if ((e = preview_chain(r, &p, pre, txs, &failed_pre, &payout_known, &busy)) != ERR_NONE) {
		json_object_put(pre);
		json_object_put(txs);
		fail(out, e, busy ? "Too many requests are reading the chain on this host right now, so "
		    "no preview is given; nothing was executed. Retry in a moment." :
		    e == ERR_CHAIN_UNAVAILABLE ? "The chain RPC could not be read, so no "
		    "preview is given (the payout wallet is only ever read from the registry)." : NULL);
		if (busy)
			out->retry_after_s = 1;
		return;
	}
	status = failed_pre ? "needs_check" : !p.has_payer ? "needs_payer_wallet" :
	    "needs_operator_approval";
	o = json_object_new_object();
	json_object_object_add(o, "status", json_object_new_string(status));
	json_object_object_add(o, "recipient", json_object_new_string(h->text));
	json_object_object_add(o, "settlementFrom", p.has_payer ? addr_json(&p.payer) : NULL);
	json_object_object_add(o, "resolvedPayoutWallet", payout_known ? addr_json(&p.payout) : NULL);
	json_object_object_add(o, "amountUsdcBaseUnits", json_object_new_string(p.amount_text));
	json_object_object_add(o, "usdcDecimals", json_object_new_int(USDC_DECIMALS));
	json_object_object_add(o, BRAND_LOWER "BurnRequiredWei",
	    json_object_new_string(u256_format_dec(&p.burn, dec_burn)));
	json_object_object_add(o, "preconditions", pre);
	json_object_object_add(o, "transactions", txs);
	safety = json_object_new_object();
	json_object_object_add(safety, "executesTransaction", json_object_new_boolean(0));
	json_object_object_add(safety, "requiresHumanApproval", json_object_new_boolean(1));
	json_object_object_add(safety, "settlementExecution", json_object_new_string("out_of_scope"));
	json_object_object_add(safety, "payoutWalletSource", json_object_new_string("erc8004_registry"));
	json_object_object_add(o, "safety", safety);
	out->data = o;
	out->request = request_json(s, v, &p);
	if (!p.has_payer && !failed_pre)
		out->state = SKILL_INPUT_REQUIRED;
	snprintf(out->text, sizeof(out->text), "%s",
	    failed_pre ? "Preview: needs_check. A precondition failed (see preconditions); no "
	    "transaction is proposed." : !p.has_payer ? "Preview: needs_payer_wallet. Send the payer "
	    "wallet as settlementFrom to get the exact calls." : "Preview: needs_operator_approval. "
	    "The transactions are the exact calls for a person to review and a payer client to send; "
	    "nothing was executed.");
}

/* ------------------------------------------------------------------ lookups */

static json_object *
opt_string(const char *s)
{
	return s ? json_object_new_string(s) : NULL;
}

static void
run_lookup(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	const struct value *tx = val(s, v, "txHash");
	char b[1400], url[CONFIG_STR_MAX + 128], th[67], shown[DECIMAL_TEXT_BUFSZ];
	struct sql q = SQL_ON(b);
	MYSQL_RES *res = NULL;
	MYSQL_ROW row;
	json_object *o, *att;
	bool private, minted, burned, disclosed;
	const char *amt;

	sql_add(&q, "SELECT " TIP_COLUMNS ", (SELECT a.burned FROM tip_attestations a WHERE "
	    "a.chain_id = t.chain_id AND a.tip_id = t.tip_id) FROM tips t WHERE t.chain_id = ? AND "
	    "t.tx_hash = ? ORDER BY t.log_index LIMIT 1", SQL_U64(r->cfg->chain_id),
	    SQL_BYTES(tx->b32, 32));
	if (db_query(r->db, &q, &res) != DB_OK) {
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	if (res == NULL || (row = mysql_fetch_row(res)) == NULL) {
		if (res)
			mysql_free_result(res);
		fail(out, ERR_NOT_FOUND, "No indexed recognition was created by this transaction. The "
		    "index may lag the chain, and a missing record says nothing about the recipient.");
		return;
	}
	/* minted: an attestation that is not burned (none: NULL). */
	if (db_row_bool_or(row, 2, "is_private", false, &private) != DB_OK ||
	    db_row_bool_or(row, TIP_NCOLUMNS, "burned", true, &burned) != DB_OK) {
		mysql_free_result(res);
		fail(out, ERR_INTERNAL, NULL);
		return;
	}
	minted = !burned;
	/* A tip its tipper disclosed shows its amount (docs/PROTOCOL.md, Private tips). */
	disclosed = private && row[19] != NULL;
	amt = private ? (disclosed ? row[19] : NULL) : row[7];
	hex_encode(tx->b32, 32, th);
	o = json_object_new_object();
	json_object_object_add(o, "chainId", json_object_new_int64((int64_t)r->cfg->chain_id));
	json_object_object_add(o, "contract", addr_json_new(row[18]));
	json_object_object_add(o, "txHash", json_object_new_string(th));
	json_object_object_add(o, "recipient", json_object_new_string(row[3]));
	json_object_object_add(o, "resolvedPayoutWallet",
	    !private && row[6] ? addr_json_new(row[6]) : NULL);
	json_object_object_add(o, "amountUsdcBaseUnits", opt_string(amt));
	if (amt && decimal_from_atomic(amt, strlen(amt), USDC_DECIMALS, shown, sizeof(shown)) ==
	    DECIMAL_OK)
		json_object_object_add(o, "amountUsdc", json_object_new_string(shown));
	else
		json_object_object_add(o, "amountUsdc", NULL);
	att = json_object_new_object();
	json_object_object_add(att, "minted", json_object_new_boolean(minted));
	json_object_object_add(att, "tokenId", minted ? json_object_new_string(row[0]) : NULL);
	snprintf(url, sizeof(url), "%s/receipts/%s", r->cfg->app_url, th);
	json_object_object_add(att, "appUrl", minted ? json_object_new_string(url) : NULL);
	json_object_object_add(o, "attestation", att);
	json_object_object_add(o, "receiptUrl", json_object_new_string(url));
	json_object_object_add(o, "privateDataBoundary", json_object_new_string(disclosed ?
	    "A private tip its tipper disclosed: the amount is shown as the sender disclosed it, "
	    "until the sender withdraws the disclosure. This lookup never unlocks anything." : private ?
	    "A private tip: its amount and note are not served here (redacted). The recipient or the "
	    "tipper reads them through the signed private-tip unlock, and anyone else at the unlock "
	    "price; this lookup never unlocks anything." :
	    "A public tip: the amount and recipient are public onchain data. This lookup never "
	    "unlocks private tips."));
	snprintf(out->text, sizeof(out->text), "Recognition %s to %s%s.", th, row[3],
	    disclosed ? " (private, disclosed by its sender)" :
	    private ? " (private: amount and note redacted)" : "");
	mysql_free_result(res);
	out->data = o;
}

static void
run_reputation(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	const struct value *h = val(s, v, "recipient");
	const char *agent = agent_of(h);
	char b[600], url[CONFIG_STR_MAX + 128], owner[41] = "", payout[41] = "";
	struct sql q = SQL_ON(b);
	struct tippoints p;
	json_object *o, *points = NULL;
	const char *pts;
	uint64_t held = 0;
	bool found = false, any;

	if (agent == NULL) {
		reject(out, ERR_INVALID_FIELD, "recipient",
		    "recipient must be an ERC-8004 agent handle agent:<N>.");
		return;
	}
	if (handle_points_read(r, h, &p, &points) != DB_OK) {
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	sql_add(&q, "SELECT LOWER(HEX(owner)), LOWER(HEX(payout_wallet)) FROM agents WHERE "
	    "chain_id = ? AND agent_id = ?", SQL_U64(r->cfg->chain_id), SQL_TEXT(agent));
	if (db_query_pair(r->db, &q, owner, payout, sizeof(owner)) != DB_OK) {
		json_object_put(points);
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	found = owner[0] != '\0';
	sql_reset(&q);
	sql_add(&q, "SELECT COUNT(*) FROM tip_attestations WHERE chain_id = ? AND handle_hash = ? "
	    "AND burned = 0", SQL_U64(r->cfg->chain_id), SQL_BYTES(h->hash, 32));
	if (db_query_u64(r->db, &q, &held, &any) != DB_OK) {
		json_object_put(points);
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	/* Read from points while this function still owns it: the add below hands it to o. */
	pts = json_object_get_string(json_object_object_get(points, "points"));
	snprintf(out->text, sizeof(out->text), "%s: %s points from indexed tips%s.", h->text,
	    pts ? pts : "0", found ? "" : " (not seen in the indexed registry)");
	o = json_object_new_object();
	json_object_object_add(o, "version", json_object_new_string("0.1"));
	json_object_object_add(o, "handle", json_object_new_string(h->text));
	json_object_object_add(o, "registered", json_object_new_boolean(found));
	json_object_object_add(o, "owner", found ? addr_json_new(owner) : NULL);
	json_object_object_add(o, "payoutWallet", found ? addr_json_new(payout) : NULL);
	json_object_object_add(o, "points", points);
	json_object_object_add(o, "attestationsHeld", json_object_new_int64((int64_t)held));
	snprintf(url, sizeof(url), "%s/handles/agent%%3A%s", r->cfg->app_url, agent);
	json_object_object_add(o, "profileUrl", json_object_new_string(url));
	json_object_object_add(o, "interpretation", json_object_new_string(
	    "Indexed tips and attestations of this ERC-8004 agent. Points are public reputation of "
	    "our own documented policy, not a quality score; no tip means nothing about the agent, "
	    "and the index may lag the chain. The registry fields are as indexed: a preview reads "
	    "the payout wallet from the chain again."));
	out->data = o;
}

static void
run_claim_help(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	const struct value *h = val(s, v, "handle");
	const char *agent = agent_of(h);
	char url[CONFIG_STR_MAX + 200];
	uint8_t wallet[20];
	bool found = false;
	json_object *o, *steps;
	struct addr a;

	if (r->db && tippoints_wallet_of(r->db, r->cfg->chain_id, h->text, h->hash, wallet,
	    &found) != DB_OK) {
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	o = json_object_new_object();
	steps = json_object_new_array();
	json_object_object_add(o, "handle", json_object_new_string(h->text));
	json_object_object_add(o, "provider", json_object_new_string(
	    agent ? "agent" : strncmp(h->text, "github:", 7) == 0 ? "github" : "x"));
	json_object_object_add(o, "claimPath", json_object_new_string(
	    agent ? "erc8004_payout" : "oauth_link"));
	memcpy(a.b, wallet, 20);
	json_object_object_add(o, "currentWallet", found ? addr_json(&a) : NULL);
	if (agent) {
		json_object_array_add(steps, json_object_new_string("An agent handle is not claimed "
		    "through OAuth: tips to agent:<N> pay the ERC-8004 payout wallet at tip time."));
		json_object_array_add(steps, json_object_new_string("The payout wallet is the agent "
		    "wallet set with setAgentWallet (the new wallet signs), else the registry owner."));
		json_object_array_add(steps, json_object_new_string("To move future tips, the owner sets "
		    "a new agent wallet in the identity registry; past tips stay where they were paid."));
		json_object_object_add(o, "claimUrl", NULL);
	} else {
		json_object_array_add(steps, json_object_new_string("Sign in with the handle's "
		    "provider (GitHub or X) through the app's OAuth flow to prove the handle."));
		json_object_array_add(steps, json_object_new_string("The app's trusted signer then "
		    "issues a link voucher for your wallet (the escrow guardian co-signs when USDC is "
		    "waiting); submitting it links the handle and can claim escrowed tips."));
		json_object_array_add(steps, json_object_new_string("An already linked handle moves "
		    "only through an operator-assisted relink."));
		const char *colon = strchr(h->text, ':');

		/* The handle's page (its escrowed and received tips): the app's claim flow starts from it. */
		snprintf(url, sizeof(url), "%s/p/%.*s%%3A%s", r->cfg->app_url,
		    (int)(colon - h->text), h->text, colon + 1);
		json_object_object_add(o, "claimUrl", json_object_new_string(url));
	}
	json_object_object_add(o, "steps", steps);
	json_object_object_add(o, "note", json_object_new_string("Claiming and recipient help are "
	    "free and never part of a paid endpoint; this answer executes nothing."));
	snprintf(out->text, sizeof(out->text), "%s", agent ? "Agent handles are paid through the "
	    "ERC-8004 payout wallet; nothing to claim through OAuth." :
	    "Prove the handle through the app's OAuth flow; a link voucher then links your wallet.");
	out->data = o;
}

/* ------------------------------------------------------------------ route handoffs */

static const char *const vtype_names[VT__MAX] = {
	[VT_STRING] = "string", [VT_UINT] = "integer", [VT_ADDRESS] = "address",
	[VT_BYTES32] = "bytes32", [VT_HANDLE] = "handle", [VT_DECIMAL] = "decimal",
	[VT_URL] = "url", [VT_CHOICE] = "choice", [VT_BOOL] = "boolean", [VT_ARRAY] = "array",
	[VT_OBJECT] = "object", [VT_ACCOUNT] = "account", [VT_UUID] = "uuid",
	[VT_ADDRESS_EIP55] = "address",
};
static const char *const vsrc_names[] = { [VS_PATH] = "path", [VS_QUERY] = "query",
	[VS_BODY] = "body" };

static void
run_handoff(struct req *r, const struct skill *s, const struct value *v, struct skill_result *out)
{
	const struct endpoint *ep = table_row(s->row_id);
	char url[CONFIG_STR_MAX + 300], atomic[DECIMAL_ATOMIC_BUFSZ], to[ADDR_TEXT_LEN + 1];
	json_object *o, *shape, *fields, *protos;
	struct decimal d;

	(void)v;
	if (ep == NULL) {
		fail(out, ERR_INTERNAL, NULL);
		return;
	}
	o = json_object_new_object();
	json_object_object_add(o, "skillId", json_object_new_string(s->id));
	json_object_object_add(o, "endpointId", json_object_new_string(ep->id));
	json_object_object_add(o, "method", json_object_new_string(http_method_name(ep->method)));
	json_object_object_add(o, "url", json_object_new_string(skill_url(r->cfg, ep->pattern, url,
	    sizeof(url))));
	json_object_object_add(o, "auth", json_object_new_string(ep->auth == AUTH_PAID ? "x402" :
	    "signed_body"));
	protos = NULL;
	if (ep->auth == AUTH_PAID && ep->price_usdc &&
	    decimal_parse(ep->price_usdc, strlen(ep->price_usdc), &d) == DECIMAL_OK &&
	    decimal_to_atomic(&d, USDC_DECIMALS, atomic, sizeof(atomic)) == DECIMAL_OK) {
		json_object *price = json_object_new_object();

		json_object_object_add(price, "usdc", json_object_new_string(ep->price_usdc));
		json_object_object_add(price, "atomic", json_object_new_string(atomic));
		json_object_object_add(price, "network", json_object_new_string(r->cfg->network));
		json_object_object_add(price, "asset", addr_json(&r->cfg->usdc_address));
		json_object_object_add(price, "payTo", json_object_new_string(
		    addr_format(&r->cfg->pay_to, to)));
		json_object_object_add(o, "price", price);
		protos = economics_protocols(r->cfg);
	} else {
		json_object_object_add(o, "price", NULL);
	}
	json_object_object_add(o, "paymentProtocols", protos ? protos : json_object_new_array());
	shape = json_object_new_object();
	fields = json_object_new_array();
	json_object_object_add(shape, "contentType", ep->body == BODY_JSON ?
	    json_object_new_string("application/json") : NULL);
	for (size_t i = 0; ep->fields && ep->fields[i].name; i++) {
		const struct field *f = &ep->fields[i];
		json_object *fo = json_object_new_object();

		json_object_object_add(fo, "name", json_object_new_string(f->name));
		json_object_object_add(fo, "in", json_object_new_string(vsrc_names[f->src]));
		json_object_object_add(fo, "type", json_object_new_string(vtype_names[f->type] ?
		    vtype_names[f->type] : "string"));
		json_object_object_add(fo, "required", json_object_new_boolean(f->required));
		json_object_array_add(fields, fo);
	}
	json_object_object_add(shape, "fields", fields);
	json_object_object_add(o, "requestShape", shape);
	json_object_object_add(o, "execution", json_object_new_string("outside_a2a"));
	json_object_object_add(o, "note", json_object_new_string(ep->auth == AUTH_PAID ?
	    "Call the URL over HTTP: the unpaid request answers 402 with the live challenge, which is "
	    "authoritative for price, network and payTo. A payer client pays outside A2A, after "
	    "approval." : "Call the URL over HTTP with the signed body; nothing is paid."));
	snprintf(out->text, sizeof(out->text), "%s %.500s%s%s, outside A2A.",
	    http_method_name(ep->method), url, ep->auth == AUTH_PAID ? ", paid with x402 at $" : "",
	    ep->auth == AUTH_PAID && ep->price_usdc ? ep->price_usdc : "");
	out->data = o;
}

/* ------------------------------------------------------------------ the table */

static const char *const tags_recognition[] = { "recognition", "erc-8004", "acp", NULL };
static const char *const tags_lookup[] = { "recognition", "receipt", "lookup", NULL };
static const char *const tags_reputation[] = { "reputation", "erc-8004", "points", NULL };
static const char *const tags_claim[] = { "claim", "handles", "help", NULL };
static const char *const tags_paid[] = { "x402", "paid", "graph", NULL };
static const char *const tags_review[] = { "reviews", "x402", "evidence", NULL };

#define B BRAND_LOWER

const struct skill skills[] = {
	{ B ".suggest_recognition", NULL, "Suggest a recognition",
	    "After an ACP job, suggest an optional recognition (tip) of an ERC-8004 agent for the "
	    "operator to consider; never executes.", tags_recognition,
	    "{\"skillId\":\"" B ".suggest_recognition\",\"params\":{\"recipient\":\"agent:1\","
	    "\"acpJobId\":\"job-42\",\"reason\":\"fast and correct\",\"amountUsdc\":\"0.50\"}}",
	    suggestion_fields, NULL, B "_suggest_recognition", false, run_suggest },
	{ B ".prepare_agent_recognition", B ".prepare_agent_payment", "Prepare an agent recognition",
	    "A recognition preview: the ERC-8004 payout wallet read from the registry now, the "
	    "preconditions, and the exact calls (approvals, then the agent tip) for a person to "
	    "review; never signs or sends.", tags_recognition,
	    "{\"skillId\":\"" B ".prepare_agent_recognition\",\"params\":{\"recipient\":\"agent:1\","
	    "\"settlementFrom\":\"0x…\",\"amountUsdcBaseUnits\":\"250000\"}}",
	    prepare_fields, NULL, B "_prepare_agent_recognition", false, run_prepare },
	{ B ".lookup_recognition", B ".lookup_receipt", "Look up a recognition",
	    "The recognition record of a transaction hash; a private tip's amount and note are "
	    "redacted, and nothing is unlocked.", tags_lookup,
	    "{\"skillId\":\"" B ".lookup_recognition\",\"params\":{\"txHash\":\"0x…\"}}",
	    lookup_fields, NULL, B "_lookup_recognition", true, run_lookup },
	{ B ".lookup_agent_reputation", NULL, "Look up an agent's reputation",
	    "Points, counts and attestations of agent:<N> from indexed tips.", tags_reputation,
	    "{\"skillId\":\"" B ".lookup_agent_reputation\",\"params\":{\"recipient\":\"agent:1\"}}",
	    reputation_fields, NULL, B "_lookup_agent_reputation", true, run_reputation },
	{ B ".claim_help", NULL, "Claim help",
	    "How a handle receives its tips: GitHub and X through the app's OAuth link, agent:<N> "
	    "through its ERC-8004 payout wallet.", tags_claim,
	    "{\"skillId\":\"" B ".claim_help\",\"params\":{\"handle\":\"github:alice\"}}",
	    claim_fields, NULL, B "_claim_help", false, run_claim_help },
	{ B ".query_graph", NULL, "Query the gratitude graph",
	    "The HTTP link, method, request shape and live price of the paid gratitude graph of a "
	    "handle; payment happens outside A2A.", tags_paid,
	    "{\"skillId\":\"" B ".query_graph\"}", NULL, "graphs.gratitude", NULL, false, run_handoff },
	{ B ".query_graph_batch", NULL, "Query the gratitude graph for many handles",
	    "The HTTP link and live price of the paid graph across up to 25 handles.", tags_paid,
	    "{\"skillId\":\"" B ".query_graph_batch\"}", NULL, "graphs.queries", NULL, false,
	    run_handoff },
	{ B ".score_handle", NULL, "Score a handle",
	    "The HTTP link and live price of the paid score for a GitHub or X handle.", tags_paid,
	    "{\"skillId\":\"" B ".score_handle\"}", NULL, "score", NULL, false, run_handoff },
	{ B ".score_agent", NULL, "Score an agent",
	    "The HTTP link and live price of the paid score for agent:<N>.", tags_paid,
	    "{\"skillId\":\"" B ".score_agent\"}", NULL, "score", NULL, false, run_handoff },
	{ B ".review_self_reported", NULL, "Publish a self-reported review",
	    "The HTTP link and live price of the paid self_reported (V3) review publication.",
	    tags_review, "{\"skillId\":\"" B ".review_self_reported\"}", NULL,
	    "x402.reviews.self_reported", NULL, false, run_handoff },
	{ B ".review_receipt_verified", NULL, "Publish a receipt-verified review",
	    "The HTTP link and live price of the paid receipt_verified (V2) review publication.",
	    tags_review, "{\"skillId\":\"" B ".review_receipt_verified\"}", NULL,
	    "x402.reviews.receipt_verified", NULL, false, run_handoff },
	{ B ".review_" B "_backed", NULL, "Publish a " B "_backed review",
	    "The HTTP link of the free " B "_backed (V1) review signed by a recognition's tipper.",
	    tags_review, "{\"skillId\":\"" B ".review_" B "_backed\"}", NULL,
	    "x402.reviews." BRAND_LANE, NULL, false, run_handoff },
};

#undef B

const size_t nskills = sizeof(skills) / sizeof(skills[0]);

const struct skill *
skill_find(const char *id, bool *alias)
{
	*alias = false;
	for (size_t i = 0; id && i < nskills; i++) {
		if (strcmp(skills[i].id, id) == 0)
			return &skills[i];
		if (skills[i].alias && strcmp(skills[i].alias, id) == 0) {
			*alias = true;
			return &skills[i];
		}
	}
	return NULL;
}

const struct skill *
skill_by_tool(const char *name)
{
	for (size_t i = 0; name && i < nskills; i++)
		if (skills[i].tool && strcmp(skills[i].tool, name) == 0)
			return &skills[i];
	return NULL;
}

static const struct {
	const char *key, *legacy;
} artifact_keys[] = {
	{ BRAND_LOWER ".recognitionSuggestion", NULL },
	{ BRAND_LOWER ".recognitionPreview", BRAND_LOWER ".paymentPreview" },
	{ BRAND_LOWER ".recognitionRecord", BRAND_LOWER ".settlementReceipt" },
	{ BRAND_LOWER ".agentReputation", NULL },
	{ BRAND_LOWER ".claimHelp", NULL },
	{ BRAND_LOWER ".routeHandoff", NULL },
};

static void
set_keys(const struct skill *s, struct skill_result *out)
{
	size_t k = s->run == run_suggest ? 0 : s->run == run_prepare ? 1 : s->run == run_lookup ? 2 :
	    s->run == run_reputation ? 3 : s->run == run_claim_help ? 4 : 5;

	out->key = artifact_keys[k].key;
	out->legacy_key = artifact_keys[k].legacy;
	if (s->run == run_prepare) {
		out->request_key = BRAND_LOWER ".agentRecognitionRequest";
		out->request_legacy_key = BRAND_LOWER ".agentSettlementRequest";
	}
}

void
skill_run(struct req *r, const struct skill *s, json_object *params, struct skill_result *out)
{
	struct value v[VALID_MAX_FIELDS];
	struct fields_in in = { .body = params, .body_only = true };
	struct fields_fail ff;

	memset(out, 0, sizeof(*out));
	out->state = SKILL_COMPLETED;
	set_keys(s, out);
	memset(v, 0, sizeof(v));
	if (s->params == NULL) {
		if (params && json_object_object_length(params) > 0)
			reject(out, ERR_UNKNOWN_FIELD, NULL, "%s takes no params: it answers the HTTP "
			    "route to call.", s->id);
		else
			s->run(r, s, v, out);
		return;
	}
	if (params == NULL) {
		const char *missing = NULL;

		for (size_t i = 0; s->params[i].name && !missing; i++)
			if (s->params[i].required)
				missing = s->params[i].name;
		if (missing) {
			reject(out, ERR_MISSING_FIELD, missing, "%s needs params with %s.", s->id, missing);
			return;
		}
	}
	if (fields_check(s->params, &in, &r->pool, v, &ff) != ERR_NONE) {
		if (ff.e == ERR_INTERNAL)
			fail(out, ERR_INTERNAL, NULL);
		else
			reject(out, ff.e, ff.field, "%s", ff.msg[0] ? ff.msg : err_info(ff.e)->message);
		return;
	}
	if (s->needs_db && r->db == NULL) {
		fail(out, ERR_DATABASE_UNAVAILABLE, NULL);
		return;
	}
	s->run(r, s, v, out);
}

void
skill_unknown(const char *id, struct skill_result *out)
{
	memset(out, 0, sizeof(*out));
	reject(out, ERR_INVALID_FIELD, "skillId", "Unknown skill %.80s; the Agent Card lists the "
	    "skills.", id);
}

void
skill_result_release(struct skill_result *res)
{
	json_object_put(res->data);
	json_object_put(res->request);
	res->data = res->request = NULL;
}

json_object *
skills_card_json(void)
{
	json_object *arr = json_object_new_array();

	for (size_t i = 0; i < nskills; i++) {
		json_object *o = json_object_new_object(), *tags = json_object_new_array(),
		    *ex = json_object_new_array();

		for (size_t k = 0; skills[i].tags[k]; k++)
			json_object_array_add(tags, json_object_new_string(skills[i].tags[k]));
		json_object_array_add(ex, json_object_new_string(skills[i].example));
		json_object_object_add(o, "id", json_object_new_string(skills[i].id));
		json_object_object_add(o, "name", json_object_new_string(skills[i].name));
		json_object_object_add(o, "description", json_object_new_string(skills[i].description));
		json_object_object_add(o, "tags", tags);
		json_object_object_add(o, "examples", ex);
		json_object_array_add(arr, o);
	}
	return arr;
}
