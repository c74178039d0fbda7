/*
 * cabundle.c: the outbound CA bundle, read once (cabundle.h).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <curl/curl.h>

#include "buf.h"
#include "cabundle.h"
#include "banned.h"

/* The one bundle of this process: its file's path and its bytes (pem.len 0: none). */
static struct {
	char path[1024];
	struct buf pem;
} bundle;

int
cabundle_load(const char *path, char *err, size_t cap)
{
	FILE *f;
	char chunk[8192];
	size_t n;
	int failed = 0;

	cabundle_release();
	if (path == NULL || path[0] == '\0')
		return 0;
	if ((f = fopen(path, "r")) == NULL) {
		snprintf(err, cap, "tls_ca_file %s: %s", path, strerror(errno));
		return -1;
	}
	while (!failed && (n = fread(chunk, 1, sizeof(chunk), f)) > 0)
		failed = buf_add(&bundle.pem, chunk, n) < 0;
	if (ferror(f) || failed || bundle.pem.len == 0 ||
	    snprintf(bundle.path, sizeof(bundle.path), "%s", path) >= (int)sizeof(bundle.path)) {
		snprintf(err, cap, "tls_ca_file %s: %s", path, ferror(f) ? "cannot be read" :
		    bundle.pem.full ? "larger than 4 MiB" : failed ? "out of memory" :
		    bundle.pem.len == 0 ? "empty" : "the path is too long");
		fclose(f);
		cabundle_release();
		return -1;
	}
	fclose(f);
	return 0;
}

enum cabundle_use
cabundle_apply(void *c, const char *path)
{
	if (path == NULL || path[0] == '\0')
		return CABUNDLE_SYSTEM;
	if (bundle.pem.len > 0 && strcmp(path, bundle.path) == 0) {
		/* Not copied: rpc.c sets it again at every call (after its
		 * curl_easy_reset), and the bundle outlives every handle
		 * (cabundle.h). */
		struct curl_blob blob = { .data = bundle.pem.p, .len = bundle.pem.len, .flags = CURL_BLOB_NOCOPY };

		if (curl_easy_setopt((CURL *)c, CURLOPT_CAINFO_BLOB, &blob) == CURLE_OK)
			return CABUNDLE_MEMORY;
	}
	curl_easy_setopt((CURL *)c, CURLOPT_CAINFO, path);
	return CABUNDLE_FILE;
}

void
cabundle_release(void)
{
	buf_release(&bundle.pem);
	buf_init(&bundle.pem, CABUNDLE_MAX);
	bundle.path[0] = '\0';
}
