/*
 * Reading what a JSON-RPC node answers (lib/rpc.c's reply parsers, the
 * block reference the indexer takes from eth_getBlockByNumber, and the
 * x402 authorization-state log and receipt reading of lib/x402.c). A node
 * is untrusted: each case here is a reply that t/fuzz/abi.c found, or
 * that reached the same code, which once crashed a worker or the indexer
 * (a JSON null where a string was read) or was accepted although it was
 * malformed. Their inputs are in t/fuzz/corpus/abi/ as well.
 */
#include <string.h>

#include <json-c/json.h>

#include "json.h"
#include "rpc.h"
#include "x402.h"
#include "tap.h"
#include "banned.h"

static json_object *
parse(const char *s)
{
	json_object *o = NULL;
	struct json_error je;

	if (json_parse_strict(s, strlen(s), NULL, &o, &je) < 0)
		return NULL;
	return o;
}

static enum rpc_rc
single(const char *text, json_object **res, struct rpc *r)
{
	memset(r, 0, sizeof(*r));
	return rpc_reply_single(r, text, strlen(text), res);
}

static enum rpc_rc
batch(const char *text, size_t n, json_object **res, struct rpc *r)
{
	memset(r, 0, sizeof(*r));
	return rpc_reply_batch(r, text, strlen(text), n, res);
}

static void
replies(void)
{
	struct rpc r;
	json_object *res = NULL, *b[2];
	enum rpc_rc rc;

	rc = single("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":\"0x1b4\"}", &res, &r);
	ok(rc == RPC_OK && json_object_is_type(res, json_type_string) &&
	    strcmp(json_object_get_string(res), "0x1b4") == 0, "a single reply gives its result");
	json_object_put(res);
	rc = single("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":3,\"message\":\"execution reverted\"}}",
	    &res, &r);
	ok(rc == RPC_ERROR && res == NULL && r.error_code == 3 && strstr(r.err, "execution reverted") != NULL,
	    "an error object gives RPC_ERROR with its code and message");
	rc = single("<html>502</html>", &res, &r);
	ok(rc == RPC_BAD_REPLY && res == NULL && r.err[0] != '\0', "a reply that is not JSON is refused");
	rc = single("null", &res, &r);
	ok(rc == RPC_BAD_REPLY && res == NULL && strcmp(r.err, "rpc: reply is null") == 0,
	    "a null reply is refused as such");

	rc = batch("[{\"id\":1,\"result\":\"0x2\"},{\"id\":0,\"result\":null}]", 2, b, &r);
	ok(rc == RPC_OK && b[0] == NULL && json_object_is_type(b[1], json_type_string),
	    "a batch is matched by id, a null result stays NULL");
	json_object_put(b[1]);
	/* Found by the fuzzer: a repeated id whose first result was null was
	 * taken for two answers, leaving one call without a reply (read by the
	 * indexer as "block not found"). */
	rc = batch("[{\"id\":0,\"result\":null},{\"id\":0,\"result\":null}]", 2, b, &r);
	ok(rc == RPC_BAD_REPLY && b[0] == NULL && b[1] == NULL && r.err[0] != '\0',
	    "a batch repeating an id after a null result is refused");
	/* Found by the fuzzer: one reply object with a result (not an error)
	 * for a batch failed without saying why. */
	rc = batch("{\"id\":0,\"result\":\"0x1\"}", 2, b, &r);
	ok(rc == RPC_BAD_REPLY && b[0] == NULL && b[1] == NULL && strstr(r.err, "wrong shape") != NULL,
	    "a single result object for a batch is refused with a reason");
	rc = batch("{\"id\":null,\"error\":{\"code\":-32600,\"message\":\"batch not supported\"}}", 2, b, &r);
	ok(rc == RPC_ERROR && r.error_code == -32600, "a node that refuses batches gives its error");
	rc = batch("[{\"id\":0,\"error\":{\"code\":-32000,\"message\":\"x\"}},{\"id\":1,\"result\":\"0x1\"}]", 2, b,
	    &r);
	ok(rc == RPC_ERROR && b[0] == NULL && b[1] == NULL, "an error in one call fails the batch, nothing kept");
}

static void
blocks(void)
{
	json_object *o;
	uint8_t h[32];
	uint64_t t = 0;

	o = parse("{\"hash\":\"0xabababababababababababababababababababababababababababababababab\","
	    "\"timestamp\":\"0x6553f100\"}");
	ok(rpc_block_ref(o, h, &t) == 0 && h[0] == 0xab && h[31] == 0xab && t == 0x6553f100,
	    "a block gives its hash and time");
	json_object_put(o);
	/* Was strlen(NULL) in the indexer. */
	o = parse("{\"hash\":null,\"timestamp\":\"0x1\"}");
	ok(rpc_block_ref(o, h, &t) < 0, "a block with a null hash is refused");
	json_object_put(o);
	o = parse("{\"hash\":\"0xabababababababababababababababababababababababababababababababab\",\"timestamp\":null}");
	ok(rpc_block_ref(o, h, &t) < 0, "a block with a null timestamp is refused");
	json_object_put(o);
	o = parse("{\"hash\":\"0xab\",\"timestamp\":\"0x1\"}");
	ok(rpc_block_ref(o, h, &t) < 0, "a short block hash is refused");
	json_object_put(o);
}

#define HASH_EE "\"0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\""
#define FROM "\"0x000000000000000000000000a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1a1\""
#define TO "\"0x000000000000000000000000b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2b2\""
#define TRANSFER "\"0xddf252ad1be2c89b69c2b068fc378daa952ba7f163c4a11628f55a4df523b3ef\""
#define AMOUNT "\"0x0000000000000000000000000000000000000000000000000000000000002710\""

static void
authorization(void)
{
	struct x402_payment p;
	struct addr token;
	json_object *o;
	char tx[67];

	o = parse("[{\"topics\":[\"0x98de503528ee59b575ef0c0a2576a82497bfc029a5685b209e9ec333479b10a5\"],"
	    "\"transactionHash\":" HASH_EE "}]");
	ok(x402_auth_logs(o, tx) == 1 && memcmp(tx, &HASH_EE[1], 66) == 0 && strlen(tx) == 66,
	    "an AuthorizationUsed log gives its transaction");
	json_object_put(o);
	o = parse("[{\"topics\":[\"0x1cdd46ff242716cdaa72d159d339a485b3438398348d68f09d7c8c0a59353d81\"],"
	    "\"transactionHash\":" HASH_EE "}]");
	ok(x402_auth_logs(o, tx) == 0, "an AuthorizationCanceled log voids the payment");
	json_object_put(o);
	/* Was strcasecmp(NULL, ...) in x402_authorization_state. */
	o = parse("[{\"topics\":[null],\"transactionHash\":" HASH_EE "}]");
	ok(x402_auth_logs(o, tx) == 1, "a log whose first topic is null is not a cancelation (and no crash)");
	json_object_put(o);
	/* The hash went into the next request's JSON as it was. */
	o = parse("[{\"topics\":[],\"transactionHash\":\"0xeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeeee\\\"]\"}]");
	ok(x402_auth_logs(o, tx) == -1 && tx[0] == '\0', "a transaction hash that is not hex is refused");
	json_object_put(o);
	o = parse("[]");
	ok(x402_auth_logs(o, tx) == -1, "no log: unknown");
	json_object_put(o);

	memset(&p, 0, sizeof(p));
	memset(p.from.b, 0xa1, 20);
	memset(p.to.b, 0xb2, 20);
	memset(token.b, 0xc3, 20);
	memcpy(p.value, "10000", 6);
	o = parse("{\"logs\":[{\"address\":\"0xc3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3\",\"topics\":[" TRANSFER ","
	    FROM "," TO "],\"data\":" AMOUNT "}]}");
	ok(x402_receipt_transfer(o, &token, &p) == 1, "the receipt's Transfer is found");
	json_object_put(o);
	/* Was strcasecmp(NULL, ...) in transfer_in. */
	o = parse("{\"logs\":[{\"address\":\"0xc3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3c3\",\"topics\":[null," FROM
	    "," TO "],\"data\":" AMOUNT "}]}");
	ok(x402_receipt_transfer(o, &token, &p) == 0, "a log whose first topic is null is no Transfer (and no crash)");
	json_object_put(o);
	o = parse("{\"logs\":null}");
	ok(x402_receipt_transfer(o, &token, &p) == -1, "a receipt without logs is unknown");
	json_object_put(o);
}

int
main(void)
{
	replies();
	blocks();
	authorization();
	return done_testing();
}
