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

/** The edit as a plan; a field left as it is writes nothing. */
export function alertsPlan(state: MonitorState, input: { mailAddr: string; program: string; systemctl: string },
    programExecutable: boolean | null): PlanResult<AlertField> {
    const { mailAddr: mailAddrInput, program: programInput } = input;
    const mailAddr = parseMailAddr(mailAddrInput);
    const program = parseProgram(programInput, programExecutable);
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

/** The test alert: every array gets a TestMessage event, mailed and passed to PROGRAM as a real one would be. */
export function testAlertArgv(mdadm: string, state: MonitorState): string[] {
    return [mdadm, '--monitor', '--scan', '--oneshot', '--test', `--config=${state.confPath}`];
}
