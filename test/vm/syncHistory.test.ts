// SPDX-License-Identifier: LGPL-2.1-or-later
// The sync history recorder on a real kernel. The guest has no systemd, so the recorder
// (recorder/raidtune-history, the file the package installs) runs as its timer would, in a loop, here
// every 2 s instead of every minute, while a real RAID1 resyncs after --create, runs a check, runs
// another that is stopped half-way, and rebuilds a member. The history file then holds the four
// operations with the kernel's figures (the member size md reports, the check's mismatch_cnt, the
// stopped check as interrupted by md's own sync_min), and the page shows them newest first. The
// kernel's log lines for them are the ones the journal reader looks for.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseHistoryFile } from '../../src/md/history';
import { CHECK_END_GREP, parseCheckEnds } from '../../src/md/alerts/checkJournal';
import { VM_STATE_DIR } from './harness/vmConfig';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();
const RECORDER = readFileSync(join(__dirname, '../../recorder/raidtune-history'), 'utf8');
const LOOP_FLAG = '/run/raidtune-history-loop';
const sleep = (ms: number) => new Promise(resolve => setTimeout(resolve, ms));
const guestValue = async (path: string) => (await vm.guest.runOk(`cat ${path}`)).trim();

async function waitForGuest(what: string, probe: () => Promise<boolean>, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (!(await probe())) {
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
        await sleep(2000);
    }
}

const idle = async () => await guestValue('/sys/block/md0/md/sync_action') === 'idle';

/** The script goes in as the package installs it; the loop stands for the timer. */
async function startRecorderAndCreate(): Promise<void> {
    await vm.guest.runOk(`mkdir -p /run/raidtune-bin && cat > /run/raidtune-bin/raidtune-history <<'RAIDTUNE_EOF'
${RECORDER}RAIDTUNE_EOF
touch ${LOOP_FLAG}
# About 13 s per operation on 255 MiB: several samples each, the limit in force recorded.
echo 20000 > /proc/sys/dev/raid/speed_limit_max
(while [ -f ${LOOP_FLAG} ]; do sh /run/raidtune-bin/raidtune-history /sys /proc ${VM_STATE_DIR} 50; sleep 2; done) </dev/null >/dev/null 2>&1 &
mdadm --create /dev/md0 --run --level=1 --raid-devices=2 /dev/vda /dev/vdb`);
}

test('a resync, a check, a stopped check and a rebuild are recorded with the kernel\'s figures and shown by the page', async () => {
    await startRecorderAndCreate();
    // Stopped inside the test: after it, the file's guest connection is closed (an afterAll here
    // would open another and hold the guest's one control port from the next test file).
    try {
        await recordedAndShown();
    } finally {
        await vm.guest.run(`rm -f ${LOOP_FLAG}`);
    }
}, 900000);

async function recordedAndShown(): Promise<void> {
    const uuid = await guestValue('/sys/block/md0/md/uuid');
    const file = `${VM_STATE_DIR}/history/${uuid}.jsonl`;
    const recorded = async () => {
        const text = (await vm.guest.run(`cat ${file}`)).out;
        return parseHistoryFile(text).operations;
    };
    await waitForGuest('the resync recorded', async () => (await recorded()).length === 1, 300000);

    await vm.guest.runOk('echo check > /sys/block/md0/md/sync_action');
    await waitForGuest('the check recorded', async () => (await recorded()).length === 2, 300000);
    const mismatches = Number(await guestValue('/sys/block/md0/md/mismatch_cnt'));

    // A check stopped half-way: md keeps its checkpoint in sync_min, which says interrupted.
    await vm.guest.runOk('echo check > /sys/block/md0/md/sync_action');
    await waitForGuest('the check sampled past a checkpoint', async () =>
        (await vm.guest.run(`[ -f ${VM_STATE_DIR}/history/${uuid}.running ]`)).code === 0 &&
        Number((await guestValue('/sys/block/md0/md/sync_completed')).split(' ')[0]) > 0, 120000);
    await vm.guest.runOk('echo idle > /sys/block/md0/md/sync_action');
    await waitForGuest('the stopped check recorded', async () => (await recorded()).length === 3, 120000);
    expect(Number(await guestValue('/sys/block/md0/md/sync_min'))).toBeGreaterThan(0);

    await waitForGuest('md0 idle', idle, 60000);
    await vm.guest.runOk(`mdadm /dev/md0 --fail /dev/vdb --remove /dev/vdb
mdadm --zero-superblock /dev/vdb
mdadm /dev/md0 --add /dev/vdb`);
    await waitForGuest('the rebuild recorded', async () => (await recorded()).length === 4, 300000);

    const sizeKiB = Number(await guestValue('/sys/block/md0/md/component_size'));
    const operations = await recorded();
    expect(operations.map(o => [o.type, o.finished, o.array, o.uuid])).toEqual([
        ['recover', true, 'md0', uuid], ['check', false, 'md0', uuid], ['check', true, 'md0', uuid],
        ['resync', true, 'md0', uuid],
    ]);
    expect(operations[1].doneKiB).toBeLessThan(sizeKiB);
    for (const op of operations.filter(o => o.finished)) {
        expect(op.sizeKiB).toBe(sizeKiB);
        expect(op.doneKiB).toBe(sizeKiB);
        expect(op.avgKiBs).toBeGreaterThan(0);
        expect(op.speedMaxKiBs).toBe(20000);
    }
    expect(operations[2].mismatches).toBe(mismatches);

    // The kernel's own words for them, which journald keeps as kernel lines and the overview's
    // "Check overdue" reads (src/md/alerts/checkJournal.ts): the pattern journalctl greps with takes
    // the completed check and nothing else, and the parser reads it.
    const messages = (await vm.guest.runOk('dmesg')).split('\n').map(l => l.replace(/^\[[^\]]*\] ?/, '').trim());
    expect(messages).toContain('md: md0: data-check interrupted.');
    const grep = new RegExp(CHECK_END_GREP);
    expect(messages.filter(m => grep.test(m))).toEqual(['md: md0: data-check done.']);
    expect(parseCheckEnds(messages.map((m, i) => `${i}.000001 guest kernel: ${m}`)))
        .toEqual(new Map([['md0', messages.indexOf('md: md0: data-check done.')]]));

    // md0's operations are on its own page.
    const { page } = await vm.openPage(`${vm.pageUrl}#/md0`);
    const rows = page.locator('#sync-history [data-array="md0"] tbody tr');
    await rows.nth(3).waitFor({ timeout: 60000 });
    expect(await rows.evaluateAll(trs => trs.map(tr => [tr.getAttribute('data-type'), tr.getAttribute('data-result')])))
        .toEqual([['recover', 'finished'], ['check', 'interrupted'], ['check', 'finished'], ['resync', 'finished']]);
    expect(await rows.nth(2).locator('td').nth(6).innerText()).toBe(String(mismatches));
    // No systemd in the guest: the page says it cannot tell whether recording is on.
    expect(await page.locator('#history-recording-state').getAttribute('data-state')).toBe('unknown');
}
