// SPDX-License-Identifier: LGPL-2.1-or-later
// The automation script on the real kernel: the shell script the "Fast rebuild" dialog shows,
// run in the guest (busybox sh) after the same array was assembled again as md9, leaves the sysfs
// values that the page's Apply left on md0; a second run changes nothing. The "Disk queues" script
// finds member disks by their slot: run where the same array (same UUID) sits on other disks, it
// sets theirs and leaves the disks of the same names alone.
import { openArrayDialog, openDialog, overviewRow } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, footerButton, shownScript } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

const GLOBAL = ['/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max'];
const arrayFiles = (md: string) => [`/sys/block/${md}/md/stripe_cache_size`, `/sys/block/${md}/md/sync_speed_min`];

async function guestValues(paths: string[]): Promise<string[]> {
    return (await vm.guest.runOk(paths.map(p => `cat ${p}`).join('\n'))).trim().split('\n');
}

/** Runs `script` with the guest's sh; returns its output (stderr too), failing on a non-zero exit. */
async function runInGuest(script: string): Promise<string> {
    expect(script).not.toContain('RAIDTUNE_EOF');
    await vm.guest.runOk(`cat > /tmp/raidtune-automation.sh <<'RAIDTUNE_EOF'\n${script}\nRAIDTUNE_EOF`);
    return vm.guest.runOk('sh /tmp/raidtune-automation.sh 2>&1');
}

test('the shell script of a preset reaches what Apply reached, on the array found by its UUID; twice changes nothing', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    const before = await guestValues(GLOBAL);
    const { page } = await vm.openPage();
    await overviewRow(page, 'md0').waitFor({ timeout: 60000 });
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog(page).getByLabel('Fast rebuild').check();
    const script = await shownScript(page);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await footerButton(page, 'Close').click();
    const applied = await guestValues([...GLOBAL, ...arrayFiles('md0')]);
    expect(applied.slice(0, 2)).not.toEqual(before);

    // The same array under another name, with the kernel's values back as before the change.
    await vm.guest.runOk([
        'mdadm --stop /dev/md0 && mdadm --assemble /dev/md9 /dev/vda /dev/vdb /dev/vdc 2>&1',
        ...GLOBAL.map((p, i) => `echo ${before[i]} > ${p}`),
    ].join('\n'));
    expect(await guestValues([...GLOBAL, ...arrayFiles('md9')])).not.toEqual(applied);

    const first = await runInGuest(script);
    expect(first).toContain('changed: md9/md/stripe_cache_size');
    expect(await guestValues([...GLOBAL, ...arrayFiles('md9')])).toEqual(applied);
    const second = await vm.guest.runOk('sh /tmp/raidtune-automation.sh 2>&1');
    expect(second).not.toMatch(/^changed:/m);
    expect(second).toContain('finished: 0 changed');
});

const DISKS = ['vda', 'vdb', 'vdc', 'vdd'];
const setSchedulersNone = () => vm.guest.runOk(DISKS.map(d => `echo none > /sys/block/${d}/queue/scheduler`).join('\n'));
afterEach(setSchedulersNone);

test('the disk queue script sets the disks in the same slots of the same array on other disks, not the disks of the same names', async () => {
    // The one in use: kernels list the others in different orders ("[none] mq-deadline", "mq-deadline [none]").
    const schedulers = async (disks: string[]) => (await guestValues(disks.map(d => `/sys/block/${d}/queue/scheduler`)))
        .map(v => /\[(.+?)\]/.exec(v)?.[1] ?? v);
    // The guest is shared with the other test files: start, and leave, every disk without a scheduler.
    await setSchedulersNone();
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    expect(await schedulers(DISKS)).toEqual(Array(4).fill('none'));
    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    await openArrayDialog(page, 'md0', 'Disk queues…');
    await dialog(page).locator('#md0-disk-setting-scheduler').check();
    await dialog(page).locator('#md0-disk-value-mq-deadline').check();
    const script = await shownScript(page);
    expect(await applyAndWait(page)).toEqual([DONE]);
    await footerButton(page, 'Close').click();
    expect(await schedulers(DISKS)).toEqual(['mq-deadline', 'mq-deadline', 'none', 'none']);

    // Another host: the same array (its UUID) on vdd (slot 0) and vdc (slot 1); vda and vdb, back at
    // their old scheduler, are no members.
    const uuid = (await vm.guest.runOk('cat /sys/block/md0/md/uuid')).trim();
    await vm.guest.runOk([
        'mdadm --stop /dev/md0 2>&1 && mdadm --zero-superblock /dev/vda /dev/vdb',
        'echo none > /sys/block/vda/queue/scheduler && echo none > /sys/block/vdb/queue/scheduler',
        `mdadm --create /dev/md9 --run --level=raid1 --raid-devices=2 --uuid=${uuid} --assume-clean /dev/vdd /dev/vdc 2>&1`,
    ].join('\n'));
    expect((await vm.guest.runOk('cat /sys/block/md9/md/uuid /sys/block/md9/md/dev-vdd/slot')).trim().split('\n')).toEqual([uuid, '0']);

    const first = await runInGuest(script);
    expect(first).toContain('changed: vdd/queue/scheduler = mq-deadline');
    expect(first).toContain('changed: vdc/queue/scheduler = mq-deadline');
    expect(await schedulers(DISKS)).toEqual(['none', 'none', 'mq-deadline', 'mq-deadline']);
    expect(await vm.guest.runOk('sh /tmp/raidtune-automation.sh 2>&1')).toContain('finished: 0 changed');
});
