/*
 * config.h: the service configuration: one file of `key = value` lines
 * plus environment overrides WAYMARK_<KEY> (docs/ARCHITECTURE.md,
 * Configuration contract). Every key is a row of one table (config.c) with its type,
 * default and one-line documentation; INSTALL lists the same rows, and a
 * test checks that it does.
 *
 * Precedence: built-in default < file < environment. An unknown key, a
 * repeated key or an invalid value stops start-up with a message naming
 * the key (config_load returns -1 and fills err). So does a file that
 * others (neither its owner nor its group) may read or write: it holds
 * the secrets (INSTALL section 11).
 */
#ifndef WAYMARK_CONFIG_H
#define WAYMARK_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "addr.h"

#define CONFIG_STR_MAX 2048
#define CONFIG_URLS_MAX 8192   /* a list of URLs (CT_URLS) */
#define CONFIG_CATALOG_SOURCES_MAX 16
#define CONFIG_DB_NODES_MAX 8

/* One node of db_hosts (config_load parses the list). */
struct config_db_node {
	char host[256];                 /* a name or address; an IPv6 address without its brackets */
	uint64_t port;
};

struct config {
	char listen[128];               /* host:port nginx listens on */
	char public_base_url[CONFIG_STR_MAX];
	char app_url[CONFIG_STR_MAX];
	char docs_url[CONFIG_STR_MAX];
	uint64_t workers;               /* processes of the free pool */
	uint64_t worker_threads;        /* threads per process of the free pool */
	uint64_t remote_workers;        /* processes of the remote pool */
	uint64_t remote_threads;        /* threads per process of the remote pool */
	uint64_t payment_max_in_flight; /* per remote pool on this host: paid requests past the 402 at once */
	uint64_t payment_abandoned_s;   /* a reservation older than this is an unknown outcome */
	uint64_t payment_failures_per_min;  /* failed payment attempts per client address (0: unlimited) */
	uint64_t payment_keep_s;        /* failed and released rows are pruned this long after expiry */
	char slot_dir[1024];            /* a TCP pool's slot files: <slot_dir>/<pool>.slots */
	char run_user[64];              /* workers and indexer started as root become this user (lib/runas.h) */

	char db_socket[1024];
	char db_host[256];
	uint64_t db_port;
	char db_name[64];
	char db_user[64];
	char db_password[256];
	uint64_t db_timeout;            /* seconds, connect/read/write */
	char db_hosts[1024];            /* host[:port],...: the Galera nodes (lib/db.h, Failover) */
	uint64_t db_prefer;             /* 1-based: this host's first node of db_hosts */
	uint64_t db_sync_wait;          /* wsrep_sync_wait of sessions on a Galera node */
	uint64_t db_sync_wait_free;     /* ... of the free pool's (fcgi/main.c) */
	/* db_hosts parsed by config_load: db_nodes entries, 0 when db_hosts is empty. */
	struct config_db_node db_node[CONFIG_DB_NODES_MAX];
	size_t db_nodes;
	uint64_t health_ttl_ms;
	uint64_t discovery_check_ms;
	/* Request rates per client address, per minute, of the rate classes
	 * (lib/endpoint.h); 0: unlimited. `waymark routes nginx-http` writes them. */
	uint64_t rate_site;
	uint64_t rate_signin;
	uint64_t rate_signed;
	uint64_t rate_unlock;
	uint64_t rate_discovery;
	uint64_t rate_agent;            /* A2A message:send and MCP, per minute per client */
	uint64_t rate_agent_burst;
	uint64_t board_ttl_ms;          /* 0: every board read asks the database */

	char rpc_url[CONFIG_STR_MAX];
	uint64_t rpc_timeout_ms;
	uint64_t sigcheck_max_in_flight; /* per pool on this host: signature checks calling the RPC at once */
	uint64_t sigcheck_timeout_ms;    /* one signature check's whole wait on the RPC */
	uint64_t indexer_block_range;
	uint64_t indexer_poll_ms;
	uint64_t indexer_lease_ms;      /* the lease lasts this long unrenewed (indexer/lease.h) */
	char indexer_id[128];           /* the lease holder's name; "" for hostname:pid:random */
	uint64_t chain_id;
	uint64_t confirmations;
	struct addr companion_address;
	uint64_t companion_start_block;
	struct addr boon_address;
	struct addr tips_address;
	uint64_t tips_start_block;
	struct addr attestation_address;
	uint64_t attestation_start_block;
	struct addr identity_registry_address;
	uint64_t identity_registry_start_block;

	char network[64];               /* CAIP-2, eip155:<chain_id> */
	struct addr usdc_address;
	uint64_t client_settlement_min_atomic;   /* least USDC of a client_settlement fact */
	struct addr pay_to;
	char facilitator_url[CONFIG_STR_MAX];
	char facilitator_auth_header[1024];  /* secret: Authorization header value, "" for none */
	uint64_t facilitator_timeout_ms;
	char tls_ca_file[1024];         /* CA bundle for outbound HTTPS; "" for the system's */
	char catalog_url[CONFIG_STR_MAX];   /* one source, kept as an alias of catalog_urls */
	char catalog_urls[CONFIG_URLS_MAX]; /* sources, single spaces between (config_catalog_source) */
	uint64_t catalog_pace_ms;           /* between two pages of one source */
	uint64_t catalog_max_listings;      /* per source; a source listing more fails its run */
	char payer_client[64];
	char private_tip_key[65];       /* secret: 64 hex digits (AES-256-GCM key of private-tip blobs), "" for none */
	char mpp_secret[129];           /* secret: HMAC key of MPP challenges (lib/mpp.h), "" for none */
	char mpp_secret_previous[129];  /* secret: the key before a rotation, still accepted, or "" */
};

enum config_type {
	CT_STRING,
	CT_URL,       /* http:// or https:// URL, or empty when optional */
	CT_UINT,
	CT_ADDRESS,
	CT_LISTEN,    /* host:port */
	CT_NETWORK,   /* eip155:<positive integer> */
	CT_URLS,      /* http(s) URLs separated by spaces; stored with single spaces, no trailing slashes */
	CT__MAX
};

struct config_key {
	const char *name;       /* file key, e.g. "pay_to"; env WAYMARK_PAY_TO */
	enum config_type type;
	size_t offset;          /* into struct config */
	size_t size;            /* of the member (strings) */
	const char *def;        /* default text; "" allowed where optional */
	uint64_t min, max;      /* CT_UINT */
	bool secret;            /* never printed */
	const char *doc;
};

/* The key table and its length. */
extern const struct config_key config_keys[];
extern const size_t config_nkeys;

/*
 * Load defaults, then `path` (NULL or "" for none), then the environment.
 * Returns 0, or -1 with a message naming the key in err[cap].
 */
int config_load(struct config *c, const char *path, char *err, size_t cap);

/*
 * The i-th x402 catalog source (catalog_urls, then catalog_url when the
 * list does not hold it already) into out[cap]: 0, or -1 past the last.
 */
int config_catalog_source(const struct config *c, size_t i, char *out, size_t cap);

/* The value of a key as text (secrets included) into out[cap]; 0 or -1. */
int config_get(const struct config *c, const char *key, char *out, size_t cap);

/* The environment variable name of a key into out[cap]. */
char *config_env_name(const char *key, char *out, size_t cap);

/*
 * The longest a remote-pool request may take in the worker, in
 * milliseconds, and so what nginx waits for its answer (fastcgi_read_timeout
 * of the remote locations, rounded up to seconds): a facilitator verify and
 * settle, two chain RPC calls (one may be a whole signature check,
 * sigcheck_timeout_ms), three database waits, plus 5 s.
 */
uint64_t config_remote_timeout_ms(const struct config *c);

#endif
