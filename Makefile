# SPDX-License-Identifier: GPL-2.0-only
#
# rdmachan: top-level build.
#
#   make            build the kernel module(s), the rdmachan tool and its
#                   man pages
#   make man        only the man pages, into man/ (scripts/man-pages.py,
#                   from Documentation/tool.rst)
#   make install    install modules, tool, man pages, uapi headers, udev
#                   rules, systemd unit and examples (DESTDIR, PREFIX:
#                   default /usr/local), then depmod; make install-modules
#                   and make install-data are its two halves
#   make uninstall  remove what make install installed
#   make dkms-install  register the modules' source with DKMS (in
#                   /usr/src/rdmachan-VERSION), build and install them
#                   for every installed kernel; make dkms-remove undoes it
#   make dkms-source DKMS_SRC=DIR  only write that source tree to DIR
#   make demo       install deps, build, boot the VM and show rdmachan working
#   make check      install deps, build, run every test but the debug tier's;
#                   ends "N passed, N failed"
#   make check-debug  install deps, build, run the debug tier (builds the
#                   debug kernel when it is not cached): KUnit and the VM
#                   cases on KASAN, lockdep and kmemleak, over rxe and siw
#   make deps       install the Debian packages the project needs
#   make vm-shell   boot the test VM with an interactive shell
#   make bench      rdmachan vs perftest in the VM: a table of ratios
#   make soak       the cases that once hung over siw, SOAK_RUNS (50) times
#                   each on the debug kernel
#   make fuzz       the long fuzzer runs (stock and debug kernel)
#   make sparse     build with sparse (C=2)
#   make checkpatch run checkpatch.pl --strict on module/ and uapi/
#   make layers     build, then check and print which file of rdmachan.ko
#                   calls which (Documentation/architecture.rst)
#   make KVER=...   build (and test) for another installed kernel, e.g.
#                   KVER=6.12.117+deb12-amd64; default: the running
#                   kernel if its headers are installed, else Debian's
#                   (scripts/kver.sh)
#   make KDIR=...   build against another kernel tree

# Once, and exported: every script run from here (tests/run-all.sh,
# tests/vm/*) asks scripts/kver.sh, which answers $KVER when it is set.
# Empty on a machine without kernel headers: "make check" and "make demo"
# install them (deps) and then run "make all", which asks again rather
# than inherit the empty answer.
ifeq ($(strip $(KVER)),)
KVER	:= $(shell scripts/kver.sh)
endif
export KVER
KDIR	?= /lib/modules/$(KVER)/build
WERROR	?= 1
KBUILD_FLAGS := W=1 $(if $(filter 1,$(WERROR)),KCFLAGS=-Werror)

# the feature probes are checked too, their generated header is not
MODULE_SOURCES := $(filter-out %.mod.c module/compat/rdmachan_have.h, \
	$(wildcard module/*.h module/*/*.c module/*/*.h \
		   module/compat/probes/*.c)) \
	uapi/linux/rdmachan.h uapi/linux/rdmachan_net.h uapi/linux/rdmachan_verbs.h

.PHONY: all modules tool man helpers deps demo check check-debug vm-shell sparse checkpatch clean \
	unit-test bench soak fuzz layers install install-modules install-data \
	uninstall \
	dkms-source dkms-install dkms-remove

# make install: where things go (Documentation/admin-guide.rst,
# "Installing").  The modules go to updates/rdmachan/, which depmod ranks
# above the kernel's own tree; depmod runs only for the real root (a
# package or image built in DESTDIR runs it when installed).
PREFIX	?= /usr/local
MODDIR	:= /lib/modules/$(KVER)/updates/rdmachan
SBINDIR	:= $(PREFIX)/sbin
INCDIR	:= $(PREFIX)/include/linux
DATADIR	:= $(PREFIX)/share/rdmachan
COMPDIR	:= $(PREFIX)/share/bash-completion/completions
UDEVDIR	:= $(PREFIX)/lib/udev/rules.d
SYSUSERSDIR := $(PREFIX)/lib/sysusers.d
UNITDIR	:= $(PREFIX)/lib/systemd/system
# iproute2's link modules: where ip looks, whatever PREFIX is
IPLIBDIR ?= /usr/lib/$(shell $(CC) -print-multiarch)/ip
MANDIR	:= $(PREFIX)/share/man/man8
INSTALL_KOS := module/chan/rdmachan.ko module/blk/rdmachan_blk.ko \
	module/net/rdmachan_net.ko
INSTALL_HEADERS := $(wildcard uapi/linux/rdmachan*.h)
INSTALL_DATA := packaging/modules-load.conf packaging/modprobe.conf

# on the real root: the group, udev's and systemd's view of the new files
# (each only where the program exists)
INSTALL_ACTIVATE := ! command -v systemd-sysusers >/dev/null || systemd-sysusers; \
	! command -v udevadm >/dev/null || udevadm control --reload 2>/dev/null || :; \
	! command -v systemctl >/dev/null || systemctl daemon-reload 2>/dev/null || :

# DKMS: the modules' sources only (Documentation/admin-guide.rst, "DKMS")
VERSION_STR := $(shell cat VERSION)
DKMS_SRC ?= $(DESTDIR)/usr/src/rdmachan-$(VERSION_STR)
DKMS_FILES = Kbuild VERSION $(shell find module uapi -type f \( -name '*.[ch]' \
	-o -name Kbuild \) ! -name '*.mod.c' ! -path module/compat/rdmachan_have.h)

all: modules tool helpers man

modules:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_FLAGS) modules

tool:
	$(MAKE) -C userspace-tool

# rdmachan(8) and rdmachan-OBJECT(8), one per object section of
# Documentation/tool.rst; the stamp, so that a "make install" as root
# after "make" writes nothing in man/
man: man/.stamp

man/.stamp: Documentation/tool.rst VERSION scripts/man-pages.py
	scripts/man-pages.py man
	touch $@

helpers:
	$(MAKE) -C tests/vm/helpers

unit-test: tool
	$(MAKE) -C userspace-tool test

sparse:
	$(MAKE) -C $(KDIR) M=$(CURDIR) $(KBUILD_FLAGS) C=2 modules

checkpatch:
	perl "$$(scripts/kernel-source.sh)/scripts/checkpatch.pl" --strict \
		--no-tree --show-types -f $(MODULE_SOURCES)

layers: modules
	scripts/layers.sh

deps:
	scripts/deps.sh

demo: deps
	$(MAKE) all
	tests/vm/run-vm.sh --demo

check: deps
	$(MAKE) all
	tests/run-all.sh

check-debug: deps
	$(MAKE) all
	tests/run-debug.sh

vm-shell: all
	tests/vm/run-vm.sh --shell

bench: all
	tests/bench/run-bench.sh

SOAK_RUNS	?= 50
SOAK_CASES	?= siw-rdma_ops siw-chan_bench

soak: all
	RDMACHAN_REPEAT=$(SOAK_RUNS) tests/run-debug.sh $(SOAK_CASES)

fuzz: all
	scripts/fuzz.sh

# install-data: all but the modules (the test VM's image takes it)
install: install-modules install-data
	$(if $(DESTDIR),,depmod -a $(KVER))
	$(if $(DESTDIR),,$(INSTALL_ACTIVATE))

install-modules: modules
	install -d $(DESTDIR)$(MODDIR)
	install -m 0644 $(INSTALL_KOS) $(DESTDIR)$(MODDIR)/

install-data: tool man
	install -d $(DESTDIR)$(SBINDIR) \
		$(DESTDIR)$(INCDIR) $(DESTDIR)$(DATADIR) $(DESTDIR)$(COMPDIR)
	install -m 0755 userspace-tool/rdmachan $(DESTDIR)$(SBINDIR)/rdmachan
	install -m 0644 $(INSTALL_HEADERS) $(DESTDIR)$(INCDIR)/
	install -m 0644 $(INSTALL_DATA) $(DESTDIR)$(DATADIR)/
	install -m 0644 packaging/rdmachan.bash $(DESTDIR)$(COMPDIR)/rdmachan
	install -d $(DESTDIR)$(UDEVDIR) $(DESTDIR)$(SYSUSERSDIR) $(DESTDIR)$(UNITDIR)
	install -m 0644 packaging/60-rdmachan.rules $(DESTDIR)$(UDEVDIR)/
	install -m 0644 packaging/sysusers.conf $(DESTDIR)$(SYSUSERSDIR)/rdmachan.conf
	sed 's|@SBINDIR@|$(SBINDIR)|' packaging/rdmachan.service.in > \
		$(DESTDIR)$(UNITDIR)/rdmachan.service
	chmod 0644 $(DESTDIR)$(UNITDIR)/rdmachan.service
	install -d $(DESTDIR)$(MANDIR) $(DESTDIR)$(IPLIBDIR)
	install -m 0644 man/*.8 $(DESTDIR)$(MANDIR)/
	install -m 0644 userspace-tool/link_rdmachan.so $(DESTDIR)$(IPLIBDIR)/

uninstall:
	rm -f $(addprefix $(DESTDIR)$(MODDIR)/,$(notdir $(INSTALL_KOS))) \
		$(DESTDIR)$(SBINDIR)/rdmachan \
		$(addprefix $(DESTDIR)$(INCDIR)/,$(notdir $(INSTALL_HEADERS))) \
		$(addprefix $(DESTDIR)$(DATADIR)/,$(notdir $(INSTALL_DATA))) \
		$(DESTDIR)$(COMPDIR)/rdmachan \
		$(DESTDIR)$(UDEVDIR)/60-rdmachan.rules \
		$(DESTDIR)$(SYSUSERSDIR)/rdmachan.conf \
		$(DESTDIR)$(UNITDIR)/rdmachan.service \
		$(DESTDIR)$(MANDIR)/rdmachan.8 $(DESTDIR)$(MANDIR)/rdmachan-*.8 \
		$(DESTDIR)$(IPLIBDIR)/link_rdmachan.so
	-rmdir $(DESTDIR)$(MODDIR) $(DESTDIR)$(DATADIR) 2>/dev/null
	$(if $(DESTDIR),,depmod -a $(KVER))
	$(if $(DESTDIR),,$(INSTALL_ACTIVATE))

dkms-source:
	rm -rf $(DKMS_SRC)
	install -d $(DKMS_SRC)
	tar -cf - $(sort $(DKMS_FILES)) | tar -xf - -C $(DKMS_SRC)
	sed 's/@VERSION@/$(VERSION_STR)/' packaging/dkms.conf.in > $(DKMS_SRC)/dkms.conf

# every installed kernel with its headers; later ones by AUTOINSTALL
dkms-install: dkms-source
	dkms add rdmachan/$(VERSION_STR)
	for k in $$(ls /lib/modules); do \
		[ ! -e /lib/modules/$$k/build ] || \
		dkms install rdmachan/$(VERSION_STR) -k $$k || exit 1; \
	done

dkms-remove:
	-dkms remove rdmachan/$(VERSION_STR) --all
	rm -rf $(DKMS_SRC)

clean:
	$(MAKE) -C $(KDIR) M=$(CURDIR) clean
	$(MAKE) -C userspace-tool clean
	$(MAKE) -C tests/vm/helpers clean
	rm -rf tests/vm/out man
