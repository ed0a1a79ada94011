// SPDX-License-Identifier: LGPL-2.1-or-later
import { entriesDiffering } from '../../../src/md/journalChanges';
import { parseJournal, recordOriginals, restorePlan, restoreSteps, serializeJournal, stepsWithJournal } from '../../../src/md/journal';
import { msg } from '../../../src/md/message';
import { describePlan, type Step } from '../../../src/md/plan';
import { valueAfterWindow, windowLimitsInForce } from '../../../src/md/alerts/windowLimits';
import { buildModel } from '../../../src/md/model';
import { gather, removeTempRoots, startHost, tee } from '../sim/simHelpers';

afterAll(removeTempRoots);

const write = (path: string, to: string, from: string | null): Step =>
    ({ kind: 'write-attribute', setting: msg('s'), path, to, from });

describe('restore journal', () => {
    test('keeps the first original of each attribute across changes', () => {
        const first = recordOriginals(null, [write('/proc/sys/dev/raid/speed_limit_min', '50000', '1000')], 'T1');
        const second = recordOriginals(first, [
            write('/proc/sys/dev/raid/speed_limit_min', '90000', '50000'),
            write('/sys/block/md0/md/sync_action', 'frozen', null),
            write('/sys/block/md0/md/stripe_cache_size', '4096', '256'),
        ], 'T2');
        expect(second.createdAt).toBe('T1');
        expect(describePlan(restorePlan(second))).toBe(
            'echo 256 > /sys/block/md0/md/stripe_cache_size\necho 1000 > /proc/sys/dev/raid/speed_limit_min');
    });

    test('a limit an open check window holds is recorded with the value it goes back to, never the window\'s (issue #31)', () => {
        const MIN = '/proc/sys/dev/raid/speed_limit_min';
        const MAX = '/proc/sys/dev/raid/speed_limit_max';
        // The window wrote min 100000 and max 5000 over 1000 and 200000; max was changed since (to 8000).
        const window = windowLimitsInForce(`${MAX}\t200000\n${MIN}\t1000\n`, `${MIN}\t100000\n${MAX}\t5000\n`);
        const afterWindow = (path: string, from: string) => valueAfterWindow(window, path, from);
        const journal = recordOriginals(null, [write(MIN, '50000', '100000'), write(MAX, '9000', '8000'),
            write('/sys/block/md0/md/stripe_cache_size', '4096', '256')], 'T', afterWindow);
        expect(journal.entries.map(e => [e.path, e.original])).toEqual([
            [MIN, '1000'], [MAX, '8000'], ['/sys/block/md0/md/stripe_cache_size', '256']]);
        const steps = stepsWithJournal({ title: msg('t'), steps: [write(MIN, '50000', '100000')] }, null, '/s', 'T', () => [], afterWindow);
        expect(parseJournal((steps[0] as { content: string }).content)?.entries[0].original).toBe('1000');
    });

    test('round-trips through its file and refuses anything odd in it', () => {
        const journal = recordOriginals(null, [write('/sys/block/md0/md/sync_speed_max', '5000', 'system')], 'T');
        expect(parseJournal(serializeJournal(journal))).toEqual(journal);
        expect(parseJournal('not json')).toBeNull();
        const tampered = { ...journal, entries: [{ ...journal.entries[0], path: '/etc/passwd' }] };
        expect(parseJournal(JSON.stringify(tampered))).toBeNull();
        const traversal = { ...journal, entries: [{ ...journal.entries[0], path: '/sys/../etc/passwd' }] };
        expect(parseJournal(JSON.stringify(traversal))).toBeNull();
    });
});

describe('journal around a plan', () => {
    test('the record is written before the first change, and only when it learns something', () => {
        const plan = { title: msg('t'), steps: [write('/proc/sys/dev/raid/speed_limit_min', '50000', '1000')] };
        const steps = stepsWithJournal(plan, null, '/var/lib/raidtune', 'T');
        expect(steps.map(s => s.kind)).toEqual(['write-file', 'write-attribute']);
        expect(steps[0].kind === 'write-file' && steps[0].path).toBe('/var/lib/raidtune/restore.json');
        const journal = parseJournal((steps[0] as { content: string }).content)!;
        expect(stepsWithJournal(plan, journal, '/var/lib/raidtune', 'T2')).toEqual(plan.steps);
    });

    test('restoring ends by removing the record', () => {
        const journal = recordOriginals(null, [write('/sys/block/md0/md/stripe_cache_size', '4096', '256')], 'T');
        expect(describePlan({ title: msg('r'), steps: restoreSteps(journal, '/var/lib/raidtune') }))
            .toBe('echo 256 > /sys/block/md0/md/stripe_cache_size\nrm -f /var/lib/raidtune/restore.json');
    });
});

test('entriesDiffering: only the recorded settings whose value on the host is not the original now (#31)', () => {
    const host = startHost('raid6-recovery');
    try {
        const journal = recordOriginals(null, [
            write('/proc/sys/dev/raid/speed_limit_min', '50000', '4000'),
            write('/sys/block/md0/md/stripe_cache_size', '4096', '256'),
            write('/sys/block/md0/md/sync_speed_max', '9000', 'system'),
            write('/sys/block/md9/md/stripe_cache_size', '4096', '256'),
        ], 'T');
        // The minimum was changed back, the stripe cache is 256 as it was, md0's maximum is its own now.
        tee(host, 'sys/block/md0/md/sync_speed_max', '9000');
        host.tick(1);
        const model = buildModel(gather(host), 0, null);
        expect(model.global.speedMinKiBs).toBe(4000);
        expect(model.arrays.find(a => a.name === 'md0')?.stripeCache?.size).toBe(256);
        // md9 is not on the host: only a restore can say, so it counts.
        expect(entriesDiffering(journal, model).map(e => e.path)).toEqual(['/sys/block/md0/md/sync_speed_max', '/sys/block/md9/md/stripe_cache_size']);
    } finally {
        host.close();
    }
});
