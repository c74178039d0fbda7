/*
 * ethcall.c: batched eth_call reads (ethcall.h).
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "abi.h"
#include "ethcall.h"
#include "hex.h"
#include "banned.h"

static int
set(struct ethcall *c, const struct addr *to, const char *signature, const struct abi_arg *args,
    size_t n)
{
	memset(c, 0, sizeof(*c));
	c->to = *to;
	return abi_calldata(signature, args, n, c->data, sizeof(c->data), &c->len);
}

int
ethcall_set0(struct ethcall *c, const struct addr *to, const char *signature)
{
	return set(c, to, signature, NULL, 0);
}

int
ethcall_set_addr(struct ethcall *c, const struct addr *to, const char *signature,
    const struct addr *a)
{
	struct abi_arg arg = abi_address(a);

	return set(c, to, signature, &arg, 1);
}

int
ethcall_set_addr2(struct ethcall *c, const struct addr *to, const char *signature,
    const struct addr *a, const struct addr *b)
{
	struct abi_arg args[2] = { abi_address(a), abi_address(b) };

	return set(c, to, signature, args, 2);
}

int
ethcall_set_uint(struct ethcall *c, const struct addr *to, const char *signature,
    const struct u256 *v)
{
	struct abi_arg arg = abi_uint256(v);

	return set(c, to, signature, &arg, 1);
}

/* [{"to":"0x…","data":"0x…"},"latest"] into out[cap]. */
static int
params_text(const struct ethcall *c, char *out, size_t cap)
{
	char to[43], data[2 * ETHCALL_DATA_MAX + 3];
	int n;

	hex_encode(c->to.b, 20, to);
	hex_encode(c->data, c->len, data);
	n = snprintf(out, cap, "[{\"to\":\"%s\",\"data\":\"%s\"},\"latest\"]", to, data);
	return n < 0 || (size_t)n >= cap ? -1 : 0;
}

/* The first word of a result "0x…" into *w. */
static enum rpc_rc
read_word(json_object *res, struct u256 *w)
{
	uint8_t word[32];
	const char *s;
	size_t len;

	if (res == NULL || !json_object_is_type(res, json_type_string))
		return RPC_BAD_REPLY;
	s = json_object_get_string(res);
	len = (size_t)json_object_get_string_len(res);
	if (len < 2 + 64 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') ||
	    hex_decode_fixed(s + 2, 64, word, 32, false) < 0)
		return RPC_BAD_REPLY;
	u256_from_be(w, word);
	return RPC_OK;
}

enum rpc_rc
ethcall_batch(struct rpc *node, struct ethcall *calls, size_t n)
{
	char text[ETHCALL_MAX][2 * ETHCALL_DATA_MAX + 128];
	const char *params[ETHCALL_MAX];
	json_object *res[ETHCALL_MAX] = { 0 };
	enum rpc_rc rc;

	if (n == 0 || n > ETHCALL_MAX)
		return RPC_BAD_REPLY;
	for (size_t i = 0; i < n; i++) {
		if (params_text(&calls[i], text[i], sizeof(text[i])) < 0)
			return RPC_BAD_REPLY;
		params[i] = text[i];
	}
	rc = rpc_batch(node, "eth_call", params, n, res);
	for (size_t i = 0; i < n && rc == RPC_OK; i++)
		rc = read_word(res[i], &calls[i].word);
	for (size_t i = 0; i < n; i++)
		json_object_put(res[i]);
	return rc;
}

enum rpc_rc
ethcall_one(struct rpc *node, struct ethcall *c, bool *reverted)
{
	char text[2 * ETHCALL_DATA_MAX + 128];
	json_object *res = NULL;
	enum rpc_rc rc;

	*reverted = false;
	if (params_text(c, text, sizeof(text)) < 0)
		return RPC_BAD_REPLY;
	rc = rpc_call(node, "eth_call", text, &res);
	if (rc == RPC_ERROR)
		/* Execution reverted: code 3 (geth, anvil) or -32000 with a revert message. */
		*reverted = node->error_code == 3 || strstr(node->err, "revert") != NULL;
	if (rc == RPC_OK)
		rc = read_word(res, &c->word);
	json_object_put(res);
	return rc;
}
