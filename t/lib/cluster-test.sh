# t/lib/cluster-test.sh: the prelude of the fault tests in t/cluster/ (run
# by tools/run-cluster-tests against its cluster): TAP (tap.sh), the chain
# helpers (chain.sh, which sets $top), the payment and activity helpers
# (x402.sh, activity.sh) and t/lib/cluster.sh, whose cluster_env it runs.
. "$(dirname "${BASH_SOURCE[0]}")/tap.sh"
: "${WAYMARK_TEST_URL:?run through make test-cluster}"
. "$(dirname "${BASH_SOURCE[0]}")/chain.sh"
. "$top/t/lib/x402.sh"
. "$top/t/lib/activity.sh"
. "$top/t/lib/cluster.sh"
cluster_env
