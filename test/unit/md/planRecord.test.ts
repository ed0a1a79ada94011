// SPDX-License-Identifier: LGPL-2.1-or-later
import { msg } from '../../../src/md/message';
import type { Step } from '../../../src/md/plan';
import {
    APPLIER_GONE_AFTER_SECONDS, applierAlive, finishPlan, forgetPlan, parsePlanRecord, planProgress, recordEndStep,
    recordStartStep, stepCheckPath, undoPlan,
    type PlanRecord,
} from '../../../src/md/planRecord';

const nr = (disk: string): Step => ({ kind: 'write-attribute', setting: msg('nr_requests of $0', disk), path: `/sys/block/${disk}/queue/nr_requests`, to: '128', from: '64' });
const record: PlanRecord = {
    version: 1, id: 'abc', startedAt: 'T', title: msg('Change nr_requests of the disks under $0', 'md0'),
    steps: [nr('sda'), nr('sdb'), { kind: 'run', setting: msg('bitmap'), argv: ['mdadm', '--grow'], undoArgv: null }, nr('sdc'), nr('sdd')],
};
const read = (values: Record<string, string | null>) => new Map(Object.entries(values).map(([d, v]) => [`/sys/block/${d}/queue/nr_requests`, v]));

describe('the record of a plan being applied', () => {
    test('is written before the plan and removed after it, beside the journal', () => {
        const start = recordStartStep(record, '/var/lib/raidtune');
        expect(start).toMatchObject({ kind: 'write-file', path: '/var/lib/raidtune/applying.json' });
        expect(start.kind === 'write-file' && parsePlanRecord(start.content)).toEqual(record);
        expect(recordEndStep('/var/lib/raidtune')).toMatchObject({ kind: 'write-file', path: '/var/lib/raidtune/applying.json', content: null });
        expect(forgetPlan('/s').steps).toEqual([recordEndStep('/s')]);
    });

    test('its applier is alive until it has been silent for a while; its last heartbeat counts', () => {
        const at = (iso: string) => ({ ...record, startedAt: '2026-11-26T03:00:00.000Z', aliveAt: iso });
        const start = Date.parse('2026-11-26T03:00:00.000Z');
        const gone = APPLIER_GONE_AFTER_SECONDS * 1000;
        expect(applierAlive({ ...record, startedAt: '2026-11-26T03:00:00.000Z' }, start + gone - 1)).toBe(true);
        expect(applierAlive({ ...record, startedAt: '2026-11-26T03:00:00.000Z' }, start + gone)).toBe(false);
        expect(applierAlive(at('2026-11-26T03:10:00.000Z'), start + 10 * 60 * 1000 + gone - 1)).toBe(true);
        expect(applierAlive(at('2026-11-26T03:10:00.000Z'), start + 10 * 60 * 1000 + gone)).toBe(false);
        // A date that does not parse tells nothing of an applier: the record is offered as cut short.
        expect(applierAlive(at('soon'), start)).toBe(false);
        expect(parsePlanRecord(JSON.stringify(at('2026-11-26T03:10:00.000Z')))?.aliveAt).toBe('2026-11-26T03:10:00.000Z');
        expect(parsePlanRecord(JSON.stringify({ ...record, aliveAt: 5 }))).toBeNull();
    });

    test('is not trusted when it is not what raidtune writes', () => {
        const bad = (change: object) => parsePlanRecord(JSON.stringify({ ...record, ...change }));
        expect(parsePlanRecord(null)).toBeNull();
        expect(parsePlanRecord('{')).toBeNull();
        expect(bad({ version: 2 })).toBeNull();
        expect(bad({ steps: [] })).toBeNull();
        expect(bad({ steps: [{ ...nr('sda'), path: '/etc/passwd' }] })).toBeNull();
        expect(bad({ steps: [{ ...nr('sda'), path: '/sys/../etc/passwd' }] })).toBeNull();
        expect(bad({ steps: [{ kind: 'run', setting: msg('x'), argv: 'rm -rf /', undoArgv: null }] })).toBeNull();
        expect(bad({ steps: [{ kind: 'write-file', setting: msg('x'), path: 'relative', content: '', previous: null }] })).toBeNull();
        expect(bad({ title: 'text' })).toBeNull();
    });

    test('the cut is after the last step the host holds; a command before it ran', () => {
        expect(stepCheckPath(record.steps[2])).toBeNull();
        const progress = planProgress(record, read({ sda: '128', sdb: '128', sdc: '128', sdd: '64' }));
        expect(progress.applied).toEqual(record.steps.slice(0, 4));
        expect(finishPlan(record, progress).steps).toEqual([nr('sdd')]);
        // Undo: newest first, the irreversible command left out.
        expect(undoPlan(record, progress).steps.map(s => s.kind === 'write-attribute' && `${s.path}=${s.to}`)).toEqual(
            ['sdc', 'sdb', 'sda'].map(d => `/sys/block/${d}/queue/nr_requests=64`));
    });

    test('a clamped value before the cut counts as done; nothing held: everything remains', () => {
        expect(planProgress(record, read({ sda: '4', sdb: '128' })).remaining).toEqual(record.steps.slice(2));
        expect(planProgress(record, read({ sda: '64', sdb: null })).applied).toEqual([]);
    });

    test('a file step holds when the file has its content (absent for a removal)', () => {
        const file: Step = { kind: 'write-file', setting: msg('f'), path: '/etc/x.conf', content: null, previous: 'a\n' };
        const withFile: PlanRecord = { ...record, steps: [file] };
        expect(planProgress(withFile, new Map([['/etc/x.conf', null]])).applied).toEqual([file]);
        expect(planProgress(withFile, new Map([['/etc/x.conf', 'a\n']])).applied).toEqual([]);
    });
});
