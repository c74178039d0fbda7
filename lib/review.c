#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "brand.h"
#include "hex.h"
#include "json.h"
#include "review.h"
#include "typed.h"
#include "utf8.h"
#include "banned.h"

#define SAFE_INT_MAX 9007199254740991LL

int
review_text_check(const char *s, size_t len, char *why, size_t cap)
{
	uint32_t first = 0, last = 0;

	if (len == 0) {
		snprintf(why, cap, "the review text is empty");
		return -1;
	}
	if (len > REVIEW_TEXT_MAX) {
		snprintf(why, cap, "the review text is longer than %d UTF-8 bytes", REVIEW_TEXT_MAX);
		return -1;
	}
	for (size_t i = 0; i < len;) {
		uint32_t cp;
		int k = utf8_decode((const unsigned char *)s + i, len - i, &cp);

		if (k < 0) {
			snprintf(why, cap, "the review text is not valid UTF-8");
			return -1;
		}
		if (cp < 0x20 || (cp >= 0x7f && cp <= 0x9f)) {
			snprintf(why, cap, "the review text must be one plain paragraph: control character "
			    "U+%04" PRIX32 " (line breaks and tabs included) is not allowed", cp);
			return -1;
		}
		if (cp == 0x2028 || cp == 0x2029) {
			snprintf(why, cap, "the review text must be one plain paragraph: the line or "
			    "paragraph separator U+%04" PRIX32 " is not allowed", cp);
			return -1;
		}
		if ((cp >= 0x202a && cp <= 0x202e) || (cp >= 0x2066 && cp <= 0x2069)) {
			snprintf(why, cap, "the review text contains the bidirectional control U+%04" PRIX32, cp);
			return -1;
		}
		if (i == 0)
			first = cp;
		last = cp;
		i += (size_t)k;
	}
	if (utf8_is_js_space(first) || utf8_is_js_space(last)) {
		snprintf(why, cap, "the review text must not start or end with whitespace");
		return -1;
	}
	return 0;
}

int
review_window_check(uint64_t created_at, time_t now, char *why, size_t cap)
{
	if ((long long)created_at > (long long)now + REVIEW_SKEW) {
		snprintf(why, cap, "createdAt is in the future");
		return -1;
	}
	if ((long long)created_at < (long long)now - REVIEW_WINDOW) {
		snprintf(why, cap, "the review was signed more than 24 hours ago; sign it again");
		return -1;
	}
	return 0;
}

static int
get_b32(json_object *o, const char *key, uint8_t out[32], char *field, size_t fcap, char *why,
    size_t cap)
{
	json_object *v = NULL;
	const char *s = "";
	uint8_t zero[32] = { 0 };

	json_object_object_get_ex(o, key, &v);
	snprintf(field, fcap, "review.%s", key);
	if (json_object_is_type(v, json_type_string))
		s = json_object_get_string(v);
	if (!json_object_is_type(v, json_type_string) || !hex_is_lower_prefixed(s, strlen(s), 64) ||
	    hex_decode_fixed(s, strlen(s), out, 32, true) < 0 || memcmp(out, zero, 32) == 0) {
		snprintf(why, cap, "%s must be 0x and 64 lowercase hex digits, not zero", key);
		return -1;
	}
	return 0;
}

static int
get_int(json_object *o, const char *key, long long min, uint64_t *out, char *field, size_t fcap,
    char *why, size_t cap)
{
	json_object *v = NULL;
	long long x;

	json_object_object_get_ex(o, key, &v);
	snprintf(field, fcap, "review.%s", key);
	if (!json_object_is_type(v, json_type_int) || (x = json_object_get_int64(v)) < min ||
	    x > SAFE_INT_MAX) {
		snprintf(why, cap, "%s must be an integer from %lld to 2^53-1", key, min);
		return -1;
	}
	*out = (uint64_t)x;
	return 0;
}

/* The key set of o against keys (all required); 0 or -1 naming the field. */
static int
check_keys(json_object *o, const char *const *keys, char *field, size_t fcap, char *why, size_t cap)
{
	const char *bad = NULL;

	switch (json_check_keys(o, NULL, keys, &bad)) {
	case JSON_KEYS_OK:
		return 0;
	case JSON_KEYS_NOT_OBJECT:
		snprintf(field, fcap, "review");
		snprintf(why, cap, "review must be a JSON object");
		return -1;
	case JSON_KEYS_UNKNOWN:
		snprintf(field, fcap, "review.%s", bad);
		snprintf(why, cap, "review has an undeclared field %s", bad);
		return -1;
	default:
		snprintf(field, fcap, "review.%s", bad ? bad : "?");
		snprintf(why, cap, "review lacks the field %s", bad ? bad : "?");
		return -1;
	}
}

/* The string member key must equal want; 0, or -1 saying what (e.g. "for a self_reported review"). */
static int
get_const(json_object *o, const char *key, const char *want, const char *what, char *field,
    size_t fcap, char *why, size_t cap)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, key, &v);
	if (json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), want) == 0)
		return 0;
	snprintf(field, fcap, "review.%s", key);
	snprintf(why, cap, "%s must be the string \"%s\"%s%s", key, want, *what ? " " : "", what);
	return -1;
}

/* reviewText into *text / *len, checked by the text rules; 0 or -1. */
static int
get_text(json_object *o, const char **text, size_t *len, char *field, size_t fcap, char *why,
    size_t cap)
{
	json_object *v = NULL;

	json_object_object_get_ex(o, "reviewText", &v);
	snprintf(field, fcap, "review.reviewText");
	if (!json_object_is_type(v, json_type_string)) {
		snprintf(why, cap, "reviewText must be a string");
		return -1;
	}
	*text = json_object_get_string(v);
	*len = (size_t)json_object_get_string_len(v);
	return review_text_check(*text, *len, why, cap);
}

int
review_v1_parse(json_object *o, struct review_v1 *out, char *field, size_t fcap, char *why,
    size_t cap)
{
	static const char *const keys[] = { "version", "routeId", "recognitionTxHash",
		"recognitionLogIndex", "reviewText", "createdAt", NULL };
	json_object *v = NULL;

	memset(out, 0, sizeof(*out));
	if (check_keys(o, keys, field, fcap, why, cap) < 0)
		return -1;
	json_object_object_get_ex(o, "version", &v);
	if (!(json_object_is_type(v, json_type_string) && strcmp(json_object_get_string(v), "1") == 0) &&
	    !(json_object_is_type(v, json_type_int) && json_object_get_int64(v) == 1)) {
		snprintf(field, fcap, "review.version");
		snprintf(why, cap, "version must be \"1\" for a " BRAND_LANE " review");
		return -1;
	}
	if (get_b32(o, "routeId", out->route_id, field, fcap, why, cap) < 0 ||
	    get_b32(o, "recognitionTxHash", out->tx_hash, field, fcap, why, cap) < 0 ||
	    get_int(o, "recognitionLogIndex", 0, &out->log_index, field, fcap, why, cap) < 0 ||
	    get_int(o, "createdAt", 1, &out->created_at, field, fcap, why, cap) < 0)
		return -1;
	return get_text(o, &out->text, &out->text_len, field, fcap, why, cap);
}


int
review_v2_parse(json_object *o, struct review_v2 *out, char *field, size_t fcap, char *why,
    size_t cap)
{
	static const char *const keys[] = { "version", "policyVersion", "routeId", "receiptDigest",
		"reviewText", "createdAt", NULL };

	memset(out, 0, sizeof(*out));
	if (check_keys(o, keys, field, fcap, why, cap) < 0)
		return -1;
	if (get_const(o, "version", "2", "for a receipt_verified review", field, fcap, why, cap) < 0 ||
	    get_const(o, "policyVersion", REVIEW_V2_POLICY, "", field, fcap, why, cap) < 0)
		return -1;
	if (get_b32(o, "routeId", out->route_id, field, fcap, why, cap) < 0 ||
	    get_b32(o, "receiptDigest", out->receipt_digest, field, fcap, why, cap) < 0 ||
	    get_int(o, "createdAt", 1, &out->created_at, field, fcap, why, cap) < 0)
		return -1;
	return get_text(o, &out->text, &out->text_len, field, fcap, why, cap);
}

int
review_v2_digest(const struct review_v2 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32])
{
	struct typed_domain d = { .chain_id = chain_id, .verifying_contract = companion };
	json_object *m = json_object_new_object();
	char h1[67], h2[67], num[32], err[160];
	int rc;

	json_object_object_add(m, "policyVersion", json_object_new_string(REVIEW_V2_POLICY));
	json_object_object_add(m, "routeId", json_object_new_string(hex_encode(r->route_id, 32, h1)));
	json_object_object_add(m, "receiptDigest", json_object_new_string(hex_encode(r->receipt_digest,
	    32, h2)));
	json_object_object_add(m, "reviewText", json_object_new_string_len(r->text, (int)r->text_len));
	snprintf(num, sizeof(num), "%" PRIu64, r->created_at);
	json_object_object_add(m, "createdAt", json_object_new_string(num));
	rc = typed_digest(TYPED_X402_RECEIPT_REVIEW, &d, m, out, err, sizeof(err));
	json_object_put(m);
	return rc;
}

int
review_v3_parse(json_object *o, struct review_v3 *out, char *field, size_t fcap, char *why,
    size_t cap)
{
	static const char *const keys[] = { "version", "policyVersion", "routeId", "reviewer",
		"reviewText", "createdAt", NULL };
	json_object *v = NULL;
	const char *s;

	memset(out, 0, sizeof(*out));
	if (check_keys(o, keys, field, fcap, why, cap) < 0)
		return -1;
	if (get_const(o, "version", "3", "for a self_reported review", field, fcap, why, cap) < 0 ||
	    get_const(o, "policyVersion", REVIEW_V3_POLICY, "", field, fcap, why, cap) < 0)
		return -1;
	if (get_b32(o, "routeId", out->route_id, field, fcap, why, cap) < 0 ||
	    get_int(o, "createdAt", 1, &out->created_at, field, fcap, why, cap) < 0)
		return -1;
	json_object_object_get_ex(o, "reviewer", &v);
	snprintf(field, fcap, "review.reviewer");
	s = json_object_is_type(v, json_type_string) ? json_object_get_string(v) : NULL;
	if (s == NULL || addr_parse(s, strlen(s), &out->reviewer) < 0 || addr_is_zero(&out->reviewer)) {
		snprintf(why, cap, "reviewer must be a nonzero 0x address (lowercase or EIP-55)");
		return -1;
	}
	return get_text(o, &out->text, &out->text_len, field, fcap, why, cap);
}

int
review_v3_digest(const struct review_v3 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32])
{
	struct typed_domain d = { .chain_id = chain_id, .verifying_contract = companion };
	json_object *m = json_object_new_object();
	char h[67], a[ADDR_TEXT_LEN + 1], num[32], err[160];
	int rc;

	json_object_object_add(m, "policyVersion", json_object_new_string(REVIEW_V3_POLICY));
	json_object_object_add(m, "routeId", json_object_new_string(hex_encode(r->route_id, 32, h)));
	json_object_object_add(m, "reviewer", json_object_new_string(addr_format_lower(&r->reviewer, a)));
	json_object_object_add(m, "reviewText", json_object_new_string_len(r->text, (int)r->text_len));
	snprintf(num, sizeof(num), "%" PRIu64, r->created_at);
	json_object_object_add(m, "createdAt", json_object_new_string(num));
	rc = typed_digest(TYPED_X402_SELF_REPORTED_REVIEW, &d, m, out, err, sizeof(err));
	json_object_put(m);
	return rc;
}

int
review_v1_digest(const struct review_v1 *r, uint64_t chain_id, const struct addr *companion,
    uint8_t out[32])
{
	struct typed_domain d = { .chain_id = chain_id, .verifying_contract = companion };
	json_object *m = json_object_new_object();
	char h1[67], h2[67], num[32], err[160];
	int rc;

	json_object_object_add(m, "routeId", json_object_new_string(hex_encode(r->route_id, 32, h1)));
	json_object_object_add(m, "recognitionTxHash", json_object_new_string(hex_encode(r->tx_hash, 32, h2)));
	snprintf(num, sizeof(num), "%" PRIu64, r->log_index);
	json_object_object_add(m, "recognitionLogIndex", json_object_new_string(num));
	json_object_object_add(m, "reviewText", json_object_new_string_len(r->text, (int)r->text_len));
	snprintf(num, sizeof(num), "%" PRIu64, r->created_at);
	json_object_object_add(m, "createdAt", json_object_new_string(num));
	rc = typed_digest(TYPED_X402_REVIEW, &d, m, out, err, sizeof(err));
	json_object_put(m);
	return rc;
}
