#!/bin/bash
# Builds the real-kernel test guest (see test/vm/README.md): a Debian kernel plus an initramfs with
# busybox, mdadm, the md/virtio/9p modules and cockpit-bridge (with every library ldd lists and
# /usr/share/cockpit/base1). Output in build/vm/KERNEL/ (git-ignored), one folder per kernel choice:
#
#   vmlinuz  vmlinux  initrd.img  guest.env  (kernel version, cache key, the modules packed)
#
# Idempotent and non-interactive; run as root on Debian 12. First run: apt installs what is
# missing (host side: qemu, socat, cockpit-ws/bridge, chromium) and downloads the kernel packages
# with `apt-get download` (extracted with dpkg-deb, never installed on the host). A rebuild with
# nothing changed only checks the cache key (~1 s).
#
# Environment: RAIDTUNE_VM_KERNEL which kernel (default 6.1):
#                6.1   Debian 12's linux-image-amd64
#                6.12  bookworm-backports' linux-image-amd64 (the base of RHEL 10's kernel)
#                7     trixie-backports' linux-image-amd64 (the newest 7.x: Fedora's generation)
#                linux-image-VERSION  that package, from the system's sources or else the backports
#              RAIDTUNE_VM_BUILD  build dir (default <repo>/build/vm/<RAIDTUNE_VM_KERNEL>)
#              RAIDTUNE_VM_FORCE=1 rebuild the initramfs even when the cache key matches
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
CHOICE=${RAIDTUNE_VM_KERNEL:-6.1}
T0=$(date +%s.%N)
log() { echo "build-guest: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }
# The choice names the build dir (and vm.ts's default, vmBuildDir()): a plain name only.
[[ $CHOICE =~ ^(6\.1|6\.12|7|linux-image-[A-Za-z0-9.+_-]+)$ ]] ||
    die "RAIDTUNE_VM_KERNEL=$CHOICE: 6.1, 6.12, 7 or a package name linux-image-VERSION"
B=${RAIDTUNE_VM_BUILD:-$REPO/build/vm/$CHOICE}
# shellcheck source=tools/apt-suite.sh
. "$HERE/../apt-suite.sh"

# Host packages. Guest contents are copied from the host's installed files (busybox-static, mdadm,
# cockpit-bridge, libc-bin's getconf, coreutils/grep/dash), so the guest's user space matches
# what ldd resolves here.
# gcc and libc6-dev: the rebuild benchmark's load generator (tools/vm/ratedread.c) is built static.
# util-linux, fdisk, e2fsprogs: the disk tools below (fdisk, which has sfdisk, is not in a minimal
# Debian 12; the other two are, but are named so the list says where each tool comes from).
PACKAGES=(qemu-system-x86 busybox-static mdadm cpio kmod socat cockpit-bridge cockpit-ws chromium
          xz-utils zstd gzip gcc libc6-dev udev systemd util-linux fdisk e2fsprogs)
# Kernel modules the guest wants, in load order. Each kernel packs the ones it really has as
# modules (modules.builtin ones are skipped, missing ones left out with a note: 7.x has no
# crc32c_generic or linear), listed in the initramfs's /etc/raidtune-modules for guest-init.
# crc32c_generic before raid456 (on 6.1 its crc32c is not a hard module dependency). md's linear
# personality is `linear` up to 6.7 and `md-linear` from 6.14 (Debian's 6.12 and 7.x have neither).
WANTED_MODULES=(crc32c_generic virtio_pci virtio_blk virtio_scsi sd_mod virtio_console 9pnet_virtio 9p
                md_mod linear md_linear raid0 raid1 raid10 raid456)

[ "$(id -u)" = 0 ] || die "run as root (apt-get, and files copied from the host's /usr)"
[ -r /etc/debian_version ] || die "needs Debian (apt-get download, dpkg-deb)"

# ---- 1. host packages (only when something is missing) ----
missing=()
for p in "${PACKAGES[@]}"; do
    [ "$(dpkg-query -W -f '${db:Status-Abbrev}' "$p" 2>/dev/null)" = "ii " ] || missing+=("$p")
done
export DEBIAN_FRONTEND=noninteractive
if [ ${#missing[@]} -gt 0 ]; then
    log "apt-get install ${missing[*]}"
    apt-get update -q >/dev/null
    # policy-rc.d 101: no maintainer script may start a daemon (mdadm's monitor, ...) on the host.
    # Only created (and removed) when the machine has none.
    prc=/usr/sbin/policy-rc.d; own_prc=0
    if [ ! -e "$prc" ]; then printf '#!/bin/sh\nexit 101\n' > "$prc"; chmod 755 "$prc"; own_prc=1; fi
    rc=0
    apt-get install -y -q --no-install-recommends "${missing[@]}" >/dev/null || rc=$?
    [ "$own_prc" = 1 ] && rm -f "$prc"
    [ "$rc" = 0 ] || die "apt-get install failed ($rc)"
fi

# ---- 2. the kernel packages (downloaded, extracted, never installed on the host) ----
# SUITE: "" for the system's own apt sources, else a backports suite (tools/apt-suite.sh).
apt_in() { local suite=$1; shift; if [ -z "$suite" ]; then apt-get -q "$@"; else apt_suite "$suite" "$@"; fi; }
cache_in() { local suite=$1; shift; if [ -z "$suite" ]; then apt-cache "$@"; else apt_suite_cache "$suite" "$@"; fi; }
lists_of() { if [ -z "$1" ]; then echo /var/lib/apt/lists; else echo "${RAIDTUNE_APT_LISTS:-/var/cache/raidtune/apt}/$1/lists"; fi; }
# The versioned image package linux-image-amd64 points at in SUITE.
resolve_kernel() {
    cache_in "$1" depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
has_package() { cache_in "$1" show "$2" >/dev/null 2>&1; }
case $CHOICE in
6.1) suite= ;;
6.12) suite=bookworm-backports ;;
7) suite=trixie-backports ;;
*) suite=none
   for s in "" bookworm-backports trixie-backports; do
       if has_package "$s" "$CHOICE"; then suite=$s; break; fi
   done
   [ "$suite" != none ] || die "no package $CHOICE in the system's sources, bookworm- or trixie-backports" ;;
esac
# apt-cache takes ~0.5 s here (no pkgcache.bin): reuse the answer while the lists are unchanged.
lists_stamp() { { stat -c '%n %s %Y' "$(lists_of "$suite")"/*_Packages* 2>/dev/null || true; } | sha256sum | cut -c1-16; }
stamp_now=$(lists_stamp)
kpkg=
case $CHOICE in linux-image-*) kpkg=$CHOICE ;; esac
if [ -z "$kpkg" ] && [ -r "$B/kernel.resolved" ]; then
    read -r stamp pkg < "$B/kernel.resolved" || true
    [ "$stamp" = "$stamp_now" ] && kpkg=$pkg
fi
if [ -z "$kpkg" ]; then
    kpkg=$(resolve_kernel "$suite")
    if [ -z "$kpkg" ]; then
        if [ -z "$suite" ]; then apt-get update -q >/dev/null; else apt_suite_update "$suite"; fi
        kpkg=$(resolve_kernel "$suite")
    fi
    [ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 in ${suite:-the system sources} (apt-cache depends)"
    mkdir -p "$B"
    echo "$(lists_stamp) $kpkg" > "$B/kernel.resolved"
fi
kver=${kpkg#linux-image-}
K=$B/kernel/$kver
mkdir -p "$B"
# Two layouts: the classic one (6.1, 6.12: linux-image-X holds /boot/vmlinuz-X and /lib/modules/X),
# and the split one of newer Debian kernels (7.x: linux-image-X is a meta package; linux-binary-X
# holds usr/lib/modules/X/vmlinuz, linux-modules-X the modules, linux-base-X modules.builtin and
# modules.order, all under the merged /usr).
download_kernel() {
    local parts
    parts=$(cache_in "$suite" depends "$kpkg" 2>/dev/null |
        awk -v v="$kver" '$1 == "Depends:" && ($2 == "linux-binary-" v || $2 == "linux-modules-" v || $2 == "linux-base-" v) { print $2 }' | sort -u)
    # shellcheck disable=SC2086 # package names, no blanks
    (cd "$B/debs" && apt_in "$suite" download -o APT::Sandbox::User=root "$kpkg" $parts >/dev/null 2>&1)
}
if [ ! -e "$K/.done" ]; then
    log "downloading $kpkg${suite:+ from $suite}"
    rm -rf "$B/kernel" "$B/debs"; mkdir -p "$B/debs" "$K"
    if ! download_kernel; then
        # A package superseded since the lists were fetched: fetch them again.
        if [ -z "$suite" ]; then apt-get update -q >/dev/null; else apt_suite_update "$suite"; fi
        download_kernel || die "apt-get download $kpkg failed"
    fi
    for deb in "$B"/debs/*.deb; do dpkg-deb -x "$deb" "$K"; done
    # Merged /usr: kmod (30, Debian 12) looks in <root>/lib/modules only.
    [ -e "$K/lib" ] || [ ! -d "$K/usr/lib/modules/$kver" ] || ln -s usr/lib "$K/lib"
    [ -d "$K/lib/modules/$kver/kernel" ] || die "no modules for $kver in $kpkg"
    depmod -b "$K" "$kver"
    touch "$K/.done"
    rm -rf "$B/debs"
fi
kimage=$K/boot/vmlinuz-$kver
[ -e "$kimage" ] || kimage=$K/lib/modules/$kver/vmlinuz
[ -e "$kimage" ] || die "no vmlinuz-$kver in $kpkg (neither /boot nor the modules folder)"

# The wanted modules this kernel has as loadable modules, and every file they need.
MODULES=(); MODFILES=(); LEFT_OUT=()
for m in "${WANTED_MODULES[@]}"; do
    if ! deps=$(modprobe -d "$K" -S "$kver" --show-depends "$m" 2>/dev/null); then
        LEFT_OUT+=("$m"); continue
    fi
    # Built in: no insmod line (a loadable module always has its own).
    grep -q '^insmod ' <<<"$deps" || continue
    MODULES+=("$m")
    while read -r f; do MODFILES+=("$f"); done < <(awk '$1 == "insmod" { print $2 }' <<<"$deps")
done
mapfile -t MODFILES < <(printf '%s\n' "${MODFILES[@]}" | awk '!seen[$0]++')
[ ${#LEFT_OUT[@]} = 0 ] || log "kernel $kver has no module ${LEFT_OUT[*]} (neither loadable nor built in): left out"

# ---- 3. what goes into the initramfs, and the cache key over all of it ----
# What raidtune spawns through the bridge (tee, cat, rm, sh -c with mkdir/dirname/chmod/chown/mv, grep)
# must be the GNU tools and dash a Debian host has, not busybox's applets: busybox tee reports
# every failed write as "I/O error" and hides the kernel's errno (EBUSY, EINVAL...) from the page.
# They go to /usr/bin, ahead of busybox's /bin in PATH; /usr/bin/sh is dash (the guest's /init
# stays busybox sh).
# util-linux setsid: the auto-restore waiter starts with `setsid -f` where systemd is not PID 1
# (busybox's setsid has no -f).
GNU_TOOLS=(/usr/bin/tee /usr/bin/cat /usr/bin/rm /usr/bin/mkdir /usr/bin/mv /usr/bin/chmod /usr/bin/chown /usr/bin/dirname
           /usr/bin/grep /usr/bin/dash /usr/bin/setsid)
# ---- boot tools (raidtune.boot=systemd, see guest-init's boot_like_systemd) ----
# The host's own systemd-modules-load, systemd-sysctl and systemd-udevd (a name of the udevadm
# binary), with the udev rules Debian ships (mdadm's 63-md-raid-arrays and 64-md-raid-assembly
# among them) and the rule helpers that read block devices; hwdb (20 MB) is left out (its
# builtin then finds nothing, as on a machine without hwdb.bin). Copied to the same paths.
BOOT_TOOLS=(/usr/bin/udevadm /usr/lib/systemd/systemd-sysctl /usr/lib/systemd/systemd-modules-load
            /usr/lib/udev/ata_id /usr/lib/udev/scsi_id)
BOOT_RULES_DIR=/usr/lib/udev/rules.d
for r in 63-md-raid-arrays.rules 64-md-raid-assembly.rules 60-persistent-storage.rules; do
    [ -r "$BOOT_RULES_DIR/$r" ] || die "$BOOT_RULES_DIR/$r missing (packages mdadm, udev)"
done
mapfile -t BOOT_RULES < <(find "$BOOT_RULES_DIR" -name '*.rules' | sort)
# ---- end of boot tools ----
# ---- disk tools: what the Replace disk dialog reads and writes (issue #34) ----
# util-linux's lsblk and wipefs, fdisk's sfdisk (no busybox applet has their --json or --dump), and
# e2fsprogs' mke2fs (as mkfs.ext4, with its mke2fs.conf) so a test can leave a filesystem on a
# disk. Copied to the host's paths (/usr/sbin is first in the guest's PATH). Busybox's own
# mke2fs/mkswap applets stay: the control channel's sh runs applets before PATH, so tests name
# these by their full path.
DISK_TOOLS=(/usr/bin/lsblk /usr/sbin/wipefs /usr/sbin/sfdisk /usr/sbin/mke2fs)
DISK_TOOL_FILES=(/etc/mke2fs.conf)
# ---- end of disk tools ----
BINARIES=(/bin/busybox /sbin/mdadm /usr/bin/cockpit-bridge /usr/bin/getconf "${GNU_TOOLS[@]}" "${BOOT_TOOLS[@]}"
          "${DISK_TOOLS[@]}")
# Output captured before grep -q reads it: busybox --list write()s each name on its own, so when
# piped, grep quits at the match while busybox still writes, busybox dies of SIGPIPE and pipefail
# fails the check (it did once in a clean-clone CI run under load).
[ -x /bin/busybox ] && grep -qx modprobe <<<"$(/bin/busybox --list)" || die "/bin/busybox is not busybox-static"
libs_of() { ldd "$1" 2>/dev/null | awk '$3 ~ /^\// { print $3 } $1 ~ /^\// { print $1 }'; }
LIBS=()
for bin in "${BINARIES[@]}"; do
    [ -x "$bin" ] || die "$bin missing"
    if grep -q 'not found' <<<"$(ldd "$bin" 2>&1)"; then die "$bin: ldd reports missing libraries"; fi
    while read -r l; do LIBS+=("$l"); done < <(libs_of "$bin")
done
for f in "${DISK_TOOL_FILES[@]}"; do [ -r "$f" ] || die "$f missing (package e2fsprogs)"; done
mapfile -t LIBS < <(printf '%s\n' "${LIBS[@]}" | sort -u)
mapfile -t BASE1 < <(find /usr/share/cockpit/base1 -type f | sort)

key=$( {
    sha256sum "$HERE/build-guest.sh" "$HERE/guest-init"
    echo "kernel $kver"
    printf '%s\n' "${MODULES[@]}"
    stat -L -c '%n %s %Y' "${BINARIES[@]}" "${LIBS[@]}" "${BASE1[@]}" "${BOOT_RULES[@]}" "${DISK_TOOL_FILES[@]}" /etc/os-release
} | sha256sum | cut -c1-16)

if [ "${RAIDTUNE_VM_FORCE:-0}" != 1 ] && [ -s "$B/initrd.img" ] && [ -s "$B/vmlinuz" ] &&
   [ "$(sed -n 's/^KEY=//p' "$B/guest.env" 2>/dev/null)" = "$key" ]; then
    log "up to date (kernel $kver, key $key, $(elapsed) s)"
    exit 0
fi

# Like the kernel's scripts/extract-vmlinux, for the two compressions Debian uses (6.1, 6.12:
# CONFIG_KERNEL_XZ; 7.x: CONFIG_KERNEL_ZSTD): each place the magic occurs, until one gives an ELF.
try_decompress() { # IMAGE OUT MAGIC(grep -P) DECOMPRESSOR...
    local img=$1 out=$2 magic=$3 pos; shift 3
    for pos in $(LC_ALL=C grep -aboP "$magic" "$img" | cut -d: -f1); do
        tail -c+"$((pos + 1))" "$img" | "$@" > "$out" 2>/dev/null || true
        [ "$(od -An -c -N4 "$out" 2>/dev/null | tr -d ' ')" = '177ELF' ] && return 0
    done
    return 1
}
extract_vmlinux() {
    try_decompress "$1" "$2" '\xfd7zXZ\x00' xz -dc --single-stream ||
        try_decompress "$1" "$2" '\x28\xb5\x2f\xfd' zstd -dcq
}

# ---- 4. initramfs root ----
log "building initramfs (kernel $kver)"
R=$B/root
rm -rf "$R"
mkdir -p "$R"/{bin,sbin,etc,proc,sys,dev,run,tmp,root,host,usr/bin,usr/sbin,usr/share/cockpit,lib/modules}
cp /bin/busybox "$R/bin/busybox"
for a in $(/bin/busybox --list); do
    [ -e "$R/bin/$a" ] || ln -s busybox "$R/bin/$a"
done
cp /sbin/mdadm "$R/sbin/mdadm"
ln -s ../bin/busybox "$R/sbin/modprobe" # the kernel's request_module() runs /sbin/modprobe
cp /usr/bin/cockpit-bridge /usr/bin/getconf "${GNU_TOOLS[@]}" "$R/usr/bin/"
ln -s dash "$R/usr/bin/sh"
for l in "${LIBS[@]}"; do
    mkdir -p "$R$(dirname "$l")"
    cp -L "$l" "$R$l"
done
cp -a /usr/share/cockpit/base1 "$R/usr/share/cockpit/"
# ---- boot tools, copied (the list is above) ----
for t in "${BOOT_TOOLS[@]}"; do
    mkdir -p "$R$(dirname "$t")"
    cp -L "$t" "$R$t"
done
ln -s ../../bin/udevadm "$R/usr/lib/systemd/systemd-udevd" # udevadm runs as the daemon under this name
mkdir -p "$R$BOOT_RULES_DIR"
cp "${BOOT_RULES[@]}" "$R$BOOT_RULES_DIR/"
# ---- disk tools, copied (the list is above) ----
for t in "${DISK_TOOLS[@]}" "${DISK_TOOL_FILES[@]}"; do
    mkdir -p "$R$(dirname "$t")"
    cp -L "$t" "$R$t"
done
ln -s mke2fs "$R/usr/sbin/mkfs.ext4" # mke2fs makes ext4 under this name (mke2fs.conf's fs_types)
# ---- end of disk tools ----
# Groups and users the shipped rules name (GROUP="disk" ...), so udevd applies them without a warning.
BOOT_GROUPS=$(sed -n 's/.*GROUP="\([a-z_-]*\)".*/\1/p' "${BOOT_RULES[@]}" | sort -u)
# ---- end of boot tools ----

mkdir -p "$R/lib/modules/$kver"
for f in "${MODFILES[@]}"; do
    rel=${f#"$K"}
    mkdir -p "$R$(dirname "$rel")"
    case $f in
    *.ko.xz) xz -dc "$f" > "$R${rel%.xz}" ;;
    *.ko.zst) zstd -qdc "$f" > "$R${rel%.zst}" ;;
    *.ko.gz) gzip -dc "$f" > "$R${rel%.gz}" ;;
    *) cp "$f" "$R$rel" ;;
    esac
done
cp "$K/lib/modules/$kver"/modules.{order,builtin,builtin.modinfo} "$R/lib/modules/$kver/"
depmod -b "$R" "$kver"
printf '%s\n' "${MODULES[@]}" > "$R/etc/raidtune-modules"

echo 'root:x:0:0:root:/root:/bin/sh' > "$R/etc/passwd"
echo 'root:x:0:' > "$R/etc/group"
gid=100; for g in $BOOT_GROUPS; do echo "$g:x:$gid:" >> "$R/etc/group"; gid=$((gid + 1)); done # boot tools
echo 'root:*:19000:0:99999:7:::' > "$R/etc/shadow"; chmod 600 "$R/etc/shadow"
cp /etc/os-release "$R/etc/os-release"
echo raidtune-vm > "$R/etc/hostname"
mkdir -p "$R/etc/mdadm"
printf 'DEVICE /dev/vd* /dev/sd*\nHOMEHOST <ignore>\n' > "$R/etc/mdadm/mdadm.conf"
ldconfig -r "$R" 2>/dev/null || true
install -m 755 "$HERE/guest-init" "$R/init"

# Uncompressed cpio: the guest boots faster without decompressing in emulation (see README).
(cd "$R" && find . -print0 | LC_ALL=C sort -z | cpio -o -0 -H newc --quiet) > "$B/initrd.img.new"
mv "$B/initrd.img.new" "$B/initrd.img"
cp "$kimage" "$B/vmlinuz"
# The uncompressed ELF kernel boots ~2-3 s faster under TCG (no XZ decompression in emulation);
# QEMU starts it through its PVH entry (CONFIG_PVH). Falls back to the bzImage if that fails.
image=vmlinuz
if extract_vmlinux "$B/vmlinuz" "$B/vmlinux"; then image=vmlinux; else rm -f "$B/vmlinux"; fi
printf 'KERNEL=%s\nKEY=%s\nIMAGE=%s\nMODULES=%s\nLEFT_OUT=%s\n' "$kver" "$key" "$image" "${MODULES[*]}" "${LEFT_OUT[*]}" > "$B/guest.env"
log "done in $(elapsed) s: kernel $kver, initrd $(du -h "$B/initrd.img" | cut -f1), $(find "$R" -type f | wc -l) files"
