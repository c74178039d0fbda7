#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <json-c/json.h>

#include "eip712.h"
#include "hex.h"
#include "keccak.h"
#include "u256.h"
#include "json.h"
#include "banned.h"

#define DOMAIN_TYPE "EIP712Domain"
#define PATH_MAX_LEN 256
#define NO_INDEX ((size_t)-1)

/* One call's state: the checked types, caches, the current value path and the error sink. */
struct ctx {
	json_object *types;       /* the caller's, or NULL */
	json_object *domain_type; /* derived EIP712Domain fields (owned), or NULL */
	const char *names[EIP712_MAX_TYPES];
	size_t ntypes;
	uint8_t typehash[EIP712_MAX_TYPES + 1][32]; /* last slot: derived domain */
	bool have_typehash[EIP712_MAX_TYPES + 1];
	char path[PATH_MAX_LEN];
	size_t pathlen;
	char *err;
	size_t errlen;
};

enum atom { A_NONE, A_BOOL, A_ADDRESS, A_STRING, A_BYTES, A_BYTESN, A_UINT, A_INT };

static const char *const errstr[EIP712_ERR__MAX] = {
	[EIP712_OK] = "ok",
	[EIP712_BAD_INPUT] = "malformed typed data",
	[EIP712_BAD_TYPES] = "malformed types",
	[EIP712_UNKNOWN_TYPE] = "unknown type",
	[EIP712_CYCLE] = "cyclic or too deeply nested type",
	[EIP712_BAD_PRIMARY] = "bad primaryType",
	[EIP712_MISSING_FIELD] = "missing field",
	[EIP712_EXTRA_FIELD] = "unexpected field",
	[EIP712_BAD_VALUE] = "bad value",
	[EIP712_BAD_LENGTH] = "wrong array length",
	[EIP712_TOO_LONG] = "output too long",
};

const char *
eip712_strerror(enum eip712_err e)
{
	if ((unsigned)e >= EIP712_ERR__MAX)
		return "unknown error";
	return errstr[e];
}

/* ---- errors and the value path ---- */

__attribute__((format(printf, 3, 4))) static enum eip712_err
fail(struct ctx *c, enum eip712_err e, const char *fmt, ...)
{
	char msg[256];
	va_list ap;
	int n;

	if (c->err == NULL || c->errlen == 0)
		return e;
	va_start(ap, fmt);
	n = vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (n < 0)
		msg[0] = '\0';
	/* Truncation of either part is acceptable: the message is diagnostic. */
	if (c->pathlen > 0)
		n = snprintf(c->err, c->errlen, "%s: %s", c->path, msg);
	else
		n = snprintf(c->err, c->errlen, "%s", msg);
	if (n < 0)
		c->err[0] = '\0';
	return e;
}

static void
path_set(struct ctx *c, const char *s)
{
	int n = snprintf(c->path, sizeof(c->path), "%s", s);

	c->pathlen = n < 0 ? 0 : (size_t)n >= sizeof(c->path) ? sizeof(c->path) - 1 : (size_t)n;
}

/* Append ".key" or "[i]" (i != NO_INDEX); returns the length to restore. */
static size_t
path_push(struct ctx *c, const char *key, size_t i)
{
	size_t old = c->pathlen;
	size_t room = sizeof(c->path) - c->pathlen;
	int n;

	if (key != NULL)
		n = snprintf(c->path + c->pathlen, room, "%s%s", c->pathlen > 0 ? "." : "", key);
	else
		n = snprintf(c->path + c->pathlen, room, "[%zu]", i);
	if (n < 0)
		c->path[c->pathlen] = '\0';
	else
		c->pathlen += (size_t)n >= room ? room - 1 : (size_t)n;
	return old;
}

static void
path_pop(struct ctx *c, size_t old)
{
	c->pathlen = old;
	c->path[old] = '\0';
}

/* ---- names and type strings ---- */

static bool
is_ident(const char *s, size_t n)
{
	if (n == 0 || n > EIP712_MAX_NAME)
		return false;
	for (size_t i = 0; i < n; i++) {
		char ch = s[i];
		bool alpha = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch == '$';

		if (!alpha && !(i > 0 && ch >= '0' && ch <= '9'))
			return false;
	}
	return true;
}

/* Decimal without sign or leading zero, 1..max; -1 otherwise. */
static int
small_number(const char *s, size_t n, unsigned max, unsigned *out)
{
	unsigned v = 0;

	if (n == 0 || n > 5 || s[0] == '0')
		return -1;
	for (size_t i = 0; i < n; i++) {
		if (s[i] < '0' || s[i] > '9')
			return -1;
		v = v * 10 + (unsigned)(s[i] - '0');
	}
	if (v > max)
		return -1;
	*out = v;
	return 0;
}

static enum atom
classify(const char *s, size_t n, unsigned *size)
{
	unsigned v;

	*size = 0;
	if (n == 4 && memcmp(s, "bool", 4) == 0)
		return A_BOOL;
	if (n == 7 && memcmp(s, "address", 7) == 0)
		return A_ADDRESS;
	if (n == 6 && memcmp(s, "string", 6) == 0)
		return A_STRING;
	if (n == 5 && memcmp(s, "bytes", 5) == 0)
		return A_BYTES;
	if (n > 5 && memcmp(s, "bytes", 5) == 0 && small_number(s + 5, n - 5, 32, &v) == 0) {
		*size = v;
		return A_BYTESN;
	}
	if (n > 4 && memcmp(s, "uint", 4) == 0 && small_number(s + 4, n - 4, 256, &v) == 0 && v % 8 == 0) {
		*size = v;
		return A_UINT;
	}
	if (n > 3 && memcmp(s, "int", 3) == 0 && small_number(s + 3, n - 3, 256, &v) == 0 && v % 8 == 0) {
		*size = v;
		return A_INT;
	}
	return A_NONE;
}

/* Length of the base name of a type string (up to the first '['). */
static size_t
base_len(const char *t, size_t n)
{
	const char *lb = memchr(t, '[', n);

	return lb ? (size_t)(lb - t) : n;
}

/* Index of name in c->names, EIP712_MAX_TYPES for the derived domain, or NO_INDEX. */
static size_t
type_index(const struct ctx *c, const char *name, size_t n)
{
	for (size_t i = 0; i < c->ntypes; i++)
		if (strlen(c->names[i]) == n && memcmp(c->names[i], name, n) == 0)
			return i;
	if (c->domain_type != NULL && n == sizeof(DOMAIN_TYPE) - 1 && memcmp(name, DOMAIN_TYPE, n) == 0)
		return EIP712_MAX_TYPES;
	return NO_INDEX;
}

static json_object *
type_fields(const struct ctx *c, size_t idx)
{
	json_object *f = NULL;

	if (idx == EIP712_MAX_TYPES)
		return c->domain_type;
	json_object_object_get_ex(c->types, c->names[idx], &f);
	return f;
}

static const char *
type_name(const struct ctx *c, size_t idx)
{
	return idx == EIP712_MAX_TYPES ? DOMAIN_TYPE : c->names[idx];
}

/* ---- checking `types` ---- */

/* Array suffixes "[]" / "[n]" after the base; -1 when malformed. */
static int
check_suffixes(const char *s, size_t n)
{
	size_t i = 0, dims = 0;

	while (i < n) {
		const char *rb;
		unsigned len;

		if (s[i] != '[' || (rb = memchr(s + i, ']', n - i)) == NULL)
			return -1;
		size_t inner = (size_t)(rb - (s + i)) - 1;

		if (inner > 0 && small_number(s + i + 1, inner, 65535, &len) < 0)
			return -1;
		i += inner + 2;
		if (++dims > EIP712_MAX_ARRAY_DIMS)
			return -1;
	}
	return 0;
}

static enum eip712_err
check_struct(struct ctx *c, size_t idx)
{
	json_object *fields = type_fields(c, idx);
	const char *tname = type_name(c, idx);
	size_t nf;

	path_set(c, "types");
	path_push(c, tname, NO_INDEX);
	if (!json_object_is_type(fields, json_type_array))
		return fail(c, EIP712_BAD_TYPES, "not an array of fields");
	nf = json_object_array_length(fields);
	if (nf > EIP712_MAX_FIELDS)
		return fail(c, EIP712_BAD_TYPES, "more than %d fields", EIP712_MAX_FIELDS);
	for (size_t i = 0; i < nf; i++) {
		json_object *f = json_object_array_get_idx(fields, i);
		const char *fname, *ftype;
		size_t blen;
		unsigned sz;

		size_t old = path_push(c, NULL, i);

		if (!json_object_is_type(f, json_type_object) || json_object_object_length(f) != 2 ||
		    (fname = json_member_string(f, "name", NULL)) == NULL ||
		    (ftype = json_member_string(f, "type", NULL)) == NULL)
			return fail(c, EIP712_BAD_TYPES, "not a {name, type} object of strings");
		if (!is_ident(fname, strlen(fname)))
			return fail(c, EIP712_BAD_TYPES, "bad field name \"%.64s\"", fname);
		for (size_t j = 0; j < i; j++) {
			const char *other = json_member_string(json_object_array_get_idx(fields, j), "name", NULL);

			if (other != NULL && strcmp(other, fname) == 0)
				return fail(c, EIP712_BAD_TYPES, "duplicate field name \"%s\"", fname);
		}
		blen = base_len(ftype, strlen(ftype));
		if (!is_ident(ftype, blen) || check_suffixes(ftype + blen, strlen(ftype) - blen) < 0)
			return fail(c, EIP712_BAD_TYPES, "bad type \"%.64s\"", ftype);
		if (classify(ftype, blen, &sz) == A_NONE && type_index(c, ftype, blen) == NO_INDEX)
			return fail(c, EIP712_UNKNOWN_TYPE, "unknown type \"%.*s\"", (int)blen, ftype);
		path_pop(c, old);
	}
	return EIP712_OK;
}

/*
 * Height of the type graph below idx (1 for a struct of atomic fields),
 * rejecting cycles: state 0 unvisited, 1 on the current path, 2 done.
 */
static enum eip712_err
check_graph(struct ctx *c, size_t idx, unsigned char *state, unsigned *height)
{
	json_object *fields = type_fields(c, idx);
	unsigned h = 1;

	if (state[idx] == 2)
		return EIP712_OK;
	if (state[idx] == 1) {
		path_set(c, "types");
		path_push(c, type_name(c, idx), NO_INDEX);
		return fail(c, EIP712_CYCLE, "cyclic type");
	}
	state[idx] = 1;
	for (size_t i = 0; i < json_object_array_length(fields); i++) {
		const char *ftype = json_member_string(json_object_array_get_idx(fields, i), "type", NULL);
		size_t blen = base_len(ftype, strlen(ftype));
		size_t sub = type_index(c, ftype, blen);
		unsigned sz;
		enum eip712_err e;

		if (classify(ftype, blen, &sz) != A_NONE || sub == NO_INDEX)
			continue;
		if ((e = check_graph(c, sub, state, height)) != EIP712_OK)
			return e;
		if (height[sub] + 1 > h)
			h = height[sub] + 1;
	}
	if (h > EIP712_MAX_DEPTH) {
		path_set(c, "types");
		path_push(c, type_name(c, idx), NO_INDEX);
		return fail(c, EIP712_CYCLE, "nested more than %d levels deep", EIP712_MAX_DEPTH);
	}
	height[idx] = h;
	state[idx] = 2;
	return EIP712_OK;
}

/* Derive EIP712Domain from the keys of domain, in the canonical order. */
static enum eip712_err
derive_domain(struct ctx *c, json_object *domain)
{
	static const char *const order[][2] = {
		{ "name", "string" },
		{ "version", "string" },
		{ "chainId", "uint256" },
		{ "verifyingContract", "address" },
		{ "salt", "bytes32" },
	};
	const size_t norder = sizeof(order) / sizeof(order[0]);

	path_set(c, "domain");
	if (!json_object_is_type(domain, json_type_object))
		return fail(c, EIP712_BAD_INPUT, "not an object");
	json_object_object_foreach(domain, dkey, dval) {
		bool known = false;

		(void)dval;
		for (size_t i = 0; i < norder; i++)
			known = known || strcmp(dkey, order[i][0]) == 0;
		if (!known) {
			path_push(c, dkey, NO_INDEX);
			return fail(c, EIP712_EXTRA_FIELD, "not a field of EIP712Domain");
		}
	}
	c->domain_type = json_object_new_array();
	if (c->domain_type == NULL)
		return fail(c, EIP712_BAD_INPUT, "out of memory");
	for (size_t i = 0; i < norder; i++) {
		json_object *f;

		if (!json_object_object_get_ex(domain, order[i][0], NULL))
			continue;
		f = json_object_new_object();
		/* an add takes f even when it fails (lib/json.h) */
		if (f == NULL || json_object_array_add(c->domain_type, f) < 0)
			return fail(c, EIP712_BAD_INPUT, "out of memory");
		json_object_object_add(f, "name", json_object_new_string(order[i][0]));
		json_object_object_add(f, "type", json_object_new_string(order[i][1]));
		if (json_member_string(f, "name", NULL) == NULL || json_member_string(f, "type", NULL) == NULL)
			return fail(c, EIP712_BAD_INPUT, "out of memory");
	}
	path_set(c, "");
	return EIP712_OK;
}

/*
 * Start a call: check `types` whole; when the call hashes a domain
 * (need_domain) and `types` has no EIP712Domain, derive it from domain.
 */
static enum eip712_err
ctx_init(struct ctx *c, json_object *types, bool need_domain, json_object *domain, char *err,
    size_t errlen)
{
	unsigned char state[EIP712_MAX_TYPES + 1] = { 0 };
	unsigned height[EIP712_MAX_TYPES + 1] = { 0 };
	enum eip712_err e;

	memset(c, 0, sizeof(*c));
	c->err = err;
	c->errlen = errlen;
	if (err != NULL && errlen > 0)
		err[0] = '\0';
	path_set(c, "types");
	if (!json_object_is_type(types, json_type_object))
		return fail(c, EIP712_BAD_INPUT, "not an object");
	c->types = types;
	json_object_object_foreach(types, tkey, tval) {
		unsigned sz;

		(void)tval;
		if (c->ntypes == EIP712_MAX_TYPES)
			return fail(c, EIP712_BAD_TYPES, "more than %d types", EIP712_MAX_TYPES);
		if (!is_ident(tkey, strlen(tkey)) || classify(tkey, strlen(tkey), &sz) != A_NONE) {
			path_push(c, tkey, NO_INDEX);
			return fail(c, EIP712_BAD_TYPES, "bad type name");
		}
		c->names[c->ntypes++] = tkey;
	}
	if (need_domain && type_index(c, DOMAIN_TYPE, sizeof(DOMAIN_TYPE) - 1) == NO_INDEX &&
	    (e = derive_domain(c, domain)) != EIP712_OK)
		return e;
	for (size_t i = 0; i < c->ntypes; i++)
		if ((e = check_struct(c, i)) != EIP712_OK)
			return e;
	for (size_t i = 0; i < c->ntypes; i++)
		if ((e = check_graph(c, i, state, height)) != EIP712_OK)
			return e;
	path_set(c, "");
	return EIP712_OK;
}

static void
ctx_release(struct ctx *c)
{
	json_object_put(c->domain_type);
	c->domain_type = NULL;
}

/* ---- encodeType and typeHash ---- */

/* Where encodeType text goes: a bounded buffer, or a running Keccak. */
struct tsink {
	struct keccak_ctx *k;
	char *out;
	size_t cap;
	size_t len;
	bool full;
};

static void
tsink_put(struct tsink *s, const char *p, size_t n)
{
	if (s->k != NULL) {
		keccak_update(s->k, p, n);
		return;
	}
	if (s->full || n >= s->cap - s->len) {
		s->full = true;
		return;
	}
	memcpy(s->out + s->len, p, n);
	s->len += n;
	s->out[s->len] = '\0';
}

/* Add idx and the structs it references (transitively) to set; the graph is acyclic. */
static void
collect(const struct ctx *c, size_t idx, bool *set)
{
	json_object *fields = type_fields(c, idx);

	if (set[idx])
		return;
	set[idx] = true;
	for (size_t i = 0; i < json_object_array_length(fields); i++) {
		const char *ftype = json_member_string(json_object_array_get_idx(fields, i), "type", NULL);
		size_t blen = base_len(ftype, strlen(ftype));
		size_t sub = type_index(c, ftype, blen);
		unsigned sz;

		if (classify(ftype, blen, &sz) == A_NONE && sub != NO_INDEX)
			collect(c, sub, set);
	}
}

static void
emit_struct(const struct ctx *c, size_t idx, struct tsink *s)
{
	json_object *fields = type_fields(c, idx);
	const char *name = type_name(c, idx);

	tsink_put(s, name, strlen(name));
	tsink_put(s, "(", 1);
	for (size_t i = 0; i < json_object_array_length(fields); i++) {
		json_object *f = json_object_array_get_idx(fields, i);
		const char *ftype = json_member_string(f, "type", NULL), *fname = json_member_string(f, "name", NULL);

		if (i > 0)
			tsink_put(s, ",", 1);
		tsink_put(s, ftype, strlen(ftype));
		tsink_put(s, " ", 1);
		tsink_put(s, fname, strlen(fname));
	}
	tsink_put(s, ")", 1);
}

/* encodeType: the primary type, then its dependencies sorted by name. */
static void
encode_type(const struct ctx *c, size_t idx, struct tsink *s)
{
	bool set[EIP712_MAX_TYPES + 1] = { false };
	size_t deps[EIP712_MAX_TYPES + 1];
	size_t ndeps = 0;

	collect(c, idx, set);
	for (size_t i = 0; i <= EIP712_MAX_TYPES; i++)
		if (set[i] && i != idx)
			deps[ndeps++] = i;
	/* insertion sort by name: at most EIP712_MAX_TYPES entries */
	for (size_t i = 1; i < ndeps; i++) {
		size_t d = deps[i], j = i;

		while (j > 0 && strcmp(type_name(c, deps[j - 1]), type_name(c, d)) > 0) {
			deps[j] = deps[j - 1];
			j--;
		}
		deps[j] = d;
	}
	emit_struct(c, idx, s);
	for (size_t i = 0; i < ndeps; i++)
		emit_struct(c, deps[i], s);
}

static const uint8_t *
type_hash(struct ctx *c, size_t idx)
{
	if (!c->have_typehash[idx]) {
		struct keccak_ctx k;
		struct tsink s = { .k = &k };

		keccak_init(&k);
		encode_type(c, idx, &s);
		keccak_final(&k, c->typehash[idx]);
		c->have_typehash[idx] = true;
	}
	return c->typehash[idx];
}

/* ---- encodeData ---- */

/* A JSON string's bytes, or NULL when v is not a string. */
static const char *
json_str(json_object *v, size_t *len)
{
	if (!json_object_is_type(v, json_type_string))
		return NULL;
	*len = (size_t)json_object_get_string_len(v);
	return json_object_get_string(v);
}

/* An integer value as sign and magnitude; -1 when it is not one. */
static int
int_value(json_object *v, bool allow_neg, struct u256 *mag, bool *neg)
{
	const char *s;
	size_t n;

	*neg = false;
	if (json_object_is_type(v, json_type_int)) {
		int64_t i = json_object_get_int64(v);

		/* json-c saturates out-of-range integers to these: they are ambiguous. */
		if (i == INT64_MAX || i == INT64_MIN)
			return -1;
		*neg = i < 0;
		u256_from_u64(mag, i < 0 ? (uint64_t)0 - (uint64_t)i : (uint64_t)i);
		return 0;
	}
	if ((s = json_str(v, &n)) == NULL)
		return -1;
	if (allow_neg && n > 1 && s[0] == '-') {
		if (u256_parse_dec(s + 1, n - 1, mag) < 0 || u256_is_zero(mag))
			return -1;
		*neg = true;
		return 0;
	}
	return u256_parse(s, n, mag);
}

static enum eip712_err
encode_int(struct ctx *c, enum atom a, unsigned bits, json_object *v, uint8_t word[32])
{
	const char *tn = a == A_UINT ? "uint" : "int";
	struct u256 mag, one, m1;
	bool neg;
	unsigned b;

	if (int_value(v, a == A_INT, &mag, &neg) < 0)
		return fail(c, EIP712_BAD_VALUE, "not %s %s%u", a == A_UINT ? "a" : "an", tn, bits);
	b = u256_bits(&mag);
	if (a == A_UINT) {
		if (neg || b > bits)
			return fail(c, EIP712_BAD_VALUE, "out of range for %s%u", tn, bits);
		u256_to_be(&mag, word);
		return EIP712_OK;
	}
	/* intN: -2^(N-1) <= v <= 2^(N-1) - 1 */
	u256_from_u64(&one, 1);
	if (!neg && b > bits - 1)
		return fail(c, EIP712_BAD_VALUE, "out of range for %s%u", tn, bits);
	if (neg && u256_sub(&m1, &mag, &one) == 0 && u256_bits(&m1) > bits - 1)
		return fail(c, EIP712_BAD_VALUE, "out of range for %s%u", tn, bits);
	if (neg)
		u256_neg(&mag, &mag);
	u256_to_be(&mag, word);
	return EIP712_OK;
}

/* keccak256 of "0x"-hex bytes, decoded in chunks without a copy of the whole value. */
static int
hash_hex_bytes(const char *s, size_t n, uint8_t out[32])
{
	struct keccak_ctx k;
	uint8_t chunk[256];
	size_t fill = 0;

	if (n < 2 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') || (n - 2) % 2 != 0)
		return -1;
	keccak_init(&k);
	for (size_t i = 2; i < n; i += 2) {
		int hi = hex_digit((unsigned char)s[i]), lo = hex_digit((unsigned char)s[i + 1]);

		if (hi < 0 || lo < 0) {
			keccak_final(&k, out);
			return -1;
		}
		chunk[fill++] = (uint8_t)(hi << 4 | lo);
		if (fill == sizeof(chunk)) {
			keccak_update(&k, chunk, fill);
			fill = 0;
		}
	}
	keccak_update(&k, chunk, fill);
	keccak_final(&k, out);
	return 0;
}

static enum eip712_err
encode_atom(struct ctx *c, enum atom a, unsigned size, json_object *v, uint8_t word[32])
{
	const char *s;
	size_t n;

	memset(word, 0, 32);
	switch (a) {
	case A_BOOL:
		if (!json_object_is_type(v, json_type_boolean))
			return fail(c, EIP712_BAD_VALUE, "not a bool");
		word[31] = json_object_get_boolean(v) ? 1 : 0;
		return EIP712_OK;
	case A_ADDRESS:
		if ((s = json_str(v, &n)) == NULL || hex_decode_fixed(s, n, word + 12, 20, true) < 0)
			return fail(c, EIP712_BAD_VALUE, "not an address");
		return EIP712_OK;
	case A_BYTESN:
		if ((s = json_str(v, &n)) == NULL || hex_decode_fixed(s, n, word, size, true) < 0)
			return fail(c, EIP712_BAD_VALUE, "not a bytes%u (0x and %u hex digits)", size, 2 * size);
		return EIP712_OK;
	case A_STRING:
		if ((s = json_str(v, &n)) == NULL)
			return fail(c, EIP712_BAD_VALUE, "not a string");
		keccak256(s, n, word);
		return EIP712_OK;
	case A_BYTES:
		if ((s = json_str(v, &n)) == NULL || hash_hex_bytes(s, n, word) < 0)
			return fail(c, EIP712_BAD_VALUE, "not a bytes (0x and an even number of hex digits)");
		return EIP712_OK;
	case A_UINT:
	case A_INT:
		return encode_int(c, a, size, v, word);
	case A_NONE:
		break;
	}
	return fail(c, EIP712_UNKNOWN_TYPE, "not an atomic type");
}

static enum eip712_err hash_struct(struct ctx *c, size_t idx, json_object *v, unsigned depth,
    uint8_t out[32]);

/* The 32-byte encodeData word of value v of type t[0..tn). */
static enum eip712_err
encode_value(struct ctx *c, const char *t, size_t tn, json_object *v, unsigned depth, uint8_t word[32])
{
	enum eip712_err e;
	unsigned size;
	enum atom a;

	if (depth >= EIP712_MAX_NESTING)
		return fail(c, EIP712_CYCLE, "value nested more than %d levels deep", EIP712_MAX_NESTING);
	if (tn > 0 && t[tn - 1] == ']') {
		const char *lb = t + tn - 1;
		struct keccak_ctx k;
		unsigned want = 0;
		size_t len;

		while (lb > t && *lb != '[')
			lb--;
		if (lb + 1 < t + tn - 1 &&
		    small_number(lb + 1, (size_t)(t + tn - 1 - (lb + 1)), 65535, &want) < 0)
			return fail(c, EIP712_BAD_TYPES, "bad array type"); /* checked earlier */
		if (!json_object_is_type(v, json_type_array))
			return fail(c, EIP712_BAD_VALUE, "not an array (%.*s)", (int)tn, t);
		len = json_object_array_length(v);
		if (want > 0 && len != want)
			return fail(c, EIP712_BAD_LENGTH, "%zu elements, %.*s needs %u", len, (int)tn, t, want);
		keccak_init(&k);
		for (size_t i = 0; i < len; i++) {
			uint8_t w[32];
			size_t old = path_push(c, NULL, i);

			e = encode_value(c, t, (size_t)(lb - t), json_object_array_get_idx(v, i), depth + 1, w);
			if (e != EIP712_OK) {
				keccak_final(&k, w);
				return e;
			}
			path_pop(c, old);
			keccak_update(&k, w, 32);
		}
		keccak_final(&k, word);
		return EIP712_OK;
	}
	a = classify(t, tn, &size);
	if (a != A_NONE)
		return encode_atom(c, a, size, v, word);
	size_t idx = type_index(c, t, tn);

	if (idx == NO_INDEX)
		return fail(c, EIP712_UNKNOWN_TYPE, "unknown type \"%.*s\"", (int)tn, t);
	return hash_struct(c, idx, v, depth + 1, word);
}

static enum eip712_err
hash_struct(struct ctx *c, size_t idx, json_object *v, unsigned depth, uint8_t out[32])
{
	json_object *fields = type_fields(c, idx);
	const char *tname = type_name(c, idx);
	size_t nf = json_object_array_length(fields);
	struct keccak_ctx k;
	uint8_t w[32];

	if (!json_object_is_type(v, json_type_object))
		return fail(c, EIP712_BAD_VALUE, "not an object (%s)", tname);
	json_object_object_foreach(v, vkey, vval) {
		bool known = false;

		(void)vval;
		for (size_t i = 0; i < nf && !known; i++)
			known = strcmp(vkey, json_member_string(json_object_array_get_idx(fields, i), "name", NULL)) == 0;
		if (!known) {
			path_push(c, vkey, NO_INDEX);
			return fail(c, EIP712_EXTRA_FIELD, "not a field of %s", tname);
		}
	}
	keccak_init(&k);
	keccak_update(&k, type_hash(c, idx), 32);
	for (size_t i = 0; i < nf; i++) {
		json_object *f = json_object_array_get_idx(fields, i), *fv;
		const char *fname = json_member_string(f, "name", NULL), *ftype = json_member_string(f, "type", NULL);
		size_t old = path_push(c, fname, NO_INDEX);
		enum eip712_err e;

		if (!json_object_object_get_ex(v, fname, &fv))
			e = fail(c, EIP712_MISSING_FIELD, "missing (%s)", ftype);
		else
			e = encode_value(c, ftype, strlen(ftype), fv, depth, w);
		if (e != EIP712_OK) {
			keccak_final(&k, w);
			return e;
		}
		path_pop(c, old);
		keccak_update(&k, w, 32);
	}
	keccak_final(&k, out);
	return EIP712_OK;
}

/* ---- public entry points ---- */

static enum eip712_err
domain_separator(struct ctx *c, json_object *domain, uint8_t out[32])
{
	size_t idx = type_index(c, DOMAIN_TYPE, sizeof(DOMAIN_TYPE) - 1);

	path_set(c, "domain");
	if (idx == NO_INDEX)
		return fail(c, EIP712_UNKNOWN_TYPE, "no EIP712Domain type");
	return hash_struct(c, idx, domain, 0, out);
}

static enum eip712_err
lookup_struct(struct ctx *c, const char *what, const char *type, size_t *idx)
{
	path_set(c, what);
	if (type == NULL)
		return fail(c, EIP712_BAD_PRIMARY, "missing");
	*idx = type_index(c, type, strlen(type));
	if (*idx == NO_INDEX)
		return fail(c, EIP712_UNKNOWN_TYPE, "unknown type \"%.64s\"", type);
	path_set(c, "");
	return EIP712_OK;
}

enum eip712_err
eip712_digest_parts(json_object *types, const char *primary, json_object *domain, json_object *message,
    uint8_t out[32], char *err, size_t errlen)
{
	struct ctx cs, *c = &cs;
	uint8_t buf[66];
	size_t idx;
	enum eip712_err e;

	if ((e = ctx_init(c, types, true, domain, err, errlen)) != EIP712_OK)
		goto out;
	path_set(c, "primaryType");
	if (primary == NULL) {
		e = fail(c, EIP712_BAD_PRIMARY, "missing");
		goto out;
	}
	if (strcmp(primary, DOMAIN_TYPE) == 0) {
		e = fail(c, EIP712_BAD_PRIMARY, "EIP712Domain cannot be the primary type");
		goto out;
	}
	if ((e = lookup_struct(c, "primaryType", primary, &idx)) != EIP712_OK)
		goto out;
	if ((e = domain_separator(c, domain, buf + 2)) != EIP712_OK)
		goto out;
	path_set(c, "message");
	if ((e = hash_struct(c, idx, message, 0, buf + 34)) != EIP712_OK)
		goto out;
	buf[0] = 0x19;
	buf[1] = 0x01;
	keccak256(buf, sizeof(buf), out);
out:
	ctx_release(c);
	return e;
}

enum eip712_err
eip712_digest(json_object *typed, uint8_t out[32], char *err, size_t errlen)
{
	static const char *const keys[] = { "types", "primaryType", "domain", "message" };
	json_object *part[4];
	struct ctx c;

	memset(&c, 0, sizeof(c));
	c.err = err;
	c.errlen = errlen;
	if (!json_object_is_type(typed, json_type_object))
		return fail(&c, EIP712_BAD_INPUT, "typed data is not an object");
	for (size_t i = 0; i < 4; i++)
		if (!json_object_object_get_ex(typed, keys[i], &part[i]))
			return fail(&c, EIP712_BAD_INPUT, "%s: missing", keys[i]);
	if (json_object_object_length(typed) != 4)
		return fail(&c, EIP712_BAD_INPUT, "unexpected top-level key");
	if (!json_object_is_type(part[1], json_type_string))
		return fail(&c, EIP712_BAD_PRIMARY, "primaryType: not a string");
	return eip712_digest_parts(part[0], json_object_get_string(part[1]), part[2], part[3], out, err,
	    errlen);
}

enum eip712_err
eip712_domain_separator(json_object *types, json_object *domain, uint8_t out[32], char *err,
    size_t errlen)
{
	struct ctx c;
	enum eip712_err e;

	if ((e = ctx_init(&c, types, true, domain, err, errlen)) == EIP712_OK)
		e = domain_separator(&c, domain, out);
	ctx_release(&c);
	return e;
}

enum eip712_err
eip712_hash_struct(json_object *types, const char *type, json_object *value, uint8_t out[32], char *err,
    size_t errlen)
{
	struct ctx c;
	size_t idx;
	enum eip712_err e;

	if ((e = ctx_init(&c, types, false, NULL, err, errlen)) == EIP712_OK &&
	    (e = lookup_struct(&c, "type", type, &idx)) == EIP712_OK) {
		path_set(&c, "value");
		e = hash_struct(&c, idx, value, 0, out);
	}
	ctx_release(&c);
	return e;
}

enum eip712_err
eip712_encode_type(json_object *types, const char *type, char *out, size_t cap, char *err,
    size_t errlen)
{
	struct ctx c;
	struct tsink s = { .out = out, .cap = cap };
	size_t idx;
	enum eip712_err e;

	if ((e = ctx_init(&c, types, false, NULL, err, errlen)) == EIP712_OK &&
	    (e = lookup_struct(&c, "type", type, &idx)) == EIP712_OK) {
		if (cap == 0) {
			s.full = true;
		} else {
			out[0] = '\0';
			encode_type(&c, idx, &s);
		}
		if (s.full)
			e = fail(&c, EIP712_TOO_LONG, "encodeType(%.64s) does not fit in %zu bytes", type, cap);
	}
	ctx_release(&c);
	return e;
}

enum eip712_err
eip712_type_hash(json_object *types, const char *type, uint8_t out[32], char *err, size_t errlen)
{
	struct ctx c;
	size_t idx;
	enum eip712_err e;

	if ((e = ctx_init(&c, types, false, NULL, err, errlen)) == EIP712_OK &&
	    (e = lookup_struct(&c, "type", type, &idx)) == EIP712_OK)
		memcpy(out, type_hash(&c, idx), 32);
	ctx_release(&c);
	return e;
}
