// SPDX-License-Identifier: LGPL-2.1-or-later
// One test file's view of the real-kernel tier: control of the guest that globalSetup booted, a
// headless Chromium, md state reset before every test, and recorded pages that must stay free of
// console errors, page errors and CSP violations (checked and closed after each test).
//
//     const vm = setupVm();
//     test('...', async () => {
//         await vm.guest.runOk('mdadm --create /dev/md0 --run --level=1 -n2 /dev/vda /dev/vdb');
//         const { page } = await vm.openPage();          // the bare plugin page, from the guest
//         await page.locator('#array-md0').waitFor();
//     });
import { readFileSync, statfsSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { launchBrowser, openPage, type LaunchedBrowser, type RecordedPage } from '../../../tools/cockpit';
import { attachGuest, type GuestControl, type GuestInfo } from '../../../tools/vm/vm';
import { sessionLostFile, VM_STATE_DIR } from './vmConfig';

export interface VmEnv {
    /** run()/runOk() as root in the guest (busybox sh). */
    readonly guest: GuestControl;
    readonly info: GuestInfo;
    /** http://127.0.0.1:PORT/cockpit/@localhost/raidtune/index.html (served by the guest bridge). */
    readonly pageUrl: string;
    readonly browser: Browser;
    /** Opens the bare plugin page (or `url`) in a new context; checked and closed after the test. */
    openPage(url?: string): Promise<RecordedPage>;
    /** Stops every md array, wipes the superblocks, restores the kernel's default speed limits. */
    resetMd(): Promise<void>;
}

/** Kernel defaults of dev.raid.speed_limit_min / _max (drivers/md/md.c). */
export const DEFAULT_SPEED_LIMIT_MIN = 1000;
export const DEFAULT_SPEED_LIMIT_MAX = 200000;
/** sysctl_sync_io_depth's default, on kernels that have it (drivers/md/md.c, 6.16 and later). */
export const DEFAULT_SYNC_IO_DEPTH = 32;

// Stop all arrays (stacked ones first: md on md is stopped when its parents are gone, so loop),
// then clear what could make the next --create ask questions or auto-assemble: superblocks on
// disks and partitions, partition tables (a test may partition the disks), raidtune's journal and
// the files it keeps for reboot (the guest has no /etc/sysctl.d or /etc/udev of its own); limits
// and the disks' schedulers to where a test expects them.
const RESET_MD = `
for round in 1 2 3; do
  for d in /sys/block/md*; do
    [ -e "$d" ] || continue
    mdadm --stop "/dev/\${d##*/}" >/dev/null 2>&1
  done
done
for d in /sys/block/md*; do [ -e "$d" ] && { echo "could not stop \${d##*/}"; cat /proc/mdstat; exit 1; }; done
# One mdadm for every disk and partition (each exec costs ~50-100 ms under emulation).
set --
for d in /dev/vd* /dev/sd*; do [ -b "$d" ] && set -- "$@" "$d"; done
[ $# -gt 0 ] && mdadm --zero-superblock "$@" >/dev/null 2>&1
# And any other signature a test left (a filesystem for the Replace disk dialog to find).
[ $# -gt 0 ] && /usr/sbin/wipefs --all --quiet "$@" >/dev/null 2>&1
for p in /sys/block/*/*/partition; do
  [ -e "$p" ] || continue
  disk=\${p%/*/partition}; disk=\${disk##*/}
  dd if=/dev/zero of="/dev/$disk" bs=4096 count=1 conv=fsync 2>/dev/null
  blockdev --rereadpt "/dev/$disk"
done
for p in /sys/block/*/*/partition; do [ -e "$p" ] && { echo "partition left: $p"; exit 1; }; done
# Disks start without an I/O scheduler, as multi-queue disks do: the tier's guest has one vCPU, so
# virtio-blk gets one queue and the kernel would pick mq-deadline.
for q in /sys/block/vd*/queue/scheduler; do [ -e "$q" ] && echo none > "$q"; done
echo ${DEFAULT_SPEED_LIMIT_MIN} > /proc/sys/dev/raid/speed_limit_min
echo ${DEFAULT_SPEED_LIMIT_MAX} > /proc/sys/dev/raid/speed_limit_max
if [ -e /proc/sys/dev/raid/sync_io_depth ]; then echo ${DEFAULT_SYNC_IO_DEPTH} > /proc/sys/dev/raid/sync_io_depth; fi
rm -rf ${VM_STATE_DIR} /etc/sysctl.d /etc/udev /etc/modules-load.d
exit 0
`;

/** The page's visible text, its first `max` characters, for a failure report (never throws). */
export function shownText(page: Page, max: number): Promise<string> {
    return page.evaluate(() => document.body?.innerText ?? '(no body)')
        .then(text => text.slice(0, max), (err: Error) => `(no answer: ${err.message.split('\n')[0]})`);
}

/**
 * What a page's problems may come from beyond the page: the tier's session lost (globalSetup
 * writes why), the end of the guest bridge's log (its exits, its stderr), the host's free memory
 * and /dev/shm (the guests' disks and Chromium's shared memory live there), and what each page
 * showed.
 */
async function problemReport(runDir: string, pages: RecordedPage[]): Promise<string> {
    const read = (file: string) => {
        try {
            return readFileSync(file, 'utf8');
        } catch {
            return undefined;
        }
    };
    const lost = read(sessionLostFile(runDir));
    const bridgeLog = (read(`${runDir}/share/bridge.log`) ?? '(no bridge log)').split('\n').slice(-15).join('\n');
    const available = /^MemAvailable:\s+(\d+)/m.exec(read('/proc/meminfo') ?? '')?.[1];
    const shm = statfsSync('/dev/shm');
    const shown = await Promise.all(pages.map(p => shownText(p.page, 300)));
    return `\n\nthe tier's cockpit session: ${lost ?? 'not lost'}\nthe guest bridge's log (last lines):\n${bridgeLog}` +
        `\nthe host: MemAvailable ${available} KiB, /dev/shm ${Math.round(shm.bavail * shm.bsize / 2 ** 20)} of ` +
        `${Math.round(shm.blocks * shm.bsize / 2 ** 20)} MiB free` +
        shown.map((text, i) => `\npage ${i + 1} shows: ${JSON.stringify(text)}`).join('');
}

export const timings = process.env.RAIDTUNE_TIMINGS === '1';
export function logTiming(what: string, ms: number): void {
    if (timings)
        process.stderr.write(`raidtune vm timing: ${what} ${ms.toFixed(0)} ms\n`);
}

export interface VmEnvOptions {
    /** Launch Chromium for this file (default true). */
    browser?: boolean;
}

export function setupVm(options: VmEnvOptions = {}): VmEnv {
    const infoJson = process.env.RAIDTUNE_VM_GUEST;
    const pageUrl = process.env.RAIDTUNE_VM_PAGE;
    if (!infoJson || !pageUrl)
        throw new Error('no guest: run these tests with npx jest -c test/vm/jest.config.js (its globalSetup boots it)');
    const info = JSON.parse(infoJson) as GuestInfo;
    let guest: GuestControl | undefined;
    let browser: LaunchedBrowser | undefined;
    let pages: RecordedPage[] = [];

    const resetMd = async () => {
        await guest!.runOk(RESET_MD, { timeoutMs: 60000 });
    };

    beforeAll(async () => {
        const t0 = performance.now();
        // Assigned one by one: if one fails, afterAll still stops the other.
        await Promise.all([
            attachGuest(info).then(g => { guest = g; }),
            options.browser === false ? undefined : launchBrowser().then(b => { browser = b; }),
        ]);
        logTiming('attach guest + launch browser', performance.now() - t0);
    });

    beforeEach(async () => {
        const t0 = performance.now();
        await resetMd();
        logTiming('reset md', performance.now() - t0);
    });

    afterEach(async () => {
        const opened = pages;
        pages = [];
        try {
            for (const page of opened)
                await page.expectNoProblems();
        } catch (err) {
            (err as Error).message += await problemReport(info.runDir, opened);
            throw err;
        } finally {
            await Promise.all(opened.map(p => p.close()));
        }
    });

    afterAll(async () => {
        try {
            if (guest)
                await resetMd();
        } finally {
            await guest?.detach();
            // A later use would open a new connection and hold the guest's one control port from
            // the next test file: it fails here instead ("no guest").
            guest = undefined;
            await browser?.stop();
        }
    });

    return {
        get guest() {
            if (!guest)
                throw new Error('no guest: it is attached in beforeAll and detached in afterAll');
            return guest;
        },
        info,
        pageUrl,
        get browser() {
            if (!browser)
                throw new Error('the browser is launched in beforeAll');
            return browser;
        },
        async openPage(url = pageUrl) {
            if (!browser)
                throw new Error('no browser: setupVm({ browser: false })');
            const t0 = performance.now();
            const page = await openPage(browser, url, { timeoutMs: 60000 });
            pages.push(page);
            logTiming(`open ${url.replace(/^https?:\/\/[^/]+/, '')}`, performance.now() - t0);
            return page;
        },
        resetMd,
    };
}
