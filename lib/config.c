#include <ctype.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "brand.h"
#include "config.h"
#include "banned.h"

#define CONFIG_KEYS_MAX 96    /* the table's size bound: seen[] of load_file */
#define S(m) offsetof(struct config, m), sizeof(((struct config *)0)->m)
#define N(m) offsetof(struct config, m), sizeof(((struct config *)0)->m)

const struct config_key config_keys[] = {
	{ "listen", CT_LISTEN, S(listen), "127.0.0.1:8080", 0, 0, false,
	    "address:port the local nginx listens on (make run)" },
	{ "public_base_url", CT_URL, S(public_base_url), "", 0, 0, false,
	    "the public {base_url}; x402 resource URLs and SIWX domain/URIs derive from it "
	    "(default http://<listen>)" },
	{ "app_url", CT_URL, S(app_url), "", 0, 0, false,
	    "the website {app_url} used in links (default: public_base_url)" },
	{ "docs_url", CT_URL, S(docs_url), "", 0, 0, false,
	    "the documentation site {docs_url} (default: public_base_url + /docs)" },
	{ "workers", CT_UINT, N(workers), "2", 1, 256, false,
	    "worker processes of the free pool (rows that wait on nothing remote)" },
	{ "worker_threads", CT_UINT, N(worker_threads), "8", 1, 1024, false,
	    "threads, so requests served at once, per worker process of the free pool" },
	{ "remote_workers", CT_UINT, N(remote_workers), "2", 1, 256, false,
	    "worker processes of the remote pool (paid, signed and chain-checked rows)" },
	{ "remote_threads", CT_UINT, N(remote_threads), "32", 1, 1024, false,
	    "threads per worker process of the remote pool: requests that may wait on the "
	    "facilitator, the chain RPC or MariaDB at once are remote_workers x remote_threads" },
	{ "payment_max_in_flight", CT_UINT, N(payment_max_in_flight), "48", 1, 1024, false,
	    "paid requests with a payment in progress at once, per remote pool on this host (its "
	    "processes share a slot file; without one, per process); past it a paid request gets "
	    "503 payment_unavailable with Retry-After, nothing charged" },
	{ "payment_abandoned_s", CT_UINT, N(payment_abandoned_s), "120", 5, 3600, false,
	    "seconds after which a payment reserved by a request that never finished (its worker or "
	    "host died) may be claimed by the identical request's retry, which asks the chain first; "
	    "keep it above the longest paid request (two facilitator calls and the handler)" },
	{ "payment_failures_per_min", CT_UINT, N(payment_failures_per_min), "20", 0, 6000000, false,
	    "failed payment attempts (malformed or wrongly signed, or refused by the facilitator's "
	    "/verify) per minute per client address (IPv6: per /64) before its paid requests get 429 "
	    "with Retry-After for the rest of the minute, before any facilitator call; 0: unlimited" },
	{ "payment_keep_s", CT_UINT, N(payment_keep_s), "604800", 3600, 315360000, false,
	    "seconds a failed or released payment row is kept once its authorization has expired; "
	    "payments-reconcile deletes older ones (settled rows are kept)" },
	{ "slot_dir", CT_STRING, S(slot_dir), "", 0, 0, false,
	    "a folder for the shared slot files of pools that listen on TCP (<slot_dir>/<pool>.slots), "
	    "so their caps hold per host; a pool on a unix socket keeps them beside it" },
	{ "run_user", CT_STRING, S(run_user), "waymark", 0, 0, false,
	    "the user the workers and the indexer run as: started as root, they read this file, "
	    "then drop to it (and its primary group only) before serving; never root, never empty" },
	{ "db_socket", CT_STRING, S(db_socket), "", 0, 0, false,
	    "MariaDB unix socket path; when set, db_host and db_port are not used" },
	{ "db_host", CT_STRING, S(db_host), "127.0.0.1", 0, 0, false, "MariaDB host" },
	{ "db_port", CT_UINT, N(db_port), "3306", 1, 65535, false, "MariaDB TCP port" },
	{ "db_name", CT_STRING, S(db_name), "waymark", 0, 0, false, "database name" },
	{ "db_user", CT_STRING, S(db_user), "waymark", 0, 0, false, "database user" },
	{ "db_password", CT_STRING, S(db_password), "", 0, 0, true, "database password" },
	{ "db_timeout", CT_UINT, N(db_timeout), "3", 1, 60, false,
	    "seconds to wait for MariaDB to connect, read or write before answering 503" },
	{ "db_hosts", CT_STRING, S(db_hosts), "", 0, 0, false,
	    "the nodes of a MariaDB Galera cluster, host[:port] separated by commas (port: db_port), "
	    "at most 8; when set, db_socket and db_host are not used and each thread fails over "
	    "between the nodes; empty: the one server of db_socket or db_host" },
	{ "db_prefer", CT_UINT, N(db_prefer), "1", 1, CONFIG_DB_NODES_MAX, false,
	    "which node of db_hosts (1 = the first) this host's threads connect to first; "
	    "the others follow in list order, starting after it" },
	{ "db_sync_wait", CT_UINT, N(db_sync_wait), "7", 0, 15, false,
	    "wsrep_sync_wait of every session on a Galera node: 7 makes reads, transactions and "
	    "single writes see every write the cluster committed before them (a wait per "
	    "statement outside a transaction and one per transaction); 0: none; not used on a "
	    "server without Galera" },
	{ "db_sync_wait_free", CT_UINT, N(db_sync_wait_free), "0", 0, 15, false,
	    "db_sync_wait for the free pool's connections: 0, its reads (public data) may trail "
	    "another node's commit by the replication delay and keep answering while the cluster "
	    "waits out a dead node; paid and signed rows (the remote pool), the indexer and the "
	    "waymark tool use db_sync_wait" },
	{ "health_ttl_ms", CT_UINT, N(health_ttl_ms), "1000", 0, 60000, false,
	    "how long one serving thread reuses its /health database check, in milliseconds" },
	{ "rate_site", CT_UINT, N(rate_site), "600", 0, 6000000, false,
	    "requests per minute per client address (IPv6: per /64) of the free site reads; 0: unlimited" },
	{ "rate_signin", CT_UINT, N(rate_signin), "60", 0, 6000000, false,
	    "requests per minute per client address of the sign-in (SIWX) rows, each of which issues "
	    "a challenge when unsigned; 0: unlimited" },
	{ "rate_signed", CT_UINT, N(rate_signed), "60", 0, 6000000, false,
	    "requests per minute per client address of the rows that verify a signature (reviews, route "
	    "contexts, blobs, disclosures); 0: unlimited" },
	{ "rate_unlock", CT_UINT, N(rate_unlock), "30", 0, 6000000, false,
	    "requests per minute per client address of private-tip unlock challenges and unlocks; 0: unlimited" },
	{ "rate_discovery", CT_UINT, N(rate_discovery), "0", 0, 6000000, false,
	    "requests per minute per client address of free discovery; 0 (the default): unlimited" },
	{ "rate_agent", CT_UINT, N(rate_agent), "300", 0, 6000000, false,
	    "requests per minute per client address of the agent surface (A2A message:send, MCP), "
	    "whose recognition previews may call the chain; 0: unlimited" },
	{ "rate_agent_burst", CT_UINT, N(rate_agent_burst), "40", 1, 1000000, false,
	    "requests of the agent surface one client may send at once beyond rate_agent" },
	{ "discovery_check_ms", CT_UINT, N(discovery_check_ms), "1000", 0, 60000, false,
	    "how long one worker trusts its discovery corpus before asking the database what changed, "
	    "in milliseconds" },
	{ "board_ttl_ms", CT_UINT, N(board_ttl_ms), "1000", 0, 60000, false,
	    "how long one serving thread reuses its last board answer, in milliseconds; 0: no cache" },
	{ "rpc_url", CT_URL, S(rpc_url), "", 0, 0, false,
	    "JSON-RPC URL of the chain (indexer, smart-wallet signature checks); empty: none" },
	{ "rpc_timeout_ms", CT_UINT, N(rpc_timeout_ms), "10000", 100, 600000, false,
	    "timeout of one JSON-RPC request to rpc_url, in milliseconds" },
	{ "sigcheck_max_in_flight", CT_UINT, N(sigcheck_max_in_flight), "8", 1, 1024, false,
	    "free requests calling rpc_url at once in a worker pool on this host: contract-wallet "
	    "signature checks (ERC-1271, ERC-6492) and agent recognition previews; past it a check gets "
	    "503 signature_check_unavailable, a preview its protocol's busy error, with Retry-After" },
	{ "sigcheck_timeout_ms", CT_UINT, N(sigcheck_timeout_ms), "3000", 100, 600000, false,
	    "how long one contract-wallet signature check, or one agent preview, may wait on rpc_url in "
	    "all, in milliseconds; past it 503" },
	{ "indexer_block_range", CT_UINT, N(indexer_block_range), "2000", 1, 100000, false,
	    "blocks per eth_getLogs request of the indexer (halved when the node refuses)" },
	{ "indexer_poll_ms", CT_UINT, N(indexer_poll_ms), "2000", 10, 600000, false,
	    "how often the indexer polls the chain head once caught up, in milliseconds" },
	{ "indexer_lease_ms", CT_UINT, N(indexer_lease_ms), "15000", 300, 3600000, false,
	    "how long the indexer lease lasts unrenewed, in milliseconds: the holder renews it every "
	    "third of that, a standby takes it over once it has expired (INSTALL, section 6)" },
	{ "indexer_id", CT_STRING, S(indexer_id), "", 0, 0, false,
	    "the name this indexer holds the lease under; empty: <hostname>:<pid>:<random>, new for "
	    "each process; never the same for two indexers running at once" },
	{ "chain_id", CT_UINT, N(chain_id), "8453", 1, UINT64_C(0xffffffffffff), false,
	    "EVM chain id (Base mainnet 8453)" },
	{ "confirmations", CT_UINT, N(confirmations), "5", 0, 1000, false,
	    "blocks behind the head before an event is indexed" },
	{ "companion_address", CT_ADDRESS, S(companion_address),
	    "0xb7f990Ef5C59a6A50Fb226f0687D3FB43cF1Cd66", 0, 0, false,
	    "routed-recognition companion contract (EIP-712 verifyingContract of reviews)" },
	{ "companion_start_block", CT_UINT, N(companion_start_block), "48664307", 0,
	    UINT64_C(0xffffffffffff), false, "first block the indexer reads for the companion" },
	{ "boon_address", CT_ADDRESS, S(boon_address),
	    "0x5Bec0bD17D16641660D66d82da4cF78b46B9EBA3", 0, 0, false, "service token contract" },
	{ "tips_address", CT_ADDRESS, S(tips_address),
	    "0x22aC2E603D4B1CaAb3A8433f1691BA6158A896AF", 0, 0, false,
	    "tip settlement contract (" BRAND_CAPITAL "V3)" },
	{ "tips_start_block", CT_UINT, N(tips_start_block), "0", 0, UINT64_C(0xffffffffffff), false,
	    "first block the indexer reads for tip events" },
	{ "attestation_address", CT_ADDRESS, S(attestation_address),
	    "0xC53160EEedb119670A7c13CC7C3709CdE6c9b469", 0, 0, false,
	    "gratitude attestation (soulbound ERC-721) contract" },
	{ "attestation_start_block", CT_UINT, N(attestation_start_block), "0", 0,
	    UINT64_C(0xffffffffffff), false, "first block the indexer reads for attestation mints" },
	{ "identity_registry_address", CT_ADDRESS, S(identity_registry_address),
	    "0x8004A169FB4a3325136EB29fA0ceB6D2e539a432", 0, 0, false,
	    "ERC-8004 identity registry (agent:<N> handles)" },
	{ "identity_registry_start_block", CT_UINT, N(identity_registry_start_block), "0", 0,
	    UINT64_C(0xffffffffffff), false, "first block the indexer reads for agent registrations" },
	{ "network", CT_NETWORK, S(network), "eip155:8453", 0, 0, false,
	    "CAIP-2 network of x402 payments; must be eip155:<chain_id>" },
	{ "usdc_address", CT_ADDRESS, S(usdc_address),
	    "0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913", 0, 0, false, "USDC token contract" },
	{ "client_settlement_min_atomic", CT_UINT, N(client_settlement_min_atomic), "10000", 0,
	    UINT64_C(1000000000000), false,
	    "the least USDC, in atomic units (6 decimals), a client_settlement fact's Transfer must move; "
	    "default 10000 = $0.01 (INSTALL, section 11)" },
	{ "pay_to", CT_ADDRESS, S(pay_to), "0x9eD16E6E1c0eA4f3739d1cF23041ed7aA782c08F", 0, 0,
	    false, "recipient of paid reads and paid review publication" },
	{ "facilitator_url", CT_URL, S(facilitator_url), "https://api.cdp.coinbase.com/platform/v2/x402", 0, 0,
	    false, "x402 facilitator base URL (/verify, /settle, /supported); the default is CDP's, for Base mainnet" },
	{ "facilitator_auth_header", CT_STRING, S(facilitator_auth_header), "", 0, 0, true,
	    "Authorization header value sent to the facilitator (e.g. \"Bearer <token>\"); empty: none; never logged" },
	{ "facilitator_timeout_ms", CT_UINT, N(facilitator_timeout_ms), "20000", 100, 600000, false,
	    "timeout of one facilitator /verify or /settle request, in milliseconds (settle waits for the transaction)" },
	{ "tls_ca_file", CT_STRING, S(tls_ca_file), "", 0, 0, false,
	    "CA certificates (PEM) for outbound HTTPS to the facilitator and the chain RPC; "
	    "empty: the system's" },
	{ "catalog_url", CT_URL, S(catalog_url), "", 0, 0, false,
	    "one Bazaar-compatible discovery API synced into the x402 network catalog (an alias of a "
	    "one-item catalog_urls, added to it); empty: none" },
	{ "catalog_urls", CT_URLS, S(catalog_urls), "", 0, 0, false,
	    "Bazaar-compatible discovery APIs synced into the x402 network catalog, separated by spaces "
	    "(at most 16); empty: none" },
	{ "catalog_pace_ms", CT_UINT, N(catalog_pace_ms), "200", 0, 60000, false,
	    "pause between two page requests to one catalog source, in milliseconds "
	    "(a source's Retry-After is honored besides)" },
	{ "catalog_max_listings", CT_UINT, N(catalog_max_listings), "250000", 1, 2000000, false,
	    "most listings read from one catalog source in a run; a source listing more fails its run, "
	    "which then changes nothing" },
	{ "payer_client", CT_STRING, S(payer_client), "agentcash", 0, 0, false,
	    "payer client named in discovery invocation handoffs" },
	{ "private_tip_key", CT_STRING, S(private_tip_key), "", 0, 0, true,
	    "64 hex digits: the AES-256-GCM key private-tip blobs are encrypted with at rest "
	    "(`waymark keygen` makes one); empty: private-tip blobs and unlocks answer 503; never logged" },
	{ "mpp_secret", CT_STRING, S(mpp_secret), "", 0, 0, true,
	    "at least 32 characters: the HMAC key binding MPP challenges (`waymark keygen` makes one); "
	    "the same on every worker host; empty: paid rows offer x402 only; never logged" },
	{ "mpp_secret_previous", CT_STRING, S(mpp_secret_previous), "", 0, 0, true,
	    "the mpp_secret before a rotation: credentials answering challenges it issued are still "
	    "accepted (for their five minutes), new challenges use mpp_secret; empty: none; never logged" },
};
const size_t config_nkeys = sizeof(config_keys) / sizeof(config_keys[0]);

char *
config_env_name(const char *key, char *out, size_t cap)
{
	size_t j = 0;
	int k = snprintf(out, cap, "WAYMARK_");

	if (k < 0 || (size_t)k >= cap)
		return out;
	j = (size_t)k;
	for (const char *p = key; *p && j + 1 < cap; p++)
		out[j++] = (char)toupper((unsigned char)*p);
	out[j] = '\0';
	return out;
}

static int
parse_uint(const char *s, uint64_t *out)
{
	char *end;
	unsigned long long v;

	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || *end != '\0')
		return -1;
	*out = v;
	return 0;
}

static bool
valid_url_text(const char *s)
{
	const char *rest;

	if (strncmp(s, "https://", 8) == 0)
		rest = s + 8;
	else if (strncmp(s, "http://", 7) == 0)
		rest = s + 7;
	else
		return false;
	if (*rest == '\0' || *rest == '/')
		return false;
	for (const char *p = s; *p; p++)
		if ((unsigned char)*p <= ' ' || *p == 0x7f)
			return false;
	return true;
}

/* Set one key from text; -1 with a reason in why[cap]. */
static int
set_value(struct config *c, const struct config_key *k, const char *v, char *why, size_t cap)
{
	char *dst = (char *)c + k->offset;

	switch (k->type) {
	case CT_STRING:
		if (strlen(v) >= k->size) {
			snprintf(why, cap, "longer than %zu characters", k->size - 1);
			return -1;
		}
		memcpy(dst, v, strlen(v) + 1);
		return 0;
	case CT_URL:
		if (*v && !valid_url_text(v)) {
			snprintf(why, cap, "not an http(s) URL with a host");
			return -1;
		}
		if (strlen(v) >= k->size) {
			snprintf(why, cap, "longer than %zu characters", k->size - 1);
			return -1;
		}
		/* Stored without a trailing slash so paths can be appended. */
		memcpy(dst, v, strlen(v) + 1);
		for (size_t n = strlen(dst); n > 0 && dst[n - 1] == '/'; n--)
			dst[n - 1] = '\0';
		return 0;
	case CT_UINT: {
		uint64_t u;

		if (parse_uint(v, &u) < 0 || u < k->min || u > k->max) {
			snprintf(why, cap, "not an integer in %" PRIu64 "..%" PRIu64, k->min, k->max);
			return -1;
		}
		memcpy(dst, &u, sizeof(u));
		return 0;
	}
	case CT_ADDRESS: {
		struct addr a;

		if (addr_parse(v, strlen(v), &a) < 0) {
			snprintf(why, cap, "not an address (0x + 40 hex digits, EIP-55 or lowercase)");
			return -1;
		}
		memcpy(dst, &a, sizeof(a));
		return 0;
	}
	case CT_LISTEN: {
		const char *colon = strrchr(v, ':');
		uint64_t port;

		if (colon == NULL || colon == v || parse_uint(colon + 1, &port) < 0 || port < 1 ||
		    port > 65535 || strlen(v) >= k->size || strpbrk(v, " \t/")) {
			snprintf(why, cap, "not host:port");
			return -1;
		}
		memcpy(dst, v, strlen(v) + 1);
		return 0;
	}
	case CT_NETWORK: {
		uint64_t id;

		if (strncmp(v, "eip155:", 7) != 0 || v[7] == '0' || parse_uint(v + 7, &id) < 0 ||
		    id == 0 || strlen(v) >= k->size) {
			snprintf(why, cap, "not a CAIP-2 eip155:<chain id> network");
			return -1;
		}
		memcpy(dst, v, strlen(v) + 1);
		return 0;
	}
	case CT_URLS: {
		/* Each URL checked as CT_URL is; kept with one space between. */
		size_t j = 0, n = 0;

		for (const char *p = v; *p;) {
			char one[CONFIG_STR_MAX];
			size_t len;

			while (*p == ' ' || *p == '\t')
				p++;
			len = strcspn(p, " \t");
			if (len == 0)
				break;
			if (len >= sizeof(one)) {
				snprintf(why, cap, "a URL longer than %zu characters", sizeof(one) - 1);
				return -1;
			}
			memcpy(one, p, len);
			one[len] = '\0';
			p += len;
			if (!valid_url_text(one)) {
				snprintf(why, cap, "%.80s is not an http(s) URL with a host", one);
				return -1;
			}
			while (len > 0 && one[len - 1] == '/')
				one[--len] = '\0';
			if (++n > CONFIG_CATALOG_SOURCES_MAX) {
				snprintf(why, cap, "more than %d URLs", CONFIG_CATALOG_SOURCES_MAX);
				return -1;
			}
			if (j + len + 2 > k->size) {
				snprintf(why, cap, "longer than %zu characters", k->size - 1);
				return -1;
			}
			if (j)
				dst[j++] = ' ';
			memcpy(dst + j, one, len);
			j += len;
		}
		dst[j] = '\0';
		return 0;
	}
	case CT__MAX:
		break;
	}
	snprintf(why, cap, "unknown type");
	return -1;
}

static const struct config_key *
find_key(const char *name)
{
	for (size_t i = 0; i < config_nkeys; i++)
		if (strcmp(config_keys[i].name, name) == 0)
			return &config_keys[i];
	return NULL;
}

static char *
trim(char *s)
{
	char *e;

	while (*s == ' ' || *s == '\t')
		s++;
	e = s + strlen(s);
	while (e > s && (e[-1] == ' ' || e[-1] == '\t' || e[-1] == '\r' || e[-1] == '\n'))
		*--e = '\0';
	return s;
}

static int
load_file(struct config *c, const char *path, char *err, size_t cap)
{
	FILE *f = fopen(path, "r");
	char line[4096], why[160];
	bool seen[CONFIG_KEYS_MAX] = { false };
	unsigned lineno = 0;
	int rc = -1;
	struct stat st;

	if (f == NULL) {
		snprintf(err, cap, "config: cannot open %s", path);
		return -1;
	}
	/* The file holds the secrets: one that others may read (or write)
	 * is refused before a line of it is used (INSTALL section 11). */
	if (fstat(fileno(f), &st) != 0) {
		snprintf(err, cap, "config: cannot stat %s", path);
		goto out;
	}
	if (st.st_mode & (S_IRWXO | S_IWGRP)) {
		snprintf(err, cap, "config: %s is open to others or writable by its group (mode %04o) "
		    "and holds secrets (db_password, facilitator_auth_header, private_tip_key, "
		    "mpp_secret): chmod 600 it, or 640 with the group of run_user", path,
		    (unsigned)(st.st_mode & 07777));
		goto out;
	}
	/* Whoever owns it can rewrite it: root, or the user reading it. */
	if (st.st_uid != 0 && st.st_uid != geteuid()) {
		snprintf(err, cap, "config: %s is owned by uid %u, neither root nor this user (uid %u), "
		    "who could rewrite it: chown it to root (or to the user that starts the service)",
		    path, (unsigned)st.st_uid, (unsigned)geteuid());
		goto out;
	}
	while (fgets(line, sizeof(line), f)) {
		char *eq, *key, *val;
		const struct config_key *k;

		lineno++;
		if (strchr(line, '\n') == NULL && !feof(f)) {
			snprintf(err, cap, "config: %s:%u: line too long", path, lineno);
			goto out;
		}
		key = trim(line);
		if (*key == '\0' || *key == '#')
			continue;
		eq = strchr(key, '=');
		if (eq == NULL) {
			snprintf(err, cap, "config: %s:%u: expected key = value", path, lineno);
			goto out;
		}
		*eq = '\0';
		key = trim(key);
		val = trim(eq + 1);
		k = find_key(key);
		if (k == NULL) {
			snprintf(err, cap, "config: %s:%u: unknown key \"%s\"", path, lineno, key);
			goto out;
		}
		if (seen[k - config_keys]) {
			snprintf(err, cap, "config: %s:%u: key \"%s\" given twice", path, lineno, key);
			goto out;
		}
		seen[k - config_keys] = true;
		if (set_value(c, k, val, why, sizeof(why)) < 0) {
			snprintf(err, cap, "config: %s:%u: %s: %s", path, lineno, key, why);
			goto out;
		}
	}
	rc = 0;
out:
	fclose(f);
	return rc;
}

#define DB_HOSTS_ERR "config: db_hosts (WAYMARK_DB_HOSTS): "

/*
 * One entry of db_hosts (spaces already trimmed) into n: host, host:port,
 * [v6] or [v6]:port; the port defaults to db_port. -1 with the reason in
 * why[cap].
 */
static int
parse_db_node(char *ent, uint64_t dflt_port, struct config_db_node *n, char *why, size_t cap)
{
	static const char name_chars[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	    "0123456789.-_";
	char *host = ent, *port = NULL;
	size_t hlen;

	if (ent[0] == '[') {
		char *close = strchr(ent, ']');

		if (close == NULL || (close[1] != '\0' && close[1] != ':')) {
			snprintf(why, cap, "not [IPv6 address] or [IPv6 address]:port");
			return -1;
		}
		if (close[1] == ':')
			port = close + 2;
		*close = '\0';
		host = ent + 1;
		hlen = strlen(host);
		if (hlen == 0 || strspn(host, "0123456789abcdefABCDEF:.") != hlen) {
			snprintf(why, cap, "not an IPv6 address in brackets");
			return -1;
		}
	} else {
		char *colon = strchr(ent, ':');

		if (colon) {
			*colon = '\0';
			port = colon + 1;
		}
		hlen = strlen(host);
		if (hlen == 0 || strspn(host, name_chars) != hlen) {
			snprintf(why, cap, "not host or host:port (a name or an address; an IPv6 address "
			    "goes in brackets)");
			return -1;
		}
	}
	if (hlen >= sizeof(n->host)) {
		snprintf(why, cap, "a host longer than %zu characters", sizeof(n->host) - 1);
		return -1;
	}
	memcpy(n->host, host, hlen + 1);
	n->port = dflt_port;
	if (port && (parse_uint(port, &n->port) < 0 || n->port < 1 || n->port > 65535)) {
		snprintf(why, cap, "a port that is not a number in 1..65535");
		return -1;
	}
	return 0;
}

/*
 * db_hosts into c->db_node[] and c->db_nodes: at most CONFIG_DB_NODES_MAX
 * entries separated by commas, none empty, none twice. -1 with a message
 * in err[cap].
 */
static int
parse_db_hosts(struct config *c, char *err, size_t cap)
{
	char list[sizeof(c->db_hosts)], why[128];
	char *p = list;
	size_t k = 0;

	c->db_nodes = 0;
	memcpy(list, c->db_hosts, sizeof(list));
	if (*trim(list) == '\0')
		return 0;
	for (;;) {
		char *comma = strchr(p, ','), *ent;

		if (comma)
			*comma = '\0';
		ent = trim(p);
		k++;
		if (*ent == '\0') {
			snprintf(err, cap, DB_HOSTS_ERR "entry %zu is empty", k);
			return -1;
		}
		if (k > CONFIG_DB_NODES_MAX) {
			snprintf(err, cap, DB_HOSTS_ERR "more than %d nodes", CONFIG_DB_NODES_MAX);
			return -1;
		}
		if (parse_db_node(ent, c->db_port, &c->db_node[k - 1], why, sizeof(why)) < 0) {
			snprintf(err, cap, DB_HOSTS_ERR "entry %zu: %s", k, why);
			return -1;
		}
		for (size_t i = 0; i + 1 < k; i++) {
			if (strcmp(c->db_node[i].host, c->db_node[k - 1].host) == 0 &&
			    c->db_node[i].port == c->db_node[k - 1].port) {
				snprintf(err, cap, DB_HOSTS_ERR "entries %zu and %zu name the same node", i + 1, k);
				return -1;
			}
		}
		if (comma == NULL)
			break;
		p = comma + 1;
	}
	c->db_nodes = k;
	return 0;
}

/* Checks across keys, and defaults derived from other keys. */
static int
finish(struct config *c, char *err, size_t cap)
{
	char want[64];

	if (c->public_base_url[0] == '\0')
		snprintf(c->public_base_url, sizeof(c->public_base_url), "http://%s", c->listen);
	if (c->app_url[0] == '\0')
		snprintf(c->app_url, sizeof(c->app_url), "%s", c->public_base_url);
	if (c->docs_url[0] == '\0' &&
	    snprintf(c->docs_url, sizeof(c->docs_url), "%s/docs", c->public_base_url) >=
	    (int)sizeof(c->docs_url)) {
		snprintf(err, cap, "config: docs_url (WAYMARK_DOCS_URL): too long");
		return -1;
	}
	snprintf(want, sizeof(want), "eip155:%" PRIu64, c->chain_id);
	if (strcmp(want, c->network) != 0) {
		snprintf(err, cap, "config: network (WAYMARK_NETWORK) is %s but chain_id "
		    "(WAYMARK_CHAIN_ID) is %" PRIu64 "; they must name the same chain",
		    c->network, c->chain_id);
		return -1;
	}
	if (c->private_tip_key[0] != '\0') {
		size_t n = strlen(c->private_tip_key);

		if (n != 64 || strspn(c->private_tip_key, "0123456789abcdefABCDEF") != n) {
			snprintf(err, cap, "config: private_tip_key (WAYMARK_PRIVATE_TIP_KEY) must be 64 "
			    "hex digits (32 bytes); `waymark keygen` makes one");
			return -1;
		}
	}
	/* A secret someone typed ("aaaa...", "password1234...") is guessable:
	 * at least 12 distinct characters (keygen's 64 hex digits have ~16). */
	for (int k = 0; k < 2; k++) {
		const char *sec = k ? c->mpp_secret_previous : c->mpp_secret;
		bool seen[256] = { false };
		size_t distinct = 0;

		for (const unsigned char *p = (const unsigned char *)sec; *p; p++)
			if (!seen[*p]) {
				seen[*p] = true;
				distinct++;
			}
		if (sec[0] != '\0' && (strlen(sec) < 32 || distinct < 12)) {
			snprintf(err, cap, "config: %s (WAYMARK_%s) must be at least 32 characters with at "
			    "least 12 different ones; `waymark keygen` makes one", k ? "mpp_secret_previous" :
			    "mpp_secret", k ? "MPP_SECRET_PREVIOUS" : "MPP_SECRET");
			return -1;
		}
	}
	if (c->mpp_secret_previous[0] != '\0' && c->mpp_secret[0] == '\0') {
		snprintf(err, cap, "config: mpp_secret_previous (WAYMARK_MPP_SECRET_PREVIOUS) is set "
		    "without mpp_secret: set the new secret as mpp_secret");
		return -1;
	}
	if (c->mpp_secret[0] != '\0' && strlen(c->mpp_secret) < 32) {
		snprintf(err, cap, "config: mpp_secret (WAYMARK_MPP_SECRET) must be at least 32 "
		    "characters; `waymark keygen` makes one");
		return -1;
	}
	/* A reservation may count as abandoned only after the longest paid
	 * request could have ended: /verify and /settle at their timeout. */
	if (c->payment_abandoned_s * 1000 <= 2 * c->facilitator_timeout_ms) {
		snprintf(err, cap, "config: payment_abandoned_s (WAYMARK_PAYMENT_ABANDONED_S) is %" PRIu64
		    " s, not above two facilitator calls at facilitator_timeout_ms (%" PRIu64 " ms each): "
		    "a payment still being settled would count as abandoned", c->payment_abandoned_s,
		    c->facilitator_timeout_ms);
		return -1;
	}
	if (c->run_user[0] == '\0') {
		snprintf(err, cap, "config: run_user (WAYMARK_RUN_USER) must name a user: the workers "
		    "and the indexer never run as root");
		return -1;
	}
	if (strcmp(c->run_user, "root") == 0) {
		snprintf(err, cap, "config: run_user (WAYMARK_RUN_USER) must not be root");
		return -1;
	}
	if (parse_db_hosts(c, err, cap) < 0)
		return -1;
	if (c->db_prefer > (c->db_nodes ? c->db_nodes : 1)) {
		if (c->db_nodes)
			snprintf(err, cap, "config: db_prefer (WAYMARK_DB_PREFER) is %" PRIu64 " but "
			    "db_hosts lists %zu node%s", c->db_prefer, c->db_nodes, c->db_nodes == 1 ? "" : "s");
		else
			snprintf(err, cap, "config: db_prefer (WAYMARK_DB_PREFER) is %" PRIu64 " but "
			    "db_hosts is empty (one server): it chooses a node of db_hosts", c->db_prefer);
		return -1;
	}
	if (addr_is_zero(&c->pay_to)) {
		snprintf(err, cap, "config: pay_to (WAYMARK_PAY_TO) must not be the zero address");
		return -1;
	}
	return 0;
}

int
config_load(struct config *c, const char *path, char *err, size_t cap)
{
	char why[160], env[96];

	memset(c, 0, sizeof(*c));
	if (config_nkeys > CONFIG_KEYS_MAX) {
		snprintf(err, cap, "config: too many keys");
		return -1;
	}
	for (size_t i = 0; i < config_nkeys; i++) {
		if (set_value(c, &config_keys[i], config_keys[i].def, why, sizeof(why)) < 0) {
			snprintf(err, cap, "config: built-in default of %s: %s", config_keys[i].name, why);
			return -1;
		}
	}
	if (path && *path && load_file(c, path, err, cap) < 0)
		return -1;
	for (size_t i = 0; i < config_nkeys; i++) {
		const char *v = getenv(config_env_name(config_keys[i].name, env, sizeof(env)));

		if (v == NULL)
			continue;
		if (set_value(c, &config_keys[i], v, why, sizeof(why)) < 0) {
			snprintf(err, cap, "config: %s (%s): %s", config_keys[i].name, env, why);
			return -1;
		}
	}
	return finish(c, err, cap);
}

int
config_get(const struct config *c, const char *key, char *out, size_t cap)
{
	const struct config_key *k = find_key(key);
	const char *src;
	int n;

	if (k == NULL)
		return -1;
	src = (const char *)c + k->offset;
	switch (k->type) {
	case CT_UINT: {
		uint64_t u;

		memcpy(&u, src, sizeof(u));
		n = snprintf(out, cap, "%" PRIu64, u);
		break;
	}
	case CT_ADDRESS: {
		char a[ADDR_TEXT_LEN + 1];

		addr_format((const struct addr *)(const void *)src, a);
		n = snprintf(out, cap, "%s", a);
		break;
	}
	default:
		n = snprintf(out, cap, "%s", src);
		break;
	}
	return (n < 0 || (size_t)n >= cap) ? -1 : 0;
}

int
config_catalog_source(const struct config *c, size_t i, char *out, size_t cap)
{
	const char *p = c->catalog_urls;
	size_t k = 0, ul = strlen(c->catalog_url);
	bool listed = false;

	while (*p) {
		size_t len = strcspn(p, " ");

		if (len == ul && strncmp(p, c->catalog_url, len) == 0)
			listed = true;
		if (k++ == i) {
			if (len >= cap)
				return -1;
			memcpy(out, p, len);
			out[len] = '\0';
			return 0;
		}
		p += len;
		while (*p == ' ')
			p++;
	}
	/* Past the list: catalog_url, unless it is empty or listed already. */
	if (i != k || ul == 0 || listed || ul >= cap)
		return -1;
	memcpy(out, c->catalog_url, ul + 1);
	return 0;
}

uint64_t
config_remote_timeout_ms(const struct config *c)
{
	uint64_t second = c->sigcheck_timeout_ms > c->rpc_timeout_ms ? c->sigcheck_timeout_ms : c->rpc_timeout_ms;

	return 2 * c->facilitator_timeout_ms + c->rpc_timeout_ms + second + 1000 * (3 * c->db_timeout + 5);
}
