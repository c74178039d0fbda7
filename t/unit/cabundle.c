/*
 * cabundle: the outbound CA bundle read once at start-up (lib/cabundle.h):
 * nothing to read for "", a clear error naming the key and the file for a
 * missing, empty or oversized file, and a bundle that stays usable after
 * its file is gone (it is read once, not at each call). t/0850 shows the
 * workers using a root-only bundle for real TLS.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <curl/curl.h>

#include "cabundle.h"
#include "tap.h"
#include "banned.h"

/* A temporary file holding len bytes of c (len 0: empty); its path in out. */
static int
file_of(char out[64], char c, size_t len)
{
	int fd;
	char *b;

	snprintf(out, 64, "/tmp/waymark-cabundle.XXXXXX");
	if ((fd = mkstemp(out)) < 0)
		return -1;
	if ((b = malloc(len + 1)) == NULL) {
		close(fd);
		return -1;
	}
	memset(b, c, len);
	if (len && write(fd, b, len) != (ssize_t)len) {
		free(b);
		close(fd);
		return -1;
	}
	free(b);
	return close(fd);
}

int
main(void)
{
	char err[1200], path[64];
	CURL *c;

	ok(cabundle_load("", err, sizeof(err)) == 0, "no tls_ca_file: nothing to read");
	ok(cabundle_load("/nonexistent/ca.pem", err, sizeof(err)) < 0, "a missing file is refused");
	is_str(err, "tls_ca_file /nonexistent/ca.pem: No such file or directory", "  naming the key and the file");
	if (ok(file_of(path, 'x', 0) == 0, "an empty file")) {
		ok(cabundle_load(path, err, sizeof(err)) < 0 && strstr(err, ": empty") != NULL,
		    "  is refused as empty (%s)", err);
		unlink(path);
	}
	if (ok(file_of(path, 'x', CABUNDLE_MAX + 1) == 0, "a file one byte over 4 MiB")) {
		ok(cabundle_load(path, err, sizeof(err)) < 0 && strstr(err, "larger than 4 MiB") != NULL,
		    "  is refused as too large (%s)", err);
		unlink(path);
	}
	if (ok(file_of(path, '-', 4096) == 0, "a 4 KiB file")) {
		ok(cabundle_load(path, err, sizeof(err)) == 0, "  is read");
		unlink(path);
		c = curl_easy_init();
		if (ok(c != NULL, "a curl handle")) {
			ok(cabundle_apply(c, path) == CABUNDLE_MEMORY,
			    "  its file gone, the bundle is handed to curl from memory");
			ok(cabundle_apply(c, "") == CABUNDLE_SYSTEM, "  no tls_ca_file: the system's CAs");
			ok(cabundle_apply(c, "/another/file.pem") == CABUNDLE_FILE,
			    "  a file that was not loaded: curl reads it itself");
			curl_easy_cleanup(c);
		}
	}
	cabundle_release();
	c = curl_easy_init();
	if (ok(c != NULL, "after the release")) {
		ok(cabundle_apply(c, path) == CABUNDLE_FILE, "  nothing is loaded: the file's path goes to curl");
		curl_easy_cleanup(c);
	}
	return done_testing();
}
