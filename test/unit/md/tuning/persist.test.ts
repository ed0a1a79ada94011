// SPDX-License-Identifier: LGPL-2.1-or-later
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { buildModel } from '../../../../src/md/model';
import type { HostModel } from '../../../../src/md/modelTypes';
import { describePlan, editedText, type EditFileStep, type WriteFileStep } from '../../../../src/md/plan';
import { forgetPlan, keepPlan, keptComparisons } from '../../../../src/md/tuning/persist';
import type { UdevRule } from '../../../../src/md/modelTypes';
import { CAPTURES, loadCaptureFiles } from '../../helpers/realKernelCapture';
import { MODULES_LOAD_SNAPSHOT_PATH, SYSCTL_SNAPSHOT_PATH, UDEV_SNAPSHOT_PATH, diskMatch, mdadmUuid, parseSysctl, parseUdevRules, renderSysctl, renderUdevRules } from '../../../../src/md/tuning/keptFiles';

const DIRS = { sysctlDir: '/etc/sysctl.d', udevRulesDir: '/etc/udev/rules.d', modulesLoadDir: '/etc/modules-load.d' };
const MODULES_FILE = '/etc/modules-load.d/raidtune.conf';
const SYSCTL_FILE = '/etc/sysctl.d/90-raidtune.conf';
const UDEV_FILE = '/etc/udev/rules.d/64-raidtune.rules';
const UUID = 'f2e16c73:83d851dd:194128e8:31d2c297'; // raid5-recovery's md0, as mdadm prints it

function hostFrom(capture: string, files: Record<string, string> = {}): HostModel {
    const all = loadCaptureFiles(capture);
    for (const [path, content] of Object.entries(files)) all.set(path, content.endsWith('\n') ? content : `${content}\n`);
    return buildModel({ files: all, pageSize: 4096, missingRoots: [], complete: true }, 0);
}

const TUNED = {
    '/proc/sys/dev/raid/speed_limit_min': '50000',
    '/proc/sys/dev/raid/speed_limit_max': '2000000',
    '/sys/block/md0/md/sync_speed_min': '30000 (local)',
    '/sys/block/md0/md/stripe_cache_size': '8192',
};

function fileSteps(host: HostModel): WriteFileStep[] {
    return keepPlan(host, DIRS).plan!.steps as WriteFileStep[];
}

/** What a host would read back after keepPlan(host) was applied: the files as snapshot entries. */
function keptFilesOf(host: HostModel): Record<string, string> {
    const where: Record<string, string> = {
        [MODULES_FILE]: MODULES_LOAD_SNAPSHOT_PATH, [SYSCTL_FILE]: SYSCTL_SNAPSHOT_PATH,
        [UDEV_FILE]: UDEV_SNAPSHOT_PATH,
    };
    return Object.fromEntries(fileSteps(host).filter(s => s.content !== null).map(s => [where[s.path], s.content!]));
}

describe('MD_UUID', () => {
    const captures = readdirSync(CAPTURES).filter(name => existsSync(join(CAPTURES, name, 'mdadm-detail-scan.txt')));

    test.each(captures)('sysfs md/uuid of %s reads as `mdadm --detail --scan` prints it (what udev gets in MD_UUID)', name => {
        const scan = readFileSync(join(CAPTURES, name, 'mdadm-detail-scan.txt'), 'utf8');
        const expected = [...scan.matchAll(/^ARRAY \/dev\/(md\w+) .*UUID=(\S+)/gm)].map(m => [m[1], m[2]]);
        const host = hostFrom(name);
        const converted = host.arrays.filter(a => a.uuid).map(a => [a.name, mdadmUuid(a.uuid, a.metadata)]);
        expect(converted.sort()).toEqual(expected.sort());
    });

    test('no UUID for 0.90 superblocks (host-endian words) or anything odd: those rules match the name', () => {
        expect(mdadmUuid('f2e16c73-83d8-51dd-1941-28e831d2c297', '0.90')).toBeNull();
        expect(mdadmUuid('f2e16c73-83d8-51dd-1941-28e831d2c297', 'external:imsm')).toBeNull();
        expect(mdadmUuid('not-a-uuid', '1.2')).toBeNull();
        expect(mdadmUuid(null, '1.2')).toBeNull();
    });
});

describe('the sysctl file', () => {
    test('is a header comment and one line per limit', () => {
        const text = renderSysctl(new Map([['dev.raid.speed_limit_min', '50000'], ['dev.raid.speed_limit_max', '2000000']]));
        expect(text).toMatch(/^# Written by raidtune/);
        expect(text.split('\n').filter(l => !l.startsWith('#'))).toEqual([
            'dev.raid.speed_limit_min = 50000', 'dev.raid.speed_limit_max = 2000000', '',
        ]);
    });

    test('parse(render(x)) is x', () => {
        const values = new Map([['dev.raid.speed_limit_min', '48828'], ['dev.raid.speed_limit_max', '200000']]);
        expect(parseSysctl(renderSysctl(values))).toEqual(values);
    });

    test('reads what sysctl.d(5) allows: slashes, ; comments, blanks, a leading -', () => {
        expect(parseSysctl('; comment\n  dev/raid/speed_limit_min=7000  \n\n-dev.raid.speed_limit_max =  9000\n# x = 1\n'))
            .toEqual(new Map([['dev.raid.speed_limit_min', '7000'], ['dev.raid.speed_limit_max', '9000']]));
    });
});

describe('the udev rule file', () => {
    const rules: UdevRule[] = [
        { match: { by: 'uuid', uuid: UUID }, attributes: [['md/sync_speed_min', '30000'], ['md/stripe_cache_size', '8192']] },
        { match: { by: 'name', name: 'md9' }, attributes: [['md/stripe_cache_size', '4096']] },
    ];

    test('matches by MD_UUID, one line per attribute with its own TEST guard', () => {
        const lines = renderUdevRules(rules).split('\n').filter(l => l && !l.startsWith('#'));
        expect(lines).toEqual([
            `SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md*", ENV{MD_UUID}=="${UUID}", TEST=="md/sync_speed_min", ATTR{md/sync_speed_min}="30000"`,
            `SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md*", ENV{MD_UUID}=="${UUID}", TEST=="md/stripe_cache_size", ATTR{md/stripe_cache_size}="8192"`,
            'SUBSYSTEM=="block", ACTION=="add|change", KERNEL=="md9", TEST=="md/stripe_cache_size", ATTR{md/stripe_cache_size}="4096"',
        ]);
    });

    test('parse(render(x)) is x', () => {
        expect(parseUdevRules(renderUdevRules(rules))).toEqual(rules);
        expect(parseUdevRules(renderUdevRules([]))).toEqual([]);
    });

    test('reads a hand-written rule and ignores lines that set nothing on an md array', () => {
        const text = [
            '# from a forum',
            'SUBSYSTEM=="block", KERNEL=="md0", ACTION=="add|change", TEST=="md/stripe_cache_size", ATTR{md/stripe_cache_size}="8192"',
            'SUBSYSTEM=="block", KERNEL=="sd*", ATTR{queue/read_ahead_kb}="1024"',
            'SUBSYSTEM=="block", ATTRS{model}=="X", ATTR{queue/scheduler}="none"',
            `ENV{MD_UUID}=="${UUID}", GOTO="elsewhere"`,
            'garbage',
        ].join('\n');
        expect(parseUdevRules(text)).toEqual([{ match: { by: 'name', name: 'md0' }, attributes: [['md/stripe_cache_size', '8192']] }]);
    });
});

describe('keeping the live settings', () => {
    test('nothing to keep on a host at the kernel defaults', () => {
        const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/speed_limit_max': '200000' });
        expect(fileSteps(host)).toEqual([]);
        expect(keptComparisons(host)).toEqual([]);
    });

    test('writes the files from the live values, shown whole in the preview; md is loaded before systemd-sysctl', () => {
        const host = hostFrom('raid5-recovery', TUNED);
        const steps = fileSteps(host);
        expect(steps.map(s => [s.path, s.previous]))
            .toEqual([[MODULES_FILE, null], [SYSCTL_FILE, null], [UDEV_FILE, null]]);
        expect(steps[0].content!.split('\n').filter(l => l && !l.startsWith('#'))).toEqual(['md_mod']);
        expect(parseSysctl(steps[1].content!)).toEqual(new Map([
            ['dev.raid.speed_limit_min', '50000'], ['dev.raid.speed_limit_max', '2000000']]));
        expect(parseUdevRules(steps[2].content!)).toEqual([
            { match: { by: 'uuid', uuid: UUID }, attributes: [['md/sync_speed_min', '30000'], ['md/stripe_cache_size', '8192']] }]);
        expect(describePlan(keepPlan(host, DIRS).plan!)).toMatch(/^cat > \/etc\/modules-load.d\/raidtune.conf <<'EOF'\n# Written by raidtune/);
    });

    test('no modules-load entry when only array settings are kept (udev writes those once md is there)', () => {
        const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/speed_limit_max': '200000', '/sys/block/md0/md/stripe_cache_size': '8192' });
        expect(fileSteps(host).map(s => s.path)).toEqual([UDEV_FILE]);
    });

    test('a host whose files say what is live: nothing to write, every setting "kept"', () => {
        const live = hostFrom('raid5-recovery', TUNED);
        const kept = hostFrom('raid5-recovery', { ...TUNED, ...keptFilesOf(live) });
        expect(fileSteps(kept)).toEqual([]);
        expect(keptComparisons(kept).map(c => [c.setting.message, c.state])).toEqual([
            ['system minimum rebuild speed', 'kept'],
            ['system maximum rebuild speed', 'kept'],
            ['minimum sync speed of $0', 'kept'],
            ['stripe cache size of $0', 'kept'],
        ]);
    });

    test('a live change shows as differing from the kept value, and keeping again rewrites only that file', () => {
        const files = keptFilesOf(hostFrom('raid5-recovery', TUNED));
        const changed = hostFrom('raid5-recovery', { ...TUNED, '/sys/block/md0/md/stripe_cache_size': '256', ...files });
        expect(keptComparisons(changed).filter(c => c.state !== 'kept')).toEqual([
            { setting: { message: 'stripe cache size of $0', args: ['md0'] }, live: '256', atBoot: '8192', kept: true, state: 'differs', unit: 'plain' },
        ]);
        const steps = fileSteps(changed);
        expect(steps.map(s => s.path)).toEqual([UDEV_FILE]);
        expect(steps[0].previous).toBe(files[UDEV_SNAPSHOT_PATH]);
        expect(parseUdevRules(steps[0].content!)[0].attributes).toEqual([['md/sync_speed_min', '30000']]);
    });

    test('settings not kept are named: they are lost at reboot', () => {
        const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/speed_limit_min': '50000' });
        expect(keptComparisons(host).map(c => [c.setting.message, c.live, c.atBoot, c.state])).toEqual([
            ['system minimum rebuild speed', '50000', '1000', 'not-kept'],
            ['system maximum rebuild speed', '1000', '200000', 'not-kept'],
        ]);
    });

    test('back at the defaults, keeping removes the files', () => {
        const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/speed_limit_max': '200000', ...keptFilesOf(hostFrom('raid5-recovery', TUNED)) });
        expect(describePlan(keepPlan(host, DIRS).plan!)).toBe(`rm -f ${MODULES_FILE}\nrm -f ${SYSCTL_FILE}\nrm -f ${UDEV_FILE}`);
    });

    test('keeps the rules of arrays not assembled now, and says so', () => {
        const other = renderUdevRules([{ match: { by: 'uuid', uuid: '00000000:11111111:22222222:33333333' }, attributes: [['md/stripe_cache_size', '4096']] }]);
        const host = hostFrom('raid5-recovery', { ...TUNED, [UDEV_SNAPSHOT_PATH]: other });
        const result = keepPlan(host, DIRS);
        const udev = (result.plan!.steps as WriteFileStep[]).find(s => s.path.endsWith('.rules'))!;
        expect(parseUdevRules(udev.content!).map(r => r.match)).toEqual([
            { by: 'uuid', uuid: UUID }, { by: 'uuid', uuid: '00000000:11111111:22222222:33333333' }]);
        expect(result.warnings!.map(w => w.args)).toEqual([['00000000:11111111:22222222:33333333']]);
    });

    test('"Stop keeping" removes the files that exist, with their content as the way back', () => {
        const sysctl = keptFilesOf(hostFrom('raid5-recovery', TUNED))[SYSCTL_SNAPSHOT_PATH];
        const host = hostFrom('raid5-recovery', { [SYSCTL_SNAPSHOT_PATH]: sysctl });
        const plan = forgetPlan(host, DIRS);
        expect(describePlan(plan)).toBe(`rm -f ${SYSCTL_FILE}`);
        expect((plan.steps[0] as WriteFileStep).previous).toBe(sysctl);
    });

    test('an existing sysctl.d file is edited line by line: an admin\'s own lines stay, through keep and stop (issue #31)', () => {
        const kept = keptFilesOf(hostFrom('raid5-recovery', TUNED))[SYSCTL_SNAPSHOT_PATH];
        const own = `${kept}# the admin's\nvm.swappiness = 10\n`;
        const host = hostFrom('raid5-recovery', { ...TUNED, '/proc/sys/dev/raid/speed_limit_min': '60000', [SYSCTL_SNAPSHOT_PATH]: own });
        const edit = keepPlan(host, DIRS).plan!.steps.find(s => s.kind !== 'run' && s.path === SYSCTL_FILE) as EditFileStep;
        expect(edit.kind).toBe('edit-file');
        expect(edit.opened).toBe(own);
        expect(editedText(edit, own)).toBe(own.replace('dev.raid.speed_limit_min = 50000', 'dev.raid.speed_limit_min = 60000'));
        // Stop keeping: raidtune's lines go, the file stays for the admin's setting.
        const forget = forgetPlan(hostFrom('raid5-recovery', { [SYSCTL_SNAPSHOT_PATH]: own }), DIRS).steps[0] as EditFileStep;
        expect(editedText(forget, own)).toBe(own.replace(/^dev\.raid\..*\n/gm, ''));
    });

    test('refuses when the system limits are unknown', () => {
        const host = hostFrom('raid5-recovery');
        const unknown = { ...host, global: { speedMinKiBs: null, speedMaxKiBs: null, syncIoDepth: null } };
        expect(keepPlan(unknown, DIRS).errors?.persist).toBeDefined();
    });
});

describe('read-ahead and member disk queues', () => {
    const JOURNAL = '/raidtune-state/restore.json';
    function journalOf(entries: [string, string][]): string {
        return JSON.stringify({
            version: 1, createdAt: '2026-11-23T00:00:00Z',
            entries: entries.map(([path, original]) => ({ path, original, setting: { message: 'x', args: [] } })),
        });
    }
    const DISK = {
        '/sys/block/vdd/queue/scheduler': '[none] mq-deadline',
        '/sys/block/vdd/queue/nr_requests': '256',
        '/sys/block/vdd/device/wwid': 'naa.5000c500a1b2c3d4',
        '/sys/block/vdc/queue/scheduler': '[none] mq-deadline',
        '/sys/block/vdc/queue/nr_requests': '256',
    };
    const WWID_LINE = (attr: string, value: string) =>
        `SUBSYSTEM=="block", ACTION=="add|change", ENV{DEVTYPE}=="disk", ATTRS{wwid}=="naa.5000c500a1b2c3d4", TEST=="${attr}", ATTR{${attr}}="${value}"`;

    test('read-ahead raidtune changed is kept with the array; its boot value is the one it had before', () => {
        const host = hostFrom('raid5-recovery', {
            '/proc/sys/dev/raid/speed_limit_max': '200000', '/sys/block/md0/queue/read_ahead_kb': '65536',
            [JOURNAL]: journalOf([['/sys/block/md0/queue/read_ahead_kb', '2048']]),
        });
        expect(keptComparisons(host).map(c => [c.setting.message, c.live, c.atBoot, c.state, c.unit])).toEqual([
            ['read-ahead of $0', '65536', '2048', 'not-kept', 'kib']]);
        expect(parseUdevRules(fileSteps(host)[0].content!)).toEqual([
            { match: { by: 'uuid', uuid: UUID }, attributes: [['queue/read_ahead_kb', '65536']] }]);
    });

    test('read-ahead never changed by raidtune is the kernel\'s own: nothing to keep', () => {
        const host = hostFrom('raid5-recovery', { '/proc/sys/dev/raid/speed_limit_max': '200000', '/sys/block/md0/queue/read_ahead_kb': '65536' });
        expect(fileSteps(host)).toEqual([]);
        expect(keptComparisons(host)).toEqual([]);
    });

    test('disk settings are kept per disk, by WWID where the disk reports one, scheduler before nr_requests', () => {
        const host = hostFrom('raid5-recovery', {
            '/proc/sys/dev/raid/speed_limit_max': '200000', ...DISK,
            '/sys/block/vdd/queue/scheduler': 'none [mq-deadline]', '/sys/block/vdd/queue/nr_requests': '64',
            '/sys/block/vdc/queue/scheduler': 'none [mq-deadline]', '/sys/block/vdc/queue/nr_requests': '64',
            [JOURNAL]: journalOf([
                ['/sys/block/vdd/queue/scheduler', 'none'], ['/sys/block/vdc/queue/scheduler', 'none'],
                ['/sys/block/vdd/queue/nr_requests', '256'], ['/sys/block/vdc/queue/nr_requests', '256'],
            ]),
        });
        // The queue retry lines: queueRetry.test.ts.
        const lines = fileSteps(host)[0].content!.split('\n').filter(l => l && !l.startsWith('#') && !l.includes('RUN+='));
        expect(lines).toEqual([
            'SUBSYSTEM=="block", ACTION=="add|change", ENV{DEVTYPE}=="disk", KERNEL=="vdc", TEST=="queue/scheduler", ATTR{queue/scheduler}="mq-deadline"',
            'SUBSYSTEM=="block", ACTION=="add|change", ENV{DEVTYPE}=="disk", KERNEL=="vdc", TEST=="queue/nr_requests", ATTR{queue/nr_requests}="64"',
            WWID_LINE('queue/scheduler', 'mq-deadline'),
            WWID_LINE('queue/nr_requests', '64'),
        ]);
        // Kept: every disk setting reads "kept"; one changed live afterwards "differs".
        const kept = hostFrom('raid5-recovery', {
            '/proc/sys/dev/raid/speed_limit_max': '200000', ...DISK,
            '/sys/block/vdd/queue/scheduler': 'none [mq-deadline]', '/sys/block/vdd/queue/nr_requests': '128',
            '/sys/block/vdc/queue/scheduler': 'none [mq-deadline]', '/sys/block/vdc/queue/nr_requests': '64',
            [UDEV_SNAPSHOT_PATH]: fileSteps(host)[0].content!,
        });
        const shown = keptComparisons(kept).map(c => [c.setting.args[0], c.setting.message, c.live, c.atBoot, c.state]);
        expect(shown).toEqual([
            ['vdc', 'I/O scheduler of $0', 'mq-deadline', 'mq-deadline', 'kept'],
            ['vdc', 'nr_requests of $0', '64', '64', 'kept'],
            ['vdd', 'I/O scheduler of $0', 'mq-deadline', 'mq-deadline', 'kept'],
            ['vdd', 'nr_requests of $0', '128', '64', 'differs'],
        ]);
    });

    test('a WWID udev would read as a pattern falls back to the kernel name', () => {
        const host = hostFrom('raid5-recovery', { ...DISK, '/sys/block/vdd/device/wwid': 'naa.5000*' });
        expect(diskMatch(host.disks.get('vdd')!)).toEqual({ by: 'disk-name', name: 'vdd' });
        expect(diskMatch(hostFrom('raid5-recovery', DISK).disks.get('vdd')!)).toEqual({ by: 'wwid', wwid: 'naa.5000c500a1b2c3d4' });
    });

    test('disk rules parse back, and a rule of a disk not present now stays with a note', () => {
        const gone: UdevRule = { match: { by: 'wwid', wwid: 't10.ATA     GONE DISK   Z1' }, attributes: [['queue/nr_requests', '32']] };
        expect(parseUdevRules(renderUdevRules([gone]))).toEqual([gone]);
        const host = hostFrom('raid5-recovery', { ...TUNED, ...DISK, [UDEV_SNAPSHOT_PATH]: renderUdevRules([gone]) });
        const result = keepPlan(host, DIRS);
        const udev = (result.plan!.steps as WriteFileStep[]).find(s => s.path === UDEV_FILE)!;
        expect(parseUdevRules(udev.content!).map(r => r.match.by)).toEqual(['uuid', 'wwid']);
        expect(result.warnings!.map(w => [w.message, w.args])).toEqual([
            ['The kept settings of disk $0 stay: that disk is not present now.', ['t10.ATA     GONE DISK   Z1']]]);
    });
});
