// SPDX-License-Identifier: LGPL-2.1-or-later
// Conformance against other projects' test suites: every sample in test/fixtures/mdstat-peers, every
// field its expected.json asserts. Where we deliberately read a sample differently, the exception is
// listed below with both values and the reason (also in test/fixtures/mdstat-peers/DECISIONS.md);
// an exception fails as soon as either side changes, so none of them can go stale silently.
import { parseMdstat, type Mdstat } from '../../../src/md/mdstat';
import { FIELD_MAP, NOT_COMPARED, loadPeerSamples, peerValue, type PeerSample } from './mdstatPeers';

const samples = loadPeerSamples();

interface PeerException {
    samples: string[];
    arrays: string[];
    field: string;
    peer: unknown;
    ours: unknown;
    reason: string;
}

const WHY = {
    noCounts: 'raid0/linear/containers print no [n/m]: we report disks null; procfs-style peers count listed members',
    inactiveCounts: 'inactive array with a [2/2] [UU] line: we report the counts printed; procfs zeroes them',
    legacyInactive: 'node_exporter\'s 2019 parser: disks_active 0 for inactive arrays whatever the text says',
    legacyContainer: 'node_exporter\'s 2019 parser counts an inactive container\'s members; no [n/m] is printed',
    waitingCounters: 'resync=DELAYED/PENDING prints no counters: we report null, not 0 or the array size',
    pr77: 'PEER-BUG: md1 prints resync=DELAYED; check_raid relabels it after the check running on md0',
    pymdstat09: 'PEER-BUG: pymdstat\'s greedy flag stripping drops all but the first member of md2',
    inactiveReadOnly: 'libstorage-ng prints read-only for every inactive array; mdstat says nothing about it',
    devicegraphSize: 'libstorage-ng\'s devicegraph takes the size from its recorded sysfs/mdadm data, half of mdstat\'s',
};

const PROCFS = 'procfs-fixtures';
const NE_FIXTURES = 'node_exporter-fixtures';
const NE_PR2026 = 'node_exporter-pr2026-removed-slot';
const NE_LEGACY = 'node_exporter-legacy2019';
const NE_PR2018 = 'node_exporter-pr2018-raid6-recovery';
const PROCFS_STYLE = [PROCFS, NE_FIXTURES, NE_PR2026];
const LEGACY_STYLE = [NE_LEGACY, NE_PR2018];
const NO_COUNTS_2 = ['md10', 'md12', 'md126', 'md120'];

const EXCEPTIONS: PeerException[] = [
    // Arrays whose personality prints no [n/m].
    { samples: [...PROCFS_STYLE, ...LEGACY_STYLE], arrays: NO_COUNTS_2, field: 'disks_total', peer: 2, ours: null, reason: WHY.noCounts },
    { samples: [...PROCFS_STYLE, ...LEGACY_STYLE], arrays: NO_COUNTS_2, field: 'disks_active', peer: 2, ours: null, reason: WHY.noCounts },
    { samples: [...PROCFS_STYLE, ...LEGACY_STYLE], arrays: ['md00'], field: 'disks_total', peer: 1, ours: null, reason: WHY.noCounts },
    { samples: [...PROCFS_STYLE, ...LEGACY_STYLE], arrays: ['md00'], field: 'disks_active', peer: 1, ours: null, reason: WHY.noCounts },
    { samples: PROCFS_STYLE, arrays: ['md101'], field: 'disks_total', peer: 3, ours: null, reason: WHY.noCounts },
    { samples: PROCFS_STYLE, arrays: ['md101'], field: 'disks_active', peer: 3, ours: null, reason: WHY.noCounts },
    { samples: PROCFS_STYLE, arrays: ['md219'], field: 'disks_total', peer: 0, ours: null, reason: WHY.noCounts },
    { samples: PROCFS_STYLE, arrays: ['md219'], field: 'disks_active', peer: 0, ours: null, reason: WHY.noCounts },
    {
        samples: [PROCFS, NE_PR2026], arrays: [...NO_COUNTS_2, 'md00', 'md101', 'md219'], field: 'disks_down',
        peer: 0, ours: null, reason: WHY.noCounts,
    },
    { samples: LEGACY_STYLE, arrays: ['md219'], field: 'disks_total', peer: 3, ours: null, reason: WHY.legacyContainer },
    { samples: LEGACY_STYLE, arrays: ['md219'], field: 'disks_active', peer: 0, ours: null, reason: WHY.legacyContainer },
    // The inactive raid1 md4 with a status line the kernel would not print for it.
    { samples: PROCFS_STYLE, arrays: ['md4'], field: 'disks_total', peer: 0, ours: 2, reason: WHY.inactiveCounts },
    { samples: PROCFS_STYLE, arrays: ['md4'], field: 'disks_active', peer: 0, ours: 2, reason: WHY.inactiveCounts },
    { samples: LEGACY_STYLE, arrays: ['md4'], field: 'disks_active', peer: 0, ours: 2, reason: WHY.legacyInactive },
    // resync=DELAYED (md9) and resync=PENDING (md11).
    { samples: PROCFS_STYLE, arrays: ['md9', 'md11'], field: 'sync_done_blocks', peer: 0, ours: null, reason: WHY.waitingCounters },
    { samples: [PROCFS], arrays: ['md9'], field: 'sync_total_blocks', peer: 523968, ours: null, reason: WHY.waitingCounters },
    { samples: [PROCFS], arrays: ['md11'], field: 'sync_total_blocks', peer: 4190208, ours: null, reason: WHY.waitingCounters },
    {
        samples: [NE_FIXTURES, NE_PR2026], arrays: ['md9', 'md11'], field: 'peer_blocks_synced', peer: 0, ours: null,
        reason: WHY.waitingCounters,
    },
    { samples: LEGACY_STYLE, arrays: ['md9'], field: 'peer_blocks_synced', peer: 523968, ours: null, reason: WHY.waitingCounters },
    { samples: LEGACY_STYLE, arrays: ['md11'], field: 'peer_blocks_synced', peer: 4190208, ours: null, reason: WHY.waitingCounters },
    // Known peer bugs.
    { samples: ['check_raid-pr77'], arrays: ['md1'], field: 'peer_sync_state', peer: 'check=DELAYED', ours: 'resync=DELAYED', reason: WHY.pr77 },
    {
        samples: ['pymdstat-09'], arrays: ['md2'], field: 'members_unordered', peer: ['sdb[0]'],
        ours: ['sda[1]', 'sdb[0]', 'sdc[2]', 'sdd[3]'], reason: WHY.pymdstat09,
    },
    // Peers whose value does not come from mdstat alone.
    {
        samples: ['libstorage-ng-parse2', 'libstorage-ng-parse3'], arrays: ['md127'], field: 'read_only_flag',
        peer: true, ours: false, reason: WHY.inactiveReadOnly,
    },
    {
        samples: ['libstorage-ng-parse_inactive_noncontainer'], arrays: ['md126'], field: 'read_only_flag',
        peer: true, ours: false, reason: WHY.inactiveReadOnly,
    },
    {
        samples: ['libstorage-ng-probe-md1'], arrays: ['md0'], field: 'peer_region_bytes',
        peer: 17163091968, ours: 34326183936, reason: WHY.devicegraphSize,
    },
    {
        samples: ['libstorage-ng-probe-md2'], arrays: ['md1', 'md2'], field: 'peer_region_bytes',
        peer: 8589869056, ours: 17179738112, reason: WHY.devicegraphSize,
    },
];

function exceptionFor(sample: string, array: string, field: string): PeerException | undefined {
    return EXCEPTIONS.find(e => e.samples.includes(sample) && e.arrays.includes(array) && e.field === field);
}

/**
 * Problems each sample must report, as patterns: every problem must match one and every pattern
 * must match a problem. Samples not listed must parse without any problem.
 */
const EXPECTED_PROBLEMS: Record<string, RegExp[]> = {
    // Real captures that end without the "unused devices" line.
    'check_raid-issue43-mdstat-rebuilt': [/no "unused devices" line/],
    'check_raid-mdstat-raid0': [/no "unused devices" line/],
    'pymdstat-16': [/no "unused devices" line/],
    // md4 has two status lines (the peer's reconstruction); the second one's words win.
    'checkmk-generic-md-16arrays': [/^line 17: a second status line for md4/],
    // ohai's fragments: header lines only, a misspelled "Personalies" line, junk words.
    'ohai-inactive-nvme-spare': [/^line 2: md0 has no status line/, /no "unused devices" line/],
    'ohai-journal': [
        /^line 1: array "Personalies" has no active\/inactive state/, /^line 2: unrecognised word "\(somecraphere\)"/,
        /^line 2: unrecognised word "<morestuff"/, /^line 2: md0 has no status line/, /no "unused devices" line/,
    ],
    'ohai-spare': [
        /^line 1: array "Personalies" has no active\/inactive state/, /^line 2: unrecognised word "\(somecraphere\)"/,
        /^line 2: unrecognised word "<morestuff"/, /^line 2: md0 has no status line/, /no "unused devices" line/,
    ],
    'ohai-junk-tokens': [
        /^line 2: unrecognised word "\(somecraphere\)"/, /^line 2: unrecognised word "<morestuff>"/,
        /no "unused devices" line/,
    ],
    'ohai-multidigit-roles': [/no "unused devices" line/],
    'ohai-raid10-near2': [/no "unused devices" line/],
    // The samples peers must reject (expect_error); see REJECTED for what we make of them.
    'libstorage-ng-parse_error1': [/^line 2: md0 has no status line/, /no "unused devices" line/],
    'node_exporter-legacy2019-invalid': [/^line 2: array "md3" has no active\/inactive state \("invalid"\); skipped/],
    'procfs-invalid-1': [/^line 3: array "md3" has no active\/inactive state \("invalid"\); skipped/],
    'procfs-invalid-2': [
        /^line 2: md12 has no status line/, /^line 4: status line outside any array/, /no "unused devices" line/,
    ],
    'procfs-invalid-3': [/^line 2: member "sdj2" of md127 has an unknown flag "\(Z\)"; ignored/, /no "unused devices" line/],
    'procfs-invalid-4': [/^line 2: member "sdj2" of md127 has an unreadable number "\[X\]"/, /no "unused devices" line/],
    'telegraf-invalid': [/^line 4: array "mdf1" has no active\/inactive state \("testman"\); skipped/],
};

/**
 * Peers require these samples to fail. We never throw: we report problems (above) and keep what
 * is readable. This is what we keep, decided per sample.
 */
const REJECTED: Record<string, { arrays: string[]; why: string; check?: (result: Mdstat) => void }> = {
    'libstorage-ng-parse_error1': {
        arrays: ['md0'],
        why: 'cut after the header: keep md0 and its members, size unknown',
        check: r => expect(r.arrays[0]).toMatchObject({ level: 'raid1', blocks: null, disks: null, status: null }),
    },
    'node_exporter-legacy2019-invalid': {
        arrays: [],
        why: '"md3 : invalid" is no array state: skip md3 and its status line',
    },
    'procfs-invalid-1': {
        arrays: [],
        why: '"md3 : invalid" is no array state: skip md3 and its status line',
    },
    'procfs-invalid-2': {
        arrays: ['md12'],
        why: 'a blank line ends the stanza, so the status line after it belongs to no array',
        check: r => expect(r.arrays[0]).toMatchObject({ level: 'raid0', blocks: null, chunkKiB: null }),
    },
    'procfs-invalid-3': {
        arrays: ['md127'],
        why: 'unknown flag (Z): keep the member, drop the flag',
        check: r => expect(r.arrays[0].members).toEqual([
            { name: 'sdi2', role: 0, flags: [] }, { name: 'sdj2', role: 1, flags: [] },
        ]),
    },
    'procfs-invalid-4': {
        arrays: ['md127'],
        why: 'descriptor [X]: keep the member with an unknown number',
        check: r => expect(r.arrays[0].members).toEqual([
            { name: 'sdi2', role: 0, flags: [] }, { name: 'sdj2', role: null, flags: [] },
        ]),
    },
    'telegraf-invalid': {
        arrays: ['md0'],
        why: '"mdf1: testman actve" is skipped; md0 after it is read in full',
        check: r => expect(r.arrays[0]).toMatchObject({
            blocks: 244005888, disks: { total: 2, active: 2 }, status: 'UU',
            bitmap: { pagesUsed: 1, pagesTotal: 2, sizeKiB: 4, chunkKiB: 65536, file: null },
        }),
    },
};

function problemsMatch(problems: string[], patterns: RegExp[]): { unexpected: string[]; missing: RegExp[] } {
    return {
        unexpected: problems.filter(p => !patterns.some(re => re.test(p))),
        missing: patterns.filter(re => !problems.some(p => re.test(p))),
    };
}

describe.each(samples.map(s => [s.id, s] as [string, PeerSample]))('%s', (id, sample) => {
    const result = parseMdstat(sample.text);

    it('reports exactly the expected problems', () => {
        expect(problemsMatch(result.problems, EXPECTED_PROBLEMS[id] ?? [])).toEqual({ unexpected: [], missing: [] });
    });

    if (sample.expectError) {
        it(`is read partially as decided: ${REJECTED[id]?.why}`, () => {
            expect(REJECTED[id]).toBeDefined();
            expect(result.arrays.map(a => a.name)).toEqual(REJECTED[id].arrays);
            REJECTED[id].check?.(result);
        });
    }

    if (sample.personalities) {
        it('reads the personalities', () => expect(result.personalities).toEqual(sample.personalities));
    }

    it('finds every asserted array', () => {
        const ours = new Set(result.arrays.map(a => a.name));
        expect(sample.arrays.map(a => a.name).filter(name => !ours.has(name))).toEqual([]);
    });

    for (const peerArray of sample.arrays) {
        it(`${peerArray.name}: every asserted field`, () => {
            const ours = result.arrays.find(a => a.name === peerArray.name);
            if (!ours) throw new Error(`${peerArray.name} not found`);
            for (const [field, asserted] of Object.entries(peerArray)) {
                if (field in NOT_COMPARED) continue;
                const read = FIELD_MAP[field];
                if (!read) throw new Error(`no mapping for asserted field ${field}`);
                const exception = exceptionFor(id, peerArray.name, field);
                // The field name rides along so a failure says which one differs.
                expect({ field, value: read(ours, asserted) })
                    .toEqual({ field, value: exception ? exception.ours : peerValue(field, asserted) });
            }
        });
    }
});

describe('every exception in the table', () => {
    const rows = EXCEPTIONS.flatMap(e => e.samples.flatMap(sample => e.arrays.map(array => ({ ...e, sample, array }))));

    it.each(rows.map(r => [`${r.sample} ${r.array} ${r.field}`, r] as const))(
        '%s: the peer asserts the listed value and we give the listed one', (_, row) => {
            const sample = samples.find(s => s.id === row.sample);
            const peerArray = sample?.arrays.find(a => a.name === row.array);
            expect(peerArray && row.field in peerArray).toBe(true);
            expect(peerValue(row.field, peerArray?.[row.field])).toEqual(row.peer);
            const ours = parseMdstat(sample?.text ?? '').arrays.find(a => a.name === row.array);
            expect(ours && FIELD_MAP[row.field](ours, peerArray?.[row.field])).toEqual(row.ours);
        });
});

it('covers the whole corpus', () => {
    expect(samples).toHaveLength(88);
    expect(Object.keys(REJECTED).sort()).toEqual(samples.filter(s => s.expectError).map(s => s.id).sort());
    expect(Object.keys(EXPECTED_PROBLEMS).filter(id => !samples.some(s => s.id === id))).toEqual([]);
});
