# t/lib/tap.sh: TAP for the shell tests. Source it; end with done_testing.
# Every assertion prints one line; failures add a diagnostic on stderr,
# which prove shows without -v (as Test::More does).
tap_n=0
tap_failed=0

ok() { # ok <exit-status-or-0/1> <description>
	local cond=$1; shift
	tap_n=$((tap_n + 1))
	if [ "$cond" = 0 ]; then
		echo "ok $tap_n - $*"
	else
		echo "not ok $tap_n - $*"
		tap_failed=$((tap_failed + 1))
	fi
}

is() { # is <got> <want> <description>
	local got=$1 want=$2; shift 2
	if [ "$got" = "$want" ]; then ok 0 "$@"; else
		ok 1 "$@"
		printf '#   got:  %s\n#   want: %s\n' "$got" "$want" >&2
	fi
}

like() { # like <got> <extended-regex> <description>
	local got=$1 re=$2; shift 2
	if printf '%s' "$got" | grep -Eq -- "$re"; then ok 0 "$@"; else
		ok 1 "$@"
		printf '#   got:  %s\n#   want match: %s\n' "$got" "$re" >&2
	fi
}

diag() { printf '# %s\n' "$*"; }

skip_all() { echo "1..0 # SKIP $*"; exit 0; }

done_testing() {
	echo "1..$tap_n"
	[ "$tap_failed" = 0 ]
}
