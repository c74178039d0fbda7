#define _GNU_SOURCE   /* getresuid, setresuid, setgroups */
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>
#include <sys/types.h>
#include <unistd.h>

#include "runas.h"
#include "banned.h"

static bool
is_root(void)
{
	uid_t r, e, s;

	return getresuid(&r, &e, &s) != 0 || r == 0 || e == 0 || s == 0;
}

int
runas_drop(const char *user, char *err, size_t cap)
{
	struct passwd pw, *found = NULL;
	char text[4096];
	uid_t uid, r, e, s;
	gid_t gid, rg, eg, sg;
	int rc;

	if (!is_root())
		return 0;
	if (user == NULL || *user == '\0') {
		snprintf(err, cap, "run_user is empty: refusing to run as root");
		return -1;
	}
	rc = getpwnam_r(user, &pw, text, sizeof(text), &found);
	if (found == NULL) {
		snprintf(err, cap, "run_user %s: %s", user,
		    rc ? strerror(rc) : "no such user (tools/deps creates waymark)");
		return -1;
	}
	uid = pw.pw_uid;
	gid = pw.pw_gid;
	if (uid == 0 || gid == 0) {
		snprintf(err, cap, "run_user %s has uid or gid 0: refusing to run as root", user);
		return -1;
	}
	if (setgroups(1, &gid) != 0 || setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) {
		snprintf(err, cap, "cannot become %s (uid %u, gid %u): %s", user, (unsigned)uid,
		    (unsigned)gid, strerror(errno));
		return -1;
	}
	/* Nothing of root may remain, nor be taken back. */
	if (getresuid(&r, &e, &s) != 0 || r != uid || e != uid || s != uid ||
	    getresgid(&rg, &eg, &sg) != 0 || rg != gid || eg != gid || sg != gid ||
	    setuid(0) == 0 || seteuid(0) == 0 || setgid(0) == 0) {
		snprintf(err, cap, "still able to act as root after becoming %s", user);
		return -1;
	}
	return 0;
}
