#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "keccak.h"
#include "banned.h"

/* Where encoded bytes go: a bounded buffer, or a running Keccak. */
struct sink {
	uint8_t *out;
	size_t cap;
	size_t len;
	struct keccak_ctx *k;
};

static int
sink_put(struct sink *s, const void *p, size_t n)
{
	if (s->k != NULL) {
		keccak_update(s->k, p, n);
		s->len += n;
		return 0;
	}
	if (n > s->cap - s->len)
		return -1;
	if (n > 0)
		memcpy(s->out + s->len, p, n);
	s->len += n;
	return 0;
}

static void
word_from_u64(uint8_t w[ABI_WORD], uint64_t v)
{
	memset(w, 0, ABI_WORD);
	for (int i = 0; i < 8; i++)
		w[31 - i] = (uint8_t)(v >> (8 * i));
}

static bool
is_dynamic(enum abi_type t)
{
	return t == ABI_STRING || t == ABI_BYTES;
}

struct abi_arg
abi_uint256(const struct u256 *v)
{
	struct abi_arg a = { .type = ABI_UINT256 };

	u256_to_be(v, a.word);
	return a;
}

struct abi_arg
abi_uint64(uint64_t v)
{
	struct abi_arg a = { .type = ABI_UINT256 };

	word_from_u64(a.word, v);
	return a;
}

struct abi_arg
abi_address(const struct addr *ad)
{
	struct abi_arg a = { .type = ABI_ADDRESS };

	memcpy(a.word + 12, ad->b, ADDR_LEN);
	return a;
}

struct abi_arg
abi_bytes32(const uint8_t b[32])
{
	struct abi_arg a = { .type = ABI_BYTES32 };

	memcpy(a.word, b, 32);
	return a;
}

struct abi_arg
abi_bool(bool v)
{
	struct abi_arg a = { .type = ABI_BOOL };

	a.word[31] = v ? 1 : 0;
	return a;
}

struct abi_arg
abi_string(const char *s, size_t len)
{
	struct abi_arg a = { .type = ABI_STRING, .data = (const uint8_t *)s, .len = len };

	return a;
}

struct abi_arg
abi_bytes(const uint8_t *p, size_t len)
{
	struct abi_arg a = { .type = ABI_BYTES, .data = p, .len = len };

	return a;
}

/* Tail size of one dynamic value: length word plus contents padded to 32; 0 on overflow. */
static size_t
tail_len(size_t len)
{
	size_t padded;

	if (len > SIZE_MAX - 2 * ABI_WORD)
		return 0;
	padded = (len + ABI_WORD - 1) / ABI_WORD * ABI_WORD;
	return ABI_WORD + padded;
}

size_t
abi_encoded_len(const struct abi_arg *args, size_t n)
{
	size_t total;

	if (n > SIZE_MAX / ABI_WORD)
		return 0;
	total = n * ABI_WORD;
	for (size_t i = 0; i < n; i++) {
		size_t t;

		if ((unsigned)args[i].type >= ABI_TYPE__MAX)
			return 0;
		if (!is_dynamic(args[i].type))
			continue;
		t = tail_len(args[i].len);
		if (t == 0 || t > SIZE_MAX - total)
			return 0;
		total += t;
	}
	return total;
}

static int
encode(const struct abi_arg *args, size_t n, struct sink *s)
{
	static const uint8_t zeros[ABI_WORD];
	uint8_t w[ABI_WORD];
	size_t off;

	if (n > 0 && abi_encoded_len(args, n) == 0)
		return -1;
	off = n * ABI_WORD;
	for (size_t i = 0; i < n; i++) {
		if (is_dynamic(args[i].type)) {
			word_from_u64(w, (uint64_t)off);
			if (sink_put(s, w, ABI_WORD) < 0)
				return -1;
			off += tail_len(args[i].len);
		} else if (sink_put(s, args[i].word, ABI_WORD) < 0) {
			return -1;
		}
	}
	for (size_t i = 0; i < n; i++) {
		size_t pad;

		if (!is_dynamic(args[i].type))
			continue;
		word_from_u64(w, (uint64_t)args[i].len);
		pad = (ABI_WORD - args[i].len % ABI_WORD) % ABI_WORD;
		if (sink_put(s, w, ABI_WORD) < 0 || sink_put(s, args[i].data, args[i].len) < 0 ||
		    sink_put(s, zeros, pad) < 0)
			return -1;
	}
	return 0;
}

int
abi_encode(const struct abi_arg *args, size_t n, uint8_t *out, size_t cap, size_t *outlen)
{
	struct sink s = { .out = out, .cap = cap };

	if (encode(args, n, &s) < 0)
		return -1;
	*outlen = s.len;
	return 0;
}

int
abi_encode_hash(const struct abi_arg *args, size_t n, uint8_t out[32])
{
	struct keccak_ctx k;
	struct sink s = { .k = &k };

	uint8_t h[32];
	int rc;

	keccak_init(&k);
	rc = encode(args, n, &s);
	keccak_final(&k, h); /* also wipes the context */
	if (rc == 0)
		memcpy(out, h, 32);
	return rc;
}

void
abi_selector(const char *signature, uint8_t out[ABI_SELECTOR_LEN])
{
	uint8_t h[32];

	keccak256(signature, strlen(signature), h);
	memcpy(out, h, ABI_SELECTOR_LEN);
}

int
abi_calldata(const char *signature, const struct abi_arg *args, size_t n, uint8_t *out, size_t cap,
    size_t *outlen)
{
	size_t body;

	if (cap < ABI_SELECTOR_LEN)
		return -1;
	abi_selector(signature, out);
	if (abi_encode(args, n, out + ABI_SELECTOR_LEN, cap - ABI_SELECTOR_LEN, &body) < 0)
		return -1;
	*outlen = ABI_SELECTOR_LEN + body;
	return 0;
}

/* The word at off, or NULL when data[off..off+32) is not inside data[0..len). */
static const uint8_t *
word_at(const uint8_t *data, size_t len, size_t off)
{
	if (data == NULL || off > len || len - off < ABI_WORD)
		return NULL;
	return data + off;
}

int
abi_read_uint256(const uint8_t *data, size_t len, size_t off, struct u256 *out)
{
	const uint8_t *w = word_at(data, len, off);

	if (w == NULL)
		return -1;
	u256_from_be(out, w);
	return 0;
}

int
abi_read_uint64(const uint8_t *data, size_t len, size_t off, uint64_t *out)
{
	struct u256 v;

	if (abi_read_uint256(data, len, off, &v) < 0)
		return -1;
	return u256_to_u64(&v, out);
}

int
abi_read_address(const uint8_t *data, size_t len, size_t off, struct addr *out)
{
	const uint8_t *w = word_at(data, len, off);

	if (w == NULL)
		return -1;
	for (int i = 0; i < 12; i++)
		if (w[i] != 0)
			return -1;
	memcpy(out->b, w + 12, ADDR_LEN);
	return 0;
}

int
abi_read_bool(const uint8_t *data, size_t len, size_t off, bool *out)
{
	const uint8_t *w = word_at(data, len, off);

	if (w == NULL)
		return -1;
	for (int i = 0; i < 31; i++)
		if (w[i] != 0)
			return -1;
	if (w[31] > 1)
		return -1;
	*out = w[31] == 1;
	return 0;
}

int
abi_read_bytes32(const uint8_t *data, size_t len, size_t off, uint8_t out[32])
{
	const uint8_t *w = word_at(data, len, off);

	if (w == NULL)
		return -1;
	memcpy(out, w, 32);
	return 0;
}

int
abi_read_dynamic(const uint8_t *data, size_t len, size_t head, const uint8_t **p, size_t *plen)
{
	uint64_t off, n;

	if (abi_read_uint64(data, len, head, &off) < 0 || off > len)
		return -1;
	if (abi_read_uint64(data, len, (size_t)off, &n) < 0)
		return -1;
	/* off + 32 <= len holds here, so the subtraction cannot wrap. */
	if (n > len - (size_t)off - ABI_WORD)
		return -1;
	*p = data + off + ABI_WORD;
	*plen = (size_t)n;
	return 0;
}
