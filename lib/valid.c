#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "decimal.h"
#include "handle.h"
#include "hex.h"
#include "url.h"
#include "utf8.h"
#include "valid.h"
#include "banned.h"

static enum err
bad(char *msg, size_t cap, const struct field *f, const char *why)
{
	snprintf(msg, cap, "Field %s %s.", f->name, why);
	return ERR_INVALID_FIELD;
}

/* The request pool is full: the server's fault, not the field's. */
static enum err
nomem(char *msg, size_t cap)
{
	if (cap)
		msg[0] = '\0';
	return ERR_INTERNAL;
}

/*
 * 8-4-4-4-12 hex digits in either case into out[16], and their canonical
 * lowercase text into text[37]; 0 or -1.
 */
static int
uuid_parse_text(const char *s, size_t len, uint8_t out[16], char text[37])
{
	static const char digits[] = "0123456789abcdef";
	size_t k = 0;

	if (len != 36)
		return -1;
	for (size_t i = 0; i < 36; i++) {
		int hi, lo;

		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return -1;
			text[i] = '-';
			continue;
		}
		/* hex_digit takes both cases; i + 1 is never a hyphen's place here. */
		if ((hi = hex_digit(s[i])) < 0 || (lo = hex_digit(s[i + 1])) < 0)
			return -1;
		out[k++] = (uint8_t)(hi << 4 | lo);
		text[i] = digits[hi];
		text[i + 1] = digits[lo];
		i++;
	}
	text[36] = '\0';
	return k == 16 ? 0 : -1;
}

static int
parse_u64(const char *s, size_t len, uint64_t *out)
{
	uint64_t v = 0;

	if (len == 0 || len > 20 || (len > 1 && s[0] == '0'))
		return -1;
	for (size_t i = 0; i < len; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		if (v > (UINT64_MAX - (uint64_t)(s[i] - '0')) / 10)
			return -1;
		v = v * 10 + (uint64_t)(s[i] - '0');
	}
	*out = v;
	return 0;
}

enum err
valid_text(const struct field *f, const char *s, size_t len, struct pool *pool, struct value *out,
    char *msg, size_t cap)
{
	char why[160];

	memset(out, 0, sizeof(*out));
	out->type = f->type;
	if (memchr(s, '\0', len))
		return bad(msg, cap, f, "must not contain NUL characters");
	out->text = pool_strndup(pool, s, len);
	out->len = len;
	if (out->text == NULL)
		return nomem(msg, cap);
	switch (f->type) {
	case VT_STRING: {
		long n = utf8_length(s, len);

		if (n < 0)
			return bad(msg, cap, f, "must be valid UTF-8");
		if ((size_t)n < f->min_len || (f->max_len && (size_t)n > f->max_len)) {
			snprintf(why, sizeof(why), "must be %zu to %zu characters long", f->min_len,
			    f->max_len);
			return bad(msg, cap, f, why);
		}
		break;
	}
	case VT_UINT:
		if (parse_u64(s, len, &out->u) < 0 || out->u < f->min || out->u > f->max) {
			snprintf(why, sizeof(why), "must be an integer from %" PRIu64 " to %" PRIu64,
			    f->min, f->max);
			return bad(msg, cap, f, why);
		}
		break;
	case VT_ADDRESS:
		if (addr_parse(s, len, &out->addr) < 0)
			return bad(msg, cap, f, "must be an address: 0x and 40 hex digits "
			    "(lowercase or EIP-55 checksummed)");
		break;
	case VT_ADDRESS_EIP55:
		if (!addr_is_checksummed(s, len) || addr_parse(s, len, &out->addr) < 0)
			return bad(msg, cap, f, "must be an EIP-55 checksummed address: 0x and 40 hex "
			    "digits in their checksum case");
		break;
	case VT_ACCOUNT: {
		size_t pl = strlen(VALID_ACCOUNT_CHAIN ":");

		if (len <= pl || memcmp(s, VALID_ACCOUNT_CHAIN ":", pl) != 0 ||
		    addr_parse(s + pl, len - pl, &out->addr) < 0)
			return bad(msg, cap, f, "must be a Base account: " VALID_ACCOUNT_CHAIN ":0x and 40 hex "
			    "digits (lowercase or EIP-55 checksummed)");
		break;
	}
	case VT_UUID: {
		char canon[37];

		if (uuid_parse_text(s, len, out->uuid, canon) < 0)
			return bad(msg, cap, f, "must be a UUID: 8-4-4-4-12 hex digits, in either case");
		out->text = pool_strndup(pool, canon, 36);   /* the canonical form: lowercase */
		out->len = 36;
		if (out->text == NULL)
			return nomem(msg, cap);
		break;
	}
	case VT_BYTES32:
		if (hex_decode_fixed(s, len, out->b32, 32, true) < 0)
			return bad(msg, cap, f, "must be 0x and 64 hex digits");
		break;
	case VT_HANDLE: {
		struct handle h;
		enum handle_err he = handle_parse(s, len, &h);

		if (he != HANDLE_OK) {
			snprintf(why, sizeof(why), "is not a canonical handle (github:<name>, x:<name> "
			    "or agent:<N>): %s", handle_strerror(he));
			return bad(msg, cap, f, why);
		}
		out->text = pool_strndup(pool, h.text, h.len);
		out->len = h.len;
		if (out->text == NULL)
			return nomem(msg, cap);
		handle_hash(&h, out->hash);
		break;
	}
	case VT_DECIMAL: {
		struct decimal d;

		if (decimal_parse(s, len, &d) != DECIMAL_OK)
			return bad(msg, cap, f, "must be a decimal amount: digits, optionally a point "
			    "and up to 18 more digits, no sign or exponent");
		break;
	}
	case VT_URL: {
		static _Thread_local struct url u;  /* large: one per thread, off the stack */
		enum url_err ue = url_check_public(s, len, URL_EXACT, &u);

		if (ue != URL_OK) {
			snprintf(why, sizeof(why), "is not an accepted public HTTPS URL: %s",
			    url_strerror(ue));
			return bad(msg, cap, f, why);
		}
		break;
	}
	case VT_CHOICE: {
		size_t k;

		for (k = 0; f->choices && f->choices[k]; k++)
			if (strlen(f->choices[k]) == len && memcmp(f->choices[k], s, len) == 0)
				break;
		if (f->choices == NULL || f->choices[k] == NULL) {
			size_t off = (size_t)snprintf(why, sizeof(why), "must be one of");

			for (k = 0; f->choices && f->choices[k] && off < sizeof(why); k++)
				off += (size_t)snprintf(why + off, sizeof(why) - off, "%s %s",
				    k ? "," : "", f->choices[k]);
			return bad(msg, cap, f, why);
		}
		out->choice = (int)k;
		break;
	}
	case VT_BOOL:
		if (len == 4 && memcmp(s, "true", 4) == 0)
			out->b = true;
		else if (len == 5 && memcmp(s, "false", 5) == 0)
			out->b = false;
		else
			return bad(msg, cap, f, "must be true or false");
		break;
	case VT_ARRAY:
	case VT_OBJECT:
	case VT__MAX:
		return bad(msg, cap, f, "must be JSON, not text");
	}
	out->present = true;
	return ERR_NONE;
}

enum err
valid_json(const struct field *f, json_object *j, struct pool *pool, struct value *out, char *msg,
    size_t cap)
{
	char why[160], num[32];
	int n;

	switch (f->type) {
	case VT_UINT:
		if (!json_object_is_type(j, json_type_int) || json_object_get_int64(j) < 0) {
			snprintf(why, sizeof(why), "must be a JSON integer from %" PRIu64 " to %" PRIu64,
			    f->min, f->max);
			return bad(msg, cap, f, why);
		}
		n = snprintf(num, sizeof(num), "%" PRId64, json_object_get_int64(j));
		return valid_text(f, num, (size_t)n, pool, out, msg, cap);
	case VT_BOOL:
		if (!json_object_is_type(j, json_type_boolean))
			return bad(msg, cap, f, "must be true or false");
		memset(out, 0, sizeof(*out));
		out->type = VT_BOOL;
		out->b = json_object_get_boolean(j);
		out->present = true;
		return ERR_NONE;
	case VT_ARRAY: {
		size_t len;

		if (!json_object_is_type(j, json_type_array))
			return bad(msg, cap, f, "must be a JSON array");
		len = json_object_array_length(j);
		if (len < f->min_len || (f->max_len && len > f->max_len)) {
			snprintf(why, sizeof(why), "must have %zu to %zu items", f->min_len, f->max_len);
			return bad(msg, cap, f, why);
		}
		memset(out, 0, sizeof(*out));
		out->type = VT_ARRAY;
		out->array = j;
		out->len = len;
		out->present = true;
		return ERR_NONE;
	}
	case VT_OBJECT:
		if (!json_object_is_type(j, json_type_object))
			return bad(msg, cap, f, "must be a JSON object");
		memset(out, 0, sizeof(*out));
		out->type = VT_OBJECT;
		out->object = j;
		out->present = true;
		return ERR_NONE;
	default:
		if (!json_object_is_type(j, json_type_string))
			return bad(msg, cap, f, "must be a JSON string");
		return valid_text(f, json_object_get_string(j), (size_t)json_object_get_string_len(j),
		    pool, out, msg, cap);
	}
}
