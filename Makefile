# waymark: build, run and test. `make run` and `make test` install what is
# missing themselves (see `deps`), so a fresh Debian machine needs nothing else.

SHELL := /bin/bash
# The project's own pinned Node.js (tools/node-install) runs every script.
export PATH := $(CURDIR)/.local/node/bin:$(PATH)
# ...and trusts the system's CAs as well as its own (tools/node-env).
ifeq ($(NODE_EXTRA_CA_CERTS),)
ifneq ($(wildcard /etc/ssl/certs/ca-certificates.crt),)
export NODE_EXTRA_CA_CERTS := /etc/ssl/certs/ca-certificates.crt
endif
endif
CC ?= cc

# SAN=1 builds everything with AddressSanitizer and UBSan into build-asan/;
# SAN=thread with ThreadSanitizer into build-tsan/.
ifeq ($(SAN),1)
BUILD ?= build-asan
SANFLAGS := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
OPT := -O1
else ifeq ($(SAN),thread)
BUILD ?= build-tsan
SANFLAGS := -fsanitize=thread -fno-omit-frame-pointer
OPT := -O1
else
BUILD ?= build
SANFLAGS :=
OPT := -O2
endif

# make test and make test-asan build with one job per core.
NPROC := $(shell nproc 2>/dev/null || echo 1)

PKGS := fcgi json-c libsecp256k1 nettle openssl libcurl libmariadb
PKG_CFLAGS = $(shell pkg-config --cflags $(PKGS) 2>/dev/null)
PKG_LIBS = $(shell pkg-config --libs $(PKGS) 2>/dev/null) -lstemmer -lm

# Hardened by default: fortified libc calls, stack protector, PIE and full
# RELRO. Our flags live in WM_CFLAGS and WM_LDFLAGS; CFLAGS and LDFLAGS from
# the environment or the command line come after them (so a user's -O0 or
# extra -W wins) and never replace them.
HARDEN_CFLAGS := -D_FORTIFY_SOURCE=2 -fstack-protector-strong -fPIE \
	$(shell for f in -fstack-clash-protection -fcf-protection; do \
		$(CC) -Werror $$f -x c -c /dev/null -o /dev/null 2>/dev/null && printf '%s ' $$f; done)
HARDEN_LDFLAGS := -pie -Wl,-z,relro,-z,now
WM_CFLAGS := -std=c11 -pthread -D_DEFAULT_SOURCE -Wall -Wextra -Werror -Wshadow -Wformat=2 \
	-Wno-format-nonliteral -Wmissing-prototypes -Wstrict-prototypes -Wvla $(OPT) -g \
	$(HARDEN_CFLAGS) $(SANFLAGS)
# lib/jsonwrap.c: a json-c allocation failure sets a per-thread latch, so
# an answer is never built from a half-made tree (lib/json.h).
JSON_WRAP := json_object_new_object json_object_new_array json_object_new_string \
	json_object_new_string_len json_object_new_int json_object_new_int64 json_object_new_boolean \
	json_object_new_double_s json_object_object_add json_object_object_add_ex \
	json_object_array_add json_object_to_json_string_length
WM_LDFLAGS := -pthread $(HARDEN_LDFLAGS) $(SANFLAGS) $(foreach f,$(JSON_WRAP),-Wl,--wrap=$(f))

LIB_SRC := $(sort $(wildcard lib/*.c))
HANDLER_SRC := $(sort $(wildcard handlers/*.c))
FCGI_SRC := $(sort $(wildcard fcgi/*.c))
INDEXER_SRC := $(sort $(wildcard indexer/*.c))
UNIT_SRC := $(sort $(wildcard t/unit/*.c))
TORTURE_SRC := $(sort $(wildcard t/torture/*.c))
GALERA_SRC := $(sort $(wildcard t/galera/*.c))

LIB_OBJ := $(LIB_SRC:%.c=$(BUILD)/obj/%.o)
HANDLER_OBJ := $(HANDLER_SRC:%.c=$(BUILD)/obj/%.o)
FCGI_OBJ := $(FCGI_SRC:%.c=$(BUILD)/obj/%.o)
INDEXER_OBJ := $(INDEXER_SRC:%.c=$(BUILD)/obj/%.o)
UNIT_BIN := $(UNIT_SRC:t/unit/%.c=$(BUILD)/t/%.t)
TORTURE_BIN := $(TORTURE_SRC:t/torture/%.c=$(BUILD)/t/torture-%.t)
# C tests that need a Galera cluster: outside build/t, so the suite runs
# them only through t/1100-galera.t, which starts one.
GALERA_BIN := $(GALERA_SRC:t/galera/%.c=$(BUILD)/galera/%.t)
# The worker's objects without its main: the gatekeeper and the payment step.
GATE_OBJ := $(filter-out $(BUILD)/obj/fcgi/main.o,$(FCGI_OBJ))

PROGS := $(BUILD)/waymark-fcgi $(BUILD)/waymark $(BUILD)/waymark-indexer
# The suite's `node` (tools/node-call.c, docs/ARCHITECTURE.md, Test suite),
# and the ranking's relevance measure (tools/relevance.c, t/relevance/).
TEST_PROGS := $(BUILD)/node-call $(BUILD)/relevance
# The suite's HTTP builtin, where bash's headers are (tools/deps installs
# them; without it the tests send their requests with curl).
ifneq ($(wildcard /usr/lib/bash/loadables.h),)
TEST_PROGS += $(BUILD)/wmsh.so
endif
GENERATED := $(BUILD)/nginx-routes.conf $(BUILD)/nginx-http.conf docs/openapi.json

# Keep the unit-test objects between builds.
.SECONDARY:

.PHONY: all deps run stop status test test-asan test-tsan bench lint clean install fuzz cluster test-cluster

PREFIX ?= /usr/local
DESTDIR ?=
all: $(PROGS) $(TEST_PROGS) $(UNIT_BIN) $(TORTURE_BIN) $(GALERA_BIN) $(GENERATED)

deps:
	@tools/deps

# The layers (docs/ARCHITECTURE.md, Layers) hold by construction: each
# directory compiles with the include paths it may use, so a header from a
# layer above is not found. lib/ sees lib/; handlers/ lib/ and handlers/;
# only fcgi/ (and the in-process torture run, which drives the gatekeeper)
# sees fcgi/; the indexer sees lib/ and indexer/. tools/lint also names a
# file that reaches across with a relative include.
INC_lib := -Ilib
INC_handlers := -Ilib -Ihandlers
INC_fcgi := -Ilib -Ihandlers -Ifcgi
INC_indexer := -Ilib -Iindexer
INC_tools := -Ilib -Ihandlers
INC_unit := -Ilib -Ihandlers -It
INC_torture := -Ilib -Ihandlers -Ifcgi -It
# The fuzz targets (make fuzz) see lib/, handlers/ (the table, baselines) and
# their own helpers; tools/lint reads this line.
INC_fuzz := -Ilib -Ihandlers -It/fuzz
$(BUILD)/obj/lib/%.o: INC := $(INC_lib)
$(BUILD)/obj/handlers/%.o: INC := $(INC_handlers)
$(BUILD)/obj/fcgi/%.o: INC := $(INC_fcgi)
$(BUILD)/obj/indexer/%.o: INC := $(INC_indexer)
$(BUILD)/obj/tools/%.o: INC := $(INC_tools)
$(BUILD)/obj/t/unit/%.o: INC := $(INC_unit)
$(BUILD)/obj/t/torture/%.o: INC := $(INC_torture)
$(BUILD)/obj/t/galera/%.o: INC := $(INC_unit)

# Objects follow the flags: a changed Makefile rebuilds them.
$(BUILD)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $<"; $(CC) $(WM_CFLAGS) $(INC) $(CFLAGS) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(BUILD)/waymark-fcgi: $(FCGI_OBJ) $(HANDLER_OBJ) $(LIB_OBJ)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# The indexer shares lib/ only.
$(BUILD)/waymark-indexer: $(INDEXER_OBJ) $(LIB_OBJ)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/waymark: $(BUILD)/obj/tools/waymark.o $(HANDLER_OBJ) $(LIB_OBJ)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/relevance: $(BUILD)/obj/tools/relevance.o $(LIB_OBJ)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# Test plumbing, started for every `node` of the suite: built without the
# sanitizers in every build (a sanitizer's start-up would cost each call
# more than the call), from this one file.
$(BUILD)/node-call: tools/node-call.c lib/banned.h Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -std=c11 -D_DEFAULT_SOURCE -Wall -Wextra -Werror -O2 $(HARDEN_CFLAGS) -Ilib \
		$(CFLAGS) $(HARDEN_LDFLAGS) $(LDFLAGS) -o $@ tools/node-call.c

# The suite's HTTP builtin for bash (tools/wmsh.c), loaded by t/lib/tap.sh:
# without the sanitizers too (bash, which loads it, has none), against
# bash's own headers (Debian's bash-builtins), and with libc alone.
BASH_INC := -I/usr/lib/bash -I/usr/include/bash -I/usr/include/bash/include -I/usr/include/bash/builtins
$(BUILD)/wmsh.so: tools/wmsh.c Makefile
	@mkdir -p $(dir $@)
	@echo "  CC $@"; $(CC) -std=gnu11 -DHAVE_CONFIG_H -DSHELL -Wall -Werror -O2 -fPIC -shared -Ilib \
		$(BASH_INC) $(CFLAGS) -Wl,-z,relro,-z,now $(LDFLAGS) -o $@ tools/wmsh.c

# Unit tests link every lib/ and handlers/ object (never fcgi/).
$(BUILD)/t/%.t: $(BUILD)/obj/t/unit/%.o $(HANDLER_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

$(BUILD)/galera/%.t: $(BUILD)/obj/t/galera/%.o $(HANDLER_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS)

# The allocation torture run drives the gatekeeper in process, so it links
# fcgi/ too (its allocator hook is in the program itself).
$(BUILD)/t/torture-%.t: $(BUILD)/obj/t/torture/%.o $(GATE_OBJ) $(HANDLER_OBJ) $(LIB_OBJ)
	@mkdir -p $(dir $@)
	@echo "  LD $@"; $(CC) $(WM_LDFLAGS) $(LDFLAGS) -o $@ $^ $(PKG_LIBS) -ldl

# The nginx locations are generated from the dispatch table.
$(BUILD)/nginx-routes.conf: $(BUILD)/waymark
	$(BUILD)/waymark routes nginx > $@.tmp && mv $@.tmp $@

$(BUILD)/nginx-http.conf: $(BUILD)/waymark
	$(BUILD)/waymark routes nginx-http > $@.tmp && mv $@.tmp $@

# The interface description of the reference configuration (built-in
# defaults, MPP offered), committed so it can be read without a running
# service; t/1020-openapi.t fails when the committed file is not this.
# No WAYMARK_* variable of the caller's may change it.
docs/openapi.json: $(BUILD)/waymark
	env -i $(BUILD)/waymark routes openapi --reference > $(BUILD)/openapi.json.tmp && \
		mv $(BUILD)/openapi.json.tmp $@

lint:
	@tools/lint

run: deps
	@$(MAKE) --no-print-directory all
	@tools/stack start

# make stop stops a cluster too (tools/cluster stop does nothing when none
# runs, and asks for root only when one does).
stop:
	@tools/stack stop
	@if [ -s "$${WAYMARK_VAR:-var/cluster}/cluster.env" ]; then tools/cluster stop; fi

status:
	@tools/stack status
	@if [ -s "$${WAYMARK_VAR:-var/cluster}/cluster.env" ]; then tools/cluster status; fi

# The multi-host deployment on this machine (INSTALL section 12; root):
# three Galera nodes and two worker hosts in network namespaces, one nginx
# where make run listens. `make stop` stops it.
# (After bench, `cluster` names a bench section instead: see bench below.)
ifeq ($(filter bench,$(MAKECMDGOALS)),)
cluster: deps
	@$(MAKE) --no-print-directory all
	@tools/cluster start
endif

# A cluster of its own (slot WAYMARK_TEST_SLOT), the tests of t/cluster/
# against it under prove, and the cluster taken down, pass or fail.
test-cluster: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all
	@tools/run-cluster-tests $(BUILD)

# The fuzz smoke (tools/fuzz smoke) runs beside the suite, not before it.
test: deps
	@$(MAKE) --no-print-directory -j$(NPROC) all fuzz-build
	@tools/lint
	@FUZZ_SMOKE="$(FUZZ_DIR) $(FUZZ_TARGETS)" tools/run-tests $(BUILD)

test-asan: deps
	@$(MAKE) --no-print-directory -j$(NPROC) SAN=1 all
	@tools/run-tests build-asan

test-tsan: deps
	@$(MAKE) --no-print-directory -j$(NPROC) SAN=thread all
	@tools/run-tests build-tsan

# `make bench SECTION...` runs those sections of tools/bench only (`make bench
# cluster`: the cluster against one node, as root); beside bench, the section
# names are its arguments, not goals of their own.
BENCH_SECTIONS := $(if $(filter bench,$(MAKECMDGOALS)),$(filter-out bench,$(MAKECMDGOALS)))
bench: deps
	@$(MAKE) --no-print-directory all
	@tools/bench $(BENCH_SECTIONS)
ifneq ($(BENCH_SECTIONS),)
.PHONY: $(BENCH_SECTIONS)
$(BENCH_SECTIONS):
	@:
endif

# Fuzzing with libFuzzer (clang; tools/deps installs it): one target per
# parser of untrusted input, t/fuzz/<name>.c, with its committed seeds in
# t/fuzz/corpus/<name>/. lib/ and handlers/ are built once, instrumented,
# into an archive each target links from. `make fuzz` runs each target for
# FUZZ_SECONDS; `make fuzz-smoke` (run by `make test`) runs each over its
# seeds plus a few thousand mutations and fails on any finding (tools/fuzz).
FUZZ_TARGETS := a2a abi bazaar blob activity baseline catalog client cursor factid gratitude json mpp path receipt routenote search siwx unlock url x402
FUZZ_SECONDS ?= 30
FUZZ_DIR := build-fuzz
FUZZ_CC ?= clang
FUZZ_SAN := -fsanitize=address,undefined -fno-sanitize-recover=all -fno-omit-frame-pointer
FUZZ_CFLAGS := -std=c11 -pthread -D_DEFAULT_SOURCE -g -O1 -Wall -Wextra -Werror \
	-fsanitize=fuzzer-no-link $(FUZZ_SAN)
FUZZ_LIB_OBJ := $(LIB_SRC:%.c=$(FUZZ_DIR)/obj/%.o) $(HANDLER_SRC:%.c=$(FUZZ_DIR)/obj/%.o)
FUZZ_BIN := $(FUZZ_TARGETS:%=$(FUZZ_DIR)/fuzz-%)

$(FUZZ_DIR)/obj/lib/%.o: INC := $(INC_lib)
$(FUZZ_DIR)/obj/handlers/%.o: INC := $(INC_handlers)
$(FUZZ_DIR)/obj/t/fuzz/%.o: INC := $(INC_fuzz)
$(FUZZ_DIR)/obj/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	@echo "  FUZZCC $<"; $(FUZZ_CC) $(FUZZ_CFLAGS) $(INC) $(PKG_CFLAGS) -MMD -MP -c $< -o $@

$(FUZZ_DIR)/libwaymark.a: $(FUZZ_LIB_OBJ)
	@rm -f $@; ar rcs $@ $^

$(FUZZ_DIR)/fuzz-%: $(FUZZ_DIR)/obj/t/fuzz/%.o $(FUZZ_DIR)/libwaymark.a
	@echo "  FUZZLD $@"; $(FUZZ_CC) -pthread -fsanitize=fuzzer $(FUZZ_SAN) -o $@ $^ $(PKG_LIBS)

.PHONY: fuzz-build fuzz-smoke
fuzz-build: $(FUZZ_BIN)

fuzz: deps
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-build
	@FUZZ_SECONDS=$(FUZZ_SECONDS) tools/fuzz run $(FUZZ_DIR) $(FUZZ_TARGETS)

fuzz-smoke:
	@$(MAKE) --no-print-directory -j$(NPROC) fuzz-build
	@tools/fuzz smoke $(FUZZ_DIR) $(FUZZ_TARGETS)

-include $(shell find $(FUZZ_DIR)/obj -name '*.d' 2>/dev/null)

# Production install (see INSTALL): the two programs, the migrations and the
# nginx pieces, including the locations generated from the dispatch table.
install: all
	install -d $(DESTDIR)$(PREFIX)/bin $(DESTDIR)$(PREFIX)/share/waymark/sql \
		$(DESTDIR)$(PREFIX)/share/waymark/nginx
	install -m 755 $(BUILD)/waymark-fcgi $(BUILD)/waymark $(BUILD)/waymark-indexer $(DESTDIR)$(PREFIX)/bin/
	install -m 644 sql/*.sql $(DESTDIR)$(PREFIX)/share/waymark/sql/
	install -m 644 nginx/waymark-fastcgi.conf nginx/waymark-server.conf nginx/waymark-cors.conf \
		$(DESTDIR)$(PREFIX)/share/waymark/nginx/
	install -m 644 $(BUILD)/nginx-routes.conf $(DESTDIR)$(PREFIX)/share/waymark/nginx/waymark-routes.conf
	install -m 644 $(BUILD)/nginx-http.conf $(DESTDIR)$(PREFIX)/share/waymark/nginx/waymark-http.conf

clean:
	rm -rf build build-asan build-tsan build-fuzz

-include $(shell find $(BUILD)/obj -name '*.d' 2>/dev/null)
