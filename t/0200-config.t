#!/usr/bin/env bash
# Configuration: one file plus WAYMARK_* overrides; an invalid value stops
# start-up with a message naming the key; INSTALL documents every key.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tool=$WAYMARK_BUILD/waymark
worker=$WAYMARK_BUILD/waymark-fcgi
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
clean() { env -u WAYMARK_CONFIG -u WAYMARK_LISTEN "$@"; }

out=$(clean "$tool" config check 2>&1); ok $? "defaults are valid"
is "$(clean "$tool" config get listen network pay_to | tr '\n' ' ')" \
	"127.0.0.1:8080 eip155:8453 0x9eD16E6E1c0eA4f3739d1cF23041ed7aA782c08F " "documented defaults"

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
