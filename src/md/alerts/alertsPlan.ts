// SPDX-License-Identifier: LGPL-2.1-or-later
// Changing who `mdadm --monitor` tells: MAILADDR and PROGRAM in the mdadm.conf it reads, as a plan
// of one edit of those lines (the ARRAY lines and the rest of the file stay, and the undo puts back
// only the old MAILADDR and PROGRAM lines), and a restart of the running monitor
// service (mdadm reads its config only when it starts). Values are checked before anything is
// built: one address or local user name without blanks or shell characters, and the absolute path
// of a program the host can run (the host answers that; the check here says what it found).

import { msg, N_, type Message } from '../message';
import type { Plan, Step } from '../plan';
import type { PlanResult } from '../tuning/result';
import { fieldError, type Parsed } from '../validate';
import { applyLineEdits, type LineEdit } from '../lineEdit';
import { monitorSettingEdit } from './mdadmConf';
import { monitorUnit, type MonitorState } from './monitor';

export type AlertField = 'mailAddr' | 'mailFrom' | 'program';

const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
// A local part of letters, digits and . _ % + - (no quotes), and an optional domain of DNS labels.
const ADDRESS = new RegExp(`^[A-Za-z0-9._%+-]{1,64}(?:@${LABEL}(?:\\.${LABEL})*)?$`);
// A string, not a regex literal: xgettext's JavaScript reader loses its place at a '/' in a class.
const PROGRAM = new RegExp('^/[A-Za-z0-9._+/-]+$');

/** '' clears the setting (null); otherwise one address, or a local user as Debian's "MAILADDR root". */
export function parseMailAddr(input: string): Parsed<string | null> {
    const text = input.trim();
    if (text === '') return { value: null };
    if (text.length > 254 || !ADDRESS.test(text)) {
        return fieldError(N_('Enter one e-mail address (admin@example.com) or a local user name, without blanks or special characters.'));
    }
    return { value: text };
}

// A sender as a mail's From: header carries it: an address, or a name of plain words before one in <>.
const SENDER = new RegExp(`^(?:[A-Za-z0-9._-]+(?: [A-Za-z0-9._-]+)* <(${ADDRESS.source.slice(1, -1)})>|(${ADDRESS.source.slice(1, -1)}))$`);

/**
 * MAILFROM, the sender of mdadm's mails ('' clears it: mdadm then writes its own). One line of
 * plain words and an address: it becomes a mail header, so no line break or other character that
 * could start another header gets in.
 */
export function parseMailFrom(input: string): Parsed<string | null> {
    const text = input.trim().replace(/ {2,}/g, ' ');
    if (text === '') return { value: null };
    if (text.length > 254 || !SENDER.test(text)) {
        return fieldError(N_('Enter a sender address (raid@example.com), or a name and the address in angle brackets (RAID monitor <raid@example.com>).'));
    }
    return { value: text };
}

/**
 * '' clears the setting (null); otherwise an absolute path without blanks (mdadm takes the line's
 * first word) or "..". `executable`: whether the host says the file is one it can run (null: not
 * asked yet, which is no error but gives no plan).
 */
export function parseProgram(input: string, executable: boolean | null): Parsed<string | null> {
    const text = input.trim();
    if (text === '') return { value: null };
    if (!PROGRAM.test(text) || text.split('/').includes('..')) {
        return fieldError(N_('Enter the absolute path of a program (letters, digits and . _ + - / only), such as /usr/local/sbin/md-alert.'));
    }
    if (executable === false) return fieldError(N_('There is no program the host can run at $0.'), text);
    return { value: text };
}

export function alertsPlanTitle(): Message {
    return msg(N_('Alerts of mdadm --monitor'));
}

/** Whether the program field still holds the PROGRAM the file names (or none, as it has none). */
function programKept(state: MonitorState, input: string): boolean {
    return input.trim() === (state.conf.program ?? '');
}

/**
 * The PROGRAM the file names already, when the host cannot run it (gone, or no longer executable):
 * said, not refused, so that it blocks no other change; mdadm --monitor tells it nothing.
 */
export function keptProgramWarning(state: MonitorState, input: string, executable: boolean | null): Message | null {
    const program = state.conf.program;
    return program !== null && executable === false && programKept(state, input)
        ? msg(N_('There is no program the host can run at $0: mdadm --monitor cannot tell it anything. Enter another one, or empty the field to remove the line.'), program)
        : null;
}

/** What the dialog's fields hold, and the systemctl that restarts the monitor. */
export interface AlertsInput {
    mailAddr: string;
    mailFrom: string;
    program: string;
    systemctl: string;
}

/** The edit as a plan; a field left as it is writes nothing. */
export function alertsPlan(state: MonitorState, input: AlertsInput,
    programExecutable: boolean | null): PlanResult<AlertField> {
    const { mailAddr: mailAddrInput, program: programInput } = input;
    const mailAddr = parseMailAddr(mailAddrInput);
    const mailFrom = parseMailFrom(input.mailFrom);
    // Only a program typed in is refused when the host cannot run it (keptProgramWarning).
    const program = parseProgram(programInput, programKept(state, programInput) ? null : programExecutable);
    if (mailAddr.error || mailFrom.error || program.error) {
        return { errors: { mailAddr: mailAddr.error, mailFrom: mailFrom.error, program: program.error } };
    }
    if (program.value !== null && program.value !== state.conf.program && programExecutable === null) {
        return { errors: {} };
    }
    const before = state.confFiles.find(f => f.path === state.confPath)?.text ?? null;
    const edits: LineEdit[] = [];
    if (mailAddr.value !== state.conf.mailAddr) edits.push(monitorSettingEdit('MAILADDR', mailAddr.value));
    if (mailFrom.value !== state.conf.mailFrom) edits.push(monitorSettingEdit('MAILFROM', mailFrom.value));
    if (program.value !== state.conf.program) edits.push(monitorSettingEdit('PROGRAM', program.value));
    const steps: Step[] = [];
    if (applyLineEdits(before, 'mdadm-conf', edits) !== (before ?? '')) {
        steps.push({ kind: 'edit-file', setting: msg(N_('mdadm configuration $0'), state.confPath), path: state.confPath,
            format: 'mdadm-conf', edits, opened: before });
        const unit = monitorUnit(state);
        if (unit?.activeState === 'active') {
            const restart = [input.systemctl, 'restart', unit.id];
            steps.push({ kind: 'run', setting: msg(N_('monitor service $0'), unit.id), argv: restart, undoArgv: restart });
        }
    }
    const plan: Plan = { title: alertsPlanTitle(), steps };
    const warnings = mailAddr.value === null && program.value === null && steps.length
        ? [msg(N_('With neither an address nor a program, mdadm --monitor tells nobody when a disk fails.'))] : [];
    return { plan, warnings };
}

/**
 * Why a test alert that mdadm reported as sent reached nobody: mdadm hands its mail to `sendmail`
 * and runs PROGRAM in a child, and ignores how either ended, so a missing mail program or a PROGRAM
 * the host cannot run fails silently. `sendmail`: where mdadm's mail program is. null: nothing to say.
 */
export function testAlertProblem(state: MonitorState, programExecutable: boolean | null,
    sendmail: string): Message | null {
    const mailAddr = state.conf.mailAddr;
    if (mailAddr !== null && state.sendmail === false) {
        return msg(N_('mdadm --monitor ran, but the host has no mail program at $0: no mail for $1 was sent.'), sendmail, mailAddr);
    }
    return state.conf.program !== null && programExecutable === false
        ? msg(N_('mdadm --monitor ran, but there is no program the host can run at $0 (PROGRAM): it was not told.'), state.conf.program)
        : null;
}

/** What mdadm did with a test alert, whom it handed what: mdadm only hands a mail over. */
export function testAlertHanded(state: MonitorState, sendmail: string): Message[] {
    const handed: Message[] = [];
    if (state.conf.mailAddr !== null) {
        handed.push(msg(N_('A TestMessage mail for each array was handed to $0 for $1: whether it arrived, that mailbox tells.'),
            sendmail, state.conf.mailAddr));
    }
    if (state.conf.program !== null) handed.push(msg(N_('$0 ran once for each array, with TestMessage and the array.'), state.conf.program));
    return handed;
}

/** The test alert: every array gets a TestMessage event, mailed and passed to PROGRAM as a real one would be. */
export function testAlertArgv(mdadm: string, state: MonitorState): string[] {
    return [mdadm, '--monitor', '--scan', '--oneshot', '--test', `--config=${state.confPath}`];
}
