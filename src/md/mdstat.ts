// SPDX-License-Identifier: LGPL-2.1-or-later
// Parser for /proc/mdstat. Pure (no I/O) and total: it never throws, whatever the input. Text it
// cannot read is reported in `problems` and skipped, so the caller still gets everything else.
//
// What the kernel prints per array (Linux 6.1, md_seq_show), one stanza per array:
//   md0 : active (auto-read-only) raid5 sdd1[3] sdc1[2](F) sdb1[4](S) ...     <- header line
//         1046528 blocks super 1.2 level 5, 512k chunk, algorithm 2 [4/3] [UU_U]  <- status line
//         [==>.......]  recovery = 12.6% (123/456) finish=88.0min speed=35394K/sec  <- or "\tresync=DELAYED"
//         bitmap: 3/8 pages [12KB], 65536KB chunk[, file: /path]
//   <whitespace-only line>
// Pasted captures add noise (shell prompts, tabs, NBSP, lost indentation, reordered lines), so lines
// are recognised by their content, never by their indentation.

export type MemberFlag = 'faulty' | 'spare' | 'write-mostly' | 'replacement' | 'journal';

export interface MdstatMember {
    name: string;
    /** The number in brackets: the kernel's descriptor number, NOT the slot (take slots from sysfs). */
    role: number | null;
    flags: MemberFlag[];
}

export type SyncRunState = 'running' | 'delayed' | 'pending';

export interface MdstatSync {
    /** The word mdstat prints: resync, recovery, check, reshape (a repair prints as resync). */
    action: string;
    state: SyncRunState;
    percent: number | null;
    /**
     * 1 KiB blocks per member device, not array blocks (raid1/4/5/6); raid10 counts its resync over
     * the whole array.
     */
    done: number | null;
    total: number | null;
    finishMinutes: number | null;
    speedKiBs: number | null;
}

export interface MdstatBitmap {
    pagesUsed: number | null;
    pagesTotal: number | null;
    sizeKiB: number | null;
    chunkKiB: number | null;
    file: string | null;
}

export interface MdstatArray {
    name: string;
    state: 'active' | 'inactive';
    readOnly: false | 'read-only' | 'auto-read-only';
    level: string | null;
    members: MdstatMember[];
    /** Array size in 1 KiB blocks. */
    blocks: number | null;
    super: string | null;
    disks: { total: number; active: number } | null;
    status: string | null;
    sync: MdstatSync | null;
    bitmap: MdstatBitmap | null;
    chunkKiB: number | null;
    // The layout details below are optional so that hand-built arrays (tests, simulator) need not
    // spell them out; parseMdstat always sets them.
    /** raid4/5/6 layout number (`algorithm 2`). */
    algorithm?: number | null;
    /** linear arrays print `Nk rounding` instead of a chunk size. */
    roundingKiB?: number | null;
    /** raid10 `N near-copies` / `N far-copies` / `N offset-copies`. */
    nearCopies?: number | null;
    farCopies?: number | null;
    offsetCopies?: number | null;
}

export interface Mdstat {
    personalities: string[];
    arrays: MdstatArray[];
    problems: string[];
}

/** Beyond this many, problems are counted but not listed: 1 MB of junk must not yield 1 MB of messages. */
const MAX_PROBLEMS = 50;
/** Quoted input in problem messages is cut to this many characters. */
const MAX_QUOTE = 60;

// Maps, not object literals: a word such as "constructor" must not find Object.prototype's.
const FLAG_LETTERS = new Map<string, MemberFlag>([
    ['F', 'faulty'], ['S', 'spare'], ['W', 'write-mostly'], ['R', 'replacement'], ['J', 'journal'],
]);

const READ_ONLY_MARKS = new Map<string, MdstatArray['readOnly']>([
    ['(read-only)', 'read-only'], ['(auto-read-only)', 'auto-read-only'],
]);

const WAITING_STATES = new Map<string, SyncRunState>([
    ['DELAYED', 'delayed'],
    ['PENDING', 'pending'],
    // md-cluster: another node is doing the resync, so for this array it is under way.
    ['REMOTE', 'running'],
]);

/** Up to 15 digits keeps every count an exact JavaScript integer. */
const COUNT = /^\d{1,15}$/;
const KIB_SIZE = /^(\d{1,15})[kK]$/;

type LineKind = 'blank' | 'prompt' | 'personalities' | 'unused' | 'bitmap' | 'progress' | 'status' | 'header'
    | 'unknown';

/** Ordered: the first matching pattern names the line. */
const LINE_KINDS: [LineKind, RegExp][] = [
    ['blank', /^$/],
    // `# cat /proc/mdstat`, `$ cat ...`, `[root@host ~]# cat ...`, `user@host:~$ cat ...`
    ['prompt', /^(?:\[[^\]]*\]|[\w.@:~/-]*)[#$%>](?:\s|$)/],
    ['personalities', /^Personalities\s*:/],
    ['unused', /^unused devices\s*:/],
    ['bitmap', /^bitmap\s*:/],
    // With its `[==>...]` bar, or bare as in `resync=DELAYED`.
    ['progress', /^(?:\[[=>.]*\]|[A-Za-z]+\s*=)/],
    ['status', /^\d/],
    // Linux block device names have at most 31 characters.
    ['header', /^[^\s:]{1,31}\s*:/],
];

function classify(line: string): LineKind {
    for (const [kind, pattern] of LINE_KINDS) {
        if (pattern.test(line)) return kind;
    }
    return 'unknown';
}

function words(text: string): string[] {
    const trimmed = text.trim();
    return trimmed === '' ? [] : trimmed.split(/\s+/);
}

/** Input quoted in a message: cut short, tabs as spaces, other control characters as �. */
function quote(text: string): string {
    const snippet = text.length > MAX_QUOTE ? `${text.slice(0, MAX_QUOTE)}…` : text;
    const printable = Array.from(snippet, c => (c === '\t' ? ' ' : isControl(c) ? '\ufffd' : c)).join('');
    return `"${printable}"`;
}

function isControl(char: string): boolean {
    const code = char.charCodeAt(0);
    return code < 0x20 || (code >= 0x7f && code < 0xa0);
}

function toCount(text: string): number | null {
    return COUNT.test(text) ? Number(text) : null;
}

function emptyArray(name: string, state: MdstatArray['state']): MdstatArray {
    return {
        name, state, readOnly: false, level: null, members: [], blocks: null, super: null, disks: null,
        status: null, sync: null, bitmap: null, chunkKiB: null,
        algorithm: null, roundingKiB: null, nearCopies: null, farCopies: null, offsetCopies: null,
    };
}

type Report = (message: string) => void;

// --- Status line ---------------------------------------------------------------------------------

/** One phrase of the status line: its words (literal or pattern) and what it sets. */
interface Phrase {
    words: (string | RegExp)[];
    apply: (array: MdstatArray, w: string[]) => void;
}

// Everything a personality's status() prints, across raid0/1/4/5/6/10, linear and multipath.
const STATUS_PHRASES: Phrase[] = [
    { words: [COUNT, 'blocks'], apply: (a, w) => { a.blocks = Number(w[0]); } },
    // 1.2, 0.91, external:imsm, external:/md127/0, non-persistent; never a bracketed count.
    { words: ['super', /^[^[\]()]+$/], apply: (a, w) => { a.super = w[1]; } },
    // The header already names the personality; `level 5` repeats it.
    { words: ['level', COUNT], apply: () => undefined },
    { words: [KIB_SIZE, /^chunks?$/], apply: (a, w) => { a.chunkKiB = parseInt(w[0], 10); } },
    { words: [KIB_SIZE, 'rounding'], apply: (a, w) => { a.roundingKiB = parseInt(w[0], 10); } },
    { words: ['algorithm', COUNT], apply: (a, w) => { a.algorithm = Number(w[1]); } },
    { words: [COUNT, 'near-copies'], apply: (a, w) => { a.nearCopies = Number(w[0]); } },
    { words: [COUNT, 'far-copies'], apply: (a, w) => { a.farCopies = Number(w[0]); } },
    { words: [COUNT, 'offset-copies'], apply: (a, w) => { a.offsetCopies = Number(w[0]); } },
    // raid10 far layouts with sets smaller than the array; nothing we model.
    { words: [COUNT, 'devices', 'per', 'set'], apply: () => undefined },
    {
        words: [/^\[\d{1,6}\/\d{1,6}\]$/],
        apply: (a, w) => {
            const [total, active] = w[0].slice(1, -1).split('/').map(Number);
            a.disks = { total, active };
        },
    },
    { words: [/^\[[U_]*\]$/], apply: (a, w) => { a.status = w[0].slice(1, -1); } },
];

function phraseMatches(phrase: Phrase, tokens: string[], at: number): boolean {
    return phrase.words.every((word, i) => {
        const token = tokens[at + i];
        if (token === undefined) return false;
        return typeof word === 'string' ? token === word : word.test(token);
    });
}

/** Applies status-line words from `tokens[start]` on; the kernel separates raid5 fields with commas. */
function applyStatusWords(array: MdstatArray, tokens: string[], start: number, report: Report): void {
    const clean = tokens.map(t => t.replace(/,$/, ''));
    let at = start;
    while (at < clean.length) {
        const phrase = STATUS_PHRASES.find(p => phraseMatches(p, clean, at));
        if (phrase) {
            phrase.apply(array, clean.slice(at, at + phrase.words.length));
            at += phrase.words.length;
        } else {
            report(`unrecognised word ${quote(tokens[at])} in the status of ${array.name}`);
            at += 1;
        }
    }
}

// --- Header line ---------------------------------------------------------------------------------

// name[descriptor](flag)(flag)...; a device name of up to 31 characters, none of them brackets.
const MEMBER = /^([^[\]()]{1,31})\[([^\]]*)\]((?:\([^()]*\))*)$/;
// Personality names: raid0, raid10, linear, multipath, faulty...
const LEVEL = /^[a-z][a-z0-9]{0,15}$/;

function parseMember(token: string, arrayName: string, report: Report): MdstatMember | null {
    const match = MEMBER.exec(token);
    if (!match) return null;
    const [, name, number, flagText] = match;
    const role = toCount(number);
    if (role === null) report(`member ${quote(name)} of ${arrayName} has an unreadable number ${quote(`[${number}]`)}`);
    const flags: MemberFlag[] = [];
    const letters = flagText === '' ? [] : flagText.slice(1, -1).split(')(');
    for (const letter of letters) {
        const flag = FLAG_LETTERS.get(letter);
        if (!flag) report(`member ${quote(name)} of ${arrayName} has an unknown flag ${quote(`(${letter})`)}; ignored`);
        else if (!flags.includes(flag)) flags.push(flag);
    }
    return { name, role, flags };
}

/** `name : state [(read-only)] [level] members...`; null (reported) when the state is unknown. */
function parseHeader(line: string, report: Report): MdstatArray | null {
    const colon = line.indexOf(':');
    const name = line.slice(0, colon).trim();
    const tokens = words(line.slice(colon + 1));
    const state = tokens[0];
    if (state !== 'active' && state !== 'inactive') {
        report(`array ${quote(name)} has no active/inactive state (${quote(state ?? '')}); skipped`);
        return null;
    }
    const array = emptyArray(name, state);
    for (let at = 1; at < tokens.length; at++) {
        const token = tokens[at];
        const member = parseMember(token, name, report);
        if (member) {
            array.members.push(member);
        } else if (READ_ONLY_MARKS.has(token)) {
            array.readOnly = READ_ONLY_MARKS.get(token) ?? false;
        } else if (token === 'super' || COUNT.test(token)) {
            // The status line's words: an inactive array with no members prints `super ...` here,
            // and a capture with lost line breaks puts the whole status line here.
            applyStatusWords(array, tokens, at, report);
            break;
        } else if (LEVEL.test(token) && array.level === null && array.members.length === 0) {
            array.level = token;
        } else {
            report(`unrecognised word ${quote(token)} in the header of ${name}`);
        }
    }
    return array;
}

// --- Progress line -------------------------------------------------------------------------------

const PROGRESS = /^(?:\[[=>.]*\])?\s*([A-Za-z]+)\s*=\s*(.*)$/;
const PERCENT = /^(\d{1,3}(?:\.\d{1,3})?)%$/;
const COUNTERS = /^\((\d{1,15})\/(\d{1,15})\)$/;
const FINISH = /^finish=(\d{1,15}(?:\.\d{1,6})?)min$/;
const SPEED = /^speed=(\d{1,15})K\/sec$/;

/**
 * `[==>...]  recovery = 12.6% (123/456) finish=88.0min speed=35394K/sec` or `resync=DELAYED`; null
 * when the line names no action and state. Words after the percentage are read one by one, so one
 * odd word does not lose the others; returns the words it could not read.
 */
function parseProgress(line: string): { sync: MdstatSync; unread: string[] } | null {
    const match = PROGRESS.exec(line);
    if (!match) return null;
    const action = match[1].toLowerCase();
    const [first = '', ...rest] = words(match[2]);
    const waiting = WAITING_STATES.get(first);
    const percent = PERCENT.exec(first);
    if (!waiting && !percent) return null;
    const sync: MdstatSync = {
        action, state: waiting ?? 'running', percent: percent ? Number(percent[1]) : null,
        done: null, total: null, finishMinutes: null, speedKiBs: null,
    };
    return { sync, unread: rest.filter(word => !readProgressWord(sync, word)) };
}

/** Reads one `(done/total)`, `finish=...` or `speed=...` word into `sync`; false if it is none of them. */
function readProgressWord(sync: MdstatSync, word: string): boolean {
    const counters = COUNTERS.exec(word);
    const finish = FINISH.exec(word);
    const speed = SPEED.exec(word);
    if (counters) {
        sync.done = Number(counters[1]);
        sync.total = Number(counters[2]);
    } else if (finish) {
        sync.finishMinutes = Number(finish[1]);
    } else if (speed) {
        sync.speedKiBs = Number(speed[1]);
    }
    return Boolean(counters || finish || speed);
}

// --- Bitmap line ---------------------------------------------------------------------------------

const BITMAP_PAGES = /^(\d{1,15})\/(\d{1,15}) pages \[(\d{1,15})KB\]$/;
const BITMAP_CHUNK = /^(\d{1,15})(B|KB|MB|GB) chunk$/;
// Looked up only with BITMAP_CHUNK's unit group.
const CHUNK_UNIT_KIB: Record<string, number> = { B: 1 / 1024, KB: 1, MB: 1024, GB: 1024 * 1024 };

/**
 * `bitmap: 3/8 pages [12KB], 65536KB chunk, file: /path`. Read part by part, so one odd part does
 * not lose the others; returns the parts it could not read.
 */
function parseBitmap(line: string): { bitmap: MdstatBitmap; unread: string[] } {
    const bitmap: MdstatBitmap = { pagesUsed: null, pagesTotal: null, sizeKiB: null, chunkKiB: null, file: null };
    const unread: string[] = [];
    const body = line.slice(line.indexOf(':') + 1);
    // The file path comes last and may itself contain commas.
    const fileAt = body.search(/,\s*file:/);
    if (fileAt >= 0) bitmap.file = body.slice(body.indexOf('file:', fileAt) + 'file:'.length).trim();
    const parts = (fileAt >= 0 ? body.slice(0, fileAt) : body).split(',').map(p => words(p).join(' '));
    for (const part of parts) {
        const pages = BITMAP_PAGES.exec(part);
        const chunk = BITMAP_CHUNK.exec(part);
        if (pages) {
            bitmap.pagesUsed = Number(pages[1]);
            bitmap.pagesTotal = Number(pages[2]);
            bitmap.sizeKiB = Number(pages[3]);
        } else if (chunk) {
            bitmap.chunkKiB = Number(chunk[1]) * CHUNK_UNIT_KIB[chunk[2]];
        } else if (part !== '') {
            unread.push(part);
        }
    }
    return { bitmap, unread };
}

// --- The line-oriented state machine -------------------------------------------------------------

type StanzaLine = 'status' | 'progress' | 'bitmap';

class MdstatParser {
    private readonly result: Mdstat = { personalities: [], arrays: [], problems: [] };
    private lineNo = 0;
    /** The array whose stanza is being read; null between stanzas. */
    private current: MdstatArray | null = null;
    private currentLineNo = 0;
    /** Which continuation lines the current stanza had, to notice duplicates. */
    private seen = new Set<StanzaLine>();
    /** True after a header we could not read: its continuation lines are skipped without more noise. */
    private skipping = false;
    private sawPersonalities = false;
    private sawUnused = false;
    private sawContent = false;
    private unlisted = 0;

    private readonly handlers: Record<LineKind, (line: string) => void> = {
        blank: () => this.closeStanza(),
        // A pasted prompt starts a new capture.
        prompt: () => this.closeStanza(),
        personalities: line => this.onPersonalities(line),
        unused: () => { this.closeStanza(); this.sawUnused = true; },
        header: line => this.onHeader(line),
        status: line => this.onStanzaLine('status', line),
        progress: line => this.onStanzaLine('progress', line),
        bitmap: line => this.onStanzaLine('bitmap', line),
        unknown: line => this.report(`unrecognised line ${quote(line)}`),
    };

    parse(text: string): Mdstat {
        // JavaScript's trim() and \s also cover what pasted captures add: NBSP, BOM, tabs, CR.
        for (const raw of text.split(/\r\n|\r|\n/)) {
            this.lineNo++;
            const line = raw.trim();
            if (line !== '') this.sawContent = true;
            this.handlers[classify(line)](line);
        }
        this.closeStanza();
        if (this.sawContent && !this.sawUnused) {
            this.report('no "unused devices" line: the text may be cut off', 0);
        }
        if (this.unlisted > 0) this.result.problems.push(`…and ${this.unlisted} more problems`);
        return this.result;
    }

    /** Notes a problem at the current line (or `at`; 0 = not about one line). */
    private readonly report = (message: string, at = this.lineNo): void => {
        if (this.result.problems.length >= MAX_PROBLEMS) {
            this.unlisted++;
            return;
        }
        this.result.problems.push(at > 0 ? `line ${at}: ${message}` : message);
    };

    private onPersonalities(line: string): void {
        if (this.sawPersonalities) this.report('a second Personalities line; using it');
        this.sawPersonalities = true;
        this.result.personalities = [];
        for (const token of words(line.slice(line.indexOf(':') + 1))) {
            if (/^\[[^\]]+\]$/.test(token)) this.result.personalities.push(token.slice(1, -1));
            else this.report(`unrecognised personality ${quote(token)}`);
        }
    }

    private onHeader(line: string): void {
        this.closeStanza();
        const array = parseHeader(line, this.report);
        this.skipping = array === null;
        if (!array) return;
        const previous = this.result.arrays.findIndex(a => a.name === array.name);
        if (previous >= 0) {
            // Two captures pasted one after the other: the later one is the newer state.
            this.report(`${array.name} is listed twice; keeping the later one`);
            this.result.arrays.splice(previous, 1);
        }
        this.result.arrays.push(array);
        this.current = array;
        this.currentLineNo = this.lineNo;
    }

    private onStanzaLine(kind: StanzaLine, line: string): void {
        const array = this.current;
        if (!array) {
            if (!this.skipping) this.report(`${kind} line outside any array: ${quote(line)}`);
            return;
        }
        if (this.seen.has(kind)) this.report(`a second ${kind} line for ${array.name}; it overrides the first`);
        this.seen.add(kind);
        if (kind === 'status') this.onStatus(array, line);
        else if (kind === 'progress') this.onProgress(array, line);
        else this.onBitmap(array, line);
    }

    private onStatus(array: MdstatArray, line: string): void {
        applyStatusWords(array, words(line), 0, this.report);
    }

    private onProgress(array: MdstatArray, line: string): void {
        const parsed = parseProgress(line);
        if (!parsed) {
            this.report(`unrecognised progress line ${quote(line)}`);
            return;
        }
        array.sync = parsed.sync;
        for (const word of parsed.unread) this.report(`unrecognised word ${quote(word)} in the progress of ${array.name}`);
    }

    private onBitmap(array: MdstatArray, line: string): void {
        const { bitmap, unread } = parseBitmap(line);
        array.bitmap = bitmap;
        for (const part of unread) this.report(`unrecognised part ${quote(part)} of the bitmap line of ${array.name}`);
    }

    private closeStanza(): void {
        const array = this.current;
        if (!array && !this.skipping) return;
        // The kernel prints a status line for every array that has members; without one the text
        // was cut or mangled, and the size and health are unknown.
        if (array && array.members.length > 0 && array.blocks === null) {
            this.report(`${array.name} has no status line (blocks, [n/m], [UU]); the text may be cut off`,
                this.currentLineNo);
        }
        this.current = null;
        this.seen = new Set();
        this.skipping = false;
    }
}

export function parseMdstat(text: string): Mdstat {
    // Callers in plain JavaScript might hand us anything; only strings are mdstat text.
    if (typeof text !== 'string') {
        return { personalities: [], arrays: [], problems: ['mdstat text is not a string'] };
    }
    return new MdstatParser().parse(text);
}
