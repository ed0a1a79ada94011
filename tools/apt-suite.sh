# Sourced (bash) by tools/install-cockpit.sh and tools/vm/build-guest.sh: apt-get against one suite
# of the Debian archive the system already uses (bookworm-backports, trixie-backports), through a
# sources list and package lists of our own, so the system's sources and lists stay as they are.
# Packages are only downloaded (`apt_suite SUITE download PKG...`) and unpacked by the caller,
# never installed. The archive's address comes from the system's apt configuration.
#
# Environment: RAIDTUNE_APT_LISTS  where the per-suite lists live (default /var/cache/raidtune/apt)
# The caller defines die().

# The Debian archive the system already uses (its lists must be there: apt-get update once).
debian_mirror() {
    local site
    site=$(_apt_bookworm_site)
    if [ -z "$site" ]; then
        apt-get update -q -o DPkg::Lock::Timeout=300 >/dev/null
        site=$(_apt_bookworm_site)
    fi
    [ -n "$site" ] || die "no Debian 12 (bookworm) archive in the system's apt sources"
    echo "$site"
}

_apt_bookworm_site() {
    apt-get indextargets --format '$(SITE) $(ORIGIN) $(CODENAME)' 'Created-By: Packages' 2>/dev/null |
        awk '$2 == "Debian" && $3 == "bookworm" { print $1; exit }'
}

# apt_suite SUITE ARGS...: apt-get ARGS with only SUITE's main component as its sources. The lists
# are fetched once; `apt_suite_update SUITE` fetches them again (a package that was superseded).
apt_suite() {
    local suite=$1; shift
    _apt_suite_prepare "$suite"
    apt-get "${_APT_SUITE_OPTS[@]}" "$@"
}

# apt_suite_cache SUITE ARGS...: apt-cache (show, depends) on SUITE's lists alone.
apt_suite_cache() {
    local suite=$1; shift
    _apt_suite_prepare "$suite"
    apt-cache "${_APT_SUITE_OPTS[@]}" -o Dir::Cache::pkgcache= -o Dir::Cache::srcpkgcache= "$@"
}

apt_suite_update() {
    rm -f "${RAIDTUNE_APT_LISTS:-/var/cache/raidtune/apt}/$1/updated"
    _apt_suite_prepare "$1"
}

_apt_suite_prepare() {
    local lists=${RAIDTUNE_APT_LISTS:-/var/cache/raidtune/apt}/$1
    mkdir -p "$lists/lists/partial"
    [ -s "$lists/sources.list" ] || echo "deb $(debian_mirror) $1 main" > "$lists/sources.list"
    # Debug::NoLocking: these lists are ours; the system's apt lock is not needed for them.
    _APT_SUITE_OPTS=(-q -o "Dir::Etc::sourcelist=$lists/sources.list" -o Dir::Etc::sourceparts=/dev/null
                     -o "Dir::State::Lists=$lists/lists" -o Debug::NoLocking=1 -o APT::Sandbox::User=root)
    if [ ! -e "$lists/updated" ]; then
        apt-get "${_APT_SUITE_OPTS[@]}" update >/dev/null
        touch "$lists/updated"
    fi
}
