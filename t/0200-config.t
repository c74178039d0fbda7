#!/usr/bin/env bash
# Configuration: one file plus WAYMARK_* overrides; an invalid value stops
# start-up with a message naming the key; INSTALL documents every key.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark
worker=$WAYMARK_BUILD/waymark-fcgi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
clean() { env -u WAYMARK_CONFIG -u WAYMARK_LISTEN "$@"; }
umask 077   # a config file others can read is refused (below)

out=$(clean "$tool" config check 2>&1); ok $? "defaults are valid"
is "$(clean "$tool" config get listen network pay_to | tr '\n' ' ')" \
	"127.0.0.1:8080 eip155:8453 0x9eD16E6E1c0eA4f3739d1cF23041ed7aA782c08F " "documented defaults"

out=$(clean env WAYMARK_PAYMENT_ABANDONED_S=40 WAYMARK_FACILITATOR_TIMEOUT_MS=20000 "$tool" config check 2>&1)
is "$?" 2 "payment_abandoned_s not above two facilitator calls: refused (exit 2)"
like "$out" 'payment_abandoned_s \(WAYMARK_PAYMENT_ABANDONED_S\) is 40 s, not above two facilitator calls' "  naming both keys"
out=$(clean env WAYMARK_PAYMENT_ABANDONED_S=41 WAYMARK_FACILITATOR_TIMEOUT_MS=20000 "$tool" config check 2>&1)
ok $? "  41 s over two calls of 20 s: valid"

out=$(clean env WAYMARK_MPP_SECRET=abababababababababababababababab "$tool" config check 2>&1)
is "$?" 2 "an mpp_secret of 32 characters but 2 different ones: refused"
like "$out" 'mpp_secret \(WAYMARK_MPP_SECRET\) must be at least 32 characters with at least 12 different ones' "  saying why"
out=$(clean env WAYMARK_MPP_SECRET_PREVIOUS="$(printf '%064x' 1234567890123456789)" "$tool" config check 2>&1)
is "$?" 2 "mpp_secret_previous without mpp_secret: refused"
out=$(clean env WAYMARK_MPP_SECRET=0123456789abcdef0123456789abcdef WAYMARK_MPP_SECRET_PREVIOUS=fedcba9876543210fedcba9876543210 "$tool" config check 2>&1)
ok $? "a new mpp_secret with the previous one kept for the rotation: valid"

printf 'listen = 127.0.0.1:9999\nworkers = 3 # not a comment: invalid\n' > "$tmp/bad.conf"
out=$(clean "$tool" -c "$tmp/bad.conf" config check 2>&1); rc=$?
is "$rc" 2 "an invalid file value exits 2"
like "$out" 'workers' "the message names the key"

printf 'listen = 127.0.0.1:9999\nworkers = 3\n# comment\n\npay_to = 0x000000000000000000000000000000000000dEaD\n' > "$tmp/ok.conf"
is "$(clean "$tool" -c "$tmp/ok.conf" config get listen workers | tr '\n' ' ')" "127.0.0.1:9999 3 " "file values are read"
is "$(clean env WAYMARK_WORKERS=5 "$tool" -c "$tmp/ok.conf" config get workers)" 5 "the environment overrides the file"

printf 'no_such_key = 1\n' > "$tmp/unknown.conf"
out=$(clean "$tool" -c "$tmp/unknown.conf" config check 2>&1)
like "$out" 'unknown key "no_such_key"' "an unknown key is named"
printf 'workers = 2\nworkers = 3\n' > "$tmp/twice.conf"
out=$(clean "$tool" -c "$tmp/twice.conf" config check 2>&1)
like "$out" 'given twice' "a repeated key is refused"
out=$(clean "$tool" -c "$tmp/missing.conf" config check 2>&1); rc=$?
is "$rc" 2 "a missing config file stops start-up"

# The file holds the secrets: one others may read or write is refused, by
# the operator's tool, the worker and the indexer alike, before any use.
printf 'listen = 127.0.0.1:9999\ndb_password = hunter2\nrpc_url = http://127.0.0.1:1\n' > "$tmp/open.conf"
for mode in 644 604 602 601 620 660; do
	chmod "$mode" "$tmp/open.conf"
	out=$(clean "$tool" -c "$tmp/open.conf" config check 2>&1); rc=$?
	is "$rc" 2 "a config file of mode $mode is refused"
	like "$out" "config: $tmp/open.conf is open to others or writable by its group \(mode 0$mode\) and holds secrets" \
		"the message names the file, its mode and why"
done
like "$out" 'chmod 600 it, or 640 with the group of run_user' "and says what to do"
# Its owner can rewrite it: only root or the reading user may own it. Shown
# by handing it to another user, which only root can do.
chmod 600 "$tmp/open.conf"
if [ "$(id -u)" = 0 ]; then
	chown 65534 "$tmp/open.conf"
	out=$(clean "$tool" -c "$tmp/open.conf" config check 2>&1); rc=$?
	is "$rc" 2 "a config file owned by another user (uid 65534) is refused"
	like "$out" "is owned by uid 65534, neither root nor this user" "  naming the owner"
	chown 0 "$tmp/open.conf"
else
	tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP only root can give the file to another user"
	tap_n=$((tap_n + 1)); echo "ok $tap_n # SKIP only root can give the file to another user"
fi
chmod 644 "$tmp/open.conf"
out=$(clean "$tool" -c "$tmp/open.conf" config get db_password 2>&1); rc=$?
is "$rc:$(grep -c hunter2 <<<"$out")" 2:0 "config get of a refused file fails and prints no secret"
out=$(clean "$worker" -c "$tmp/open.conf" -s "$tmp/w.sock" 2>&1 </dev/null); rc=$?
is "$rc" 2 "the worker refuses it"
like "$out" "waymark-fcgi: config: $tmp/open.conf is open to others" "with the same message"
ok "$([ ! -e "$tmp/w.sock" ]; echo $?)" "before opening its socket"
out=$(clean "$WAYMARK_BUILD/waymark-indexer" -c "$tmp/open.conf" 2>&1 </dev/null); rc=$?
is "$rc" 2 "the indexer refuses it"
like "$out" "waymark-indexer: config: $tmp/open.conf is open to others" "with the same message"
for mode in 600 640 400 440; do
	chmod "$mode" "$tmp/open.conf"
	is "$(clean "$tool" -c "$tmp/open.conf" config get listen 2>&1)" 127.0.0.1:9999 "mode $mode is accepted"
done
is "$(stat -c %a "$WAYMARK_VAR/waymark.conf")" 600 "tools/stack writes its configuration 0600"
is "$(stat -c %a "$WAYMARK_VAR/secrets/keys.conf")" 600 "and its kept secrets 0600"
is "$(stat -c %a "$WAYMARK_VAR/my.cnf")" 600 "and MariaDB's 0600"

for bad in WAYMARK_PAY_TO=0x12 WAYMARK_PAY_TO=0x0000000000000000000000000000000000000000 \
	WAYMARK_USDC_ADDRESS=0x833589fcd6edb6e08f4c7c32d4f71b54bda0291X WAYMARK_CHAIN_ID=0 \
	WAYMARK_NETWORK=eip155:1 WAYMARK_NETWORK=base WAYMARK_LISTEN=8080 WAYMARK_WORKERS=0 \
	WAYMARK_FACILITATOR_URL=ftp://x WAYMARK_PUBLIC_BASE_URL=localhost:8080 \
	WAYMARK_USDC_ADDRESS=0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02914 WAYMARK_CONFIRMATIONS=-1; do
	key=${bad%%=*}
	out=$(clean env "$bad" "$worker" 2>&1 </dev/null); rc=$?
	is "$rc" 2 "worker refuses to start with $bad"
	like "$out" "$key" "and names $key"
done

# The address checksum rule: a correct EIP-55 form and lowercase are both fine.
out=$(clean env WAYMARK_USDC_ADDRESS=0x833589fcd6edb6e08f4c7c32d4f71b54bda02913 "$tool" config get usdc_address)
is "$out" 0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913 "lowercase address accepted and printed EIP-55"

# INSTALL documents every key and its environment variable.
while IFS=$'\t' read -r key env def doc; do
	grep -q "\`$key\`" "$top/INSTALL"; ok $? "INSTALL documents $key"
	grep -q "$env" "$top/INSTALL"; ok $? "INSTALL names $env"
done < <("$tool" config keys)
done_testing
