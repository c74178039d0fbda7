#!/usr/bin/env bash
# Paid requests never hold the house: the worker's threads and its two pools
# (INSTALL section 4), with the real facilitator (t/tools/facilitator.mjs)
# holding its answers until the test releases them. Structural facts only,
# never timings:
#   - 16 paid reads held at the facilitator are 16 calls in flight there at
#     once, while free discovery, /health and the cost preview answer 200;
#     released, all 16 settle exactly once (USDC balances);
#   - one remote worker process killed while requests are held: the free
#     pool and the other process still answer, multiwatch replaces it, and
#     only the answered requests were charged;
#   - with payment_max_in_flight 4 (for the pool, over two processes), the
#     fifth concurrent paid request gets 503 payment_unavailable with Retry-After at once, never reaches the
#     facilitator, and no USDC moves for it;
#   - behind a TLS-terminating proxy (nginx, self-signed certificate, the CA
#     file, readable by root only, as tls_ca_file: the workers read it before
#     they give root up), 200 paid requests open no more connections to
#     the facilitator than the remote pool has threads, and 20 sequential
#     ones no more than two (the kernel wakes the first-registered idle
#     thread: fcgi/main.c, accept order).
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
tools=$top/t/tools
PAID=/api/v1/x402/routes?limit=1
PRICE=10000

# Held calls must outlast the waits of a loaded machine: the worker's own
# facilitator timeout is raised (nginx's read timeout follows it), and with
# it the age at which a reservation counts as abandoned, which the
# configuration check keeps above two facilitator calls.
export WAYMARK_FACILITATOR_TIMEOUT_MS=300000 WAYMARK_PAYMENT_ABANDONED_S=601
paid_stack concurrency 55
fac=http://127.0.0.1:$fport
stats() { curl -s "$fac/_stats"; }
hold() { curl -s -X POST -H 'Content-Type: application/json' -d "$1" "$fac/_hold" >/dev/null; }
release() { curl -s -X POST "$fac/_release" | jq -r .released; }
reset_stats() { curl -s -X POST "$fac/_stats/reset" >/dev/null; }
# until JQ-CONDITION holds for /_stats (20 s at most)
wait_stats() {
	local n=0
	until jq -e "$1" <<<"$(stats)" >/dev/null 2>&1 || [ $n -ge 1000 ]; do n=$((n + 1)); sleep 0.02; done
	jq -e "$1" <<<"$(stats)" >/dev/null 2>&1
}
# pay_bg N TAG: N paid reads in the background, each by the real client;
# their answers land in $http_tmp/TAG.<i>
pay_bg() {
	local i
	for i in $(seq "$1"); do
		node "$tools/pay.mjs" --key "$KEY1" --url "$URL$PAID" > "$http_tmp/$2.$i" 2>/dev/null &
		echo $! >> "$http_tmp/$2.pids"
	done
}
wait_bg() { local p; for p in $(cat "$http_tmp/$1.pids"); do wait "$p" 2>/dev/null; done; }
count_status() { cat "$http_tmp/$1".[0-9]* | jq -r .status | grep -c "^$2\$"; }
free_reads_answer() {
	local what=$1
	req GET "/api/v1/x402/discovery?q=weather&limit=5"
	is "$status" 200 "$what: free discovery answers"
	req GET /health
	is "$status" 200 "$what: /health answers"
	req POST /api/v1/workflows/cost-preview -H 'Content-Type: application/json' \
		--data-binary '{"requests":[{"method":"GET","path":"/health"}]}'
	is "$status" 200 "$what: the cost preview answers"
}
remote_workers() { pgrep -P "$(cat "$WAYMARK_VAR/run/workers-remote.pid")" | sort; }

# ---- the layout: two pools, each path routed to its own
"$top/tools/stack" status | grep -q '^remote workers: running'
ok $? "the remote pool runs beside the free pool"
is "$(remote_workers | wc -l)" "$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" config get remote_workers)" \
	"multiwatch runs remote_workers processes"
# serving threads + the main thread (+ ThreadSanitizer's own, in that build)
tasks=$(ls /proc/"$(remote_workers | head -n1)"/task | wc -l)
rthreads=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" config get remote_threads)
ok $([ "$tasks" -ge $((rthreads + 1)) ] && [ "$tasks" -le $((rthreads + 2)) ] && echo 0 || echo 1) \
	"a remote worker runs remote_threads ($rthreads) serving threads and its main thread ($tasks tasks)"
routes=$WAYMARK_VAR/nginx/waymark-routes.conf
loc() { sed -n "\|^location = $1 |,/^}/p" "$routes"; }   # loc PATH: that location's block
is "$(loc /api/v1/x402/discovery | grep -c 'fastcgi_pass waymark_workers;')" 1 \
	"nginx sends discovery to the free pool"
is "$(loc /api/v1/x402/routes | grep -c 'fastcgi_pass waymark_remote;')" 1 \
	"nginx sends the paid directory to the remote pool"
is "$(loc /api/v1/x402/reviews | grep -c 'fastcgi_pass waymark_remote;')" 1 \
	"nginx sends boon_backed publication (chain-checked signatures) to the remote pool"

# ---- 16 paid reads held at the facilitator
payer0=$(balance "$PAYER"); payto0=$(balance "$PAYTO")
reset_stats
hold '{"verify":true}'
pay_bg 16 held
wait_stats '.held.verify == 16'
ok $? "16 paid reads wait at the facilitator at once"
is "$(stats | jq .maxInFlight.verify)" 16 "the facilitator saw 16 verify calls in flight at once"
free_reads_answer "16 paid reads held"
is "$(release)" 16 "released all 16"
wait_bg held
is "$(count_status held 200)" 16 "all 16 paid reads answer 200"
is "$(stats | jq .calls.settle)" 16 "16 settle calls, one each"
is "$(( payer0 - $(balance "$PAYER") ))" $(( 16 * PRICE )) "the payer paid 16 times the price, no more"
is "$(( $(balance "$PAYTO") - payto0 ))" $(( 16 * PRICE )) "payTo received 16 times the price"
is "$(sql "SELECT COUNT(*) FROM x402_payments WHERE status = 'settled'")" 16 "16 settled ledger rows"

# ---- a remote worker killed while requests are held
before=$(remote_workers)
payer0=$(balance "$PAYER")
reset_stats
hold '{"verify":true}'
pay_bg 8 kill
wait_stats '.held.verify == 8'
ok $? "8 paid reads held"
victim=$(head -n1 <<<"$before")
kill -KILL "$victim"
n=0; until [ "$(remote_workers | wc -l)" = "$(wc -l <<<"$before")" ] && ! remote_workers | grep -qx "$victim" ||
	[ $n -ge 500 ]; do n=$((n + 1)); sleep 0.02; done
ok $(remote_workers | grep -qx "$victim" && echo 1 || echo 0) "the killed worker is gone"
is "$(remote_workers | wc -l)" "$(wc -l <<<"$before")" "multiwatch replaced it"
free_reads_answer "a remote worker killed"
release >/dev/null
wait_bg kill
served=$(count_status kill 200)
lost=$(count_status kill 503)
is "$((served + lost))" 8 "every held request got an answer: 200, or 503 when its worker died ($served, $lost)"
is "$(( payer0 - $(balance "$PAYER") ))" $(( served * PRICE )) "only the answered requests were charged"
hold '{}'
res=$(node "$tools/pay.mjs" --key "$KEY1" --url "$URL$PAID")
is "$(jq -r .status <<<"$res")" 200 "the remote pool serves paid reads again"

# ---- the in-flight cap: 4 for the pool, over its two processes (the
# socket may hand all five requests to one process or spread them)
"$top/tools/stack" stop >/dev/null 2>&1
export WAYMARK_PAYMENT_MAX_IN_FLIGHT=4
"$top/tools/stack" start >/dev/null
ok $? "the stack restarts with payment_max_in_flight 4"
is "$(pgrep -c -P "$(cat "$WAYMARK_VAR/run/workers-remote.pid")")" 2 "two remote processes share the cap"
payer0=$(balance "$PAYER")
reset_stats
hold '{"verify":true}'
pay_bg 4 cap
wait_stats '.held.verify == 4'
ok $? "4 paid reads held at the facilitator"
res=$(node "$tools/pay.mjs" --key "$KEY1" --url "$URL$PAID")
is "$(jq -r .status <<<"$res")" 503 "the fifth concurrent paid read: 503"
is "$(jq -r .body.error <<<"$res")" payment_unavailable "with payment_unavailable"
sig=$(node "$tools/pay.mjs" --key "$KEY1" --url "$URL$PAID" --signature-out "$http_tmp/sig5" >/dev/null; cat "$http_tmp/sig5")
req GET "$PAID" -H "PAYMENT-SIGNATURE: $sig"
is "$status" 503 "the same refusal, seen with curl"
like "$(header retry-after)" '^[0-9]+$' "with Retry-After"
is "$(stats | jq .calls.verify)" 4 "the refused requests never reached the facilitator"
is "$(release)" 4 "released the 4"
wait_bg cap
is "$(count_status cap 200)" 4 "the 4 admitted reads answer 200"
is "$(( payer0 - $(balance "$PAYER") ))" $(( 4 * PRICE )) "USDC moved for the 4 only"
res=$(node "$tools/pay.mjs" --key "$KEY1" --url "$URL$PAID")
is "$(jq -r .status <<<"$res")" 200 "with places free again, a paid read is served"
unset WAYMARK_PAYMENT_MAX_IN_FLIGHT

# ---- keep-alive to the facilitator, through a TLS-terminating proxy
tls=$WAYMARK_VAR-tls
rm -rf "$tls"; mkdir -p "$tls/logs" "$tls/tmp"
openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -days 1 -subj /CN=127.0.0.1 \
	-addext subjectAltName=IP:127.0.0.1 -keyout "$tls/key.pem" -out "$tls/cert.pem" 2>/dev/null
ok $? "a self-signed certificate for 127.0.0.1"
# The workers read the CA file once at their start, still root, before
# they become run_user (lib/cabundle.h): a copy only root may read serves
# them, as one in a checkout under /root (mode 700) would.
ca=$(mktemp /tmp/waymark-ca.XXXXXX)
cp "$tls/cert.pem" "$ca" && chmod 600 "$ca"
run_user=$("$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" config get run_user)
ok $(runuser -u "$run_user" -- test -r "$ca" && echo 1 || echo 0) "the CA file is one run_user ($run_user) cannot read"
WAYMARK_TLS_CA_FILE=$tls/missing.pem "$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" config check \
	>/dev/null 2>"$tls/check.err"
is "$?" 2 "config check refuses a tls_ca_file that cannot be read"
like "$(cat "$tls/check.err")" 'tls_ca_file .*/missing\.pem: No such file' "  naming the key and the file"
WAYMARK_TLS_CA_FILE=$ca "$WAYMARK_BUILD/waymark" -c "$WAYMARK_VAR/waymark.conf" config check >/dev/null
ok $? "  and accepts the root-only one (it runs as root)"
tport=$((WAYMARK_TEST_PORT_BASE + 57))
cat > "$tls/nginx.conf" <<CONF
worker_processes 1;
pid $tls/nginx.pid;
error_log $tls/logs/error.log warn;
events { worker_connections 1024; }
http {
    client_body_temp_path $tls/tmp;
    proxy_temp_path $tls/tmp;
    log_format conn '\$connection \$request_uri \$ssl_session_reused';
    access_log $tls/logs/access.log conn;
    keepalive_requests 100000;
    keepalive_timeout 300s;
    upstream facilitator {
        server 127.0.0.1:$fport;
        keepalive 16;
    }
    server {
        listen 127.0.0.1:$tport ssl;
        ssl_certificate $tls/cert.pem;
        ssl_certificate_key $tls/key.pem;
        location / {
            proxy_pass http://facilitator;
            proxy_http_version 1.1;
            proxy_set_header Connection "";
        }
    }
}
CONF
nginx -p "$tls" -c "$tls/nginx.conf" 2>"$tls/logs/start.log"
ok $? "the TLS proxy starts"
trap '[ -n "$fpid" ] && kill "$fpid" 2>/dev/null; [ -f "$tls/nginx.pid" ] && kill -QUIT "$(cat "$tls/nginx.pid")"; rm -rf "$http_tmp" "$ca"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
"$top/tools/stack" stop >/dev/null 2>&1
threads=4
export WAYMARK_FACILITATOR_URL=https://127.0.0.1:$tport WAYMARK_TLS_CA_FILE=$ca
export WAYMARK_REMOTE_WORKERS=1 WAYMARK_REMOTE_THREADS=$threads
"$top/tools/stack" start >/dev/null
ok $? "the stack restarts with the facilitator behind the TLS proxy, one remote process of $threads threads"
mint "$PAYER" 3000000
payer0=$(balance "$PAYER")
: > "$tls/logs/access.log"
load=$(node "$tools/bench-paid-load.mjs" --url "$URL$PAID" --key "$KEY1" --c 8 --n 200)
is "$(jq -r .ok <<<"$load")" 200 "200 paid reads through the proxy answer 200"
is "$(( payer0 - $(balance "$PAYER") ))" $(( 200 * PRICE )) "each settled once"
calls=$(grep -cE ' /(verify|settle) ' "$tls/logs/access.log")
is "$calls" 400 "400 facilitator calls crossed the proxy"
conns=$(grep -E ' /(verify|settle) ' "$tls/logs/access.log" | cut -d' ' -f1 | sort -u | wc -l)
ok $([ "$conns" -ge 1 ] && [ "$conns" -le "$threads" ] && echo 0 || echo 1) \
	"they used $conns TLS connections, no more than the $threads worker threads"

# ---- a light load keeps to the threads it has: each remote thread waits
# in an epoll set of its own (EPOLLEXCLUSIVE), and the kernel wakes the
# first idle one in registration order (fcgi/main.c, accept order):
# sequential paid reads are served by two threads at most, never by a
# colder one, where the kernel's accept() order (the thread idle longest)
# would open one connection per thread
"$top/tools/stack" stop >/dev/null 2>&1
export WAYMARK_REMOTE_THREADS=16
"$top/tools/stack" start >/dev/null
ok $? "the stack restarts with one remote process of 16 threads"
: > "$tls/logs/access.log"
load=$(node "$tools/bench-paid-load.mjs" --url "$URL$PAID" --key "$KEY1" --c 1 --n 20)
is "$(jq -r .ok <<<"$load")" 20 "20 sequential paid reads answer 200"
conns=$(grep -E ' /(verify|settle) ' "$tls/logs/access.log" | cut -d' ' -f1 | sort -u | wc -l)
ok $([ "$conns" -ge 1 ] && [ "$conns" -le 2 ] && echo 0 || echo 1) \
	"they used $conns TLS connections (at most 2 of the 16 threads' connections)"
req GET /health
is "$status" 200 "the stack is healthy afterwards"
done_testing
