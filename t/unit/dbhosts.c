/*
 * db_hosts and db_prefer (lib/config.c): the node list a Galera
 * deployment gives, parsed into host and port per node, and the lists and
 * choices `config check` refuses, each with a message naming the key.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "tap.h"
#include "banned.h"

static const struct {
	const char *hosts, *prefer;
	size_t n;
	const char *want;   /* "host:port host:port ..." */
} valid[] = {
	{ "", NULL, 0, "" },
	{ "   ", NULL, 0, "" },
	{ "db1", NULL, 1, "db1:3306" },
	{ "db1,db2:3307,db3", "3", 3, "db1:3306 db2:3307 db3:3306" },
	{ " 10.0.0.1:3306 , 10.0.0.2 ,10.0.0.3:13306 ", "2", 3, "10.0.0.1:3306 10.0.0.2:3306 10.0.0.3:13306" },
	{ "[::1]:3307,[fe80::2]", NULL, 2, "::1:3307 fe80::2:3306" },
	{ "db1:3306,db1:3307", NULL, 2, "db1:3306 db1:3307" },
	{ "a,b,c,d,e,f,g,h", "8", 8, "a:3306 b:3306 c:3306 d:3306 e:3306 f:3306 g:3306 h:3306" },
	{ "node-1.example_net", NULL, 1, "node-1.example_net:3306" },
};

static const struct {
	const char *hosts, *prefer, *msg;
} invalid[] = {
	{ "a,,b", NULL, "db_hosts (WAYMARK_DB_HOSTS): entry 2 is empty" },
	{ "a,", NULL, "db_hosts (WAYMARK_DB_HOSTS): entry 2 is empty" },
	{ ",a", NULL, "db_hosts (WAYMARK_DB_HOSTS): entry 1 is empty" },
	{ "a,b,c,d,e,f,g,h,i", NULL, "db_hosts (WAYMARK_DB_HOSTS): more than 8 nodes" },
	{ "a:0", NULL, "entry 1: a port that is not a number in 1..65535" },
	{ "a:65536", NULL, "entry 1: a port that is not a number in 1..65535" },
	{ "a,b:x", NULL, "entry 2: a port that is not a number in 1..65535" },
	{ "a:", NULL, "entry 1: a port that is not a number in 1..65535" },
	{ "a:-1", NULL, "entry 1: a port that is not a number in 1..65535" },
	{ "a:1:2", NULL, "entry 1: a port that is not a number in 1..65535" },
	{ "::1", NULL, "entry 1: not host or host:port" },
	{ "a b", NULL, "entry 1: not host or host:port" },
	{ "a/b", NULL, "entry 1: not host or host:port" },
	{ ":3306", NULL, "entry 1: not host or host:port" },
	{ "[::1", NULL, "entry 1: not [IPv6 address] or [IPv6 address]:port" },
	{ "[::1]x", NULL, "entry 1: not [IPv6 address] or [IPv6 address]:port" },
	{ "[]:3306", NULL, "entry 1: not an IPv6 address in brackets" },
	{ "[node]", NULL, "entry 1: not an IPv6 address in brackets" },
	{ "db1,db2,db1", NULL, "entries 1 and 3 name the same node" },
	{ "db1:3306,db1", NULL, "entries 1 and 2 name the same node" },
	{ "db1,db2", "3", "db_prefer (WAYMARK_DB_PREFER) is 3 but db_hosts lists 2 nodes" },
	{ "db1", "2", "db_prefer (WAYMARK_DB_PREFER) is 2 but db_hosts lists 1 node" },
	{ "", "2", "db_prefer (WAYMARK_DB_PREFER) is 2 but db_hosts is empty" },
	{ "a,b", "0", "db_prefer (WAYMARK_DB_PREFER): not an integer in 1..8" },
	{ "a,b", "9", "db_prefer (WAYMARK_DB_PREFER): not an integer in 1..8" },
};

static void
set(const char *name, const char *v)
{
	if (v)
		setenv(name, v, 1);
	else
		unsetenv(name);
}

int
main(void)
{
	struct config c;
	char err[512], got[1024];

	unsetenv("WAYMARK_DB_PORT");
	unsetenv("WAYMARK_DB_SYNC_WAIT");
	for (size_t i = 0; i < sizeof(valid) / sizeof(valid[0]); i++) {
		int rc;
		size_t len = 0;

		set("WAYMARK_DB_HOSTS", valid[i].hosts);
		set("WAYMARK_DB_PREFER", valid[i].prefer);
		err[0] = got[0] = '\0';
		rc = config_load(&c, NULL, err, sizeof(err));
		for (size_t k = 0; rc == 0 && k < c.db_nodes; k++)
			len += (size_t)snprintf(got + len, sizeof(got) - len, "%s%s:%llu", k ? " " : "",
			    c.db_node[k].host, (unsigned long long)c.db_node[k].port);
		ok(rc == 0 && c.db_nodes == valid[i].n && strcmp(got, valid[i].want) == 0,
		    "db_hosts \"%s\": %zu node(s) %s (got %zu: %s%s)", valid[i].hosts, valid[i].n,
		    valid[i].want, rc == 0 ? c.db_nodes : 0, got, err);
	}
	for (size_t i = 0; i < sizeof(invalid) / sizeof(invalid[0]); i++) {
		int rc;

		set("WAYMARK_DB_HOSTS", invalid[i].hosts);
		set("WAYMARK_DB_PREFER", invalid[i].prefer);
		err[0] = '\0';
		rc = config_load(&c, NULL, err, sizeof(err));
		ok(rc == -1 && strstr(err, invalid[i].msg) != NULL, "db_hosts \"%s\" db_prefer %s refused: %s",
		    invalid[i].hosts, invalid[i].prefer ? invalid[i].prefer : "(default)", err);
	}
	/* The default port is db_port, whichever way it was set. */
	set("WAYMARK_DB_HOSTS", "db1,db2:4000");
	set("WAYMARK_DB_PREFER", NULL);
	setenv("WAYMARK_DB_PORT", "3310", 1);
	ok(config_load(&c, NULL, err, sizeof(err)) == 0 && c.db_nodes == 2 && c.db_node[0].port == 3310 &&
	    c.db_node[1].port == 4000 && c.db_prefer == 1, "a node without a port takes db_port; db_prefer "
	    "defaults to 1");
	unsetenv("WAYMARK_DB_PORT");
	/* db_sync_wait: a wsrep_sync_wait bitmask, 0..15, 7 by default. */
	set("WAYMARK_DB_HOSTS", NULL);
	ok(config_load(&c, NULL, err, sizeof(err)) == 0 && c.db_sync_wait == 7, "db_sync_wait defaults to 7");
	setenv("WAYMARK_DB_SYNC_WAIT", "16", 1);
	ok(config_load(&c, NULL, err, sizeof(err)) == -1 && strstr(err, "db_sync_wait") != NULL,
	    "db_sync_wait 16 is refused: %s", err);
	unsetenv("WAYMARK_DB_SYNC_WAIT");
	return done_testing();
}
