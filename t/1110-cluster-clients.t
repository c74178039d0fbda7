#!/usr/bin/env bash
# The clients of the cluster fault tests (t/cluster/, issue 29), against one
# ordinary stack with a local chain and the real facilitator, so they are
# proven where nothing fails before a cluster relies on them:
# - the mixed load (t/tools/cluster-load.mjs) of free reads, paid reads with
#   the real x402 client and activity publications with the SIWX client,
#   stopped by a signal, passes every check of t/lib/cluster.sh against the
#   database and the chain;
# - the twenty-way races (t/tools/race.mjs): twenty members confirming a
#   link into a profile with one free slot, exactly one wins; into a full
#   profile, none; one payment authorization presented twenty times at
#   once is served once and charged once.
. "$(dirname "$0")/lib/tap.sh"
. "$(dirname "$0")/lib/chain.sh"
. "$(dirname "$0")/lib/http.sh"
. "$(dirname "$0")/lib/x402.sh"
. "$(dirname "$0")/lib/activity.sh"
. "$(dirname "$0")/lib/cluster.sh"
# Every request of the load comes from one address: no rate limit.
export WAYMARK_RATE_SIGNIN=0 WAYMARK_RATE_SIGNED=0 WAYMARK_RATE_SITE=0
paid_stack clients 16
trap 'kill $fpid $load_pid 2>/dev/null; rm -rf "$http_tmp"; "$top/tools/stack" stop >/dev/null 2>&1' EXIT
# Payers of their own, funded.
k() { test_key "t/1110 $1"; }
L1=$(k load1); L2=$(k load2); RP=$(k racepay)
for key in $L1 $L2 $RP; do mint "$(addr_of "$key")" 5000000; done

# ---- the mixed load, two payers, stopped by SIGTERM after some publications
load_start "$http_tmp/load.json" --url "$URL" --keys "$L1,$L2" --free-c 2 --paid-c 2 --pub-c 1 \
	--rpc "$RPC" --usdc "$USDC" --retry-for-ms 20000
ok $? "the load runs (the payers' profiles made through the SIWX client)"
n=0
until [ "$(sql "SELECT COUNT(*) FROM profile_activity")" -ge 4 ] || [ $n -ge 3000 ]; do n=$((n + 1)); sleep 0.02; done
load_stop; ok $? "SIGTERM ends it with a summary"
is "$(jq -r .stoppedBy "$http_tmp/load.json")" signal "  stopped by the signal"
load_checks "$http_tmp/load.json" 0

# ---- races, twenty attempts each
race_link --url "$URL" --key "$(k ctl1)" --have 7
is "$(jq -r '[.allowed, .won, .active] | join(",")' <<<"$race")" "1,1,8" \
	"twenty members confirm into a profile with one free slot at once: exactly one wins, 8 active"
is "$(jq -r '.statuses | to_entries | map(select(.key != "200")) | map(.key) | join(",")' <<<"$race")" 409 \
	"  the others are refused with 409 ($(jq -c .statuses <<<"$race"))"
race_link --url "$URL" --key "$(k ctl2)" --have 8
is "$(jq -r '[.allowed, .won, .active] | join(",")' <<<"$race")" "0,0,8" \
	"twenty members confirm into a full profile at once: none wins ($(jq -c .statuses <<<"$race"))"
before=$(balance "$(addr_of "$RP")")
race_pay --url "$URL" --key "$RP" --path /api/v1/x402/routes
is "$(jq -r '[.won, (.transactions | length)] | join(",")' <<<"$race")" "1,1" \
	"one payment authorization presented twenty times at once: served once, one settlement ($(jq -c .statuses <<<"$race"))"
is "$(jq -r '[.statuses | keys[] | select(. != "200" and . != "402" and . != "503")] | length' <<<"$race")" 0 \
	"  the others are refused: 402 used, or 503 while the first holds it"
is "$(( before - $(balance "$(addr_of "$RP")") ))" "$(jq -r .amount <<<"$race")" "  charged once"
is "$(sql "SELECT COUNT(*), MIN(status) FROM x402_payments WHERE payer = UNHEX('$(jq -r '.payer[2:]' <<<"$race")')")" \
	"$(printf '1\tsettled')" "  one payment row, settled"
done_testing
