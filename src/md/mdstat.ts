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

import { parseBitmap } from './mdstatLines/bitmapLine';
import { parseHeader } from './mdstatLines/headerLine';
import { classify, type LineKind } from './mdstatLines/lineKinds';
import { parseProgress } from './mdstatLines/progressLine';
import { applyStatusWords } from './mdstatLines/statusLine';
import type { Mdstat, MdstatArray } from './mdstatLines/types';
import { quote, words } from './mdstatLines/words';

export type {
    Mdstat, MdstatArray, MdstatBitmap, MdstatMember, MdstatSync, MemberFlag, SyncRunState,
} from './mdstatLines/types';

/** Beyond this many, problems are counted but not listed: 1 MB of junk must not yield 1 MB of messages. */
const MAX_PROBLEMS = 50;

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
