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

export type AlertField = 'mailAddr' | 'program';

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

/** The edit as a plan; a field left as it is writes nothing. */
export function alertsPlan(state: MonitorState, input: { mailAddr: string; program: string; systemctl: string },
    programExecutable: boolean | null): PlanResult<AlertField> {
    const { mailAddr: mailAddrInput, program: programInput } = input;
    const mailAddr = parseMailAddr(mailAddrInput);
    // Only a program typed in is refused when the host cannot run it (keptProgramWarning).
    const program = parseProgram(programInput, programKept(state, programInput) ? null : programExecutable);
    if (mailAddr.error || program.error) return { errors: { mailAddr: mailAddr.error, program: program.error } };
    if (program.value !== null && program.value !== state.conf.program && programExecutable === null) {
        return { errors: {} };
    }
    const before = state.confFiles.find(f => f.path === state.confPath)?.text ?? null;
    const edits: LineEdit[] = [];
    if (mailAddr.value !== state.conf.mailAddr) edits.push(monitorSettingEdit('MAILADDR', mailAddr.value));
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
 * Why a test alert that mdadm reported as sent reached no PROGRAM: mdadm runs it in a child whose
 * failure it ignores, so a PROGRAM the host cannot run fails silently. null: nothing to say.
 */
export function testAlertProblem(state: MonitorState, programExecutable: boolean | null): Message | null {
    return state.conf.program !== null && programExecutable === false
        ? msg(N_('mdadm --monitor ran, but there is no program the host can run at $0 (PROGRAM): it was not told.'), state.conf.program)
        : null;
}

/** The test alert: every array gets a TestMessage event, mailed and passed to PROGRAM as a real one would be. */
export function testAlertArgv(mdadm: string, state: MonitorState): string[] {
    return [mdadm, '--monitor', '--scan', '--oneshot', '--test', `--config=${state.confPath}`];
}
