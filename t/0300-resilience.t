#!/usr/bin/env bash
# A stack of its own (so the shared test stack is not disturbed):
#  - starting twice is harmless: same PIDs, still healthy;
#  - SIGKILL of one worker: later requests succeed, multiwatch forks a new one;
#  - MariaDB restarted under the running stack: 503 JSON while it is down,
#    200 again afterwards without restarting the workers;
#  - stop ends every process it started, by PID.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
: "${WAYMARK_TEST_PORT_BASE:?run through make test}"
export WAYMARK_VAR=$WAYMARK_VAR-resilience
# It stops MariaDB: a server of its own, not the suite's shared one (tools/stack).
unset WAYMARK_SHARED_DB
export WAYMARK_LISTEN=127.0.0.1:$WAYMARK_TEST_PORT_BASE
export WAYMARK_WORKERS=3
export WAYMARK_HEALTH_TTL_MS=0
url=http://$WAYMARK_LISTEN
rm -rf "$WAYMARK_VAR"
trap '"$top/tools/stack" stop >/dev/null 2>&1' EXIT

code() { curl -s -o /tmp/wm-res-$$ -w '%{http_code}' "$url/health"; }
workers() { pgrep -P "$(cat "$WAYMARK_VAR/run/workers.pid")" | sort; }
pids() { cat "$WAYMARK_VAR/run/mariadbd.pid" "$WAYMARK_VAR/run/workers.pid" "$WAYMARK_VAR/nginx/run/nginx.pid"; }

"$top/tools/stack" start >/dev/null; ok $? "stack starts"
is "$(code)" 200 "healthy"
before=$(pids)
"$top/tools/stack" start >/dev/null; ok $? "starting again succeeds"
is "$(pids)" "$before" "starting again keeps the same MariaDB, pool and nginx"
is "$(code)" 200 "still healthy"
is "$(workers | wc -l)" 3 "three workers run"

# Kill one worker.
victim=$(workers | head -n1)
kill -KILL "$victim"
fails=0
for i in $(seq 50); do [ "$(code)" = 200 ] || fails=$((fails + 1)); done
is "$fails" 0 "50 requests after SIGKILL of a worker all answer 200"
n=0
until [ "$(workers | wc -l)" = 3 ] && ! workers | grep -qx "$victim"; do
	n=$((n + 1)); [ $n -lt 250 ] || break; sleep 0.02
done
is "$(workers | wc -l)" 3 "the pool is back to three workers"
ok $(workers | grep -qx "$victim" && echo 1 || echo 0) "the killed worker was replaced by a new process"

# Restart MariaDB under the running stack.
wpids=$(workers)
"$top/tools/stack" db-stop
is "$(code)" 503 "with MariaDB down /health answers 503"
is "$(jq -r .error /tmp/wm-res-$$)" database_unavailable "with the JSON error database_unavailable"
req_ok=$(curl -s -o /dev/null -w '%{http_code}' -H 'Content-Type: application/json' \
	--data-binary '{"requests":[{"method":"GET","path":"/health"}]}' "$url/api/v1/workflows/cost-preview")
is "$req_ok" 200 "endpoints that need no database keep answering"
"$top/tools/stack" db-start
n=0; until [ "$(code)" = 200 ] || [ $n -ge 250 ]; do n=$((n + 1)); sleep 0.02; done
is "$(code)" 200 "after MariaDB is back /health answers 200"
fails=0
for i in $(seq 30); do [ "$(code)" = 200 ] || fails=$((fails + 1)); done
is "$fails" 0 "every worker reconnected (30 more requests all 200)"
is "$(workers)" "$wpids" "without restarting the workers"

# Stop by PID.
all=$(pids; workers)
"$top/tools/stack" stop >/dev/null; ok $? "stack stops"
left=0
# Running: ps still lists it, and not as a zombie. (kill -0 then ps would
# count a zombie reaped between the two as running, and name nothing.)
for p in $all; do
	st=$(ps -o stat= -p "$p" 2>/dev/null)
	if [ -n "$st" ] && [ "${st:0:1}" != Z ]; then
		left=$((left + 1))
		ps -o pid=,stat=,etime=,args= -p "$p" | sed 's/^/#   left running: /' >&2
	fi
done
is "$left" 0 "no process the stack started is left running"
is "$(curl -s -o /dev/null -w '%{http_code}' "$url/health")" 000 "nothing listens any more"
rm -f /tmp/wm-res-$$
done_testing
