#!/usr/bin/env bash
# Layers hold by construction (docs/ARCHITECTURE.md, Layers): a handler
# that includes the gatekeeper's header does not compile with its
# directory's flags, and tools/lint names the file, as it does for a lib/
# file that reaches fcgi/ by a relative path. The tree itself passes.
. "$(dirname "$0")/lib/tap.sh"
top=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT

git clone -q --shared "$top" "$tmp/tree" 2>/dev/null
ok $? "a scratch clone of the tree"
cd "$tmp/tree" || exit 1
out=$(tools/lint 2>&1); rc=$?
is "$rc" 0 "the committed tree passes the layer lint"
[ "$rc" = 0 ] || diag "$out"

inc=$(sed -n 's/^INC_handlers := //p' Makefile)
like "$inc" '-Ilib' "handlers/ compile with -Ilib"
printf '#include "gate.h"\n' > handlers/zz-layer.c
git add handlers/zz-layer.c
out=$(cc -fsyntax-only $inc $(pkg-config --cflags json-c libmariadb 2>/dev/null) handlers/zz-layer.c 2>&1)
ok $((! $?)) "a handler including fcgi/gate.h does not compile with INC_handlers"
like "$out" 'gate.h' "the compiler names the header"
out=$(tools/lint 2>&1); rc=$?
ok $((rc == 0)) "lint fails on it"
like "$out" 'handlers/zz-layer.c includes "gate.h" from fcgi/' "lint names the file and the layer"
git rm -qf handlers/zz-layer.c

printf '#include "../fcgi/pay.h"\n' > lib/zz-layer.c
git add lib/zz-layer.c
out=$(tools/lint 2>&1); rc=$?
ok $((rc == 0)) "lint fails on a relative include"
like "$out" 'lib/zz-layer.c includes "../fcgi/pay.h" by path' "lint names the file"
done_testing
