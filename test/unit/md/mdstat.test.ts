// SPDX-License-Identifier: LGPL-2.1-or-later
// The mdstat format line by line: what Linux 6.1's md_seq_show prints, and the noise pasted captures
// add. Corpus-wide checks live in mdstat.peers/kernel/robustness.test.ts.
import { parseMdstat, type MdstatArray, type MdstatSync } from '../../../src/md/mdstat';

const UNUSED = 'unused devices: <none>\n';

/** Parses text holding one array and insists it raised no problem. */
function only(text: string): MdstatArray {
    const result = parseMdstat(text);
    expect(result.problems).toEqual([]);
    expect(result.arrays).toHaveLength(1);
    return result.arrays[0];
}

/** One raid1 stanza as the kernel prints it, with `extra` lines after the status line. */
function raid1With(...extra: string[]): string {
    return ['md0 : active raid1 sdb1[1] sda1[0]', '      1046528 blocks super 1.2 [2/2] [UU]', ...extra, '      ', UNUSED]
        .join('\n');
}

const waiting = (action: string, state: MdstatSync['state']): MdstatSync =>
    ({ action, state, percent: null, done: null, total: null, finishMinutes: null, speedKiBs: null });

describe('a complete capture', () => {
    it('gives every field', () => {
        const text = [
            'Personalities : [raid1] [raid6] [raid5] [raid4] ',
            'md0 : active raid5 sdd1[4] sdc1[2] sdb1[1](F) sda1[0] sde1[5](S)',
            '      1046528 blocks super 1.2 level 5, 512k chunk, algorithm 2 [3/2] [U_U]',
            '      [==>..................]  recovery = 12.6% (66112/523264) finish=88.0min speed=35394K/sec',
            '      bitmap: 3/8 pages [12KB], 65536KB chunk',
            '',
            UNUSED,
        ].join('\n');
        expect(parseMdstat(text)).toEqual({
            personalities: ['raid1', 'raid6', 'raid5', 'raid4'],
            arrays: [{
                name: 'md0', state: 'active', readOnly: false, level: 'raid5',
                members: [
                    { name: 'sdd1', role: 4, flags: [] },
                    { name: 'sdc1', role: 2, flags: [] },
                    { name: 'sdb1', role: 1, flags: ['faulty'] },
                    { name: 'sda1', role: 0, flags: [] },
                    { name: 'sde1', role: 5, flags: ['spare'] },
                ],
                blocks: 1046528, super: '1.2', disks: { total: 3, active: 2 }, status: 'U_U',
                sync: {
                    action: 'recovery', state: 'running', percent: 12.6, done: 66112, total: 523264,
                    finishMinutes: 88, speedKiBs: 35394,
                },
                bitmap: { pagesUsed: 3, pagesTotal: 8, sizeKiB: 12, chunkKiB: 65536, file: null },
                chunkKiB: 512, algorithm: 2, roundingKiB: null, nearCopies: null, farCopies: null, offsetCopies: null,
            }],
            problems: [],
        });
    });

    it('with no arrays', () => {
        expect(parseMdstat(`Personalities : \n${UNUSED}`)).toEqual({ personalities: [], arrays: [], problems: [] });
    });
});

describe('header line', () => {
    it.each([
        ['md0 : active (read-only) raid0 sdb[1] sda[0]', 'read-only'],
        ['md0 : active (auto-read-only) raid0 sdb[1] sda[0]', 'auto-read-only'],
        ['md0 : active raid0 sdb[1] sda[0]', false],
    ])('%s', (header, readOnly) => {
        expect(only(`${header}\n      1000 blocks super 1.2 512k chunks\n\n${UNUSED}`)).toMatchObject({
            state: 'active', readOnly, level: 'raid0',
        });
    });

    it('reads every member flag the kernel prints, several on one member', () => {
        const array = only([
            'md0 : active raid1 sda1[0](W) sdb1[1](W)(F) sdc1[2](S) sdd1[3](R) sde1[4](J) sdf1[5](W)(S)',
            '      1000 blocks super 1.2 [2/2] [UU]', '', UNUSED,
        ].join('\n'));
        expect(array.members.map(m => m.flags)).toEqual([
            ['write-mostly'], ['write-mostly', 'faulty'], ['spare'], ['replacement'], ['journal'], ['write-mostly', 'spare'],
        ]);
    });

    it('keeps the descriptor number, which can exceed the number of disks', () => {
        const array = only(`md3 : active raid6 sde1[11] sdd1[3] dm-15[12] nvme0n1p3[2010]\n      1 blocks [4/4] [UUUU]\n\n${UNUSED}`);
        expect(array.members.map(m => [m.name, m.role])).toEqual([['sde1', 11], ['sdd1', 3], ['dm-15', 12], ['nvme0n1p3', 2010]]);
    });

    it('reads an inactive IMSM container and an array inside it', () => {
        const result = parseMdstat([
            'md126 : active raid1 sda[1] sdb[0]', '      976759808 blocks super external:/md127/0 [2/2] [UU]', '      ',
            'md127 : inactive sdb[1](S) sda[0](S)', '      5288 blocks super external:imsm', '       ', UNUSED,
        ].join('\n'));
        expect(result.problems).toEqual([]);
        expect(result.arrays.map(a => [a.name, a.state, a.level, a.super, a.disks])).toEqual([
            ['md126', 'active', 'raid1', 'external:/md127/0', { total: 2, active: 2 }],
            ['md127', 'inactive', null, 'external:imsm', null],
        ]);
    });

    it('reads an inactive array without members (nothing to size, so no status line)', () => {
        expect(only(`md5 : inactive\n       \n${UNUSED}`)).toMatchObject({ name: 'md5', state: 'inactive', members: [] });
    });

    it('reads named and partitionable arrays', () => {
        const result = parseMdstat(`md_d0 : active raid1 sda[0]\n      1 blocks [1/1] [U]\n\nmd_test : active raid1 sdb[0]\n      1 blocks [1/1] [U]\n\n${UNUSED}`);
        expect(result.arrays.map(a => a.name)).toEqual(['md_d0', 'md_test']);
    });

    it('reports junk words and still reads the rest', () => {
        const result = parseMdstat(`md0 : active (somecraphere) <morestuff raid6 sdb1[1] sda1[0]\n      1 blocks [2/2] [UU]\n\n${UNUSED}`);
        expect(result.arrays[0]).toMatchObject({ level: 'raid6', members: [{ name: 'sdb1' }, { name: 'sda1' }] });
        expect(result.problems).toEqual([
            'line 1: unrecognised word "(somecraphere)" in the header of md0',
            'line 1: unrecognised word "<morestuff" in the header of md0',
        ]);
    });

    it('skips an array whose state is neither active nor inactive, with its status line', () => {
        const result = parseMdstat(`md3 : invalid\n      314159265 blocks 64k chunks\n\n${UNUSED}`);
        expect(result.arrays).toEqual([]);
        expect(result.problems).toEqual(['line 1: array "md3" has no active/inactive state ("invalid"); skipped']);
    });

    it('keeps a member with an unreadable number or flag, and says so', () => {
        const result = parseMdstat(`md1 : active raid1 sda[X] sdb[1](Z)(F)\n      1 blocks [2/2] [UU]\n\n${UNUSED}`);
        expect(result.arrays[0].members).toEqual([
            { name: 'sda', role: null, flags: [] }, { name: 'sdb', role: 1, flags: ['faulty'] },
        ]);
        expect(result.problems).toEqual([
            'line 1: member "sda" of md1 has an unreadable number "[X]"',
            'line 1: member "sdb" of md1 has an unknown flag "(Z)"; ignored',
        ]);
    });
});

describe('status line', () => {
    it.each<[string, string, Partial<MdstatArray>]>([
        ['raid0', '1000 blocks super 1.2 512k chunks', { chunkKiB: 512, disks: null, status: null }],
        ['linear', '1000 blocks super 1.2 0k rounding', { chunkKiB: null, roundingKiB: 0, disks: null }],
        ['raid10', '1000 blocks super 1.2 512K chunks 2 near-copies [4/4] [UUUU]', { chunkKiB: 512, nearCopies: 2 }],
        ['raid10', '1000 blocks super 1.2 512K chunks 2 far-copies [4/3] [UU_U]', { farCopies: 2, disks: { total: 4, active: 3 } }],
        ['raid10', '1000 blocks super 1.2 512K chunks 2 offset-copies [3/3] [UUU]', { offsetCopies: 2 }],
        ['raid10', '1000 blocks super 1.2 2 near-copies [2/2] [UU]', { chunkKiB: null, nearCopies: 2 }],
        ['raid10', '1000 blocks super 1.2 512K chunks 2 far-copies 2 devices per set [4/4] [UUUU]', { farCopies: 2 }],
        ['raid6', '1000 blocks super 1.2 level 6, 64k chunk, algorithm 18 [6/4] [UUUU__]', { chunkKiB: 64, algorithm: 18, status: 'UUUU__' }],
        ['raid1', '1000 blocks [2/2] [UU]', { super: null, blocks: 1000 }],
        ['raid1', '1000 blocks super 0.91 [2/2] [UU]', { super: '0.91' }],
        ['raid1', '1000 blocks super non-persistent [2/2] [UU]', { super: 'non-persistent' }],
        ['multipath', '1000 blocks super 1.2 [2/2] [UU]', { disks: { total: 2, active: 2 } }],
    ])('%s: %s', (level, status, expected) => {
        expect(only(`md0 : active ${level} sda[0] sdb[1]\n      ${status}\n      \n${UNUSED}`)).toMatchObject({ level, ...expected });
    });

    it('reports unknown words and keeps the known ones', () => {
        const result = parseMdstat(`md0 : active raid1 sda[0] sdb[1]\n      1000 blocks wobbly [2/2] [UU]\n\n${UNUSED}`);
        expect(result.arrays[0]).toMatchObject({ blocks: 1000, status: 'UU' });
        expect(result.problems).toEqual(['line 2: unrecognised word "wobbly" in the status of md0']);
    });

    it('applies a second status line over the first, and says so', () => {
        const result = parseMdstat(raid1With('      20971456 blocks super 1.0 [2/1] [U_]'));
        expect(result.arrays[0]).toMatchObject({ blocks: 20971456, super: '1.0', status: 'U_' });
        expect(result.problems).toEqual(['line 3: a second status line for md0; it overrides the first']);
    });
});

describe('progress line', () => {
    it.each<[string, MdstatSync]>([
        ['[>....................]  resync =  1.5% (4096/261120) finish=4.1min speed=1024K/sec',
            { action: 'resync', state: 'running', percent: 1.5, done: 4096, total: 261120, finishMinutes: 4.1, speedKiBs: 1024 }],
        ['[===================>.]  recovery = 99.9% (261000/261120) finish=0.0min speed=98765K/sec',
            { action: 'recovery', state: 'running', percent: 99.9, done: 261000, total: 261120, finishMinutes: 0, speedKiBs: 98765 }],
        ['[====================>]  check =100.0% (261120/261120) finish=0.0min speed=1K/sec',
            { action: 'check', state: 'running', percent: 100, done: 261120, total: 261120, finishMinutes: 0, speedKiBs: 1 }],
        ['[===========>.........]  reshape = 56.1% (1096879076/1953381440) finish=1868.1min speed=7640K/sec',
            { action: 'reshape', state: 'running', percent: 56.1, done: 1096879076, total: 1953381440, finishMinutes: 1868.1, speedKiBs: 7640 }],
        ['resync=DELAYED', waiting('resync', 'delayed')],
        ['\tresync=PENDING', waiting('resync', 'pending')],
        // md-cluster: another node resyncs this array.
        ['\tresync=REMOTE', waiting('resync', 'running')],
    ])('%s', (line, sync) => {
        expect(only(raid1With(`      ${line}`)).sync).toEqual(sync);
    });

    it('counts per member, not per array', () => {
        const array = only(`md8 : active raid6 sda[0] sdb[1] sdc[2] sdd[3] sde[4]\n      2929894272 blocks super 1.2 level 6, 512k chunk, algorithm 2 [5/4] [UUUU_]\n      [=================>...]  recovery = 87.3% (853379708/976631424) finish=34.7min speed=59082K/sec\n\n${UNUSED}`);
        expect(array.sync).toMatchObject({ done: 853379708, total: 976631424 });
        expect(array.blocks).toBe(2929894272);
    });

    it('shows a frozen sync as resync=PENDING behind a tab (captured on 6.1 after "frozen")', () => {
        const array = only('md0 : active raid1 sdb[1] sda[0]\n      261120 blocks super 1.2 [2/2] [UU]\n      \tresync=PENDING\n      \nunused devices: <none>\n');
        expect(array.sync).toEqual(waiting('resync', 'pending'));
        expect(array.readOnly).toBe(false);
    });

    it('shows auto-read-only arrays that need a resync the same way', () => {
        const array = only('md9 : active (auto-read-only) raid1 sda6[0] sdb6[1]\n      4200952 blocks super 1.0 [2/2] [UU]\n      \tresync=PENDING\n      bitmap: 9/9 pages [36KB], 256KB chunk\n\nunused devices: <none>\n');
        expect(array).toMatchObject({ readOnly: 'auto-read-only', sync: waiting('resync', 'pending'), bitmap: { chunkKiB: 256 } });
    });

    it('shows a repair as a resync: only sysfs sync_action tells them apart', () => {
        // md_seq_show names the action from the recovery flags; a repair sets SYNC and not CHECK.
        expect(only(raid1With('      [>....................]  resync =  0.4% (1024/261120) finish=4.2min speed=1024K/sec')).sync?.action)
            .toBe('resync');
    });

    it('reads lines in any order: DELAYED before the bitmap, the bitmap before the progress', () => {
        expect(only(raid1With('        resync=DELAYED', '      bitmap: 0/4 pages [0KB], 65536KB chunk'))).toMatchObject({
            sync: waiting('resync', 'delayed'), bitmap: { pagesTotal: 4 },
        });
        expect(only(raid1With('      bitmap: 1/1 pages [4KB], 65536KB chunk',
            '      [===================>.]  recovery = 99.5% (102272/102272) finish=13.37min speed=102272K/sec'))).toMatchObject({
            sync: { action: 'recovery', percent: 99.5, finishMinutes: 13.37 }, bitmap: { pagesUsed: 1 },
        });
    });

    it('keeps what it can read of an odd progress line', () => {
        const result = parseMdstat(raid1With('      [=>...]  recovery = 8.5% (16775552/195310144) finish=soon speed=259783K/sec'));
        expect(result.arrays[0].sync).toMatchObject({ action: 'recovery', percent: 8.5, done: 16775552, finishMinutes: null, speedKiBs: 259783 });
        expect(result.problems).toEqual(['line 3: unrecognised word "finish=soon" in the progress of md0']);
    });

    it('reports a progress line it cannot read at all', () => {
        const result = parseMdstat(raid1With('      [=>...]  recovery = lots'));
        expect(result.arrays[0].sync).toBeNull();
        expect(result.problems).toEqual(['line 3: unrecognised progress line "[=>...]  recovery = lots"']);
    });
});

describe('bitmap line', () => {
    it.each([
        ['bitmap: 3/8 pages [12KB], 65536KB chunk', { pagesUsed: 3, pagesTotal: 8, sizeKiB: 12, chunkKiB: 65536, file: null }],
        ['bitmap: 0/1 pages [0KB], 512B chunk', { pagesUsed: 0, pagesTotal: 1, sizeKiB: 0, chunkKiB: 0.5, file: null }],
        ['bitmap: 17/30 pages [68KB], 65536KB chunk, file: /var/lib/md bitmaps/md0, old.bitmap',
            { pagesUsed: 17, pagesTotal: 30, sizeKiB: 68, chunkKiB: 65536, file: '/var/lib/md bitmaps/md0, old.bitmap' }],
    ])('%s', (line, bitmap) => {
        expect(only(raid1With(`      ${line}`)).bitmap).toEqual(bitmap);
    });

    it('keeps the parts it can read', () => {
        const result = parseMdstat(raid1With('      bitmap: 3/8 pages [12KB], lots chunk'));
        expect(result.arrays[0].bitmap)
            .toEqual({ pagesUsed: 3, pagesTotal: 8, sizeKiB: 12, chunkKiB: null, file: null });
        expect(result.problems).toEqual(['line 3: unrecognised part "lots chunk" of the bitmap line of md0']);
    });
});

describe('the noise of pasted and hand-edited captures', () => {
    const STANZA = ['md0 : active raid1 sdb1[1] sda1[0]', '1046528 blocks super 1.2 [2/2] [UU]', 'resync=DELAYED'];
    const expected = {
        name: 'md0', blocks: 1046528, status: 'UU', sync: waiting('resync', 'delayed'),
        members: [{ name: 'sdb1', role: 1, flags: [] }, { name: 'sda1', role: 0, flags: [] }],
    };

    it.each([
        ['kernel indentation', (l: string[]) => `${l[0]}\n      ${l[1]}\n      \t${l[2]}\n      \n${UNUSED}`],
        ['no indentation', (l: string[]) => `${l.join('\n')}\n\n${UNUSED}`],
        ['2, 7 and 8 spaces', (l: string[]) => `${l[0]}\n  ${l[1]}\n       ${l[2]}\n        \n${UNUSED}`],
        ['tabs', (l: string[]) => `${l[0]}\n\t${l[1]}\n\t\t${l[2]}\n\t\n${UNUSED}`],
        ['NBSP', (l: string[]) => `${l[0].replace(/ /g, '\u00a0')}\n\u00a0\u00a0${l[1]}\n\u00a0${l[2]}\n\n${UNUSED}`],
        ['CRLF line ends', (l: string[]) => `${l.join('\r\n')}\r\n\r\n${UNUSED.replace('\n', '\r\n')}`],
        ['leading blank lines', (l: string[]) => `\n\n   \n${l.join('\n')}\n\n${UNUSED}`],
        ['no trailing newline', (l: string[]) => `${l.join('\n')}\n${UNUSED.trim()}`],
        ['a shell prompt', (l: string[]) => `# cat /proc/mdstat\n${l.join('\n')}\n${UNUSED}`],
        ['a root prompt', (l: string[]) => `[root@host ~]# cat /proc/mdstat \n${l.join('\n')}\n${UNUSED}`],
        ['a user prompt', (l: string[]) => `admin@nas:~$ cat /proc/mdstat\n${l.join('\n')}\n${UNUSED}`],
        ['a Personalities line with NBSP', (l: string[]) => `Personalities : [raid1]\u00a0\n${l.join('\n')}\n${UNUSED}`],
    ])('%s', (_, layout) => {
        expect(only(layout(STANZA))).toMatchObject(expected);
    });

    it('reads stanzas that follow each other without a separator line', () => {
        const result = parseMdstat(`${STANZA.join('\n')}\nmd1 : active raid1 sdc[0]\n  1 blocks [1/1] [U]\n${UNUSED}`);
        expect(result.problems).toEqual([]);
        expect(result.arrays.map(a => [a.name, a.blocks])).toEqual([['md0', 1046528], ['md1', 1]]);
    });

    it('reads a status line joined onto the header', () => {
        expect(only(`md0 : active raid1 sdb1[1] sda1[0] 1046528 blocks super 1.2 [2/2] [UU]\n${UNUSED}`)).toMatchObject({
            blocks: 1046528, super: '1.2', status: 'UU',
        });
    });

    it('reports a missing "unused devices" line, which means the text was cut', () => {
        const result = parseMdstat(STANZA.join('\n'));
        expect(result.arrays[0]).toMatchObject(expected);
        expect(result.problems).toEqual(['no "unused devices" line: the text may be cut off']);
    });

    it('reports an array cut before its status line', () => {
        const result = parseMdstat(`Personalities : [raid1]\n${STANZA[0]}`);
        expect(result.arrays[0]).toMatchObject({ name: 'md0', blocks: null, members: expected.members });
        expect(result.problems).toEqual([
            'line 2: md0 has no status line (blocks, [n/m], [UU]); the text may be cut off',
            'no "unused devices" line: the text may be cut off',
        ]);
    });

    it('keeps the later of two captures pasted one after the other', () => {
        const first = `Personalities : [raid1]\n${STANZA.join('\n')}\n\n${UNUSED}`;
        const second = first.replace('resync=DELAYED', '[>....]  resync =  0.1% (1/2) finish=1.0min speed=1K/sec');
        const result = parseMdstat(first + second);
        expect(result.arrays).toHaveLength(1);
        expect(result.arrays[0].sync?.state).toBe('running');
        expect(result.problems).toEqual([
            'line 7: a second Personalities line; using it', 'line 8: md0 is listed twice; keeping the later one',
        ]);
    });

    it('reports lines it does not know and lines outside any array', () => {
        const result = parseMdstat(`Personalities : [raid1] raid7\nhello world\n      1 blocks [1/1] [U]\n${UNUSED}`);
        expect(result.personalities).toEqual(['raid1']);
        expect(result.problems).toEqual([
            'line 1: unrecognised personality "raid7"',
            'line 2: unrecognised line "hello world"',
            'line 3: status line outside any array: "1 blocks [1/1] [U]"',
        ]);
    });
});

describe('problems', () => {
    it('quote at most 60 characters of the input', () => {
        const [problem] = parseMdstat(`${'x'.repeat(500)}\n${UNUSED}`).problems;
        expect(problem).toBe(`line 1: unrecognised line "${'x'.repeat(60)}…"`);
    });

    it('are listed up to 50, then counted', () => {
        const problems = parseMdstat(`${'junk\n'.repeat(80)}${UNUSED}`).problems;
        expect(problems).toHaveLength(51);
        expect(problems[49]).toBe('line 50: unrecognised line "junk"');
        expect(problems[50]).toBe('…and 30 more problems');
    });
});

it('accepts only strings, for callers in plain JavaScript', () => {
    expect(parseMdstat(undefined as unknown as string)).toEqual({
        personalities: [], arrays: [], problems: ['mdstat text is not a string'],
    });
});

// Its cost is a figure of `make bench` (refresh.128.parseMs), not a stopwatch here.
it('parses 128 arrays of 16 members, every member and progress line', () => {
    const members = (i: number) => Array.from({ length: 16 }, (_, d) => `sd${String.fromCharCode(97 + d)}${i}[${d}]`).join(' ');
    const stanza = (i: number) => [
        `md${i} : active raid6 ${members(i)}`,
        '      123456789 blocks super 1.2 level 6, 512k chunk, algorithm 2 [16/15] [UUUUUUUUUUUUUUU_]',
        '      [==>..................]  recovery = 12.6% (123456/987654) finish=88.0min speed=35394K/sec',
        '      bitmap: 3/8 pages [12KB], 65536KB chunk', '',
    ].join('\n');
    const text = `Personalities : [raid6]\n${Array.from({ length: 128 }, (_, i) => stanza(i)).join('\n')}\n${UNUSED}`;
    const result = parseMdstat(text);
    expect(result.arrays.map(a => a.name)).toEqual(Array.from({ length: 128 }, (_, i) => `md${i}`));
    expect(result.arrays.every(a => a.members.length === 16 && a.sync?.percent === 12.6)).toBe(true);
    expect(result.arrays[127].members[15].name).toBe('sdp127');
    expect(result.problems).toEqual([]);
});
