#!/usr/bin/env bash
# Twenty-way races across both worker hosts (issue 29, Must show), through
# nginx, whose round robin spreads them (its access log names the host of
# each request), with the real clients (t/tools/race.mjs):
# - twenty members confirm their pending links into a profile with one free
#   slot at once: exactly one wins, the profile has eight wallets; into a
#   full profile (the ninth wallet): none wins;
# - one payment authorization presented twenty times at once: served once,
#   one settlement, the payer charged once, one payment row.
# The unique keys decide on the cluster, whichever node each host writes to.
. "$(dirname "$0")/../lib/cluster-test.sh"

# hosts_of PATTERN FROM: the upstream hosts that answered at least two of
# the access log's requests matching PATTERN after line FROM, sorted, one line.
hosts_of() {
	tail -n +$(($2 + 1)) "$CLUSTER_ACCESS_LOG" | grep -E "$1" | sed -n 's/.* upstream=\([^ :]*\):.*/\1/p' |
		sort | uniq -c | awk '$1 >= 2 { print $2 }' | paste -sd' '
}
both=$(printf '%s\n' "$CLUSTER_HOST_A" "$CLUSTER_HOST_B" | sort | paste -sd' ')

for have in 7 8; do
	from=$(wc -l < "$CLUSTER_ACCESS_LOG")
	race_link --url "$URL" --key "$(test_key "race link $have")" --have "$have"
	is "$(jq -r '[.allowed, .won, .active] | join(",")' <<<"$race")" "$((8 - have)),$((8 - have)),8" \
		"twenty members confirm into a profile of $have wallets at once: exactly $((8 - have)) win(s), 8 active ($(jq -c .statuses <<<"$race"))"
	is "$(jq -r '[.statuses | to_entries[] | select(.key != "200" and .key != "409")] | length' <<<"$race")" 0 \
		"  every loser is refused with 409"
	is "$(hosts_of ' 409 "POST /api/v1/x402/profiles/[^ ]*/confirm' "$from")" "$both" "  both hosts answered the race (its refusals)"
	pid=$(jq -r .profileId <<<"$race")
	is "$(sql "SELECT COUNT(*) FROM profile_wallets WHERE profile_id = UNHEX(REPLACE('$pid', '-', '')) AND state = 'active'")" 8 \
		"  the database holds 8 active wallets"
done

RP=$(test_key race-pay)
mint "$(addr_of "$RP")" 1000000
before=$(balance "$(addr_of "$RP")")
from=$(wc -l < "$CLUSTER_ACCESS_LOG")
race_pay --url "$URL" --key "$RP" --path /api/v1/x402/routes
is "$(jq -r '[.won, (.transactions | length)] | join(",")' <<<"$race")" "1,1" \
	"one payment authorization presented twenty times at once: served once, one settlement ($(jq -c .statuses <<<"$race"))"
is "$(jq -r '[.statuses | keys[] | select(. != "200" and . != "402" and . != "503")] | length' <<<"$race")" 0 \
	"  the others are refused: 402 used, or 503 while the first holds it"
is "$(hosts_of ' (200|402|503) "GET /api/v1/x402/routes' "$from")" "$both" "  both hosts answered the race"
is "$(( before - $(balance "$(addr_of "$RP")") ))" "$(jq -r .amount <<<"$race")" "  the payer is charged once"
is "$(sql "SELECT COUNT(*), MIN(status) FROM x402_payments WHERE payer = UNHEX('$(jq -r '.payer[2:]' <<<"$race")')")" \
	"$(printf '1\tsettled')" "  one payment row, settled"
done_testing
