#!/bin/bash
# Puts a newer Cockpit beside the system's, for the browser tests and the demo on the versions that
# RHEL and Fedora run (Python bridge), without installing anything over the system's Cockpit:
#
#   tools/install-cockpit.sh 337   # cockpit-ws, -bridge, -system from Debian 12's bookworm-backports
#   tools/install-cockpit.sh 372   # the newest cockpit-bridge and -system of trixie-backports
#                                  # (Architecture: all, Python), served by 337's cockpit-ws (the
#                                  # trixie ws needs a newer glibc than Debian 12's)
#
# The packages are downloaded with apt-get from the mirror the system already uses for Debian, through
# a sources list of our own (tools/apt-suite.sh; the system's lists and sources stay as they are), and unpacked
# with dpkg -x into /var/cache/raidtune/cockpit/VERSION:
#   root/        the unpacked packages (bridge: root/usr/bin/cockpit-bridge, its Python modules under
#                root/usr/lib/python3/dist-packages)
#   data/cockpit the packages Cockpit serves (static, base1, shell, ...): XDG_DATA_DIRS=.../data
#   ws           the cockpit-ws binary to run
#   version      the Cockpit version that was unpacked, e.g. 372-1~bpo13+1
# A system folder, not the clone: a session that runs as another user (the limited-access test)
# must be able to read it wherever the clone lies. Idempotent; needs root (or sudo -n) when missing.
set -euo pipefail

want=${1:?usage: $0 337|372}
CACHE=${RAIDTUNE_COCKPIT_CACHE:-/var/cache/raidtune/cockpit}
dir=$CACHE/$want

log() { echo "install-cockpit: $*" >&2; }
die() { log "$*"; exit 1; }

case $want in
    287) log "287 is the system's Cockpit (tools/install-deps.sh)"; exit 0 ;;
    337|372) ;;
    *) die "unknown Cockpit '$want' (287, 337 or 372)" ;;
esac

if [ -s "$dir/version" ] && [ -x "$dir/ws" ]; then
    exit 0
fi

if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null || die "need root to install Cockpit $want (run as root)"
    exec sudo -n "$0" "$@"
fi
command -v apt-get >/dev/null 2>&1 || die "Cockpit $want comes from Debian's backports: this needs apt-get (a Debian machine)"
command -v dbus-daemon >/dev/null 2>&1 || die "dbus-daemon is missing: run tools/install-deps.sh first"

# apt_suite: apt-get on one suite of the system's Debian archive, with lists of its own.
# shellcheck source=tools/apt-suite.sh
. "$(dirname "${BASH_SOURCE[0]}")/apt-suite.sh"

# download_into SUITE ROOT PACKAGE...: the suite's packages unpacked into ROOT.
download_into() {
    local suite=$1 root=$2; shift 2
    local debs
    debs=$(mktemp -d)
    (cd "$debs" && apt_suite "$suite" download "${@/%//$suite}" >/dev/null)
    mkdir -p "$root"
    for deb in "$debs"/*.deb; do dpkg -x "$deb" "$root"; done
    dpkg-deb -f "$(ls "$debs"/cockpit-bridge_*.deb)" Version > "$root/.bridge-version"
    rm -rf "$debs"
}

tmp=$CACHE/.$want.tmp
rm -rf "$tmp"
mkdir -p "$tmp/data"
download_into bookworm-backports "$tmp/ws-root" cockpit-ws cockpit-bridge cockpit-system
if [ "$want" = 337 ]; then
    mv "$tmp/ws-root" "$tmp/root"
    ln -s ../root/usr/share/cockpit "$tmp/data/cockpit"
else
    download_into trixie-backports "$tmp/root" cockpit-bridge cockpit-system
    # 372's shell and bridge packages; static files (login page, fonts) and branding come with ws.
    mkdir -p "$tmp/data/cockpit"
    cp -a "$tmp/ws-root/usr/share/cockpit/static" "$tmp/ws-root/usr/share/cockpit/branding" "$tmp/data/cockpit/"
    cp -a "$tmp/root/usr/share/cockpit/." "$tmp/data/cockpit/"
    mkdir -p "$tmp/ws-lib"
    cp -a "$tmp/ws-root/usr/lib/cockpit/." "$tmp/ws-lib/"
    rm -rf "$tmp/ws-root"
fi
ws_path=$( [ "$want" = 337 ] && echo root/usr/lib/cockpit/cockpit-ws || echo ws-lib/cockpit-ws )
ln -s "$ws_path" "$tmp/ws"
cp "$tmp/root/.bridge-version" "$tmp/version"
chmod -R a+rX "$tmp"
rm -rf "$dir"
mv "$tmp" "$dir"
log "Cockpit $(cat "$dir/version") in $dir"
