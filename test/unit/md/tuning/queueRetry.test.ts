// SPDX-License-Identifier: LGPL-2.1-or-later
// The kept disk rule's queue retry (persist.ts): run by the real sh as udev would run it, against a
// folder laid out like a disk's sysfs queue.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { UdevRule } from '../../../../src/md/modelTypes';
import { QUEUE_RETRY_MARK, QUEUE_RETRY_TRIES, parseUdevRules, renderUdevRules } from '../../../../src/md/tuning/keptFiles';

const WWID = { by: 'wwid', wwid: 'naa.5000c50000000001' } as const;
const DISK: UdevRule = {
    match: WWID,
    attributes: [['queue/scheduler', 'mq-deadline'], ['queue/nr_requests', '512'], ['device/queue_depth', '16']],
};

/** The RUN line's argv as udev builds it: `$$` is a dollar, `$devpath` the device, single quotes group. */
function runArgv(text: string, devpath: string): string[] {
    const line = text.split('\n').find(l => l.includes(QUEUE_RETRY_MARK));
    const command = /RUN\+="([^"]*)"/.exec(line ?? '')?.[1];
    if (!command) throw new Error(`no RUN line in:\n${text}`);
    const expanded = command.replace(/\$devpath/g, devpath).replace(/\$\$/g, '$');
    return [...expanded.matchAll(/'([^']*)'|(\S+)/g)].map(m => m[1] ?? m[2]);
}

let root: string;
let queue: string;
const read = (file: string) => readFileSync(join(queue, file), 'utf8').trim();
beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'raidtune-retry-'));
    queue = join(root, 'queue');
    mkdirSync(queue);
    writeFileSync(join(queue, 'nr_requests'), '256\n');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

/** Runs the retry for a device whose /sys$devpath is our folder (the script prefixes /sys), with 3 tries. */
function runRetry(rule: UdevRule): number {
    const [program, ...args] = runArgv(renderUdevRules([rule]), `/..${root}`);
    args[args.length - 1] = '3';
    try {
        execFileSync(program, args, { stdio: 'pipe' });
        return 0;
    } catch (err) {
        return (err as { status: number }).status;
    }
}

test('a disk rule with a kept scheduler or nr_requests gets one retry line; the file still reads as the same settings', () => {
    const text = renderUdevRules([DISK]);
    expect(text.split('\n').filter(l => l.includes('RUN+='))).toHaveLength(1);
    expect(parseUdevRules(text)).toEqual([DISK]);
    const argv = runArgv(text, '/devices/x/block/sda');
    expect(argv.slice(0, 2)).toEqual(['/bin/sh', '-c']);
    expect(argv.slice(3)).toEqual([QUEUE_RETRY_MARK, '/devices/x/block/sda', 'mq-deadline', '512', `${QUEUE_RETRY_TRIES}`]);
    const nrOnly = renderUdevRules([{ match: WWID, attributes: [['queue/nr_requests', '64']] }]);
    expect(runArgv(nrOnly, '/d').slice(3)).toEqual([QUEUE_RETRY_MARK, '/d', '-', '64', `${QUEUE_RETRY_TRIES}`]);
});

test('no retry line without a kept scheduler or nr_requests', () => {
    expect(renderUdevRules([{ match: WWID, attributes: [['device/queue_depth', '16']] }])).not.toContain('RUN+=');
});

test('both in effect: nothing is written, exit 0', () => {
    writeFileSync(join(queue, 'scheduler'), 'none [mq-deadline]\n');
    writeFileSync(join(queue, 'nr_requests'), '512\n');
    expect(runRetry(DISK)).toBe(0);
    expect(read('scheduler')).toBe('none [mq-deadline]');
});

test('the scheduler in effect, nr_requests not: nr_requests is written, exit 0', () => {
    writeFileSync(join(queue, 'scheduler'), '[mq-deadline] none\n');
    expect(runRetry(DISK)).toBe(0);
    expect(read('nr_requests')).toBe('512');
});

test('without nr_requests kept, only the scheduler counts', () => {
    writeFileSync(join(queue, 'scheduler'), '[mq-deadline] none\n');
    expect(runRetry({ match: WWID, attributes: [['queue/scheduler', 'mq-deadline']] })).toBe(0);
    expect(read('nr_requests')).toBe('256');
});

test('a scheduler that never takes effect: the retry gives up (exit 1) and leaves nr_requests alone', () => {
    // A plain file keeps what is written ("mq-deadline", no brackets): never in effect. Since the
    // retry writes it, the file shows it was tried.
    writeFileSync(join(queue, 'scheduler'), '[none] mq-deadline\n');
    expect(runRetry(DISK)).toBe(1);
    expect(read('scheduler')).toBe('mq-deadline');
    expect(read('nr_requests')).toBe('256');
});
