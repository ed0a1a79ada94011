#!/bin/sh
# `make demo DEMO_ARGS=--vm`: raidtune in the browser against REAL md arrays rebuilding inside the
# real-kernel test guest (test/vm/README.md). Boots the guest with 2 GiB disks, serves the page from
# the host's cockpit-ws, then creates a RAID5 (its initial build is a recovery) and a RAID1 with the
# rebuild speed capped low so they keep going for a quarter of an hour. Ctrl-C stops everything.
set -eu
HERE=$(cd "$(dirname "$0")" && pwd)
"$HERE/build-guest.sh"
"$HERE/guest.sh" serve --disk-mib 2048 "$@" &
serve=$!
trap 'kill $serve 2>/dev/null || true; wait $serve 2>/dev/null || true' EXIT INT TERM
for _ in $(seq 1 120); do
    "$HERE/guest.sh" exec true >/dev/null 2>&1 && break
    kill -0 $serve 2>/dev/null || exit 1
    sleep 1
done
"$HERE/guest.sh" exec '
echo 2000 > /proc/sys/dev/raid/speed_limit_max
mdadm --create /dev/md0 --run --level=5 --raid-devices=4 /dev/vda /dev/vdb /dev/vdc /dev/vdd
mdadm --create /dev/md1 --run --level=1 --raid-devices=2 --bitmap=internal /dev/vde /dev/vdf
cat /proc/mdstat'
echo "demo: arrays created in the guest; open the page URL printed above"
wait $serve
