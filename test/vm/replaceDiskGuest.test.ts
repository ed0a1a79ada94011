// SPDX-License-Identifier: LGPL-2.1-or-later
// What the Replace disk dialog (issue #34) meets on the real kernel, without the page: a disk with
// 4096-byte logical blocks (4Kn) added to arrays of 512-byte members, and the tools the dialog
// spawns (lsblk, wipefs, sfdisk) in the guest as build-guest.sh packs them. Its own guest (4 disks
// of 64 MiB and a 4Kn one, vde; no plugin, no bridge): the tier's shared guest has 8 uniform disks
// that other files count on. The kernels differ on the 4Kn disk; see test/vm/README.md.
import { startGuest, type Guest } from '../../tools/vm/vm';

const MEMBER_BYTES = 64 * 1024 * 1024;
const LSBLK_COLUMNS = 'NAME,PATH,TYPE,SIZE,LOG-SEC,PHY-SEC,ROTA,RO,MOUNTPOINTS,FSTYPE,PTTYPE,SERIAL,WWN,HCTL,TRAN';
// Named by full path: the control channel's busybox sh runs its own applets first (README, Pitfalls).
const WIPEFS = '/usr/sbin/wipefs';
const SFDISK = '/usr/sbin/sfdisk';

let guest: Guest;

beforeAll(async () => {
    guest = await startGuest({
        disks: 4, diskMiB: 64, extraDisks: [{ miB: 64, logicalBlockBytes: 4096 }],
        pluginDir: null, cpus: 1, memMiB: 512,
    });
});

afterAll(async () => {
    await guest?.stop();
});

// Every test starts from blank disks: no array, no signature, no partition table (partitions'
// signatures first: wiping a disk's table removes the partitions, not what is on them).
beforeEach(async () => {
    await guest.runOk(`
for d in /sys/block/md*; do [ -e "$d" ] && mdadm --stop "/dev/\${d##*/}" >/dev/null 2>&1; done
mdadm --zero-superblock /dev/vd? >/dev/null 2>&1
for p in /dev/vd?[0-9]*; do [ -b "$p" ] && ${WIPEFS} --all --quiet "$p"; done
${WIPEFS} --all --quiet /dev/vd?
dmesg -c >/dev/null
exit 0`);
});

/** The guest kernel's major and minor version, from uname -r (7.3.4+deb13-amd64: [7, 3]). */
async function kernelVersion(): Promise<[number, number]> {
    const m = /^(\d+)\.(\d+)/.exec(await guest.runOk('uname -r'))!;
    return [Number(m[1]), Number(m[2])];
}

/**
 * From 6.19 (commit 6c6b66f65e55, in 7.x), md refuses to let a member with larger logical blocks
 * than the array's into a personality that stacks its members' limits (raid1, raid10).
 */
async function refusesLargerBlocks(): Promise<boolean> {
    const [major, minor] = await kernelVersion();
    return major > 6 || (major === 6 && minor >= 19);
}

/** A `--assume-clean` array on DISKS with its first member failed and removed: one slot to fill. */
async function degradedArray(level: 1 | 5, disks: string[]): Promise<void> {
    const paths = disks.map(d => `/dev/${d}`).join(' ');
    await guest.runOk(`mdadm --create /dev/md0 --run --assume-clean --level=${level} -n${disks.length} ${paths} 2>&1
mdadm /dev/md0 --fail /dev/${disks[0]} --remove /dev/${disks[0]} 2>&1
dmesg -c >/dev/null`);
}

interface AddOutcome {
    /** mdadm --add's output and exit code. */
    add: { out: string; code: number };
    /** /proc/mdstat's md0 lines, md/degraded, the array's queue/logical_block_size. */
    mdstat: string;
    degraded: number;
    arrayBlockBytes: number;
    /** The kernel's messages since the add. */
    dmesg: string;
}

/**
 * `mdadm --add` of vde, then waits until md has either rebuilt onto it (degraded 0, idle) or said
 * why not (dmesg), and one more second, in case it retries: the add itself returns before md tries.
 */
async function addAndSettle(): Promise<AddOutcome> {
    const add = await guest.run('mdadm /dev/md0 --add /dev/vde 2>&1');
    await guest.runOk(`i=0
while [ $i -lt 300 ]; do
  [ "$(cat /sys/block/md0/md/degraded)" = 0 ] && [ "$(cat /sys/block/md0/md/sync_action)" = idle ] && break
  dmesg | grep -q 'incompatible logical_block_size' && break
  sleep 0.1; i=$((i + 1))
done
sleep 1`);
    const [mdstat, degraded, lbs, dmesg] = (await guest.runOk(`grep -A2 '^md0' /proc/mdstat; echo @@
cat /sys/block/md0/md/degraded; echo @@; cat /sys/block/md0/queue/logical_block_size; echo @@; dmesg`)).split('@@\n');
    return { add, mdstat, degraded: Number(degraded), arrayBlockBytes: Number(lbs), dmesg };
}

describe('a 4Kn disk', () => {
    test('the guest sees 4096-byte logical and physical blocks on the extra disk, 512 on the others', async () => {
        expect(guest.disks).toEqual(['vda', 'vdb', 'vdc', 'vdd', 'vde']);
        const sizes = await guest.runOk('for d in vda vde; do cat /sys/block/$d/queue/logical_block_size /sys/block/$d/queue/physical_block_size; done');
        expect(sizes.split('\n').slice(0, 4)).toEqual(['512', '512', '4096', '4096']);
        expect((await guest.runOk('cat /sys/block/vde/size')).trim()).toBe(String(MEMBER_BYTES / 512));
    });

    test('RAID 5 of 512-byte members: every kernel rebuilds onto it and keeps 512-byte blocks', async () => {
        await degradedArray(5, ['vda', 'vdb', 'vdc']);
        const outcome = await addAndSettle();
        expect(outcome.add).toEqual({ out: 'mdadm: added /dev/vde\n', code: 0 });
        expect(outcome.degraded).toBe(0);
        expect(outcome.mdstat).toMatch(/vde\[3\](?!\(S\))/);
        expect(outcome.mdstat).toContain('[3/3] [UUU]');
        // raid5 does not stack a new member's limits: the array keeps what it started with.
        expect(outcome.arrayBlockBytes).toBe(512);
        expect(outcome.dmesg).not.toContain('incompatible');
        expect(outcome.dmesg).toMatch(/md: md0: recover(y)? done/);
    });

    test('RAID 1 of 512-byte members: up to 6.18 rebuilt and the array turns 4Kn; from 6.19 a spare md never uses', async () => {
        await degradedArray(1, ['vda', 'vdb']);
        const outcome = await addAndSettle();
        // mdadm says the same on every kernel: its ADD_NEW_DISK succeeds, md refuses later.
        expect(outcome.add).toEqual({ out: 'mdadm: added /dev/vde\n', code: 0 });
        if (await refusesLargerBlocks()) {
            expect(outcome.dmesg).toContain('md0: incompatible logical_block_size, can not add');
            expect(outcome.degraded).toBe(1);
            expect(outcome.mdstat).toContain('vde[2](S)');
            expect(outcome.mdstat).toContain('[2/1] [_U]');
            expect(outcome.arrayBlockBytes).toBe(512);
        } else {
            // What 6c6b66f65e55 stops: the array's logical block size grows under whatever sits on it.
            expect(outcome.dmesg).not.toContain('incompatible');
            expect(outcome.degraded).toBe(0);
            expect(outcome.mdstat).toContain('[2/2] [UU]');
            expect(outcome.arrayBlockBytes).toBe(4096);
        }
    });
});

interface LsblkDevice {
    name: string;
    type: string;
    size: number;
    'log-sec': number;
    children?: LsblkDevice[];
    [column: string]: unknown;
}

test('lsblk --json lists the arrays as children of their members, without udev', async () => {
    await guest.runOk('mdadm --create /dev/md0 --run --assume-clean --level=5 -n3 /dev/vda /dev/vdb /dev/vdc 2>&1');
    const out = await guest.runOk(`lsblk --json --bytes --output ${LSBLK_COLUMNS}`);
    const devices = (JSON.parse(out) as { blockdevices: LsblkDevice[] }).blockdevices;
    const byName = new Map(devices.map(d => [d.name, d]));
    expect([...byName.keys()].sort()).toEqual(['vda', 'vdb', 'vdc', 'vdd', 'vde']);
    for (const member of ['vda', 'vdb', 'vdc'])
        expect(byName.get(member)!.children?.map(c => [c.name, c.type, c.path])).toEqual([['md0', 'raid5', '/dev/md0']]);
    expect(byName.get('vdd')!.children).toBeUndefined();
    expect(byName.get('vda')).toMatchObject({ path: '/dev/vda', type: 'disk', size: MEMBER_BYTES, 'log-sec': 512, 'phy-sec': 512, ro: false });
    expect(byName.get('vde')).toMatchObject({ size: MEMBER_BYTES, 'log-sec': 4096, 'phy-sec': 4096 });
    const columns = LSBLK_COLUMNS.toLowerCase().split(',');
    for (const device of devices)
        expect(Object.keys(device).filter(k => k !== 'children')).toEqual(columns);
    // Without udev (the default boot mode) libudev finds each device in sysfs but has no database
    // entry, and lsblk does not probe instead: no FSTYPE (even on md members), PTTYPE or SERIAL,
    // which a host with udev fills in (the reboot mode shows serial "raidtune0" and
    // linux_raid_member). virtio-blk has no WWN, HCTL or transport either way.
    for (const column of ['fstype', 'pttype', 'serial', 'wwn', 'hctl', 'tran'])
        expect(byName.get('vda')![column]).toBeNull();
    expect(byName.get('vda')!.mountpoints).toEqual([null]);
});

interface WipefsSignature { device: string; offset: string; type: string }

/** wipefs --no-act --json of one device: its signatures (wipefs prints nothing when there are none). */
async function signatures(device: string): Promise<WipefsSignature[]> {
    const out = await guest.runOk(`${WIPEFS} --no-act --json /dev/${device}`);
    return out.trim() ? (JSON.parse(out) as { signatures: WipefsSignature[] }).signatures : [];
}

test('wipefs sees an md member, ext4 and swap, and --all removes them', async () => {
    await guest.runOk(`mdadm --create /dev/md0 --run --assume-clean --level=1 -n2 /dev/vda /dev/vdb 2>&1
/usr/sbin/mkfs.ext4 -q /dev/vdd
mkswap /dev/vde >/dev/null`);
    expect(await signatures('vda')).toMatchObject([{ device: 'vda', offset: '0x1000', type: 'linux_raid_member' }]);
    expect(await signatures('vdd')).toMatchObject([{ device: 'vdd', offset: '0x438', type: 'ext4' }]);
    // busybox's mkswap: the signature at the end of the first page, whatever the disk's blocks.
    expect(await signatures('vde')).toMatchObject([{ device: 'vde', offset: '0xff6', type: 'swap' }]);
    expect(await guest.runOk(`${WIPEFS} --all /dev/vdd /dev/vde`)).toBe(
        '/dev/vdd: 2 bytes were erased at offset 0x00000438 (ext4): 53 ef\n' +
        '/dev/vde: 10 bytes were erased at offset 0x00000ff6 (swap): 53 57 41 50 53 50 41 43 45 32\n');
    expect(await signatures('vdd')).toEqual([]);
    expect(await signatures('vde')).toEqual([]);
});

test('sfdisk: a 512-byte disk\'s --dump partitions the 4Kn disk alike, in bytes, with the same ids', async () => {
    await guest.runOk(`printf 'label: gpt\\n,32M\\n,\\n' | ${SFDISK} --quiet /dev/vdd`);
    const dump = await guest.runOk(`${SFDISK} --dump /dev/vdd`);
    expect(dump).toContain('sector-size: 512');
    await guest.runOk(`${SFDISK} --dump /dev/vdd | ${SFDISK} --quiet /dev/vde`);
    const copy = await guest.runOk(`${SFDISK} --dump /dev/vde`);
    // sfdisk recalculates the script's sectors for the device's ("The script and device sector
    // size differ"): the same bytes, an eighth of the sectors.
    expect(copy).toContain('sector-size: 4096');
    expect(await guest.runOk('cat /sys/block/vdd/vdd1/size /sys/block/vdd/vdd2/size'))
        .toBe(await guest.runOk('cat /sys/block/vde/vde1/size /sys/block/vde/vde2/size'));
    // A copied dump copies the disk's and the partitions' GUIDs: a replacement needs new ones.
    const ids = (text: string) => [...text.matchAll(/(label-id: |uuid=)([0-9A-F-]+)/g)].map(m => m[2]);
    expect(ids(copy)).toEqual(ids(dump));
    expect(ids(dump)).toHaveLength(3);
});
