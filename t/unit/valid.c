/* Field validators: valid and invalid inputs for every type. */
#include <string.h>

#include "valid.h"
#include "tap.h"
#include "banned.h"

static struct pool pool;

static int
text_ok(const struct field *f, const char *s, struct value *v)
{
	char msg[256];

	return valid_text(f, s, strlen(s), &pool, v, msg, sizeof(msg)) == ERR_NONE && v->present;
}

static int
text_bad(const struct field *f, const char *s)
{
	struct value v;
	char msg[256];

	msg[0] = '\0';
	return valid_text(f, s, strlen(s), &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD &&
	    strstr(msg, f->name) != NULL;
}

int
main(void)
{
	static const char *const sorts[] = { "reviewed", "recent", NULL };
	const struct field f_str = { .name = "q", .type = VT_STRING, .min_len = 0, .max_len = 5 };
	const struct field f_uint = { .name = "limit", .type = VT_UINT, .min = 1, .max = 20 };
	const struct field f_addr = { .name = "reviewer", .type = VT_ADDRESS };
	const struct field f_b32 = { .name = "routeId", .type = VT_BYTES32 };
	const struct field f_handle = { .name = "handle", .type = VT_HANDLE };
	const struct field f_dec = { .name = "amount", .type = VT_DECIMAL };
	const struct field f_url = { .name = "url", .type = VT_URL };
	const struct field f_choice = { .name = "sort", .type = VT_CHOICE, .choices = sorts };
	const struct field f_bool = { .name = "flag", .type = VT_BOOL };
	const struct field f_arr = { .name = "items", .type = VT_ARRAY, .min_len = 1, .max_len = 2 };
	const struct field f_acct = { .name = "accountId", .type = VT_ACCOUNT };
	const struct field f_uuid = { .name = "profileId", .type = VT_UUID };
	const struct field f_eip55 = { .name = "address", .type = VT_ADDRESS_EIP55 };
	struct value v;
	char msg[256];
	json_object *j;

	pool_init(&pool, 1 << 20);
	ok(text_ok(&f_str, "héllo", &v) && v.len == 6, "5 characters (6 bytes) fit max_len 5");
	ok(text_bad(&f_str, "héllo!"), "6 characters exceed max_len 5");
	ok(text_bad(&f_str, "\xc3"), "truncated UTF-8 rejected");
	ok(text_bad(&f_str, "\xed\xa0\x80"), "UTF-8 surrogate rejected");
	ok(text_bad(&f_str, "\xc0\x80"), "overlong NUL rejected");
	{
		struct value w;

		ok(valid_text(&f_str, "a\0b", 3, &pool, &w, msg, sizeof(msg)) == ERR_INVALID_FIELD,
		    "embedded NUL rejected");
	}
	ok(text_ok(&f_str, "a\xf0\x9f\x98\x80" "xyz", &v) && v.len == 8,
	    "4-byte sequence counts as one character");

	ok(text_ok(&f_uint, "20", &v) && v.u == 20, "uint at max");
	ok(text_ok(&f_uint, "1", &v) && v.u == 1, "uint at min");
	ok(text_bad(&f_uint, "0"), "uint below min");
	ok(text_bad(&f_uint, "21"), "uint above max");
	ok(text_bad(&f_uint, "01"), "leading zero");
	ok(text_bad(&f_uint, "-1"), "sign");
	ok(text_bad(&f_uint, "1.0"), "fraction");
	ok(text_bad(&f_uint, " 5"), "space");
	ok(text_bad(&f_uint, ""), "empty");
	ok(text_bad(&f_uint, "99999999999999999999999"), "overflow");

	ok(text_ok(&f_addr, "0xf39Fd6e51aad88F6F4ce6aB8827279cffFb92266", &v), "EIP-55 address");
	ok(text_ok(&f_addr, "0xf39fd6e51aad88f6f4ce6ab8827279cfffb92266", &v), "lowercase address");
	ok(text_bad(&f_addr, "0xF39fd6e51aad88f6f4ce6ab8827279cfffb92266"), "bad checksum");
	ok(text_bad(&f_addr, "0xf39fd6e51aad88f6f4ce6ab8827279cfffb9226"), "39 digits");

	ok(text_ok(&f_b32, "0xe93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73", &v) &&
	    v.b32[0] == 0xe9 && v.b32[31] == 0x73, "bytes32 decoded");
	ok(text_bad(&f_b32, "e93032e57fafbea0f07da4a8cf9aff93d7c63835c1caba6f6d5958572ec34f73"),
	    "bytes32 without 0x");
	ok(text_bad(&f_b32, "0xe93032"), "short bytes32");
	ok(text_ok(&f_acct, "eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79C8", &v) &&
	    v.addr.b[0] == 0x70 && v.addr.b[19] == 0xc8, "CAIP-10 Base account, checksummed");
	ok(text_ok(&f_acct, "eip155:8453:0x70997970c51812dc3a010c7d01b50e0d17dc79c8", &v), "CAIP-10, lowercase");
	ok(text_bad(&f_acct, "eip155:8453:0x70997970C51812dc3A010C7d01b50e0d17dc79c8"), "CAIP-10, bad checksum");
	ok(text_bad(&f_acct, "eip155:1:0x70997970c51812dc3a010c7d01b50e0d17dc79c8"), "CAIP-10 on another chain");
	ok(text_bad(&f_acct, "eip155:84530:0x70997970c51812dc3a010c7d01b50e0d17dc79c8"), "CAIP-10, chain 84530");
	ok(text_bad(&f_acct, "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"), "a bare address is no account");
	ok(text_bad(&f_acct, "eip155:8453:"), "CAIP-10 without an address");
	ok(text_ok(&f_eip55, "0x70997970C51812dc3A010C7d01b50e0d17dc79C8", &v) && v.addr.b[0] == 0x70,
	    "EIP-55 address: checksummed, parsed");
	ok(text_bad(&f_eip55, "0x70997970c51812dc3a010c7d01b50e0d17dc79c8"), "EIP-55 address: lowercase refused");
	ok(text_bad(&f_eip55, "0x70997970C51812DC3A010C7D01B50E0D17DC79C8"), "EIP-55 address: uppercase refused");
	ok(text_bad(&f_eip55, "0x70997970C51812dc3A010C7d01b50e0d17dc79c8"), "EIP-55 address: bad checksum");
	ok(text_bad(&f_eip55, "0x70997970C51812dc3A010C7d01b50e0d17dc79C"), "EIP-55 address: too short");
	ok(text_ok(&f_eip55, "0x1111111111111111111111111111111111111111", &v),
	    "EIP-55 address: no letters, its own checksum form");
	ok(text_bad(&f_acct, "eip155:8453:0x70997970c51812dc3a010c7d01b50e0d17dc79c8 "), "CAIP-10, trailing space");
	ok(text_ok(&f_uuid, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0", &v) && v.uuid[0] == 0x0f && v.uuid[15] == 0xf0 &&
	    v.uuid[6] == 0x49, "UUID");
	ok(text_ok(&f_uuid, "0F1E2D3C-4B5A-4978-8796-A5B4C3D2E1F0", &v) && v.uuid[0] == 0x0f &&
	    v.uuid[15] == 0xf0 && strcmp(v.text, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0") == 0 && v.len == 36,
	    "UUID in uppercase: accepted, normalized to lowercase");
	ok(text_ok(&f_uuid, "0f1E2d3C-4b5A-4978-8796-A5b4c3D2e1F0", &v) &&
	    strcmp(v.text, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0") == 0, "UUID in mixed case: normalized");
	ok(text_ok(&f_uuid, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0", &v) &&
	    strcmp(v.text, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f0") == 0, "UUID in lowercase: its text as is");
	ok(text_bad(&f_uuid, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1fG"), "UUID with a non-hex last digit");
	ok(text_bad(&f_uuid, "0F1E2D3C_4B5A-4978-8796-A5B4C3D2E1F0"), "UUID in uppercase with a hyphen replaced");
	ok(text_bad(&f_uuid, "0f1e2d3c4b5a49788796a5b4c3d2e1f0"), "UUID without hyphens");
	ok(text_bad(&f_uuid, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f"), "UUID one digit short");
	ok(text_bad(&f_uuid, "0f1e2d3c-4b5a-4978-8796-a5b4c3d2e1f00"), "UUID one digit long");
	ok(text_bad(&f_uuid, "0f1e2d3c-4b5a4-978-8796-a5b4c3d2e1f0"), "UUID with a hyphen misplaced");
	ok(text_bad(&f_uuid, "0f1e2d3g-4b5a-4978-8796-a5b4c3d2e1f0"), "UUID with a non-hex digit");

	ok(text_ok(&f_handle, "GitHub:Alice", &v) && strcmp(v.text, "github:alice") == 0 &&
	    v.hash[0] == 0xa2 && v.hash[1] == 0x91, "handle canonicalized and hashed");
	ok(text_bad(&f_handle, "twitter:bob"), "unknown handle scheme");

	ok(text_ok(&f_dec, "0.01", &v), "decimal amount");
	ok(text_bad(&f_dec, "1e5"), "exponent");
	ok(text_bad(&f_dec, "-1"), "sign");
	ok(text_bad(&f_dec, "0.0000000000000000001"), "19 fractional digits");

	ok(text_ok(&f_url, "https://api.example.com/v1/data", &v), "public https URL");
	ok(text_bad(&f_url, "http://api.example.com/v1/data"), "http rejected");
	ok(text_bad(&f_url, "https://user:pw@api.example.com/"), "credentials rejected");
	ok(text_bad(&f_url, "https://10.0.0.1/"), "IP literal rejected");
	ok(text_bad(&f_url, "https://localhost/"), "local host rejected");
	ok(text_bad(&f_url, "https://API.example.com/"), "not in its exact normalized form");

	ok(text_ok(&f_choice, "recent", &v) && v.choice == 1, "choice index");
	ok(text_bad(&f_choice, "Recent"), "choices are case-sensitive");
	valid_text(&f_choice, "x", 1, &pool, &v, msg, sizeof(msg));
	ok(strstr(msg, "reviewed, recent") != NULL, "the message lists the choices");

	ok(text_ok(&f_bool, "true", &v) && v.b, "bool true");
	ok(text_bad(&f_bool, "1"), "bool 1 rejected");

	j = json_object_new_int64(7);
	ok(valid_json(&f_uint, j, &pool, &v, msg, sizeof(msg)) == ERR_NONE && v.u == 7, "JSON integer");
	json_object_put(j);
	j = json_object_new_string("7");
	ok(valid_json(&f_uint, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD,
	    "a string is not a JSON integer");
	json_object_put(j);
	j = json_object_new_int64(-3);
	ok(valid_json(&f_uint, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD, "negative");
	json_object_put(j);
	j = json_object_new_double(2.0);
	ok(valid_json(&f_uint, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD, "double");
	json_object_put(j);
	j = json_object_new_int64(5);
	ok(valid_json(&f_str, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD,
	    "a number is not a JSON string");
	json_object_put(j);
	j = json_object_new_array();
	ok(valid_json(&f_arr, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD, "empty array");
	json_object_array_add(j, json_object_new_int(1));
	ok(valid_json(&f_arr, j, &pool, &v, msg, sizeof(msg)) == ERR_NONE && v.len == 1, "array");
	json_object_array_add(j, json_object_new_int(2));
	json_object_array_add(j, json_object_new_int(3));
	ok(valid_json(&f_arr, j, &pool, &v, msg, sizeof(msg)) == ERR_INVALID_FIELD, "array too long");
	json_object_put(j);
	j = json_object_new_boolean(1);
	ok(valid_json(&f_bool, j, &pool, &v, msg, sizeof(msg)) == ERR_NONE && v.b, "JSON bool");
	json_object_put(j);
	pool_release(&pool);
	return done_testing();
}
