// SPDX-License-Identifier: LGPL-2.1-or-later
// The real-kernel tier proves itself: the built plugin, loaded through the host's cockpit-ws from
// the cockpit-bridge inside the QEMU guest, shows what the guest's kernel and mdadm say about a
// real RAID1 resync, and writes through the bridge land in the guest's sysfs.
import { readFileSync } from 'node:fs';
import { parseDetail, parseMdstat, type MdstatArray } from './harness/kernelFacts';
import { logTiming, setupVm } from './harness/vmEnv';

const vm = setupVm();

/** A RAID1 over vda+vdb whose resync stays visible: the limits go down BEFORE --create
 * (200 KiB/s on 255 MiB: ~20 minutes, ~0.08 % per second). */
async function createSlowRaid1(): Promise<void> {
    await vm.guest.runOk(`
echo 1 > /proc/sys/dev/raid/speed_limit_min
echo 200 > /proc/sys/dev/raid/speed_limit_max
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 /dev/vda /dev/vdb`);
}

async function mdstatArray(name: string): Promise<MdstatArray> {
    const text = await vm.guest.runOk('cat /proc/mdstat');
    const array = parseMdstat(text).find(a => a.name === name);
    if (!array)
        throw new Error(`${name} is not in the guest's /proc/mdstat:\n${text}`);
    return array;
}

// The page's global `cockpit` (cockpit.js), as far as these tests use it. Code passed to
// page.evaluate() must be self-contained (playwright sends its source) and must not eval: the
// page runs under Cockpit's CSP.
interface CockpitInPage {
    spawn(argv: string[], options?: object): Promise<string> & { input(data: string): Promise<string> };
    file(path: string): { read(): Promise<string | null> };
}
type PageWindow = { cockpit: CockpitInPage };
// cockpit.js 287's promises are its own deferreds (function objects with then()): page.evaluate()
// does not await them and returns undefined. Hand the value over through a native Promise.

test('the page shows the RAID1 resync that mdadm runs in the guest, as the kernel reports it', async () => {
    await createSlowRaid1();
    const before = await mdstatArray('md0');
    const detail = parseDetail(await vm.guest.runOk('mdadm --detail /dev/md0'));
    // What the kernel and mdadm say (so a broken guest fails here, not in the page checks).
    expect(before.level).toBe('raid1');
    expect(before.progress?.action).toBe('resync');
    expect(detail.level).toBe('raid1');
    expect(detail.raidDevices).toBe(2);
    expect([...detail.devices].sort()).toEqual(['/dev/vda', '/dev/vdb']);
    expect([...before.members].sort()).toEqual(['vda', 'vdb']);

    const t0 = performance.now();
    const { page } = await vm.openPage(`${vm.pageUrl}#/md0`);
    const card = page.locator('#array-md0');
    const progressbar = card.getByRole('progressbar');
    await progressbar.waitFor({ timeout: 60000 });
    logTiming('page load to the md0 resync', performance.now() - t0);
    const shownPercent = Number(await progressbar.getAttribute('aria-valuenow'));
    const cardText = await card.innerText();
    const after = await mdstatArray('md0');

    // Level: mdadm's "raid1" is the page's "RAID 1".
    expect(cardText).toContain(`RAID ${detail.level.replace(/^raid/, '')}`);
    // Members: exactly the devices mdadm lists (and /proc/mdstat shows).
    const shownDevices = [...new Set(cardText.match(/\/dev\/(?:vd|sd)[a-z]+/g) ?? [])].sort();
    expect(shownDevices).toEqual([...detail.devices].sort());
    expect(shownDevices).toEqual(before.members.map(m => `/dev/${m}`).sort());
    // Progress: a resync, and the percent lies between what mdstat said before and after reading it.
    expect(cardText).toContain('Resync');
    expect(cardText).toContain(`${shownPercent.toFixed(1)}%`);
    expect(shownPercent).toBeGreaterThanOrEqual(before.progress!.percent);
    expect(shownPercent).toBeLessThanOrEqual(after.progress!.percent);
    expect(after.progress!.percent).toBeLessThan(50); // the resync is still running, slowly
});

test('a tee through the guest bridge writes the guest kernel sysfs: sync_speed_max reads back "5000 (local)"', async () => {
    await createSlowRaid1();
    expect((await vm.guest.runOk('cat /sys/block/md0/md/sync_speed_max')).trim()).toMatch(/^200 \(system\)$/);
    const { page } = await vm.openPage(`${vm.pageUrl}#/md0`);
    const card = page.locator('#array-md0');
    await card.waitFor({ timeout: 60000 });

    const written = await page.evaluate(path => new Promise<string>((resolve, reject) => {
        (window as unknown as PageWindow).cockpit.spawn(['tee', path], { superuser: 'try', err: 'message' }).input('5000')
            .then(resolve, (e: { message?: string; problem?: string }) => reject(new Error(e.message || e.problem)));
    }), '/sys/block/md0/md/sync_speed_max');
    expect(written).toBe('5000');
    expect((await vm.guest.runOk('cat /sys/block/md0/md/sync_speed_max')).trim()).toBe('5000 (local)');
    // The page reads it back from the guest on its next refresh.
    await card.getByText(/\b5000 KiB\/s\b/).waitFor({ timeout: 30000 });
});

test('the page talks to the guest kernel: /proc/version through the bridge is the guest\'s', async () => {
    const { page } = await vm.openPage();
    await page.getByRole('heading', { level: 1 }).waitFor({ timeout: 60000 });
    const guestVersion = await vm.guest.runOk('cat /proc/version');
    const pageVersion = await page.evaluate(() => new Promise<string | null>((resolve, reject) => {
        (window as unknown as PageWindow).cockpit.file('/proc/version').read()
            .then(resolve, (e: { message?: string; problem?: string }) => reject(new Error(e.message || e.problem)));
    }));
    expect(pageVersion).toBe(guestVersion);
    expect(pageVersion).not.toBe(readFileSync('/proc/version', 'utf8'));

    // Round trips through ws -> socat -> virtio-serial -> guest bridge (median of 20 sequential).
    const rounds = await page.evaluate(async () => {
        const cockpit = (window as unknown as PageWindow).cockpit;
        const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
        const file: number[] = [];
        const spawn: number[] = [];
        for (let i = 0; i < 20; i++) {
            let t = performance.now();
            await cockpit.file('/proc/mdstat').read();
            file.push(performance.now() - t);
            t = performance.now();
            await cockpit.spawn(['true']);
            spawn.push(performance.now() - t);
        }
        return { file: median(file), spawn: median(spawn) };
    });
    logTiming('round trip cockpit.file().read() median', rounds.file);
    logTiming('round trip cockpit.spawn([true]) median', rounds.spawn);
    const control: number[] = [];
    for (let i = 0; i < 10; i++) {
        const t = performance.now();
        await vm.guest.runOk('true');
        control.push(performance.now() - t);
    }
    logTiming('round trip guest.run(true) median', control.sort((a, b) => a - b)[5]);
    expect(rounds.file).toBeLessThan(2000);
    expect(rounds.spawn).toBeLessThan(2000);
});
