// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #3: md states made in the guest with the real mdadm, each shown by raidtune's page exactly
// as the guest kernel reports it (mdadm --detail, /proc/mdstat and sysfs, read in the guest before
// and after the page is read: see harness/pageVsKernel.ts). One guest for the whole run; md is
// reset before every test (harness/vmEnv.ts).
import { overviewRowTexts, showOverview } from '../browser/harness/raidtunePage';
import { kernelArray, readKernel } from './harness/kernelFacts';
import { expectArrayAsKernel, pageBetweenKernelReads, readPageArray, syncActions } from './harness/pageVsKernel';
import { createSlowly, mdCreate, partitionCommands, waitForCard, waitForProgress } from './harness/scenarios';
import { logTiming, setupVm } from './harness/vmEnv';

const vm = setupVm();

/** Opens the page once `names` show (with a sync section where `syncing`), compares each with the kernel. */
async function openAndCompare(names: string[], syncing: string[] = names) {
    const result = await pageBetweenKernelReads(vm.guest, async () => {
        const t0 = performance.now();
        const { page } = await vm.openPage();
        for (const name of names)
            await waitForCard(page, name, syncing.includes(name));
        logTiming(`page shows ${names.join(' ')}`, performance.now() - t0);
        return page;
    }, names);
    for (const name of names)
        expectArrayAsKernel(result.shown.get(name)!, result.before, result.after);
    return result;
}

describe.each([
    // level, disks, what the kernel runs, health (mdadm's State), title
    ['raid1', ['vda', 'vdb'], 'resync', 'Clean', 'Resync'],
    // mdadm creates a RAID5 degraded and RECOVERS onto the last member (faster than a resync).
    ['raid5', ['vda', 'vdb', 'vdc'], 'recover', 'Degraded', 'Rebuild'],
    ['raid6', ['vda', 'vdb', 'vdc', 'vdd'], 'resync', 'Clean', 'Resync'],
    // raid10's counters span the array: "Done: x of <array size>", not "per disk".
    ['raid10', ['vda', 'vdb', 'vdc', 'vdd'], 'resync', 'Clean', 'Resync'],
])('%s just created', (level, disks, action, health, title) => {
    test(`shows the initial ${action} as the kernel reports it`, async () => {
        await createSlowly(vm.guest, mdCreate('md0', level, disks));
        const { page, before, shown } = await openAndCompare(['md0']);
        const kernel = kernelArray(before, 'md0');
        const md0 = shown.get('md0')!;
        // The scenario is what this test says (else the comparison above proves little).
        expect(kernel.sysfs.sync_action).toBe(action);
        expect(kernel.detail.level).toBe(level);
        expect(md0.health).toBe(health);
        expect(md0.sync?.title).toBe(title);
        expect(md0.sync?.facts.Done).toMatch(level === 'raid10' ? /^\S+ \S+ of 508 MiB$/ : / per disk$/);
        if (level === 'raid5') {
            // The member being rebuilt, with its own progress, in the slot mdadm names.
            expect(kernel.detail.members.find(m => m.state === 'spare rebuilding')).toEqual({ raidDevice: 2, state: 'spare rebuilding', device: '/dev/vdc' });
            expect(md0.rows.find(r => r.device === '/dev/vdc')?.role).toMatch(/^Rebuilding into slot 2 \([\d.]+%\)$/);
        }
        // The limits and the pause at hand; the rest (restarting it too) in the array's menu.
        expect(await syncActions(page, 'md0')).toEqual({
            buttons: ['Speed limits…', 'Pause'],
            menu: level === 'raid5' || level === 'raid6' ? ['Stripe cache…', 'Restart sync'] : ['Restart sync'],
        });
    });
});

test('a degraded RAID5, then its recovery onto a new disk', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'missing']));
    const { page, before, shown } = await openAndCompare(['md0'], []);
    let md0 = shown.get('md0')!;
    expect(kernelArray(before, 'md0').detail.state).toBe('clean, degraded');
    expect(md0.health).toBe('Degraded');
    expect(md0.sync).toBeNull();
    expect(md0.rows.find(r => r.device === '—')).toEqual({ device: '—', role: 'Slot 2 is empty: no working disk', state: 'missing', errors: '—' });

    await vm.guest.runOk('mdadm /dev/md0 --add /dev/vdd 2>&1');
    await waitForProgress(vm.guest, 'md0');
    // The page polls every 10 s while nothing syncs: reload rather than wait.
    const after = await pageBetweenKernelReads(vm.guest, async () => {
        await page.reload();
        await waitForCard(page, 'md0', true);
        return page;
    }, ['md0']);
    md0 = after.shown.get('md0')!;
    expectArrayAsKernel(md0, after.before, after.after);
    expect(kernelArray(after.before, 'md0').detail.state).toBe('clean, degraded, recovering');
    expect(md0.sync?.title).toBe('Rebuild');
    expect(md0.health).toBe('Degraded');
    // The new disk fills the empty slot: no "empty" row any more.
    expect(md0.rows.map(r => r.device)).toEqual(['/dev/vda', '/dev/vdb', '/dev/vdd']);
    expect(md0.rows[2].role).toMatch(/^Rebuilding into slot 2 \([\d.]+%\)$/);
});

test('a check started with echo check > sync_action', async () => {
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean')}
echo check > /sys/block/md0/md/sync_action`);
    const { page, before, shown } = await openAndCompare(['md0']);
    const kernel = kernelArray(before, 'md0');
    expect(kernel.sysfs.sync_action).toBe('check');
    expect(kernel.detail.status.Check).toBeDefined();
    const md0 = shown.get('md0')!;
    expect(md0.sync?.title).toBe('Check');
    expect(md0.health).toBe('Clean');
    // A check can be stopped, or paused from the menu; "Restart sync" is for resyncs and recoveries.
    expect(await syncActions(page, 'md0')).toEqual({ buttons: ['Speed limits…', 'Stop check'], menu: ['Pause'] });
});

test('RAID5 grown from 3 to 4 disks: the reshape with its real progress', async () => {
    // Small disks leave room to move the data offset: mdadm 4.2 needs no backup file here.
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean')}
mdadm /dev/md0 --add /dev/vdd 2>&1
mdadm --grow /dev/md0 --raid-devices=4 2>&1`);
    await waitForProgress(vm.guest, 'md0');
    const { before, shown, after } = await openAndCompare(['md0']);
    const kernel = kernelArray(before, 'md0');
    expect(kernel.sysfs.sync_action).toBe('reshape');
    expect(kernel.sysfs.raid_disks).toBe('4 (3)');
    expect(kernel.detail.delta).toEqual({ from: 3, to: 4 });
    const md0 = shown.get('md0')!;
    expect(md0.sync?.title).toBe('Reshape from 3 to 4 disks');
    // Not Cockpit's 0%: the progress mdstat shows.
    expect(md0.sync!.percent).toBeGreaterThan(0);
    expect(kernelArray(after, 'md0').mdstat.progress!.action).toBe('reshape');
});

test('RAID10 of 4 disks: the resync counts the whole array', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid10', ['vda', 'vdb', 'vdc', 'vdd']));
    const { before, shown } = await openAndCompare(['md0']);
    const kernel = kernelArray(before, 'md0');
    // mdstat's counter total is the array size (KiB), not a member's.
    expect(kernel.mdstat.progress!.total).toBe(kernel.detail.arraySizeKiB);
    expect(shown.get('md0')!.sync!.facts.Done).not.toContain('per disk');
});

test('two arrays on the same disks: one resyncs, the other waits (resync=DELAYED)', async () => {
    await createSlowly(vm.guest, `${partitionCommands(['vda', 'vdb'], 100)}
${mdCreate('md0', 'raid1', ['vda1', 'vdb1'])}
${mdCreate('md1', 'raid1', ['vda2', 'vdb2'])}`);
    const { before, shown } = await openAndCompare(['md0', 'md1']);
    // Which one the kernel runs first is its business; the page must name the right one.
    const delayed = [...before.arrays.values()].filter(a => a.mdstat.waiting === 'DELAYED').map(a => a.name);
    expect(delayed).toHaveLength(1);
    const waiting = delayed[0];
    const running = waiting === 'md0' ? 'md1' : 'md0';
    expect(kernelArray(before, waiting).sysfs.sync_completed).toBe('delayed');
    expect(kernelArray(before, waiting).detail.state).toBe('clean, resyncing (DELAYED)');
    expect(kernelArray(before, running).mdstat.progress?.action).toBe('resync');
    expect(shown.get(waiting)!.sync!.explanation).toBe(
        `Waiting: another array on the same disks is syncing (${running}). This one starts when it finishes.`);
    expect(shown.get(running)!.sync!.explanation).toBeNull();
    expect(shown.get('md1')!.rows.map(r => r.device)).toEqual(['/dev/vda2', '/dev/vdb2']);
});

test('a raid0 and a linear array: clean, no sync section, nothing to tune', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid0', ['vda', 'vdb']));
    // md's linear personality is not in Debian's 6.12 and 7.x builds: there the kernel refuses the
    // array (mdadm: RUN_ARRAY failed, the kernel stops md1) and the page has no md1 to show.
    const hasLinear = (await vm.guest.runOk('grep ^Personalities /proc/mdstat')).includes('[linear]');
    const linear = await vm.guest.run(mdCreate('md1', 'linear', ['vdc', 'vdd']));
    expect(linear.code === 0).toBe(hasLinear);
    if (!hasLinear)
        expect(linear.out).toContain('mdadm: RUN_ARRAY failed: Invalid argument');
    const names = hasLinear ? ['md0', 'md1'] : ['md0'];
    const { page, before, shown } = await openAndCompare(names, []);
    expect([...before.arrays.keys()].sort()).toEqual(names);
    await showOverview(page);
    expect((await overviewRowTexts(page)).map(row => row.name).sort()).toEqual(names);
    for (const name of names) {
        const kernel = kernelArray(before, name);
        expect(kernel.sysfs.sync_action).toBeUndefined(); // no md/sync_action on these levels
        expect(kernel.mdstat.progress).toBeNull();
        const array = shown.get(name)!;
        expect(array.health).toBe('Clean');
        expect(array.sync).toBeNull();
        expect(await syncActions(page, name)).toEqual({ buttons: [], menu: [] });
    }
    expect(shown.get('md0')!.level).toBe('RAID 0');
    expect(shown.get('md0')!.facts['Chunk size']).toBe('512 KiB');
    if (hasLinear)
        expect(shown.get('md1')!.level).toBe('Linear');
});

test('internal bitmaps: the chunk size the guest kernel reports', async () => {
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean --bitmap=internal')}
${mdCreate('md1', 'raid1', ['vdc', 'vdd'], '--assume-clean --bitmap=internal --bitmap-chunk=4M')}
${mdCreate('md2', 'raid1', ['vde', 'vdf'], '--assume-clean --bitmap=none')}`);
    const { before, shown } = await openAndCompare(['md0', 'md1', 'md2'], []);
    // mdadm's default chunk for a small array, and the one asked for; mdstat agrees with sysfs.
    for (const [name, kib] of [['md0', 65536], ['md1', 4096]] as const) {
        const kernel = kernelArray(before, name);
        expect(kernel.sysfs['bitmap/chunksize']).toBe(String(kib * 1024));
        expect(kernel.mdstat.bitmapChunkKiB).toBe(kib);
        expect(kernel.detail.intentBitmap).toBe('Internal');
        expect(kernel.sysfs.consistency_policy).toBe('bitmap');
    }
    expect(shown.get('md0')!.facts.Bitmap).toBe('Internal, 64 MiB chunks');
    expect(shown.get('md1')!.facts.Bitmap).toBe('Internal, 4 MiB chunks');
    expect(shown.get('md2')!.facts.Bitmap).toBe('None');
});

test('frozen syncs: paused where the kernel stopped them', async () => {
    // A resync, and a recovery (mdstat shows no progress line at all for a frozen recovery).
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid1', ['vda', 'vdb'])}
${mdCreate('md1', 'raid1', ['vdc', 'missing'])}
mdadm /dev/md1 --add /dev/vdd 2>&1`);
    await Promise.all([waitForProgress(vm.guest, 'md0', 1024), waitForProgress(vm.guest, 'md1', 1024)]);
    await vm.guest.runOk('echo frozen > /sys/block/md0/md/sync_action; echo frozen > /sys/block/md1/md/sync_action');
    const { page, before, shown } = await openAndCompare(['md0', 'md1']);
    const [k0, k1] = [kernelArray(before, 'md0'), kernelArray(before, 'md1')];
    expect(k0.mdstat.waiting).toBe('PENDING');
    expect(k1.mdstat.waiting).toBeNull();
    expect(k1.mdstat.progress).toBeNull();
    // The kernel's word for a recovery: "recovery" on 6.1, "recover" on 6.12 and 7.x; the page says Rebuild.
    expect(k0.sysfs.last_sync_action).toBe('resync');
    expect(['recovery', 'recover']).toContain(k1.sysfs.last_sync_action);
    // Where they stopped: resync_start, and the rebuilt member's recovery_start (512-byte sectors).
    const stopped = (sectors: string, k: typeof k0) =>
        Math.floor((Number(sectors) / (Number(k.sysfs.component_size) * 2)) * 1000) / 10;
    const [md0, md1] = [shown.get('md0')!, shown.get('md1')!];
    expect(md0.sync).toMatchObject({ title: 'Resync', percent: stopped(k0.sysfs.resync_start, k0) });
    expect(md1.sync).toMatchObject({ title: 'Rebuild', percent: stopped(k1.sysfs['dev-vdd/recovery_start'], k1) });
    expect(md0.sync!.percent).toBeGreaterThan(0);
    expect(md1.sync!.percent).toBeGreaterThan(0);
    for (const name of ['md0', 'md1'])
        expect(await syncActions(page, name)).toEqual({ buttons: ['Resume', 'Speed limits…'], menu: [] });
    // Nothing moves while frozen.
    const later = await readKernel(vm.guest);
    expect(kernelArray(later, 'md0').sysfs.resync_start).toBe(k0.sysfs.resync_start);
    expect((await readPageArray(page, 'md0')).sync?.percent).toBe(md0.sync!.percent);
});

// raidtune bug (found here): `echo frozen > sync_action` on an idle array (nothing to sync) makes the
// page show a "Resync" progress bar, "—", "Paused (frozen)", although the kernel (mdstat, mdadm's
// "State : clean", last_sync_action "none") has no resync, pending or otherwise. buildSync() in
// src/md/model.ts returns a sync for every frozen array and names it after mdstat, else
// last_sync_action, else "resync". Expected: no sync progress for an idle array; at most a note
// that sync actions are frozen, with Resume.
test('a frozen idle array shows no sync, only that it is frozen', async () => {
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean')}
echo frozen > /sys/block/md0/md/sync_action`);
    const before = await readKernel(vm.guest);
    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    const md0 = await readPageArray(page, 'md0');
    const kernel = kernelArray(before, 'md0');
    expect([kernel.sysfs.sync_action, kernel.detail.state]).toEqual(['frozen', 'clean']);
    // No sync since the array was made: "none" on 6.1, "idle" on 6.12 and 7.x.
    expect(['none', 'idle']).toContain(kernel.sysfs.last_sync_action);
    expect(kernel.mdstat.progress ?? kernel.mdstat.waiting).toBeNull();
    expect(md0.sync?.title ?? null).toBeNull();
    await page.locator('#array-md0 .raidtune-frozen').getByText('Syncing is frozen on this array', { exact: false }).waitFor();
});
