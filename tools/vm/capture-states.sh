#!/bin/sh
# Captures md states of a newer kernel as unit-test fixtures (test/fixtures/real-kernel-7/), in the
# format test/unit/helpers/realKernelCapture.ts reads (mdstat, sysfs.txt, members-sysfs.txt,
# proc-sys-dev-raid.txt as "path: value" lines, plus mdadm --detail and a README):
#
#   RAIDTUNE_VM_KERNEL=7 tools/vm/capture-states.sh test/fixtures/real-kernel-7
#
# Boots a guest with 6 disks (tools/vm/guest.sh run), makes each state with mdadm there and splits
# the guest's output ("@@FILE state/name" lines, then the content) into OUTDIR/state/name.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
OUT=${1:?usage: $0 OUTDIR}

# Runs in the guest (busybox sh).
guest_script='
val() { v=$(cat "$1" 2>&1) || v="<unreadable>"; printf "%s" "$v" | awk "BEGIN{ORS=\"\"} NR>1{print \"\\\\n\"} {print}"; echo; }
cap() {
    name=$1; shift
    echo "@@FILE $name/mdstat"; cat /proc/mdstat
    echo "@@FILE $name/sysfs.txt"
    for b in /sys/block/md*; do
        [ -d "$b/md" ] || continue
        find "$b/md" -type f | sort | while read -r p; do echo "$p: $(val "$p")"; done
        for f in queue/read_ahead_kb queue/scheduler queue/nr_requests size ro; do
            [ -e "$b/$f" ] && echo "$b/$f: $(val "$b/$f")"
        done
    done
    echo "@@FILE $name/members-sysfs.txt"
    for v in /sys/block/vd*; do
        for f in size ro queue/read_ahead_kb queue/scheduler queue/nr_requests queue/rotational mq/0/nr_tags; do
            [ -e "$v/$f" ] && echo "$v/$f: $(val "$v/$f")"
        done
    done
    echo "@@FILE $name/proc-sys-dev-raid.txt"
    for f in /proc/sys/dev/raid/*; do echo "$f: $(val "$f")"; done
    echo "@@FILE $name/mdadm-detail.txt"
    for b in /sys/block/md*; do mdadm --detail "/dev/${b##*/}" 2>&1; done
    echo "@@FILE $name/README.md"
    printf "# %s\n\n%s\n\nKernel %s, %s, QEMU TCG guest (tools/vm/capture-states.sh), disks /dev/vda..vdf = 256 MiB raw virtio files.\n" \
        "$name" "$*" "$(uname -r)" "$(mdadm --version 2>&1)"
}
reset() {
    for m in /dev/md[0-9]*; do [ -b "$m" ] && mdadm --stop "$m" >/dev/null 2>&1; done
    mdadm --zero-superblock /dev/vd? >/dev/null 2>&1
    for d in /sys/block/vd?; do echo none > $d/queue/scheduler; done
    echo 1 > /proc/sys/dev/raid/speed_limit_min; echo 200 > /proc/sys/dev/raid/speed_limit_max
}
create() { n=$1; shift; mdadm --create "/dev/$n" --run --metadata=1.2 "$@" >/dev/null 2>&1 || echo "mdadm --create $n $* failed" >&2; }
waitsync() { i=0; while [ $i -lt 100 ] && ! grep -q "recovery = " /proc/mdstat; do usleep 100000; i=$((i + 1)); done; sleep 2; }

reset
create md0 --level=1 --raid-devices=2 /dev/vda missing
mdadm /dev/md0 --add /dev/vdb >/dev/null 2>&1
waitsync
cap raid1-recovery "RAID1 made with a missing member, /dev/vdb added: a recovery running (limits 1/200 KiB/s)."

echo frozen > /sys/block/md0/md/sync_action
create md1 --level=1 --raid-devices=2 --assume-clean /dev/vdc /dev/vdd
echo frozen > /sys/block/md1/md/sync_action
cap raid1-recovery-frozen "md0: the recovery above, paused (echo frozen > sync_action). md1: a RAID1 made --assume-clean (no sync since), frozen while idle."

reset
create md0 --level=1 --raid-devices=2 --assume-clean /dev/vda /dev/vdb
mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=16M >/dev/null 2>&1
mdadm --grow /dev/md0 --bitmap=none >/dev/null 2>&1
echo mq-deadline > /sys/block/vda/queue/scheduler
echo mq-deadline > /sys/block/vdb/queue/scheduler
cap raid1-bitmap-removed-mq-deadline "RAID1 made --assume-clean, an internal bitmap (16M chunks) added and removed with mdadm --grow; mq-deadline set on both members."
'

mkdir -p "$OUT"
"$HERE/guest.sh" run --disks 6 "$guest_script" | awk -v out="$OUT" '
    /^@@FILE / { if (f) close(f); f = out "/" $2; d = f; sub(/\/[^\/]*$/, "", d); system("mkdir -p \"" d "\""); next }
    f { print > f }'
