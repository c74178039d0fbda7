/*
 * cabundle.h: the CA certificates of outbound HTTPS (tls_ca_file, INSTALL
 * section 8), read once when a program starts, before it gives root up
 * (lib/runas.h), and handed to libcurl from memory (CURLOPT_CAINFO_BLOB).
 * So a bundle only root may read still serves the workers, and no call
 * reads the disk.
 *
 * Shared state: cabundle_load runs once, before any thread starts; after
 * it the bundle is read-only until cabundle_release at exit, after every
 * curl handle is gone (curl is given the bytes, not a copy).
 *
 * Return conventions: an action, 0 or -1 with the reason in err[cap].
 */
#ifndef WAYMARK_CABUNDLE_H
#define WAYMARK_CABUNDLE_H

#include <stddef.h>

#define CABUNDLE_MAX (4u * 1024 * 1024)   /* the largest bundle read (Debian's is about 200 KiB) */

/* Read the PEM file path ("" : nothing to read, the system's CAs are used). */
int cabundle_load(const char *path, char *err, size_t cap);

enum cabundle_use {
	CABUNDLE_SYSTEM,   /* path "": curl's default, the system's CAs */
	CABUNDLE_MEMORY,   /* the bundle cabundle_load read (CURLOPT_CAINFO_BLOB) */
	CABUNDLE_FILE,     /* the file itself (CURLOPT_CAINFO), read by curl at the call */
};

/*
 * Point curl handle c (a CURL *) at the CAs for path, a configuration's
 * tls_ca_file: the loaded bundle when path is the file cabundle_load
 * read, else (a program that loaded nothing, or a curl without blob
 * support) the file itself; nothing for "". Says which.
 */
enum cabundle_use cabundle_apply(void *c, const char *path);

/* Free the bundle (at exit, after every thread has stopped). */
void cabundle_release(void);

#endif
