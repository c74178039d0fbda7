/*
 * ABI encoding and decoding. Expected encodings were worked out from the
 * Solidity ABI spec (head words, offsets, length word, right padding) and
 * cross-checked with viem's encodeAbiParameters / encodeFunctionData.
 */
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "abi.h"
#include "hex.h"
#include "tap.h"
#include "banned.h"

static char hexbuf[2 * 1024 + 3];

static const char *
hx(const uint8_t *p, size_t n)
{
	if (n > 1024)
		return "(too long)";
	return hex_encode(p, n, hexbuf);
}

static struct addr
addr_of(const char *s)
{
	struct addr a;

	memset(&a, 0, sizeof(a));
	if (hex_decode_fixed(s, strlen(s), a.b, ADDR_LEN, true) < 0)
		memset(&a, 0xee, sizeof(a));
	return a;
}

/* abi.encode(uint256 1, address 0xCD2a...D826, string "hello") */
static const char *E1 =
    "0x"
    "0000000000000000000000000000000000000000000000000000000000000001"
    "000000000000000000000000cd2a3d9f938e13cd947ec05abc7fe734df8dd826"
    "0000000000000000000000000000000000000000000000000000000000000060"
    "0000000000000000000000000000000000000000000000000000000000000005"
    "68656c6c6f000000000000000000000000000000000000000000000000000000";

/* abi.encode(bytes "", bool true, string "x" * 33, bytes32 0xabab...) */
static const char *E2 =
    "0x"
    "0000000000000000000000000000000000000000000000000000000000000080"
    "0000000000000000000000000000000000000000000000000000000000000001"
    "00000000000000000000000000000000000000000000000000000000000000a0"
    "abababababababababababababababababababababababababababababababab"
    "0000000000000000000000000000000000000000000000000000000000000000"
    "0000000000000000000000000000000000000000000000000000000000000021"
    "7878787878787878787878787878787878787878787878787878787878787878"
    "7800000000000000000000000000000000000000000000000000000000000000";

int
main(void)
{
	uint8_t out[1024], h[32], b32[32];
	size_t n = 0;
	struct u256 one, v;
	struct addr cow = addr_of("0xCD2a3d9F938E13CD947Ec05AbC7FE734Df8DD826");
	struct addr a;
	bool flag;
	uint64_t u;
	const uint8_t *p;
	size_t plen;

	u256_from_u64(&one, 1);
	struct abi_arg a1[] = { abi_uint256(&one), abi_address(&cow), abi_string("hello", 5) };

	ok(abi_encoded_len(a1, 3) == 160, "encoded length of (uint256,address,string) is 160");
	ok(abi_encode(a1, 3, out, sizeof(out), &n) == 0 && n == 160, "encode (uint256,address,string)");
	is_str(hx(out, n), E1, "abi.encode(1, cow, \"hello\")");
	ok(abi_encode(a1, 3, out, 159, &n) < 0, "one byte short of capacity fails");
	ok(abi_encode(a1, 3, out, 160, &n) == 0 && n == 160, "exact capacity fits");
	ok(abi_encode_hash(a1, 3, h) == 0, "streamed hash");
	is_str(hx(h, 32), "0x274b5bfee6e6c5c273775a6b731794056adb93b3fdeac7a82f1d938a09fcb399",
	    "keccak256(abi.encode(...)) streamed equals viem's");

	memset(b32, 0xab, 32);
	char x33[33];
	memset(x33, 'x', sizeof(x33));
	struct abi_arg a2[] = { abi_bytes(NULL, 0), abi_bool(true), abi_string(x33, 33), abi_bytes32(b32) };

	ok(abi_encode(a2, 4, out, sizeof(out), &n) == 0 && n == 256, "encode (bytes,bool,string,bytes32)");
	is_str(hx(out, n), E2, "empty bytes, bool, 33-byte string, bytes32");
	ok(abi_encode(NULL, 0, out, 0, &n) == 0 && n == 0, "empty tuple encodes to nothing");
	struct abi_arg bad = { .type = ABI_TYPE__MAX };
	ok(abi_encode(&bad, 1, out, sizeof(out), &n) < 0, "invalid argument type rejected");

	struct abi_arg a3[] = { abi_uint64(UINT64_MAX) };
	ok(abi_encode(a3, 1, out, sizeof(out), &n) == 0 &&
	    strcmp(hx(out, n), "0x000000000000000000000000000000000000000000000000ffffffffffffffff") == 0,
	    "uint64 constructor");

	/* selectors and calldata */
	uint8_t sel[4];
	abi_selector("transfer(address,uint256)", sel);
	is_str(hx(sel, 4), "0xa9059cbb", "selector transfer(address,uint256)");
	abi_selector("balanceOf(address)", sel);
	is_str(hx(sel, 4), "0x70a08231", "selector balanceOf(address)");
	struct addr to = addr_of("0x209693Bc6afc0C5328bA36FaF03C514EF312287C");
	struct abi_arg a4[] = { abi_address(&to), abi_uint64(10000) };
	ok(abi_calldata("transfer(address,uint256)", a4, 2, out, sizeof(out), &n) == 0 && n == 68,
	    "calldata transfer(to, 10000)");
	is_str(hx(out, n),
	    "0xa9059cbb000000000000000000000000209693bc6afc0c5328ba36faf03c514ef312287c"
	    "0000000000000000000000000000000000000000000000000000000000002710",
	    "calldata equals viem's encodeFunctionData");
	ok(abi_calldata("transfer(address,uint256)", a4, 2, out, 67, &n) < 0, "calldata over capacity fails");
	ok(abi_calldata("transfer(address,uint256)", a4, 2, out, 3, &n) < 0, "no room for the selector");

	/* decoding the first encoding back */
	uint8_t e1[160];
	ok(hex_decode(E1, strlen(E1), e1, sizeof(e1), &n) == 0 && n == 160, "decode fixture");
	ok(abi_read_uint256(e1, 160, 0, &v) == 0 && u256_cmp(&v, &one) == 0, "read uint256 word");
	ok(abi_read_uint64(e1, 160, 0, &u) == 0 && u == 1, "read uint64 word");
	ok(abi_read_address(e1, 160, 32, &a) == 0 && memcmp(a.b, cow.b, 20) == 0, "read address word");
	ok(abi_read_address(e1, 160, 0, &a) == 0, "word 1 reads as address 0x..01");
	ok(abi_read_dynamic(e1, 160, 64, &p, &plen) == 0 && plen == 5 && memcmp(p, "hello", 5) == 0,
	    "read dynamic string");
	ok(abi_read_bool(e1, 160, 0, &flag) == 0 && flag, "word 1 reads as true");
	ok(abi_read_bool(e1, 160, 96, &flag) < 0, "word 5 is not a bool");
	ok(abi_read_bytes32(e1, 160, 128, b32) == 0 && memcmp(b32, "hello", 5) == 0, "read bytes32 word");

	/* bounds and malformed words */
	ok(abi_read_uint256(e1, 160, 129, &v) < 0, "word past the end");
	ok(abi_read_uint256(e1, 160, SIZE_MAX - 8, &v) < 0, "huge offset does not wrap");
	ok(abi_read_uint256(e1, 31, 0, &v) < 0, "data shorter than a word");
	ok(abi_read_address(e1, 160, 96, &a) == 0, "length word 5 is a valid (tiny) address");
	uint8_t w[64];
	memset(w, 0, sizeof(w));
	w[11] = 1;
	ok(abi_read_address(w, 64, 0, &a) < 0, "address with a nonzero upper byte rejected");
	memset(w, 0, sizeof(w));
	w[0] = 0x80;
	ok(abi_read_bool(w, 64, 0, &flag) < 0, "bool with a high bit rejected");
	w[0] = 0;
	w[31] = 2;
	ok(abi_read_bool(w, 64, 0, &flag) < 0, "bool 2 rejected");
	w[31] = 0;
	ok(abi_read_bool(w, 64, 0, &flag) == 0 && !flag, "bool 0 is false");
	w[23] = 1; /* 2^64 */
	ok(abi_read_uint64(w, 64, 0, &u) < 0, "uint64 read of 2^64 rejected");

	/* dynamic value bounds */
	ok(abi_read_dynamic(e1, 133, 64, &p, &plen) == 0 && plen == 5, "padding is not required");
	ok(abi_read_dynamic(e1, 132, 64, &p, &plen) < 0, "contents cut short");
	uint8_t d[96];
	memset(d, 0, sizeof(d));
	d[31] = 0x60; /* offset 96 == len: no room for the length word */
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) < 0, "offset at the end");
	d[31] = 0x20;
	d[63] = 0x40; /* length 64 but only 32 bytes follow */
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) < 0, "length past the end");
	d[63] = 0x20;
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) == 0 && plen == 32 && p == d + 64, "exactly fitting contents");
	memset(d, 0xff, 32);
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) < 0, "offset 2^256-1 rejected");
	memset(d, 0, 32);
	d[31] = 0x20;
	memset(d + 32, 0xff, 32);
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) < 0, "length 2^256-1 rejected");
	memset(d + 32, 0, 24);
	ok(abi_read_dynamic(d, 96, 0, &p, &plen) < 0, "length 2^64-1 does not wrap");
	return done_testing();
}
