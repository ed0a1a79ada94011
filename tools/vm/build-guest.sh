#!/bin/bash
# Builds the real-kernel test guest (see test/vm/README.md): Debian's stock kernel plus an
# initramfs with busybox, mdadm, the md/virtio/9p modules and cockpit-bridge (with every library
# ldd lists and /usr/share/cockpit/base1). Output in build/vm/ (git-ignored):
#
#   build/vm/vmlinuz  build/vm/initrd.img  build/vm/guest.env  (kernel version, cache key)
#
# Idempotent and non-interactive; run as root on Debian 12. First run: apt installs what is
# missing (host side: qemu, socat, cockpit-ws/bridge, chromium) and downloads the kernel package
# with `apt-get download` (extracted with dpkg-deb, never installed on the host). A rebuild with
# nothing changed only checks the cache key (~1 s).
#
# Environment: RAIDTUNE_VM_BUILD  build dir (default <repo>/build/vm)
#              RAIDTUNE_VM_KERNEL kernel image package (default: what linux-image-amd64 points at)
#              RAIDTUNE_VM_FORCE=1 rebuild the initramfs even when the cache key matches
set -euo pipefail

HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
REPO=$(cd "$HERE/../.." && pwd)
B=${RAIDTUNE_VM_BUILD:-$REPO/build/vm}
T0=$(date +%s.%N)
log() { echo "build-guest: $*" >&2; }
die() { log "ERROR: $*"; exit 1; }
elapsed() { awk -v a="$T0" -v b="$(date +%s.%N)" 'BEGIN { printf "%.1f", b - a }'; }

# Host packages. Guest contents are copied from the host's installed files (busybox-static, mdadm,
# cockpit-bridge, libc-bin's getconf, coreutils/grep/dash), so the guest's user space matches
# what ldd resolves here.
# gcc and libc6-dev: the rebuild benchmark's load generator (tools/vm/ratedread.c) is built static.
PACKAGES=(qemu-system-x86 busybox-static mdadm cpio kmod socat cockpit-bridge cockpit-ws chromium
          xz-utils zstd gzip gcc libc6-dev udev systemd)
# Kernel modules for the guest, in load order (raid456 needs crc32c_generic loaded first).
MODULES=(crc32c_generic virtio_pci virtio_blk virtio_scsi sd_mod virtio_console 9pnet_virtio 9p
         md_mod linear raid0 raid1 raid10 raid456)

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

# ---- 2. the kernel package (downloaded, extracted, never installed on the host) ----
resolve_kernel() {
    apt-cache depends linux-image-amd64 2>/dev/null | awk '/Depends: linux-image-[0-9]/ { print $2; exit }'
}
# apt-cache takes ~0.5 s here (no pkgcache.bin): reuse the answer while apt's lists are unchanged.
lists_stamp=$(stat -c '%n %s %Y' /var/lib/apt/lists/*_Packages* 2>/dev/null | sha256sum | cut -c1-16)
kpkg=${RAIDTUNE_VM_KERNEL:-}
if [ -z "$kpkg" ] && [ -r "$B/kernel.resolved" ]; then
    read -r stamp pkg < "$B/kernel.resolved" || true
    [ "$stamp" = "$lists_stamp" ] && kpkg=$pkg
fi
if [ -z "$kpkg" ]; then
    kpkg=$(resolve_kernel)
    if [ -z "$kpkg" ]; then
        apt-get update -q >/dev/null
        lists_stamp=$(stat -c '%n %s %Y' /var/lib/apt/lists/*_Packages* 2>/dev/null | sha256sum | cut -c1-16)
        kpkg=$(resolve_kernel)
    fi
    [ -n "$kpkg" ] || die "cannot resolve linux-image-amd64 (apt-cache depends)"
    mkdir -p "$B"
    echo "$lists_stamp $kpkg" > "$B/kernel.resolved"
fi
kver=${kpkg#linux-image-}
K=$B/kernel/$kver
mkdir -p "$B"
if [ ! -e "$K/.done" ]; then
    log "downloading $kpkg"
    rm -rf "$B/kernel" "$B/debs"; mkdir -p "$B/debs" "$K"
    if ! (cd "$B/debs" && apt-get download -q -o APT::Sandbox::User=root "$kpkg" >/dev/null 2>&1); then
        apt-get update -q >/dev/null
        (cd "$B/debs" && apt-get download -q -o APT::Sandbox::User=root "$kpkg" >/dev/null)
    fi
    dpkg-deb -x "$B"/debs/linux-image-*.deb "$K"
    [ -e "$K/boot/vmlinuz-$kver" ] || die "no /boot/vmlinuz-$kver in $kpkg"
    depmod -b "$K" "$kver"
    touch "$K/.done"
    rm -rf "$B/debs"
fi

# ---- 3. what goes into the initramfs, and the cache key over all of it ----
# What raidtune spawns through the bridge (tee, cat, rm, sh -c with mkdir/dirname/chmod/mv, grep)
# must be the GNU tools and dash a Debian host has, not busybox's applets: busybox tee reports
# every failed write as "I/O error" and hides the kernel's errno (EBUSY, EINVAL...) from the page.
# They go to /usr/bin, ahead of busybox's /bin in PATH; /usr/bin/sh is dash (the guest's /init
# stays busybox sh).
# util-linux setsid: the auto-restore waiter starts with `setsid -f` where systemd is not PID 1
# (busybox's setsid has no -f).
GNU_TOOLS=(/usr/bin/tee /usr/bin/cat /usr/bin/rm /usr/bin/mkdir /usr/bin/mv /usr/bin/chmod /usr/bin/dirname
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
BINARIES=(/bin/busybox /sbin/mdadm /usr/bin/cockpit-bridge /usr/bin/getconf "${GNU_TOOLS[@]}" "${BOOT_TOOLS[@]}")
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
mapfile -t LIBS < <(printf '%s\n' "${LIBS[@]}" | sort -u)
mapfile -t MODFILES < <(for m in "${MODULES[@]}"; do
        modprobe -d "$K" -S "$kver" --show-depends "$m" | awk '$1 == "insmod" { print $2 }'
    done | awk '!seen[$0]++')
mapfile -t BASE1 < <(find /usr/share/cockpit/base1 -type f | sort)

key=$( {
    sha256sum "$HERE/build-guest.sh" "$HERE/guest-init"
    echo "kernel $kver"
    printf '%s\n' "${MODULES[@]}"
    stat -L -c '%n %s %Y' "${BINARIES[@]}" "${LIBS[@]}" "${BASE1[@]}" "${BOOT_RULES[@]}" /etc/os-release
} | sha256sum | cut -c1-16)

if [ "${RAIDTUNE_VM_FORCE:-0}" != 1 ] && [ -s "$B/initrd.img" ] && [ -s "$B/vmlinuz" ] &&
   [ "$(sed -n 's/^KEY=//p' "$B/guest.env" 2>/dev/null)" = "$key" ]; then
    log "up to date (kernel $kver, key $key, $(elapsed) s)"
    exit 0
fi

# Like the kernel's scripts/extract-vmlinux (XZ only: Debian's kernels are CONFIG_KERNEL_XZ).
extract_vmlinux() {
    local pos
    for pos in $(tr "\3757zXZ\000\nabcde" "\nabcde=" < "$1" | grep -abo '^abcde'); do
        pos=${pos%%:*}
        tail -c+"$pos" "$1" | xz -dc --single-stream > "$2" 2>/dev/null || true
        [ "$(od -An -c -N4 "$2" 2>/dev/null | tr -d ' ')" = '177ELF' ] && return 0
    done
    return 1
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
cp "$K/boot/vmlinuz-$kver" "$B/vmlinuz"
# The uncompressed ELF kernel boots ~2-3 s faster under TCG (no XZ decompression in emulation);
# QEMU starts it through its PVH entry (CONFIG_PVH). Falls back to the bzImage if that fails.
image=vmlinuz
if extract_vmlinux "$B/vmlinuz" "$B/vmlinux"; then image=vmlinux; else rm -f "$B/vmlinux"; fi
printf 'KERNEL=%s\nKEY=%s\nIMAGE=%s\n' "$kver" "$key" "$image" > "$B/guest.env"
log "done in $(elapsed) s: kernel $kver, initrd $(du -h "$B/initrd.img" | cut -f1), $(find "$R" -type f | wc -l) files"
