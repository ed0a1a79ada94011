#!/bin/bash
# What `make bench` needs to load Cockpit's own Storage page beside raidtune's (issue #33 item 12):
#   - udisks2's daemon, which the page reads everything from (the bench starts it on a private
#     system bus: tools/cockpit/ws.ts, option `udisks`);
#   - the cockpit-storaged package of the installed Cockpit, unpacked into a cache folder and served
#     only by the bench: installed, every browser test's shell would list a Storage page (the tests
#     bring a stand-in where they need one), and on Debian it would pull systemd-sysv.
# Prints the folder that holds the package's manifest.json. Non-interactive; needs root only when
# something is missing. Debian and Fedora.
set -euo pipefail

cache=${RAIDTUNE_STORAGED_CACHE:-/var/cache/raidtune/cockpit-storaged}

log() { echo "install-storage-page: $*" >&2; }
die() { log "$*"; exit 1; }

if command -v dpkg-query >/dev/null 2>&1 && dpkg-query -W cockpit-bridge >/dev/null 2>&1; then
    version=$(dpkg-query -W -f='${Version}' cockpit-bridge)
    folder=$cache/$version
    if ! dpkg-query -W -f='${db:Status-Status}' udisks2 2>/dev/null | grep -qx installed; then
        log "installing udisks2"
        DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends udisks2 >&2
    fi
    if [ ! -f "$folder/manifest.json" ]; then
        log "unpacking cockpit-storaged $version into $folder"
        work=$(mktemp -d)
        trap 'rm -rf "$work"' EXIT
        (cd "$work" && apt-get download "cockpit-storaged=$version" >&2)
        dpkg-deb -x "$work"/cockpit-storaged_*.deb "$work/root"
        mkdir -p "$folder"
        cp -a "$work/root/usr/share/cockpit/storaged/." "$folder/"
    fi
elif command -v rpm >/dev/null 2>&1 && rpm -q cockpit-bridge >/dev/null 2>&1; then
    version=$(rpm -q --qf '%{VERSION}-%{RELEASE}' cockpit-bridge)
    folder=$cache/$version
    rpm -q udisks2 >/dev/null 2>&1 || { log "installing udisks2"; dnf install -y udisks2 >&2; }
    if [ ! -f "$folder/manifest.json" ]; then
        log "unpacking cockpit-storaged $version into $folder"
        work=$(mktemp -d)
        trap 'rm -rf "$work"' EXIT
        (cd "$work" && dnf download "cockpit-storaged-$version" >&2)
        (cd "$work" && mkdir root && cd root && rpm2cpio ../cockpit-storaged-*.rpm | cpio -idm --quiet)
        mkdir -p "$folder"
        cp -a "$work/root/usr/share/cockpit/storaged/." "$folder/"
    fi
else
    die "no packaged Cockpit found (run tools/install-deps.sh first)"
fi
echo "$folder"
