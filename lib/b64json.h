/*
 * b64json.h: HTTP headers whose value is base64 of a JSON object: in the
 * standard form, PAYMENT-SIGNATURE, PAYMENT-REQUIRED and PAYMENT-RESPONSE
 * (docs/PROTOCOL.md, x402 payments) and SIGN-IN-WITH-X (docs/PROTOCOL.md,
 * Sign-In-With-X); in the URL-safe form, the MPP credential and receipt
 * (docs/PROTOCOL.md, MPP payments). The base64 itself is base64.h's.
 *
 * Return conventions: b64json_decode returns an enum, since each caller
 * words each failure its own way; b64json_header returns 0 or -1.
 */
#ifndef WAYMARK_B64JSON_H
#define WAYMARK_B64JSON_H

#include <stddef.h>

#include <json-c/json.h>

#include "base64.h"
#include "http.h"
#include "json.h"

enum b64json_rc {
	B64JSON_OK = 0,
	B64JSON_SIZE,      /* empty, or longer than max characters */
	B64JSON_BASE64,    /* not base64 of the form asked for */
	B64JSON_JSON,      /* not strict JSON within the limits: *je says why */
	B64JSON_NOMEM,     /* memory ran out (reading, or parsing) */
};

/*
 * Decode the header value s (NUL-terminated, at most max characters) of
 * form f and parse it strictly under lim into *out, which the caller puts
 * (NULL on any failure). je (may be NULL) gets the parse error of
 * B64JSON_JSON.
 */
enum b64json_rc b64json_decode(const char *s, enum base64_form f, size_t max,
    const struct json_limits *lim, json_object **out, struct json_error *je);

/* Add header name to w with base64(compact JSON of obj) of at most max characters; 0 or -1. */
int b64json_header(struct resp *w, const char *name, json_object *obj, size_t max);

#endif
