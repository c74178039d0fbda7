#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "b64json.h"
#include "base64.h"
#include "buf.h"
#include "banned.h"

enum b64json_rc
b64json_decode(const char *s, enum base64_form f, size_t max, const struct json_limits *lim,
    json_object **out, struct json_error *je)
{
	struct json_error e;
	size_t slen = strlen(s), n = 0;
	uint8_t *raw;
	enum b64json_rc rc = B64JSON_OK;

	*out = NULL;
	if (slen == 0 || slen > max)
		return B64JSON_SIZE;
	/* Base64 never decodes to more bytes than it has characters. */
	if ((raw = malloc(slen)) == NULL)
		return B64JSON_NOMEM;
	if (base64_decode(s, slen, f, raw, slen, &n) < 0)
		rc = B64JSON_BASE64;
	else if (json_parse_strict((const char *)raw, n, lim, out, &e) < 0) {
		rc = e.code == JSON_E_NOMEM ? B64JSON_NOMEM : B64JSON_JSON;
		if (je)
			*je = e;
	}
	free(raw);
	return rc;
}

int
b64json_header(struct resp *w, const char *name, json_object *obj, size_t max)
{
	struct buf b;
	size_t len;
	const char *s = json_dump(obj, &len);
	int rc = -1;

	buf_init(&b, max);
	if (s && base64_encode(s, len, BASE64_STD, &b) == 0)
		rc = resp_header(w, name, buf_str(&b));
	buf_release(&b);
	return rc;
}
