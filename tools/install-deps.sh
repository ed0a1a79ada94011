#!/bin/bash
# Installs everything raidtune needs to build, test and demo, on a fresh Debian 12 or Fedora:
#   - system packages: Cockpit (ws, bridge, system = the shell), Chromium, a D-Bus daemon,
#     rpm (rpmbuild), rpmlint, cpio (unpacking the RPM in its test), appstream (metainfo
#     validation), gettext (translations), make, xz; promtool (the `prometheus` package) and
#     prometheus-node-exporter, which check raidtune-metrics' output and alert rules (Debian only:
#     Fedora has no packaged promtool; its RPM build needs neither; where systemd runs, Debian starts
#     their services on :9090/:9100: the tests start their own exporter on a free loopback port);
#     ansible-core and shellcheck, which run and lint the generated automation scripts;
#   - Node.js >= 20.19 with npm (only checked, and installed from the distribution when it has one);
#   - node_modules: `npm ci` when it is missing or older than package-lock.json.
# Skips what is already there (a no-op run takes well under a second). Non-interactive; needs root
# only when something is missing (uses `sudo -n` if not root).
#
# Deliberately NOT installed: cockpit-storaged (pulls systemd-sysv, i.e. replaces init, plus udisks2),
# mdadm (pulls udev; raidtune's tests use a simulated host, the real-kernel tier brings its own).
set -euo pipefail

cd "$(dirname "${BASH_SOURCE[0]}")/.."

NODE_MIN=20.19.0

log() { echo "install-deps: $*" >&2; }
die() { log "$*"; exit 1; }

as_root() {
    if [ "$(id -u)" = 0 ]; then
        "$@"
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
        sudo -n "$@"
    else
        die "need root to run: $* (run this script as root)"
    fi
}

# version_ge A B: true if version A >= B (numeric, dot separated)
version_ge() {
    local IFS=.
    local -a a=($1) b=($2)
    local i
    for i in 0 1 2; do
        local x=${a[i]:-0} y=${b[i]:-0}
        x=${x%%[!0-9]*} y=${y%%[!0-9]*}
        if [ "${x:-0}" -gt "${y:-0}" ]; then return 0; fi
        if [ "${x:-0}" -lt "${y:-0}" ]; then return 1; fi
    done
    return 0
}

node_ok() {
    command -v node >/dev/null 2>&1 && command -v npm >/dev/null 2>&1 || return 1
    local v
    v=$(node -p 'process.versions.node' 2>/dev/null) || return 1
    version_ge "$v" "$NODE_MIN"
}

distro=unknown
if [ -r /etc/os-release ]; then
    # shellcheck disable=SC1091
    ids=$(. /etc/os-release; echo "${ID:-} ${ID_LIKE:-}")
    case " $ids " in
        *" debian "*|*" ubuntu "*) distro=debian ;;
        *" fedora "*|*" rhel "*|*" centos "*) distro=fedora ;;
    esac
fi

case $distro in
debian)
    packages=(cockpit-ws cockpit-bridge cockpit-system chromium dbus-daemon rpm rpmlint cpio appstream gettext make xz-utils
              prometheus prometheus-node-exporter ansible-core shellcheck)
    missing=()
    # One dpkg-query for all: prints "name status" for known packages, nothing for unknown ones.
    installed=$(dpkg-query -W -f='${Package} ${db:Status-Status}\n' "${packages[@]}" 2>/dev/null || true)
    for p in "${packages[@]}"; do
        grep -qx "$p installed" <<<"$installed" || missing+=("$p")
    done
    need_node=false
    node_ok || need_node=true
    if [ ${#missing[@]} -gt 0 ] || $need_node; then
        export DEBIAN_FRONTEND=noninteractive
        apt_opts=(-y -q --no-install-recommends -o DPkg::Lock::Timeout=300
                  -o Dpkg::Options::=--force-confdef -o Dpkg::Options::=--force-confold)
        log "apt-get update"
        as_root env DEBIAN_FRONTEND=noninteractive apt-get update -q -o DPkg::Lock::Timeout=300 >/dev/null
        if [ ${#missing[@]} -gt 0 ]; then
            log "installing ${missing[*]}"
            as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" "${missing[@]}" </dev/null
        fi
        if $need_node; then
            # Debian 12's own nodejs is 18: only use apt when a configured repository offers >= NODE_MIN.
            candidate=$(apt-cache policy nodejs 2>/dev/null | awk '/Candidate:/ {print $2}')
            candidate=${candidate#*:}
            if [ -n "$candidate" ] && [ "$candidate" != "(none)" ] && version_ge "$candidate" "$NODE_MIN"; then
                log "installing nodejs $candidate"
                as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" nodejs </dev/null
                command -v npm >/dev/null 2>&1 || \
                    as_root env DEBIAN_FRONTEND=noninteractive apt-get install "${apt_opts[@]}" npm </dev/null
            fi
        fi
    fi
    ;;
fedora)
    packages=(cockpit-ws cockpit-bridge cockpit-system chromium dbus-daemon rpm-build rpmlint cpio appstream gettext make xz
              ansible-core ShellCheck)
    missing=()
    for p in "${packages[@]}"; do
        rpm -q --quiet "$p" 2>/dev/null || missing+=("$p")
    done
    node_ok || missing+=(nodejs npm)
    if [ ${#missing[@]} -gt 0 ]; then
        log "installing ${missing[*]}"
        as_root dnf install -y -q --setopt=install_weak_deps=False "${missing[@]}" </dev/null
    fi
    ;;
*)
    log "unknown distribution (not Debian/Ubuntu or Fedora/RHEL): install by hand: cockpit-ws cockpit-bridge" \
        "cockpit-system chromium dbus-daemon rpm rpmlint cpio appstream gettext make, Node.js >= $NODE_MIN"
    ;;
esac

node_ok || die "Node.js >= $NODE_MIN with npm is required (found: $(node --version 2>/dev/null || echo none))." \
    "Debian 12 ships 18; install a newer Node.js (e.g. from nodejs.org or a NodeSource repository) and re-run."

# Check what the harness runs (paths differ between Debian and Fedora).
if [ ! -x /usr/lib/cockpit/cockpit-ws ] && [ ! -x /usr/libexec/cockpit-ws ]; then
    log "warning: cockpit-ws not found in /usr/lib/cockpit or /usr/libexec"
fi
command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || log "warning: chromium not found"

if [ ! -d node_modules ] || [ ! -e node_modules/.package-lock.json ] || [ package-lock.json -nt node_modules/.package-lock.json ]; then
    log "npm ci"
    npm ci --no-audit --no-fund </dev/null
    touch -c node_modules/.package-lock.json
fi
