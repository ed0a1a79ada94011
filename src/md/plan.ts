// SPDX-License-Identifier: LGPL-2.1-or-later
// Every change raidtune makes is a Plan: a list of steps that can show themselves as the commands
// a person would type, be applied one by one by the host executor, be read back, and be undone.
// Paths are canonical host paths (/sys/..., /proc/..., /etc/...); the executor maps them to the
// configured roots.

import { applyLineEdits, inverseLineEdits, type FileFormat, type LineEdit } from './lineEdit';
import type { Message } from './message';

export interface WriteAttributeStep {
    kind: 'write-attribute';
    /** What a person calls this setting, for previews and error messages: "maximum sync speed of md0". */
    setting: Message;
    path: string;
    /** The value to write. */
    to: string;
    /** The value it had (as written back to restore it); null when unknown. */
    from: string | null;
}

export interface RunCommandStep {
    kind: 'run';
    setting: Message;
    argv: string[];
    /** The command that reverses this one, if any. */
    undoArgv: string[] | null;
    /** What the command reads on its standard input (sfdisk's partition script), if anything. */
    stdin?: string;
    /** What the executor reads back afterwards, since a command's exit status alone proves little. */
    verify?: { memberRemoved: { array: string; member: string } } | { memberAdded: { array: string; member: string } } |
        /** An attribute the command sets through a tool (ledctl: the slot's locate), read back. */
        { attributeReads: { path: string; value: string } };
}

export interface WriteFileStep {
    kind: 'write-file';
    setting: Message;
    path: string;
    /** New content; null removes the file. */
    content: string | null;
    /** Content before (null: the file did not exist). */
    previous: string | null;
    /**
     * `previous` is the text the change was decided on, checked at Apply like an edit's `opened`:
     * raidtune's own files under /etc (kept settings, drop-ins), which an admin may edit meanwhile.
     */
    checked?: boolean;
}

/**
 * A change to some lines of a host file that holds lines of others too (mdadm.conf,
 * /etc/default/mdadm): applied to the file as it is when the step runs (lineEdit.ts).
 */
export interface EditFileStep {
    kind: 'edit-file';
    setting: Message;
    path: string;
    format: FileFormat;
    edits: LineEdit[];
    /**
     * The text the change was decided on (null: the file did not exist): when the dialog opened, or
     * once applied, the text it was applied to (which its undo is computed from).
     */
    opened: string | null;
    /** Remove the file when the edits leave it empty (the undo of edits that made it). */
    removeWhenEmpty?: boolean;
}

export type Step = WriteAttributeStep | RunCommandStep | WriteFileStep | EditFileStep;

export interface Plan {
    title: Message;
    steps: Step[];
}

/** Quote one word for a POSIX shell, only when it needs it (for display; never executed). */
export function shellQuote(word: string): string {
    return /^[A-Za-z0-9_@%+=:,./-]+$/.test(word) ? word : `'${word.replace(/'/g, `'\\''`)}'`;
}

/** A command line as a person would type it. */
export function describeArgv(argv: readonly string[]): string {
    return argv.map(shellQuote).join(' ');
}

/** The command a person would type for a step. */
export function describeStep(step: Step): string {
    switch (step.kind) {
    case 'write-attribute':
        return `echo ${shellQuote(step.to)} > ${shellQuote(step.path)}`;
    case 'run':
        return step.stdin === undefined ? describeArgv(step.argv) : hereDocInput(describeArgv(step.argv), step.stdin);
    case 'write-file':
        if (step.content === null) return `rm -f ${shellQuote(step.path)}`;
        return hereDoc(step.path, step.content);
    case 'edit-file':
        return describeEdits(step);
    }
}

/** `command` fed `content` by a here-document whose end marker no line of the content is. */
function hereDocInput(command: string, content: string): string {
    const lines = new Set(content.split('\n'));
    let marker = 'EOF';
    for (let n = 1; lines.has(marker); n++) marker = `EOF_${n}`;
    return `${command} <<'${marker}'\n${content.replace(/\n$/, '')}\n${marker}`;
}

/** A here-document that writes the whole content to `path`. */
function hereDoc(path: string, content: string): string {
    return hereDocInput(`cat > ${shellQuote(path)}`, content);
}

/**
 * An edit as comment lines: what the file's directive becomes, the rest said to stay. Pasted into a
 * shell they do nothing, whatever the values hold (a command written from this page's copy of the
 * file could drop lines added since; the exported script edits the lines on the host itself).
 */
function describeEdits(step: EditFileStep): string {
    const oneLine = (text: string) => text.replace(/[\r\n]/g, ' ');
    return [`# edit ${shellQuote(step.path)}, every other line kept as it is:`, ...step.edits.flatMap(edit => (edit.lines.length
        ? edit.lines.map(line => `#   ${edit.key} becomes: ${oneLine(line)}`)
        : [`#   ${edit.key} removed`]))].join('\n');
}

export function describePlan(plan: Plan): string {
    return plan.steps.map(describeStep).join('\n');
}

/** The step that reverses `step`, or null when it cannot be reversed. */
export function invertStep(step: Step): Step | null {
    switch (step.kind) {
    case 'write-attribute':
        return step.from === null ? null : { ...step, to: step.from, from: step.to };
    case 'run': {
        if (!step.undoArgv) return null;
        // The undo reads no input; and a command fed input cannot be redone from its undo alone.
        const { stdin, ...command } = step;
        return { ...command, argv: step.undoArgv, undoArgv: stdin === undefined ? step.argv : null };
    }
    case 'write-file':
        return { ...step, content: step.previous, previous: step.content };
    case 'edit-file':
        return invertEdit(step);
    }
}

/** The undo of an edit: the directives' lines of the text it was applied to, put back. */
function invertEdit(step: EditFileStep): EditFileStep {
    const { setting, path, format, edits, opened } = step;
    const inverse: EditFileStep = {
        kind: 'edit-file', setting, path, format,
        edits: inverseLineEdits(opened, format, edits), opened: applyLineEdits(opened, format, edits),
    };
    return opened === null ? { ...inverse, removeWhenEmpty: true } : inverse;
}

/** The file's text after an edit step applied to `current` (null: it is to be removed). */
export function editedText(step: EditFileStep, current: string | null): string | null {
    const text = applyLineEdits(current, step.format, step.edits);
    return text === '' && step.removeWhenEmpty ? null : text;
}

/** Undo for the steps that were applied: reversed order, irreversible steps left out. */
export function invertSteps(title: Message, applied: readonly Step[]): Plan {
    const steps = [...applied].reverse().map(invertStep).filter((s): s is Step => s !== null);
    return { title, steps };
}

/** A write of the value already there. */
export function isNoOp(step: Step): boolean {
    return step.kind === 'write-attribute' && step.from === step.to;
}

/** Leave out writes that would not change anything. */
export function withoutNoOps(plan: Plan): Plan {
    return { ...plan, steps: plan.steps.filter(s => !isNoOp(s)) };
}

/** The one way a step that writes a kernel attribute is made (values as the kernel reads them). */
export function attributeStep(setting: Message, path: string, to: string | number,
    from: string | number | null): WriteAttributeStep {
    return { kind: 'write-attribute', setting, path, to: String(to), from: from === null ? null : String(from) };
}

/**
 * A plan of one kernel attribute write: most single-setting changes. No step when the value is
 * already there: a dialog applied as it opened writes nothing.
 */
export function attributePlan(title: Message, step: WriteAttributeStep): Plan {
    return withoutNoOps({ title, steps: [step] });
}
