// SPDX-License-Identifier: LGPL-2.1-or-later
// The rest of raidtune's write paths against the guest's real kernel and mdadm (issue #4): the
// read-ahead, worker threads, the member disks' queues (with a write the kernel refuses on one
// disk, and the undo of the one before it), write-intent bitmaps through mdadm --grow (with
// mdadm's refusal while a check runs), and a preset with its restore.
import type { Page } from 'playwright-core';
import { openArrayDialog, openDialog, renderedRefreshes, showOverview, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, dialog, DONE, DONE_NOT_KERNEL, footerButton, formState, previewedCommands } from './harness/dialog';
import { readPageArray } from './harness/pageVsKernel';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { VM_JOURNAL } from './harness/vmConfig';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();

/** The guest's values of these files, read in one command (a missing file reads "<absent>"). */
async function guestValues(...paths: string[]): Promise<string[]> {
    const out = await vm.guest.runOk(paths.map(p => `if [ -e ${p} ]; then echo "$(cat ${p})"; else echo '<absent>'; fi`).join('\n'));
    // Trailing blanks dropped (queue/scheduler ends with one).
    return out.replace(/\n$/, '').split('\n').map(v => v.trimEnd());
}

/**
 * queue/scheduler as "<in use> of <offered, sorted>": the order differs between kernels (6.1 lists
 * "[mq-deadline] none", 6.12 and 7.x "none [mq-deadline]"), what the kernel holds does not.
 */
function schedulerState(line: string): string {
    const words = line.split(' ');
    const inUse = words.find(w => w.startsWith('['))?.slice(1, -1) ?? '?';
    return `${inUse} of ${words.map(w => w.replace(/^\[(.*)\]$/, '$1')).sort().join(' ')}`;
}

/** guestValues() with every queue/scheduler read as schedulerState(). */
async function guestQueueValues(...paths: string[]): Promise<string[]> {
    return (await guestValues(...paths)).map((v, i) => (paths[i].endsWith('/queue/scheduler') ? schedulerState(v) : v));
}

async function openWithCard(name: string): Promise<Page> {
    const { page } = await vm.openPage();
    await waitForCard(page, name, false);
    return page;
}

async function close(page: Page): Promise<void> {
    await footerButton(page, 'Close').click();
    await dialog(page).waitFor({ state: 'detached' });
}

/** A card fact ("Read-ahead", "Bitmap", ...) once it reads `expected` (the page refreshes after a change). */
async function waitForFact(page: Page, term: string, expected: string, array = 'md0'): Promise<void> {
    await waitUntil(`${array} shows ${term}: ${expected}`, async () => (await readPageArray(page, array)).facts[term] === expected);
}

test('read-ahead: written in KiB, the same as blockdev --getra reports in sectors; whole pages only', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const page = await openWithCard('md0');
    const [before] = await guestValues('/sys/block/md0/queue/read_ahead_kb');
    await waitForFact(page, 'Read-ahead', `${before} KiB (${Number(before) * 2} sectors for blockdev --setra)`);

    await openArrayDialog(page, 'md0', 'Read-ahead…');
    const field = dialog(page).locator('#md0-read-ahead');
    // The guest's page size decides: the kernel keeps whole pages (1001 would read back as 1000).
    await field.fill('1001');
    await field.blur(); // judged once left (src/ui/common/fieldAlarm.ts)
    expect((await formState(page)).errors).toEqual(['Use a multiple of 4 KiB: the kernel keeps read-ahead in whole pages.']);
    await field.fill('4096');
    expect(await previewedCommands(page)).toBe('echo 4096 > /sys/block/md0/queue/read_ahead_kb');
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    expect(await guestValues('/sys/block/md0/queue/read_ahead_kb')).toEqual(['4096']);
    expect((await vm.guest.runOk('blockdev --getra /dev/md0')).trim()).toBe('8192');
    await waitForFact(page, 'Read-ahead', '4096 KiB (8192 sectors for blockdev --setra)');
});

test('worker threads of a RAID5 (group_thread_cnt)', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean'));
    const page = await openWithCard('md0');
    expect(await guestValues('/sys/block/md0/md/group_thread_cnt')).toEqual(['0']);
    await waitForFact(page, 'Worker threads', '0 (md\'s own thread only)');
    await openArrayDialog(page, 'md0', 'Worker threads…');
    await dialog(page).locator('#md0-worker-threads').fill('4');
    expect(await previewedCommands(page)).toBe('echo 4 > /sys/block/md0/md/group_thread_cnt');
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    expect(await guestValues('/sys/block/md0/md/group_thread_cnt')).toEqual(['4']);
    await waitForFact(page, 'Worker threads', '4 per NUMA node');
});

test('disk queues: a scheduler for both members; nr_requests refused by the kernel on one disk, the other undone', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const paths = ['vda', 'vdb'].flatMap(d => [`/sys/block/${d}/queue/scheduler`, `/sys/block/${d}/queue/nr_requests`]);
    // No scheduler (resetMd), 256 hardware tags.
    expect(await guestQueueValues(...paths)).toEqual(['none of mq-deadline none', '256', 'none of mq-deadline none', '256']);
    const page = await openWithCard('md0');

    await openArrayDialog(page, 'md0', 'Disk queues…');
    await dialog(page).locator('#md0-disk-setting-scheduler').check();
    await dialog(page).locator('#md0-disk-value-mq-deadline').check();
    expect(await previewedCommands(page)).toBe(
        'echo mq-deadline > /sys/block/vda/queue/scheduler\necho mq-deadline > /sys/block/vdb/queue/scheduler');
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    // The kernel resets nr_requests with the scheduler: 2 x min(tags, 128) for mq-deadline.
    expect(await guestQueueValues(...paths)).toEqual(['mq-deadline of mq-deadline none', '256', 'mq-deadline of mq-deadline none', '256']);

    // Someone takes vdb's scheduler away again: there the kernel allows no more than the 256 tags,
    // and the page, which reads them (mq/0/nr_tags), refuses more before writing anything.
    await vm.guest.runOk('echo none > /sys/block/vdb/queue/scheduler');
    await page.reload();
    await waitForCard(page, 'md0', false);
    await openArrayDialog(page, 'md0', 'Disk queues…');
    await dialog(page).locator('#md0-disk-setting-nrRequests').check();
    await dialog(page).locator('#md0-disk-value').fill('1000');
    await dialog(page).getByText('vdb use no I/O scheduler: there the kernel takes at most 256 requests, the tags of the hardware queue.', { exact: false }).waitFor();
    expect((await formState(page)).applyDisabled).toBe(true);
    await page.keyboard.press('Escape');
    expect(await guestValues('/sys/block/vda/queue/nr_requests', '/sys/block/vdb/queue/nr_requests')).toEqual(['256', '256']);

    // The kernel refuses it when vdb loses its scheduler after the page read it: the failure, and the
    // undo of vda's step.
    await vm.guest.runOk('echo mq-deadline > /sys/block/vdb/queue/scheduler');
    let outcome: string[] = [];
    for (let attempt = 0; ; attempt++) {
        await page.reload();
        await waitForCard(page, 'md0', false);
        await openArrayDialog(page, 'md0', 'Disk queues…');
        await dialog(page).locator('#md0-disk-setting-nrRequests').check();
        await dialog(page).locator('#md0-disk-value').fill('1000');
        expect(await previewedCommands(page)).toBe(
            'echo 1000 > /sys/block/vda/queue/nr_requests\necho 1000 > /sys/block/vdb/queue/nr_requests');
        const seen = await renderedRefreshes(page);
        await vm.guest.runOk('echo none > /sys/block/vdb/queue/scheduler');
        // Had the page refreshed meanwhile, it would refuse the value itself.
        if (await renderedRefreshes(page) === seen && !(await formState(page)).applyDisabled) {
            outcome = await applyAndWait(page);
            break;
        }
        if (attempt >= 2)
            throw new Error('the page refreshed between opening the dialog and applying three times');
        await page.keyboard.press('Escape');
        await vm.guest.runOk('echo mq-deadline > /sys/block/vdb/queue/scheduler');
    }
    expect(outcome).toEqual(['Changing the nr_requests of vdb failed: Invalid argument']);
    expect(await guestValues('/sys/block/vda/queue/nr_requests', '/sys/block/vdb/queue/nr_requests')).toEqual(['1000', '256']);
    await footerButton(page, 'Undo the 1 change already made').click();
    await dialog(page).getByText('The changes made before the failure were undone.').waitFor();
    expect(await guestValues('/sys/block/vda/queue/nr_requests', '/sys/block/vdb/queue/nr_requests')).toEqual(['256', '256']);
    await close(page);
});

test('what the kernel does with nr_requests and sync_speed_max out of range (the simulator does the same: test/unit/sim/tee.test.ts)', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    /** `echo VALUE | /usr/bin/tee FILE` in the guest (GNU tee: the errno's words), then the value read back at once. */
    const write = async (file: string, value: string) => {
        const result = await vm.guest.run(`echo ${value} | /usr/bin/tee ${file} >/dev/null; cat ${file}`);
        return result.out.replace(`/usr/bin/tee: ${file}: `, '').trim().split('\n');
    };
    const nrRequests = '/sys/block/vdb/queue/nr_requests';
    // virtio-blk: 256 tags per hardware queue; without a scheduler (resetMd) no more, with one up to 2048.
    expect(await guestQueueValues('/sys/block/vdb/mq/0/nr_tags', '/sys/block/vdb/queue/scheduler')).toEqual(['256', 'none of mq-deadline none']);
    expect(await write(nrRequests, '257')).toEqual(['Invalid argument', '256']);
    expect(await write(nrRequests, '100')).toEqual(['100']);
    await vm.guest.runOk('echo mq-deadline > /sys/block/vdb/queue/scheduler');
    expect(await write(nrRequests, '2049')).toEqual(['Invalid argument', '256']);
    expect(await write(nrRequests, '2048')).toEqual(['2048']);
    // sync_speed_max: any unsigned int is taken and reads back "(local)" at once; beyond: ERANGE.
    const speedMax = '/sys/block/md0/md/sync_speed_max';
    expect(await write(speedMax, '20000000')).toEqual(['20000000 (local)']);
    expect(await write(speedMax, '99999999999')).toEqual(['Numerical result out of range', '20000000 (local)']);
    await vm.guest.runOk('echo none > /sys/block/vdb/queue/scheduler'); // back to the boot default for the next tests
});

test('write-intent bitmap: added and removed with mdadm --grow, read from the guest', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const page = await openWithCard('md0');
    const bitmap = ['/sys/block/md0/md/bitmap/location', '/sys/block/md0/md/bitmap/chunksize', '/sys/block/md0/md/consistency_policy'];

    await openArrayDialog(page, 'md0', 'Add bitmap…');
    // 255 MiB members: 16 MiB recommended (src/md/tuning/bitmap.ts), and mdadm takes every chunk offered.
    await dialog(page).getByText('16 MiB (recommended)').waitFor();
    expect(await previewedCommands(page)).toBe('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=16M');
    expect(await applyAndWait(page, 'Add bitmap')).toEqual([DONE_NOT_KERNEL]);
    await close(page);
    expect(await guestValues(...bitmap)).toEqual(['+8', String(16 * 2 ** 20), 'bitmap']);
    await waitForFact(page, 'Bitmap', 'Internal, 16 MiB chunks');

    await openArrayDialog(page, 'md0', 'Remove bitmap…');
    expect(await previewedCommands(page)).toBe('mdadm --grow /dev/md0 --bitmap=none');
    expect(await applyAndWait(page, 'Remove bitmap')).toEqual([DONE_NOT_KERNEL]);
    await close(page);
    // 6.1 and 6.12 keep reading the removed bitmap's chunk size (the simulator does the same since
    // this test); 7.x drops the file with the bitmap. The page says None on each.
    const [location, chunk, policy] = await guestValues(...bitmap);
    expect([location, policy]).toEqual(['none', 'resync']);
    expect([String(16 * 2 ** 20), '<absent>']).toContain(chunk);
    await waitForFact(page, 'Bitmap', 'None');
});

test('a bitmap added while a check started meanwhile: mdadm\'s refusal, in its words, reaches the user', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    const page = await openWithCard('md0');
    let outcome: string[] = [];
    for (let attempt = 0; ; attempt++) {
        await openArrayDialog(page, 'md0', 'Add bitmap…');
        const seen = await renderedRefreshes(page);
        await vm.guest.runOk('echo check > /sys/block/md0/md/sync_action');
        // Had the page refreshed meanwhile, it would no longer offer the addition.
        if (await renderedRefreshes(page) === seen && !(await formState(page)).applyDisabled) {
            outcome = await applyAndWait(page, 'Add bitmap');
            break;
        }
        if (attempt >= 2)
            throw new Error('the page refreshed between opening the dialog and applying three times');
        await page.keyboard.press('Escape');
        await vm.guest.runOk('echo idle > /sys/block/md0/md/sync_action');
        await page.reload();
        await waitForCard(page, 'md0', false);
    }
    // The same command in the guest, still during the check: what mdadm says there, the page says.
    const mdadm = await vm.guest.run('mdadm --grow /dev/md0 --bitmap=internal --bitmap-chunk=16M');
    expect(mdadm.code).toBe(1);
    expect(mdadm.out).toBe('mdadm: Cannot add bitmap while array is resyncing or reshaping etc.\nmdadm: failed to set internal bitmap.\n');
    const words = mdadm.out.trim().split('\n').map(l => l.replace(/^mdadm: /, '')).join(' ');
    expect(outcome).toEqual([`Changing the write-intent bitmap of md0 failed: ${words}`]);
    await dialog(page).getByText('md refuses bitmap changes while the array syncs, even when the sync is paused.', { exact: false }).waitFor();
    await close(page);
    expect(await guestValues('/sys/block/md0/md/bitmap/location', '/sys/block/md0/md/sync_action')).toEqual(['none', 'check']);
});

test('the "Fast rebuild" preset: every value it writes read back from the guest, then restored', async () => {
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean')}
${mdCreate('md1', 'raid1', ['vdd', 'vde'], '--assume-clean')}
echo 5000 > /sys/block/md1/md/sync_speed_max`);
    const watched = ['/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max', '/sys/block/md0/md/stripe_cache_size',
        '/sys/block/md1/md/sync_speed_max', VM_JOURNAL];
    const original = await guestValues(...watched);
    expect(original).toEqual(['1', '200', '256', '5000 (local)', '<absent>']);
    const page = await openWithCard('md1');
    // The presets are the system's, with the host settings on the overview.
    await showOverview(page);
    await openDialog(page.locator('#global-limits').getByRole('button', { name: 'Presets…' }));
    await dialog(page).locator('#raidtune-preset-fast-rebuild').check();
    const commands = (await previewedCommands(page))!.split('\n');
    // 8192 entries, or fewer when they would take over 10% of the guest's available memory.
    const entries = Number(commands.find(c => c.includes('stripe_cache_size'))!.match(/^echo (\d+) /)![1]);
    const [pageSize, availableKiB] = (await vm.guest.runOk("getconf PAGESIZE; sed -n 's/^MemAvailable: *\\([0-9]*\\) kB/\\1/p' /proc/meminfo"))
        .trim().split('\n').map(Number);
    const extra = (n: number) => pageSize * 3 * (n - 256);
    expect(extra(entries)).toBeLessThanOrEqual(availableKiB * 1024 * 0.1);
    if (entries < 8192)
        expect(extra(entries * 2)).toBeGreaterThan(availableKiB * 1024 * 0.1 * 0.9);
    expect([...commands].sort()).toEqual([
        'echo 2048000 > /proc/sys/dev/raid/speed_limit_max',
        'echo 51200 > /proc/sys/dev/raid/speed_limit_min',
        `echo ${entries} > /sys/block/md0/md/stripe_cache_size`,
        'echo system > /sys/block/md1/md/sync_speed_max',
    ].sort());
    expect(await applyAndWait(page)).toEqual([DONE]);
    await close(page);
    expect(await guestValues(...watched.slice(0, 4))).toEqual(['51200', '2048000', String(entries), '2048000 (system)']);

    await page.reload();
    const banner = page.locator('.raidtune-restore');
    await banner.getByText('raidtune changed 4 settings on this host.').waitFor({ timeout: 30000 });
    await banner.getByRole('button', { name: 'Restore previous settings' }).click();
    expect(await applyAndWait(page, 'Restore')).toEqual([DONE]);
    await close(page);
    expect(await guestValues(...watched)).toEqual(original);
});

test('keep after reboot: a sysctl.d file sysctl -p applies, a udev rule that names the array by mdadm\'s MD_UUID', async () => {
    await createSlowly(vm.guest, `${mdCreate('md0', 'raid5', ['vda', 'vdb', 'vdc'], '--assume-clean')}
echo 4096 > /sys/block/md0/md/stripe_cache_size`);
    const sysctlFile = '/etc/sysctl.d/90-raidtune.conf';
    const rulesFile = '/etc/udev/rules.d/64-raidtune.rules';
    const modulesFile = '/etc/modules-load.d/raidtune.conf';
    const page = await openWithCard('md0');
    await showOverview(page);
    await page.locator('#keep-after-reboot').getByRole('button', { name: 'Keep after reboot…' }).click();
    await dialog(page).waitFor();
    expect(await previewedCommands(page)).toMatch(
        new RegExp(`^cat > ${modulesFile} <<'EOF'\n[^]*\nEOF\ncat > ${sysctlFile} <<'EOF'\n[^]*\nEOF\ncat > ${rulesFile} <<'EOF'\n[^]*\nEOF$`));
    expect(await applyAndWait(page)).toEqual([DONE_NOT_KERNEL]);
    await close(page);

    const [sysctl, rules, modules, exported] = await Promise.all([sysctlFile, rulesFile, modulesFile].map(f => vm.guest.runOk(`cat ${f}`))
        .concat(vm.guest.runOk('mdadm --detail --export /dev/md0')));
    // The module the guest's md driver really is (systemd-modules-load loads it before systemd-sysctl runs).
    expect(modules.split('\n').filter(l => l && !l.startsWith('#'))).toEqual(['md_mod']);
    expect((await vm.guest.runOk('grep -c "^md_mod " /proc/modules')).trim()).toBe('1');
    expect(sysctl.split('\n').filter(l => l && !l.startsWith('#'))).toEqual(['dev.raid.speed_limit_min = 1', 'dev.raid.speed_limit_max = 200']);
    // udev knows the array by the MD_UUID mdadm exports; raidtune derived it from sysfs md/uuid.
    const uuid = exported.match(/^MD_UUID=(\S+)$/m)![1];
    expect(rules.split('\n').filter(l => l && !l.startsWith('#'))).toEqual([
        `SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md*", ENV{MD_UUID}=="${uuid}", TEST=="md/stripe_cache_size", ATTR{md/stripe_cache_size}="4096"`,
    ]);

    // "Reboot" for the sysctl part: the kernel's defaults, then what systemd-sysctl does with the file.
    await vm.guest.runOk(`echo 1000 > /proc/sys/dev/raid/speed_limit_min; echo 200000 > /proc/sys/dev/raid/speed_limit_max
sysctl -p ${sysctlFile} >/dev/null`);
    expect(await guestValues('/proc/sys/dev/raid/speed_limit_min', '/proc/sys/dev/raid/speed_limit_max')).toEqual(['1', '200']);

    await page.locator('#keep-after-reboot').getByRole('button', { name: 'Stop keeping…' }).click();
    await dialog(page).waitFor();
    expect(await previewedCommands(page)).toBe(`rm -f ${modulesFile}\nrm -f ${sysctlFile}\nrm -f ${rulesFile}`);
    expect(await applyAndWait(page)).toEqual([DONE_NOT_KERNEL]);
    await close(page);
    expect(await guestValues(sysctlFile, rulesFile, modulesFile)).toEqual(['<absent>', '<absent>', '<absent>']);
});
