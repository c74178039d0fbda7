/*
 * UTF-8 decoding: tables of well-formed and ill-formed sequences, every
 * truncation and broken continuation of the valid ones, whole strings,
 * and exhaustive checks against a reference encoder (every scalar value
 * round-trips; no 1- to 3-byte input, and no 4-byte input from a wide
 * sample, decodes unless it is the encoding of what it decodes to).
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "http.h"
#include "tap.h"
#include "utf8.h"
#include "banned.h"

/* A string literal and its length without the NUL (it may hold "\0"). */
#define B(s) s, sizeof(s) - 1

static const struct {
	const char *name;
	const char *in;
	size_t len;
	int want;        /* sequence length */
	uint32_t cp;
} valid[] = {
	{ "U+0000", B("\0"), 1, 0x0000 },
	{ "U+0041", B("A"), 1, 0x0041 },
	{ "U+007F (last 1-byte)", B("\x7f"), 1, 0x007f },
	{ "U+0080 (first 2-byte)", B("\xc2\x80"), 2, 0x0080 },
	{ "U+00E9", B("\xc3\xa9"), 2, 0x00e9 },
	{ "U+07FF (last 2-byte)", B("\xdf\xbf"), 2, 0x07ff },
	{ "U+0800 (first 3-byte)", B("\xe0\xa0\x80"), 3, 0x0800 },
	{ "U+0FFF (E0 upper bound)", B("\xe0\xbf\xbf"), 3, 0x0fff },
	{ "U+1000", B("\xe1\x80\x80"), 3, 0x1000 },
	{ "U+20AC", B("\xe2\x82\xac"), 3, 0x20ac },
	{ "U+D7FF (before the surrogates)", B("\xed\x9f\xbf"), 3, 0xd7ff },
	{ "U+E000 (after the surrogates)", B("\xee\x80\x80"), 3, 0xe000 },
	{ "U+FEFF", B("\xef\xbb\xbf"), 3, 0xfeff },
	{ "U+FFFD", B("\xef\xbf\xbd"), 3, 0xfffd },
	{ "U+FFFF (last 3-byte)", B("\xef\xbf\xbf"), 3, 0xffff },
	{ "U+10000 (first 4-byte)", B("\xf0\x90\x80\x80"), 4, 0x10000 },
	{ "U+1F600", B("\xf0\x9f\x98\x80"), 4, 0x1f600 },
	{ "U+3FFFF (F0 upper bound)", B("\xf0\xbf\xbf\xbf"), 4, 0x3ffff },
	{ "U+40000", B("\xf1\x80\x80\x80"), 4, 0x40000 },
	{ "U+FFFFF", B("\xf3\xbf\xbf\xbf"), 4, 0xfffff },
	{ "U+100000", B("\xf4\x80\x80\x80"), 4, 0x100000 },
	{ "U+10FFFF (last scalar)", B("\xf4\x8f\xbf\xbf"), 4, 0x10ffff },
	{ "only the first character is read", B("\xc3\xa9" "abc"), 2, 0x00e9 },
	{ "ASCII before a bad byte", B("a\xff"), 1, 'a' },
};

static const struct {
	const char *name;
	const char *in;
	size_t len;
} invalid[] = {
	{ "empty", B("") },
	{ "overlong U+0000 (C0 80)", B("\xc0\x80") },
	{ "overlong U+007F (C1 BF)", B("\xc1\xbf") },
	{ "overlong U+0000 (E0 80 80)", B("\xe0\x80\x80") },
	{ "overlong U+07FF (E0 9F BF)", B("\xe0\x9f\xbf") },
	{ "overlong U+0000 (F0 80 80 80)", B("\xf0\x80\x80\x80") },
	{ "overlong U+FFFF (F0 8F BF BF)", B("\xf0\x8f\xbf\xbf") },
	{ "surrogate U+D800 (ED A0 80)", B("\xed\xa0\x80") },
	{ "surrogate U+DBFF (ED AF BF)", B("\xed\xaf\xbf") },
	{ "surrogate U+DC00 (ED B0 80)", B("\xed\xb0\x80") },
	{ "surrogate U+DFFF (ED BF BF)", B("\xed\xbf\xbf") },
	{ "CESU-8 surrogate pair", B("\xed\xa0\xbd\xed\xb8\x80") },
	{ "U+110000 (F4 90 80 80)", B("\xf4\x90\x80\x80") },
	{ "F4 BF BF BF", B("\xf4\xbf\xbf\xbf") },
	{ "F5 lead", B("\xf5\x80\x80\x80") },
	{ "F7 lead", B("\xf7\xbf\xbf\xbf") },
	{ "5-byte form (F8)", B("\xf8\x88\x80\x80\x80") },
	{ "6-byte form (FC)", B("\xfc\x84\x80\x80\x80\x80") },
	{ "FE", B("\xfe") },
	{ "FF", B("\xff") },
	{ "lone continuation 80", B("\x80") },
	{ "lone continuation BF", B("\xbf") },
	{ "continuation after a complete character", B("\x80" "a") },
	{ "2-byte, second byte ASCII", B("\xc3" "A") },
	{ "2-byte, second byte a lead", B("\xc3\xc3\xa9") },
	{ "3-byte, second byte ASCII", B("\xe2\x28\xa1") },
	{ "3-byte, third byte ASCII", B("\xe2\x82\x28") },
	{ "4-byte, second byte ASCII", B("\xf0\x28\x8c\xbc") },
	{ "4-byte, third byte ASCII", B("\xf0\x90\x28\xbc") },
	{ "4-byte, fourth byte ASCII", B("\xf0\x9f\x98\x41") },
	{ "4-byte, fourth byte a lead", B("\xf0\x9f\x98\xf0") },
	{ "truncated 2-byte", B("\xc3") },
	{ "truncated 3-byte at 1", B("\xe2") },
	{ "truncated 3-byte at 2", B("\xe2\x82") },
	{ "truncated 4-byte at 1", B("\xf0") },
	{ "truncated 4-byte at 2", B("\xf0\x9f") },
	{ "truncated 4-byte at 3", B("\xf0\x9f\x98") },
};

static const struct {
	const char *name;
	const char *in;
	size_t len;
	long want;       /* characters, or -1 */
} strings[] = {
	{ "empty", B(""), 0 },
	{ "ASCII", B("abc"), 3 },
	{ "embedded NUL counts", B("a\0b"), 3 },
	{ "2-byte inside ASCII", B("h\xc3\xa9llo"), 5 },
	{ "4-byte counts as one", B("a\xf0\x9f\x98\x80"), 2 },
	{ "one of each width", B("A\xc3\xa9\xe2\x82\xac\xf0\x9f\x98\x80"), 4 },
	{ "boundaries in a row", B("\x7f\xc2\x80\xdf\xbf\xe0\xa0\x80\xef\xbf\xbf\xf0\x90\x80\x80\xf4\x8f\xbf\xbf"), 7 },
	{ "bad first byte", B("\x80" "abc"), -1 },
	{ "bad last byte", B("abc\x80"), -1 },
	{ "surrogate in the middle", B("ab\xed\xa0\x80" "cd"), -1 },
	{ "overlong in the middle", B("ab\xc0\xaf" "cd"), -1 },
	{ "truncated at the end", B("abc\xe2\x82"), -1 },
	{ "truncated 4-byte at the end", B("\xc3\xa9\xf0\x9f\x98"), -1 },
	{ "above U+10FFFF after valid text", B("\xe2\x82\xac\xf4\x90\x80\x80"), -1 },
};

/* Reference encoder: the shortest form of cp (any value up to 0x10FFFF). */
static size_t
encode(uint32_t cp, unsigned char out[4])
{
	if (cp < 0x80) {
		out[0] = (unsigned char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (unsigned char)(0xc0 | cp >> 6);
		out[1] = (unsigned char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (unsigned char)(0xe0 | cp >> 12);
		out[1] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
		out[2] = (unsigned char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (unsigned char)(0xf0 | cp >> 18);
	out[1] = (unsigned char)(0x80 | (cp >> 12 & 0x3f));
	out[2] = (unsigned char)(0x80 | (cp >> 6 & 0x3f));
	out[3] = (unsigned char)(0x80 | (cp & 0x3f));
	return 4;
}

static bool
is_surrogate(uint32_t cp)
{
	return cp >= 0xd800 && cp <= 0xdfff;
}

/*
 * When decoding b[0..len) succeeds, what it read must be the encoding of
 * a scalar value and that value must be what it returned.
 */
static bool
decode_sound(const unsigned char *b, size_t len)
{
	unsigned char e[4];
	uint32_t cp = 0xffffffff;
	int k = utf8_decode(b, len, &cp);

	if (k < 0)
		return cp == 0xffffffff;
	return (size_t)k <= len && cp <= 0x10ffff && !is_surrogate(cp) && encode(cp, e) == (size_t)k &&
	    memcmp(e, b, (size_t)k) == 0;
}

__attribute__((format(printf, 3, 4)))
static size_t
fmt_into(char *out, size_t cap, const char *fmt, ...)
{
	va_list ap;
	size_t n;

	va_start(ap, fmt);
	n = utf8_vformat(out, cap, fmt, ap);
	va_end(ap);
	return n;
}

int
main(void)
{
	static const unsigned char cont_breakers[] = { 0x00, 0x41, 0x7f, 0xc0, 0xc3, 0xe2, 0xf0, 0xff };
	static const unsigned char tails[] = { 0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf,
		0xc0, 0xc2, 0xe0, 0xf4, 0xff };
	unsigned char buf[8];
	bool good;
	size_t nt = sizeof(tails);

	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		uint32_t cp = 0xffffffff;
		int k = utf8_decode((const unsigned char *)valid[i].in, valid[i].len, &cp);

		ok(k == valid[i].want && cp == valid[i].cp, "decode %s: %d bytes, U+%04X", valid[i].name,
		    k, (unsigned)cp);
	}
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		uint32_t cp = 0xffffffff;
		int k = utf8_decode((const unsigned char *)invalid[i].in, invalid[i].len, &cp);

		ok(k == -1 && cp == 0xffffffff, "reject %s", invalid[i].name);
	}

	/* Every valid multi-byte case cut short, and broken at each continuation. */
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		const unsigned char *in = (const unsigned char *)valid[i].in;
		size_t n = (size_t)valid[i].want;
		uint32_t cp;

		if (n < 2)
			continue;
		good = true;
		for (size_t cut = 0; cut < n; cut++)
			good &= utf8_decode(in, cut, &cp) == -1;
		ok(good, "%s truncated at each position", valid[i].name);
		good = true;
		for (size_t at = 1; at < n; at++) {
			for (size_t b = 0; b < sizeof(cont_breakers); b++) {
				memcpy(buf, in, n);
				buf[at] = cont_breakers[b];
				good &= utf8_decode(buf, n, &cp) == -1;
			}
		}
		ok(good, "%s with a non-continuation byte at each position", valid[i].name);
		good = true;
		memcpy(buf + 1, in, n);
		for (unsigned c = 0x80; c <= 0xbf; c++) {
			buf[0] = (unsigned char)c;
			good &= utf8_decode(buf, n + 1, &cp) == -1;
		}
		ok(good, "%s after a stray continuation byte", valid[i].name);
	}

	for (size_t i = 0; i < sizeof(strings) / sizeof(strings[0]); i++) {
		long n = utf8_length(strings[i].in, strings[i].len);

		ok(n == strings[i].want, "length of %s: %ld", strings[i].name, n);
		ok(utf8_valid(strings[i].in, strings[i].len) == (strings[i].want >= 0), "valid: %s",
		    strings[i].name);
	}
	ok(utf8_length(NULL, 0) == 0 && utf8_valid(NULL, 0), "NULL with length 0 is the empty string");
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++)
		if (invalid[i].len > 0)
			ok(utf8_length(invalid[i].in, invalid[i].len) == -1 &&
			    !utf8_valid(invalid[i].in, invalid[i].len), "string of %s is invalid",
			    invalid[i].name);

	/* Every scalar value round-trips; every surrogate is rejected. */
	good = true;
	for (uint32_t cp = 0; cp <= 0x10ffff; cp++) {
		size_t n = encode(cp, buf);
		uint32_t got = 0xffffffff;
		int k = utf8_decode(buf, n, &got);

		if (is_surrogate(cp))
			good &= k == -1;
		else
			good &= k == (int)n && got == cp && utf8_length((const char *)buf, n) == 1;
		if (!good) {
			printf("# first failure at U+%04X\n", (unsigned)cp);
			break;
		}
	}
	ok(good, "U+0000..U+10FFFF: scalars round-trip, surrogates rejected");

	/* Every input of 1 to 3 bytes, and every 4-byte input with a sampled tail. */
	good = true;
	for (uint32_t v = 0; v < 1u << 24 && good; v++) {
		buf[0] = (unsigned char)(v >> 16);
		buf[1] = (unsigned char)(v >> 8);
		buf[2] = (unsigned char)v;
		good = decode_sound(buf, 3) && decode_sound(buf, 2) && decode_sound(buf, 1);
		if (!good)
			printf("# first failure at %02X %02X %02X\n", buf[0], buf[1], buf[2]);
	}
	ok(good, "every 1- to 3-byte input decodes only to its own encoding");
	good = true;
	for (uint32_t v = 0; v < (1u << 16) * nt * nt && good; v++) {
		buf[0] = (unsigned char)(v >> 8 & 0xff);
		buf[1] = (unsigned char)(v & 0xff);
		buf[2] = tails[(v >> 16) % nt];
		buf[3] = tails[(v >> 16) / nt];
		good = decode_sound(buf, 4);
		if (!good)
			printf("# first failure at %02X %02X %02X %02X\n", buf[0], buf[1], buf[2], buf[3]);
	}
	ok(good, "4-byte inputs (all first two bytes, sampled tails) decode only to their own encoding");

	/* utf8_repair: text cut to fit mid-character stays UTF-8 (found by t/fuzz/receipt). */
	{
		static const struct { const char *in, *out; } rep[] = {
			{ "plain", "plain" },
			{ "caf\xc3\xa9", "caf\xc3\xa9" },
			{ "caf\xc3", "caf" },                 /* 2-byte cut after its lead */
			{ "x\xe2\x80", "x" },                 /* 3-byte cut after two */
			{ "x\xf0\x9f\x98", "x" },            /* 4-byte cut after three */
			{ "a\xff" "b", "a?b" },                   /* never UTF-8 */
			{ "a\xc3(b", "a?(b" },                 /* lead without continuation, mid-text */
			{ "\xed\xa0\x80z", "???z" },           /* a surrogate */
			{ "\xc0\xaf", "??" },                  /* overlong */
			{ "", "" },
		};
		char t[32];

		for (size_t i = 0; i < sizeof(rep) / sizeof(rep[0]); i++) {
			size_t n;

			snprintf(t, sizeof(t), "%s", rep[i].in);
			n = utf8_repair(t);
			ok(strcmp(t, rep[i].out) == 0 && n == strlen(rep[i].out) && utf8_valid(t, n),
			    "utf8_repair case %zu gives %zu well-formed bytes", i, n);
		}
	}
	/* utf8_copy and utf8_vformat: cut to fit, then repaired; a zero capacity writes nothing. */
	{
		char t[6];

		ok(utf8_copy(t, sizeof(t), "caf\xc3\xa9s") == 5 && strcmp(t, "caf\xc3\xa9") == 0,
		    "utf8_copy keeps a whole character that fits");
		ok(utf8_copy(t, 5, "caf\xc3\xa9") == 3 && strcmp(t, "caf") == 0,
		    "utf8_copy drops a character cut by the capacity");
		ok(fmt_into(t, sizeof(t), "%s!", "x\xe2\x82\xac\xe2\x82\xac") == 4 && strcmp(t, "x\xe2\x82\xac") == 0,
		    "utf8_vformat drops a character its output cut");
		t[0] = 'z';
		ok(utf8_copy(t, 0, "abc") == 0 && t[0] == 'z', "utf8_copy with no room writes nothing");
	}
	/* resp_fail keeps error bodies UTF-8 when a field path or a message
	 * quoting input was cut inside a character (t/fuzz/baseline). */
	{
		struct resp w;
		const char *f = "baseline.coverage.a\xc3\xa9\xc3...";

		resp_init(&w);
		resp_fail(&w, ERR_INVALID_FIELD, f, "%.22s is not a member.", f);
		ok(w.status == 400 && utf8_valid(w.body.p, w.body.len) &&
		    strstr(w.body.p, "\"field\":\"baseline.coverage.a\xc3\xa9?...\"") != NULL,
		    "resp_fail: a field cut inside a character is repaired (%.*s)", (int)w.body.len, w.body.p);
		resp_release(&w);
	}
	return done_testing();
}
