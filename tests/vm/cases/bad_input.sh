#!/bin/sh
# SPDX-License-Identifier: GPL-2.0-only
#
# Malformed ioctls, bad module parameters on insmod and in sysfs, and the
# permissions of /dev/rdmachan: each refused with its errno and a log line.
. /tests/lib.sh

PARAMS=/sys/module/rdmachan/parameters

check "rxe pair comes up" rxe_pair_up
check "rdmachan loads" rdmachan_load
run_checks $HELPERS/ioctl_abuse 2
check "bad ioctls are logged" sh -c 'dmesg | grep -q "rdmachan: DEV_QUERY: ioctl_abuse (pid [0-9]*): name not terminated"'

# Module parameters written through sysfs.
check_eq "queue_depth defaults to 128" 128 "$(cat $PARAMS/queue_depth)"
check_fail "queue_depth=0 is refused" "Invalid argument" sh -c "echo 0 > $PARAMS/queue_depth"
check_fail "queue_depth=abc is refused" "Invalid argument" sh -c "echo abc > $PARAMS/queue_depth"
check_fail "queue_depth=99999999999 is refused" "Invalid argument" sh -c "echo 99999999999 > $PARAMS/queue_depth"
check_fail "queue_depth=16385 is refused" "Invalid argument" sh -c "echo 16385 > $PARAMS/queue_depth"
check_eq "a refused write leaves queue_depth unchanged" 128 "$(cat $PARAMS/queue_depth)"
check "queue_depth=256 is accepted" sh -c "echo 256 > $PARAMS/queue_depth"
check_eq "queue_depth reads back 256" 256 "$(cat $PARAMS/queue_depth)"
check_fail "max_msg_size=63 is refused" "Invalid argument" sh -c "echo 63 > $PARAMS/max_msg_size"
check "max_msg_size=1048576 is accepted" sh -c "echo 1048576 > $PARAMS/max_msg_size"
check_eq "imm_header defaults to 1" 1 "$(cat $PARAMS/imm_header)"
check_fail "imm_header=yes is refused" "Invalid argument" sh -c "echo yes > $PARAMS/imm_header"
check_eq "imm_credit defaults to 1" 1 "$(cat $PARAMS/imm_credit)"
check_fail "imm_credit=2 is refused" "Invalid argument" sh -c "echo 2 > $PARAMS/imm_credit"
check_eq "ack_timeout defaults to 19" 19 "$(cat $PARAMS/ack_timeout)"
check_fail "ack_timeout=11 is refused" "Invalid argument" sh -c "echo 11 > $PARAMS/ack_timeout"
check_fail "ack_timeout=20 is refused" "Invalid argument" sh -c "echo 20 > $PARAMS/ack_timeout"
check "ack_timeout=16 is accepted" sh -c "echo 16 > $PARAMS/ack_timeout"
check "ack_timeout back to 19" sh -c "echo 19 > $PARAMS/ack_timeout"
check_fail "connect_timeout_ms=-1 is refused" "Invalid argument" sh -c "echo -1 > $PARAMS/connect_timeout_ms"
check_eq "connect_timeout_ms defaults to 5000" 5000 "$(cat $PARAMS/connect_timeout_ms)"
check_eq "dev_mode reads as octal 0600" 0600 "$(cat $PARAMS/dev_mode)"
check_fail "dev_mode is read-only at runtime" "Permission denied" sh -c "echo 0666 > $PARAMS/dev_mode"
check "bad sysfs writes are logged" sh -c 'dmesg | grep -q "rdmachan: queue_depth: invalid value .abc. (2..16384)"'

# Permissions of the control device.
check_eq "/dev/rdmachan is root-only by default" "crw-------" "$(ls -l /dev/rdmachan | cut -c1-10)"
check_eq "nobody cannot open /dev/rdmachan" EACCES "$($HELPERS/ioctl_abuse open-as 65534)"
check "rdmachan unloads" rdmachan_unload

# Module parameters given at load time.
check_fail "insmod queue_depth=0 fails" "Invalid argument" $MODPROBE rdmachan queue_depth=0
check "the failed load left no module" sh -c '! test -d /sys/module/rdmachan'
check_fail "insmod dev_mode=0999 fails" "Invalid argument" $MODPROBE rdmachan dev_mode=0999
check_fail "insmod max_msg_size=1x fails" "Invalid argument" $MODPROBE rdmachan max_msg_size=1x
check "insmod dev_mode=0666 loads" rdmachan_load dev_mode=0666
check_eq "dev_mode=0666 gives crw-rw-rw-" "crw-rw-rw-" "$(ls -l /dev/rdmachan | cut -c1-10)"
check_eq "nobody can open /dev/rdmachan with dev_mode=0666" OK "$($HELPERS/ioctl_abuse open-as 65534)"
check "rdmachan unloads" rdmachan_unload
done_testing
