#!/usr/bin/env bash
# Issue 27: the FastCGI workers and the indexer never run as root. The
# stack this suite runs is the one `make run` starts (tools/stack start):
# its worker and indexer processes, read from /proc, hold no uid 0 and no
# capability; started as root they are run_user (waymark) with its primary
# group alone. A worker started as root by hand has dropped before its
# first request, a rolling restart brings back workers that have dropped
# too, and a run_user that cannot be had stops start-up with its reason.
. "$(dirname "$0")/lib/tap.sh"
: "${WAYMARK_VAR:?run through make test}"
conf=$WAYMARK_VAR/waymark.conf
tool=$WAYMARK_BUILD/waymark
tmp=$(mktemp -d); started=""
trap '[ -n "$started" ] && kill "$started" 2>/dev/null; rm -rf "$tmp"' EXIT

children() { pgrep -P "$(cat "$1")" | sort; }
field() { awk -v k="$2:" '$1 == k { $1 = ""; sub(/^ /, ""); print }' "/proc/$1/status"; }
root=0; [ "$(id -u)" = 0 ] && root=1
user=$("$tool" -c "$conf" config get run_user)
if [ "$root" = 1 ]; then
	want_uid=$(id -u "$user"); want_gid=$(id -g "$user")
else
	want_uid=$(id -u); want_gid=""
fi

# check PID WHAT: every thread of PID holds no uid 0 and no capability;
# as root, exactly run_user's uid, gid and one group.
check() {
	local pid=$1 what=$2 t bad=0
	for t in /proc/"$pid"/task/*; do
		t=${t##*/}
		case " $(awk '$1 == "Uid:" { print $2, $3, $4, $5 }' "/proc/$pid/task/$t/status") " in
			*" 0 "*) bad=1 ;;
		esac
	done
	is "$bad" 0 "$what (pid $pid): no thread holds uid 0"
	is "$(field "$pid" Uid)" "$(echo "$want_uid $want_uid $want_uid $want_uid")" \
		"$what: real, effective, saved and fs uid are $(id -nu "$want_uid")'s"
	is "$(field "$pid" CapPrm) $(field "$pid" CapEff)" "0000000000000000 0000000000000000" \
		"$what: no capability left to take root back"
	if [ "$root" = 1 ]; then
		is "$(field "$pid" Gid)" "$(echo "$want_gid $want_gid $want_gid $want_gid")" \
			"$what: every gid is $user's primary group"
		is "$(field "$pid" Groups | tr -d ' \t')" "$want_gid" "$what: no supplementary group but that one"
	fi
}

# The stack's processes (tools/stack start, as `make run`).
free=$(children "$WAYMARK_VAR/run/workers.pid")
remote=$(children "$WAYMARK_VAR/run/workers-remote.pid")
ix=$(children "$WAYMARK_VAR/run/indexer.pid")
is "$(echo "$free" | wc -w)" "$("$tool" -c "$conf" config get workers)" "the free pool's workers are found"
is "$(echo "$remote" | wc -w)" "$("$tool" -c "$conf" config get remote_workers)" "the remote pool's workers are found"
is "$(echo "$ix" | wc -w)" 1 "the indexer is found"
for p in $free $remote; do
	is "$(cat "/proc/$p/comm")" waymark-fcgi "pid $p is a worker"
	check "$p" "worker"
done
is "$(cat "/proc/$ix/comm")" waymark-indexer "pid $ix is the indexer"
check "$ix" "indexer"
code=$(curl -s -o "$tmp/h" -w '%{http_code}' "$WAYMARK_TEST_URL/health")
is "$code" 200 "the dropped workers serve /health"
is "$(jq -r .database.reachable "$tmp/h")" true "and reach MariaDB as $(id -nu "$want_uid")"

# A rolling restart (TERM to a worker; multiwatch starts another) brings
# back a worker that has dropped too, and serves. The replacement is
# looked at once all its worker_threads serving threads run: they start
# after the drop, and before it the new process is still root by design
# (it reads the CA bundle and the slot files first), so a look any
# earlier is a race. (A sanitizer's runtime may add a thread of its own
# before the drop, hence all of them, not only the first.)
nthreads=$("$tool" -c "$conf" config get worker_threads)
old=$(echo "$free" | head -n1)
kill -TERM "$old"
new=""
for _ in $(seq 200); do
	new=$(comm -13 <(echo "$free") <(children "$WAYMARK_VAR/run/workers.pid") | head -n1)
	[ -n "$new" ] && [ "$(cat "/proc/$new/comm" 2>/dev/null)" = waymark-fcgi ] &&
		[ "$(ls "/proc/$new/task" 2>/dev/null | wc -l)" -gt "$nthreads" ] && break
	sleep 0.05
done
ok "$([ -n "$new" ]; echo $?)" "a worker replaced after TERM"
[ -n "$new" ] && check "$new" "replacement worker"
for _ in 1 2 3 4; do
	code=$(curl -s -o /dev/null -w '%{http_code}' "$WAYMARK_TEST_URL/health"); [ "$code" = 200 ] || break
done
is "$code" 200 "the pool serves after the restart"

# A worker started as root by hand, on a socket of its own.
if [ "$root" = 0 ]; then
	diag "not root: the drop itself is shown only as root"
	done_testing; exit
fi
sock=$tmp/w.sock
"$WAYMARK_BUILD/waymark-fcgi" -c "$conf" -s "$sock" -t 2 2>"$tmp/w.err" &
started=$!
for _ in $(seq 100); do [ -S "$sock" ] && break; sleep 0.05; done
ok "$([ -S "$sock" ]; echo $?)" "a worker started as root listens"
# The threads start after the drop: by the time it serves, two are running.
for _ in $(seq 100); do [ "$(ls "/proc/$started/task" | wc -l)" -ge 3 ] && break; sleep 0.05; done
check "$started" "a worker started as root"
out=$(env -i REQUEST_METHOD=GET REQUEST_URI=/health cgi-fcgi -bind -connect "$sock" | tr -d '\r')
like "$out" '^Status: 200' "it serves as $user"
like "$out" '"reachable": ?true' "and reaches MariaDB"
kill -TERM "$started"; wait "$started"; is "$?" 0 "and stops on TERM"; started=""

# Under AddressSanitizer (tools/run-tests), a dropped worker can still write
# into the folder the suite's reports go to: its exit statistics (atexit=1)
# land there as a report would, in a file of run_user's.
# tools/run-tests sets ASAN_OPTIONS for every sanitizer build; only an
# ASan build's worker reads it (TSan writes nothing without a race to
# report: the ASan suite proves the folder for both, as it is the same).
sandir=$(printf '%s' "${ASAN_OPTIONS:-}" | sed -n 's/.*log_path=\([^:]*\)\/asan.*/\1/p')
ldd "$WAYMARK_BUILD/waymark-fcgi" 2>/dev/null | grep -q libasan || sandir=""
if [ -n "$sandir" ]; then
	ASAN_OPTIONS="$ASAN_OPTIONS:log_path=$sandir/probe-asan:atexit=1" \
		"$WAYMARK_BUILD/waymark-fcgi" -c "$conf" -s "$tmp/asan.sock" -t 1 2>>"$tmp/w.err" &
	started=$!
	for _ in $(seq 100); do [ -S "$tmp/asan.sock" ] && break; sleep 0.05; done
	sleep 0.3
	kill -TERM "$started"; wait "$started"; started=""
	probe=$(ls "$sandir"/probe-asan.* 2>/dev/null | head -n1)
	ok "$([ -n "$probe" ]; echo $?)" "a dropped ASan worker writes into the report folder $sandir"
	is "$(stat -c %U "$probe" 2>/dev/null)" "$user" "as $user"
	like "$(cat "$probe" 2>/dev/null)" 'AddressSanitizer exit stats' "what it wrote is the sanitizer's"
	rm -f "$sandir"/probe-asan.*
fi

# A run_user that cannot be had stops start-up, naming it.
out=$(WAYMARK_RUN_USER=nosuchuser9 "$WAYMARK_BUILD/waymark-fcgi" -c "$conf" -s "$tmp/x1.sock" 2>&1); rc=$?
is "$rc" 1 "a worker whose run_user does not exist does not start"
like "$out" 'run_user nosuchuser9: no such user' "and says why"
out=$(WAYMARK_RUN_USER=nosuchuser9 "$WAYMARK_BUILD/waymark-indexer" -c "$conf" 2>&1); rc=$?
is "$rc" 1 "nor does the indexer"
like "$out" 'waymark-indexer: run_user nosuchuser9: no such user' "which says why"
out=$(WAYMARK_RUN_USER=root "$WAYMARK_BUILD/waymark-fcgi" -c "$conf" -s "$tmp/x2.sock" 2>&1); rc=$?
is "$rc" 2 "run_user root is refused"
like "$out" 'run_user \(WAYMARK_RUN_USER\) must not be root' "by name"
out=$(WAYMARK_RUN_USER= "$WAYMARK_BUILD/waymark-fcgi" -c "$conf" -s "$tmp/x3.sock" 2>&1); rc=$?
is "$rc" 2 "an empty run_user is refused"
like "$out" 'run_user \(WAYMARK_RUN_USER\) must name a user' "saying so"
done_testing
