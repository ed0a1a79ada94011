// SPDX-License-Identifier: LGPL-2.1-or-later
// parseMdstat is total: whatever it is given (cut-off files, corrupted bytes, megabytes of junk) it
// returns, quickly, a result of the documented shape. Inputs are the corpus samples, cut and mutated
// with a seeded generator so every run tests the same cases.
import { createRng } from '../../../sim/random';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { parseMdstat, type Mdstat, type MemberFlag } from '../../../src/md/mdstat';
import { loadPeerSamples } from './mdstatPeers';

const KERNEL_DIR = path.join(__dirname, '../../fixtures/real-kernel');
const corpus: [string, string][] = [
    ...loadPeerSamples().map(s => [s.id, s.text] as [string, string]),
    ...fs.readdirSync(KERNEL_DIR).filter(f => fs.existsSync(path.join(KERNEL_DIR, f, 'mdstat')))
        .map(f => [`real-kernel/${f}`, fs.readFileSync(path.join(KERNEL_DIR, f, 'mdstat'), 'utf8')] as [string, string]),
];

const FLAGS: MemberFlag[] = ['faulty', 'spare', 'write-mostly', 'replacement', 'journal'];
const ARRAY_KEYS = [
    'name', 'state', 'readOnly', 'level', 'members', 'blocks', 'super', 'disks', 'status', 'sync', 'bitmap', 'chunkKiB',
    'algorithm', 'roundingKiB', 'nearCopies', 'farCopies', 'offsetCopies',
].sort();

const isCount = (v: unknown) => Number.isSafeInteger(v) && (v as number) >= 0;
const isCountOrNull = (v: unknown) => v === null || isCount(v);
const isAmountOrNull = (v: unknown) => v === null || (typeof v === 'number' && Number.isFinite(v) && v >= 0);
const isTextOrNull = (v: unknown) => v === null || (typeof v === 'string' && v !== '');

/** Everything wrong with the shape of a result; empty when it is as documented. */
function shapeViolations(result: Mdstat): string[] {
    const bad: string[] = [];
    const check = (ok: boolean, what: string) => { if (!ok) bad.push(what); };
    check(result.personalities.every(p => typeof p === 'string' && p !== '' && !/\s/.test(p)), 'personalities');
    // Problems quote at most a snippet of the input, however long its lines.
    check(result.problems.every(p => typeof p === 'string' && p !== '' && p.length <= 300), 'problems are short text');
    check(result.problems.length <= 51, 'problems are capped');
    check(new Set(result.arrays.map(a => a.name)).size === result.arrays.length, 'array names are unique');
    for (const a of result.arrays) {
        const at = (what: string) => `${JSON.stringify(a.name)}: ${what}`;
        check(JSON.stringify(Object.keys(a).sort()) === JSON.stringify(ARRAY_KEYS), at('keys'));
        check(typeof a.name === 'string' && /^[^\s:]{1,31}$/.test(a.name), at('name'));
        check(a.state === 'active' || a.state === 'inactive', at('state'));
        check([false, 'read-only', 'auto-read-only'].includes(a.readOnly), at('readOnly'));
        check(a.level === null || /^[a-z][a-z0-9]*$/.test(a.level), at('level'));
        check(isTextOrNull(a.super), at('super'));
        check(a.status === null || /^[U_]*$/.test(a.status), at('status'));
        check(a.disks === null || (isCount(a.disks.total) && isCount(a.disks.active)), at('disks'));
        for (const n of [a.blocks, a.algorithm, a.nearCopies, a.farCopies, a.offsetCopies]) check(isCountOrNull(n), at('counts'));
        for (const n of [a.chunkKiB, a.roundingKiB]) check(isAmountOrNull(n), at('sizes'));
        for (const m of a.members) {
            check(typeof m.name === 'string' && /^[^\s[\]()]{1,31}$/.test(m.name), at(`member name ${m.name}`));
            check(isCountOrNull(m.role), at(`member role ${m.name}`));
            check(m.flags.every(f => FLAGS.includes(f)) && new Set(m.flags).size === m.flags.length, at(`flags ${m.name}`));
        }
        if (a.sync) {
            check(/^[a-z]+$/.test(a.sync.action), at('sync action'));
            check(['running', 'delayed', 'pending'].includes(a.sync.state), at('sync state'));
            for (const n of [a.sync.done, a.sync.total, a.sync.speedKiBs]) check(isCountOrNull(n), at('sync counts'));
            for (const n of [a.sync.percent, a.sync.finishMinutes]) check(isAmountOrNull(n), at('sync amounts'));
        }
        if (a.bitmap) {
            for (const n of [a.bitmap.pagesUsed, a.bitmap.pagesTotal, a.bitmap.sizeKiB]) check(isCountOrNull(n), at('bitmap counts'));
            check(isAmountOrNull(a.bitmap.chunkKiB), at('bitmap chunk'));
            check(a.bitmap.file === null || typeof a.bitmap.file === 'string', at('bitmap file'));
        }
    }
    return bad;
}

function expectSane(text: string): Mdstat {
    const result = parseMdstat(text);
    expect(shapeViolations(result)).toEqual([]);
    return result;
}

/** Parses every input, then fails once, naming the inputs whose result is malformed. */
function expectAllSane(texts: Iterable<string>): void {
    const failures: { input: string; violations: string[] }[] = [];
    for (const input of texts) {
        const violations = shapeViolations(parseMdstat(input));
        if (violations.length > 0) failures.push({ input, violations });
    }
    expect(failures).toEqual([]);
}

function* prefixes(text: string): Generator<string> {
    for (let end = 0; end <= text.length; end++) yield text.slice(0, end);
}

function* mutants(text: string, count: number): Generator<string> {
    const random = seeded(text.length);
    for (let i = 0; i < count; i++) yield mutate(text, random);
}

// A seeded generator (the simulator's), so every run mutates the same way.
const seeded = createRng;

// Characters that mean something to the parser, plus a few that mean nothing to anyone.
const SPICE = [...'[]()/:=%,._-#$>0123456789UFSWRJk \t\n\r\u00a0\u0000\uffff\ud800é'];

function mutate(text: string, random: () => number): string {
    const chars = [...text];
    const edits = 1 + Math.floor(random() * 6);
    for (let i = 0; i < edits; i++) {
        const at = Math.floor(random() * (chars.length + 1));
        const spice = SPICE[Math.floor(random() * SPICE.length)];
        const kind = Math.floor(random() * 4);
        if (kind === 0) chars.splice(at, 1, spice);
        else if (kind === 1) chars.splice(at, 0, spice);
        else if (kind === 2) chars.splice(at, 1 + Math.floor(random() * 8));
        else chars.splice(at, 0, ...chars.slice(at, at + Math.floor(random() * 40)));
    }
    return chars.join('');
}

describe.each(corpus)('%s', (_, text) => {
    const full = parseMdstat(text);

    it('cut at every character: never throws, always well formed', () => expectAllSane(prefixes(text)));

    it('cut at a line end: the arrays read so far, in order', () => {
        const names = full.arrays.map(a => a.name);
        const wrong: string[] = [];
        for (let end = text.indexOf('\n'); end >= 0; end = text.indexOf('\n', end + 1)) {
            const cut = parseMdstat(text.slice(0, end + 1)).arrays.map(a => a.name);
            if (cut.join() !== names.slice(0, cut.length).join()) wrong.push(`after char ${end}: ${cut.join()}`);
        }
        expect(wrong).toEqual([]);
    });

    it('with 40 seeded random mutations: never throws, always well formed', () => expectAllSane(mutants(text, 40)));

    it('gives the same result every time', () => {
        expect(parseMdstat(text)).toEqual(full);
    });
});

describe('hostile input', () => {
    const MB = 1 << 20;
    const random = seeded(42);
    const cases: [string, string][] = [
        ['empty', ''],
        ['only whitespace', ' \n\t\n\r\n\u00a0  \n'],
        ['only NUL bytes', '\u0000'.repeat(4096)],
        ['1 MB of random bytes', Array.from({ length: MB }, () => String.fromCharCode(Math.floor(random() * 256))).join('')],
        ['1 MB of random printable lines', Array.from({ length: MB }, () => SPICE[Math.floor(random() * SPICE.length)]).join('')],
        ['1 MB on one line', 'md0 : active raid1 '.padEnd(MB, 'sda[0](F)')],
        ['1 MB of members', `md0 : active raid1 ${'sda[0] '.repeat(MB / 7)}`],
        ['1 MB of brackets', '['.repeat(MB)],
        ['1 MB of parentheses', `md0 : active raid1 sda[0]${'('.repeat(MB)}`],
        ['1 MB of digits', '9'.repeat(MB)],
        ['1 MB of progress bar', `md0 : active raid1 sda[0]\n[${'='.repeat(MB)}>]  resync = 1.0%`],
        ['1 MB of equals', `a${'='.repeat(MB)}`],
        ['1 MB of colons', ':'.repeat(MB)],
        ['1 MB of headers', 'md0 : active raid1 sda[0]\n'.repeat(MB / 26)],
        ['1 MB of blank lines', '\n'.repeat(MB)],
        ['numbers too big to be exact', `md0 : active raid1 sda[99999999999999999999]\n  99999999999999999999 blocks [99999999/1] [UU]\n  [>..]  resync = 1e400% (9999999999999999999/1) finish=1e999min speed=99999999999999999999K/sec\n`],
        ['names of Object.prototype where the parser looks words up', [
            'Personalities : [constructor] [__proto__]', 'md0 : active (constructor) toString sda[0](constructor)(__proto__)',
            '  1 blocks super __proto__ [1/1] [U]', '  constructor=constructor', '  resync=__proto__', 'bitmap: 1/1 pages [4KB], 1constructor chunk',
        ].join('\n')],
        ['lone surrogates', '\ud800md0 : active raid1 sda[0]\udfff\n  1 blocks [1/1] [U]\n'],
    ];

    // No stopwatch here (speed is the benchmark's business, and a busy CI machine would make it
    // flaky): a regular expression that backtracks catastrophically on 1 MB does not finish at all,
    // and jest's per-test timeout turns that into a failure.
    it.each(cases)('%s: well formed, problems bounded', (_, text) => {
        const result = expectSane(text);
        expect(result.problems.length).toBeLessThanOrEqual(51);
    });

    it('gives nothing and no problems for empty or blank text', () => {
        expect(parseMdstat('')).toEqual({ personalities: [], arrays: [], problems: [] });
        expect(parseMdstat(' \n\t\n')).toEqual({ personalities: [], arrays: [], problems: [] });
    });
});
