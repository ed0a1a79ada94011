// SPDX-License-Identifier: LGPL-2.1-or-later
// The check window's host tool (recorder/raidtune-check-window, the file the package installs) on a
// real kernel: a RAID1's check, slowed by a low speed_limit_max, is paused midway; the array is
// stopped and assembled again (md forgets sync_min then, as after a reboot) and a member block past
// the pause position is corrupted; resume continues the check from the recorded position as md
// rounds it; the check then runs to its end and finds the corruption (but not one made in the part
// checked before the pause, which a whole check then finds), and the finish drops the record with
// sync_min at 0. Then a resumed check stopped by someone else: md keeps its checkpoint
// in sync_min, and only the tool's finish puts it back to 0. Last, the window's limits around a
// check that spans the window's end: start writes them, end writes the ones from before back, but
// keeps one the admin changed while the window was open. And a check paused on an array that then
// loses a member stays paused when the window opens, until the array is whole again.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { mdCreate } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm({ browser: false });
const TOOL_TEXT = readFileSync(join(__dirname, '../../recorder/raidtune-check-window'), 'utf8');
const TOOL = '/run/raidtune-bin/raidtune-check-window';
const STATE = '/run/raidtune-check-window-test';
const MD = '/sys/block/md0/md';
// 64 MiB members: a check of 131072 sectors, about a minute at 1000 KiB/s.
const SIZE_KIB = 65536;
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
const kernel = async (attribute: string) => (await vm.guest.runOk(`cat ${MD}/${attribute}`)).trim();

async function waitForGuest(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
        await sleep(500);
    }
}

/** Runs the tool as a timer would (with the window's limits file, if any); stdout and stderr apart. */
async function tool(command: string, limits?: string): Promise<{ code: number, out: string, err: string }> {
    const more = limits ? ` /proc ${limits}` : '';
    const { code, out } = await vm.guest.run(`sh ${TOOL} ${command} /sys ${STATE}${more} 2>/run/cw-err; echo "@@$?"; cat /run/cw-err`);
    const [stdout, stderr] = out.split(/@@\d+\n/);
    if (code !== 0) throw new Error(`the test's command failed: ${out}`);
    return { code: Number(/@@(\d+)/.exec(out)?.[1]), out: stdout.trim(), err: stderr.trim() };
}

const record = async (uuid: string) => (await vm.guest.run(`cat ${STATE}/check-window/${uuid}.window 2>/dev/null`)).out.trim();
const completed = async () => (await kernel('sync_completed')).split(' / ').map(Number);
const idle = async () => await kernel('sync_action') === 'idle';
const limitMax = (kibs: number) => vm.guest.runOk(`echo ${kibs} > /proc/sys/dev/raid/speed_limit_max`);

/** A check under way, slowed, until md has checkpointed part of it; then paused by the tool. */
async function checkThenPause(uuid: string): Promise<number> {
    await limitMax(1000);
    await vm.guest.runOk(`echo check > ${MD}/sync_action`);
    await waitForGuest('a checkpoint in the check', async () => (await completed())[0] > 0, 120000);
    const paused = await tool('pause');
    expect(paused.code).toBe(0);
    expect(await kernel('sync_action')).toBe('idle');
    const [state, position, name, mismatches] = (await record(uuid)).split(' ');
    expect([state, name]).toEqual(['paused', 'md0']);
    expect(paused.out).toBe(`md0: check paused at sector ${position} of ${SIZE_KIB * 2} (${Math.floor(Number(position) * 100 / (SIZE_KIB * 2))}%)`);
    expect(Number(position)).toBeGreaterThan(0);
    expect(Number(position)).toBeLessThan(SIZE_KIB * 2);
    // md's own checkpoint of the stopped check is the same figure.
    expect(await kernel('sync_min')).toBe(position);
    expect(mismatches).toBe(await kernel('mismatch_cnt'));
    return Number(position);
}

test('a check paused, resumed from its position after a re-assembly, run to its end, and finished', async () => {
    await vm.guest.runOk(`rm -rf ${STATE}; mkdir -p /run/raidtune-bin && cat > ${TOOL} <<'RAIDTUNE_EOF'
${TOOL_TEXT}RAIDTUNE_EOF`);
    // The initial resync slowed too: pause leaves any sync but a check alone.
    await limitMax(1000);
    await vm.guest.runOk(mdCreate('md0', 'raid1', ['vda', 'vdb'], `--size=${SIZE_KIB} --bitmap=none`));
    await waitForGuest('the resync under way', async () => await kernel('sync_action') === 'resync', 30000);
    const resyncing = await tool('pause');
    expect(resyncing).toEqual({ code: 0, out: '', err: 'md0: resync is not a check: left running' });
    expect(await kernel('sync_action')).toBe('resync');
    await limitMax(200000);
    await waitForGuest('the resync ended', idle, 120000);
    const uuid = await kernel('uuid');

    const position = await checkThenPause(uuid);
    expect(await kernel('mismatch_cnt')).toBe('0');

    // Stopped and assembled again: md starts with sync_min 0; the record is what remains.
    await vm.guest.runOk('mdadm --stop /dev/md0 && mdadm --assemble /dev/md0 /dev/vda /dev/vdb 2>&1');
    expect(await kernel('sync_min')).toBe('0');
    // 1 MiB of other data on one member near the array's end, far past the pause position.
    const dataOffset = Number(await kernel('dev-vdb/offset'));
    const corruptAtKiB = dataOffset / 2 + SIZE_KIB - 4096;
    expect(corruptAtKiB * 2).toBeGreaterThan(position + dataOffset);
    await vm.guest.runOk(`dd if=/dev/urandom of=/dev/vdb bs=1024 seek=${corruptAtKiB} count=1024 conv=fsync 2>/dev/null`);
    // And 64 KiB at the data's start, in the part already checked: the resumed check must not see it.
    expect(position).toBeGreaterThan(128);
    await vm.guest.runOk(`dd if=/dev/urandom of=/dev/vdb bs=1024 seek=${dataOffset / 2} count=64 conv=fsync 2>/dev/null`);
    // A position off md's 4 KiB steps (another tool's record could hold one): md rounds it down.
    const offStep = position + 5;
    await vm.guest.runOk(`echo 'paused ${offStep} md0 0' > ${STATE}/check-window/${uuid}.window`);
    const rounded = Math.floor(offStep / 8) * 8;

    // md refuses a sync_min above sync_max (EINVAL): said, nothing started, the record kept.
    await vm.guest.runOk(`echo ${rounded - 8} > ${MD}/sync_max`);
    expect(await tool('resume')).toEqual({ code: 1, out: '', err: `md0: the kernel refused ${offStep} in sync_min` });
    expect(await kernel('sync_action')).toBe('idle');
    expect(await record(uuid)).toBe(`paused ${offStep} md0 0`);
    await vm.guest.runOk(`echo max > ${MD}/sync_max`);

    const resumed = await tool('resume');
    expect(resumed).toEqual({ code: 0, out: `md0: check resumed at sector ${rounded}`, err: '' });
    expect(await kernel('sync_min')).toBe(String(rounded));
    expect(await record(uuid)).toBe(`resumed ${rounded} md0 0`);
    expect(await kernel('sync_action')).toBe('check');
    await waitForGuest('the resumed check reports its progress', async () => /^\d+ \/ \d+$/.test(await kernel('sync_completed')), 60000);
    expect((await completed())[0]).toBeGreaterThanOrEqual(rounded);

    // A resume while it runs: busy, nothing written.
    expect(await tool('resume')).toEqual({ code: 0, out: '', err: '' });
    await limitMax(200000);
    await waitForGuest('the resumed check ended', idle, 120000);
    const mismatches = await kernel('mismatch_cnt');
    // md counts mismatched sectors: the 1 MiB (2048 sectors) overwritten past the position.
    expect(Number(mismatches)).toBeGreaterThanOrEqual(2048);

    const finished = await tool('tidy');
    expect(finished).toEqual({ code: 0, out: `md0: the check resumed at sector ${rounded} has ended; mismatch_cnt over the whole check: ${mismatches}; sync_min is 0`, err: '' });
    expect(await kernel('sync_min')).toBe('0');
    expect(await record(uuid)).toBe('');
    // A whole check now, from sector 0, counts both overwritten places: the 64 KiB (128 sectors) more
    // (seen on 6.1: 2048 resumed, 2176 whole).
    await vm.guest.runOk(`echo check > ${MD}/sync_action`);
    await waitForGuest('the whole check ended', idle, 120000);
    expect(Number(await kernel('mismatch_cnt'))).toBeGreaterThanOrEqual(Number(mismatches) + 128);

    // A resumed check stopped by someone else keeps md's checkpoint in sync_min; the finish clears it.
    await checkThenPause(uuid);
    expect((await tool('resume')).out).toMatch(/^md0: check resumed at sector \d+$/);
    await waitForGuest('a checkpoint past the resume', async () => {
        const [done] = await completed();
        return done > Number((await record(uuid)).split(' ')[1]);
    }, 120000);
    await vm.guest.runOk(`echo idle > ${MD}/sync_action`);
    expect(Number(await kernel('sync_min'))).toBeGreaterThan(0);
    expect((await tool('pause')).out).toMatch(/^md0: the check resumed at sector \d+ has ended; mismatch_cnt over the whole check: \d+; sync_min is 0$/);
    expect(await kernel('sync_min')).toBe('0');
    expect(await record(uuid)).toBe('');
    await limitMax(200000);
}, 600000);

test('the window\'s limits: written at its start, held by md for the check inside it, the ones from before back at its end', async () => {
    const RAID = '/proc/sys/dev/raid';
    const LIMITS = '/run/cw-limits';
    const edge = (command: string) => tool(command, LIMITS);
    const limits = async () => (await vm.guest.runOk(`cat ${RAID}/speed_limit_min ${RAID}/speed_limit_max`)).trim().split('\n');
    // An admin's own limits outside the window, and the window's: slow enough that its check
    // spans the window's end.
    await vm.guest.runOk(`echo 50000 > ${RAID}/speed_limit_min; echo 2000000 > ${RAID}/speed_limit_max`);
    await vm.guest.runOk(`printf '%s\\t%s\\n' ${RAID}/speed_limit_min 500 ${RAID}/speed_limit_max 3000 > ${LIMITS}`);
    // Mirrors that are the same from the start (zeroed members): no resync before the check.
    await vm.guest.runOk(mdCreate('md0', 'raid1', ['vda', 'vdb'], `--size=${SIZE_KIB} --bitmap=none --assume-clean`));
    expect(await kernel('sync_action')).toBe('idle');
    const uuid = await kernel('uuid');

    // The window opens with nothing paused; the distribution's check starts inside it.
    expect(await edge('start')).toEqual({ code: 0, out: 'limits: speed_limit_min 500\nlimits: speed_limit_max 3000', err: '' });
    expect(await limits()).toEqual(['500', '3000']);
    await vm.guest.runOk(`echo check > ${MD}/sync_action`);
    expect([await kernel('sync_speed_min'), await kernel('sync_speed_max')]).toEqual(['500 (system)', '3000 (system)']);
    await waitForGuest('a checkpoint in the check', async () => (await completed())[0] > 0, 120000);

    // The window closes: the check is paused, the admin's limits are back.
    const closed = await edge('end');
    expect(closed.code).toBe(0);
    expect(closed.out).toMatch(/^md0: check paused at sector \d+ of 131072 \(\d+%\)\nlimits: speed_limit_max 2000000 again\nlimits: speed_limit_min 50000 again$/);
    expect(await kernel('sync_action')).toBe('idle');
    expect(await limits()).toEqual(['50000', '2000000']);
    expect(await kernel('sync_speed_max')).toBe('2000000 (system)');
    const position = Number((await record(uuid)).split(' ')[1]);

    // The next day's window: the check goes on from there under the window's limits again, and
    // ends inside it; the window's end then only writes the limits back and finishes the record.
    const opened = await edge('start');
    expect(opened.out).toBe(`md0: check resumed at sector ${position}\nlimits: speed_limit_min 500\nlimits: speed_limit_max 3000`);
    expect(await kernel('sync_action')).toBe('check');
    expect(await limits()).toEqual(['500', '3000']);
    await waitForGuest('the resumed check ended', idle, 120000);
    // The admin's own minimum, set while this window is open (issue #31): its end keeps it.
    await vm.guest.runOk(`echo 40000 > ${RAID}/speed_limit_min`);
    const last = await edge('end');
    expect(last.out).toMatch(/^md0: the check resumed at sector \d+ has ended; mismatch_cnt over the whole check: \d+; sync_min is 0\nlimits: speed_limit_max 2000000 again\nlimits: speed_limit_min 40000 kept: changed while the window was open$/);
    expect(await limits()).toEqual(['40000', '2000000']);
    expect(await vm.guest.run(`ls ${STATE}/check-window`)).toMatchObject({ out: '' });
    await vm.guest.runOk(`echo 1000 > ${RAID}/speed_limit_min; echo 200000 > ${RAID}/speed_limit_max`);
}, 300000);

test('a member fails while the check is paused: the window opens and starts no check on the degraded array', async () => {
    // Issue #35: resume tested only that the array was idle, which a degraded array waiting for a
    // spare is; a check there takes the disks from the rebuild to come.
    await vm.guest.runOk(mdCreate('md0', 'raid1', ['vda', 'vdb'], `--size=${SIZE_KIB} --bitmap=none --assume-clean`));
    const uuid = await kernel('uuid');
    const position = await checkThenPause(uuid);
    const paused = await record(uuid);
    await vm.guest.runOk('mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb 2>&1');
    expect([await kernel('degraded'), await kernel('sync_action')]).toEqual(['1', 'idle']);

    expect(await tool('start')).toEqual({ code: 0, out: '', err: `md0: degraded (1 member(s) missing); its check stays paused at sector ${position}` });
    await sleep(2000);
    expect(await kernel('sync_action')).toBe('idle');
    expect(await kernel('sync_min')).toBe(String(position));
    expect(await record(uuid)).toBe(paused);
    // Why it waits, for the page's card.
    expect((await vm.guest.run(`cat ${STATE}/check-window/${uuid}.waiting`)).out.trim()).toBe('degraded md0');

    // Whole again once the rebuild has run: the next window goes on from where the check stopped.
    await limitMax(200000);
    await vm.guest.runOk('mdadm --zero-superblock /dev/vdb && mdadm /dev/md0 --add /dev/vdb 2>&1');
    await waitForGuest('the rebuild ended', async () => await idle() && await kernel('degraded') === '0', 120000);
    expect(await tool('start')).toEqual({ code: 0, out: `md0: check resumed at sector ${position}`, err: '' });
    expect(await kernel('sync_action')).toBe('check');
    expect((await vm.guest.run(`ls ${STATE}/check-window`)).out.trim()).toBe(`${uuid}.window`);
    await waitForGuest('the resumed check ended', idle, 120000);
    expect((await tool('tidy')).out).toMatch(/^md0: the check resumed at sector \d+ has ended/);
}, 300000);
