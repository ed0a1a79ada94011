// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #31: the exported shell script and playbook of an alerts or scheduled-check change edit
// only the directive on the target host, whose mdadm.conf has its own ARRAY lines: every other
// line stays byte for byte, a second run reports 0 changed, and the monitor is restarted only when
// a line changed. Run for real with sh and ansible-playbook -c local on a temp folder.

import { spawnSync } from 'node:child_process';
import { changedCount, runPlaybook, runShellScript } from '../../../shared/runAutomation';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { alertsPlan } from '../../../../src/md/alerts/alertsPlan';
import { OWN_WINDOW_TIMERS, parseMonitorRead, type MonitorState } from '../../../../src/md/alerts/monitor';
import { OWN_WINDOW_OFF } from '../../../../src/md/alerts/ownWindow';
import { recordingPlan } from '../../../../src/md/historyRecording';
import { scheduleInput, schedulePlan } from '../../../../src/md/alerts/schedulePlan';
import { playbook } from '../../../../src/md/automation/playbook';
import { shellScript } from '../../../../src/md/automation/shellScript';
import { applyLineEdits, type FileFormat, type LineEdit } from '../../../../src/md/lineEdit';
import { msg } from '../../../../src/md/message';
import type { Plan } from '../../../../src/md/plan';

const temp = mkdtempSync(join(tmpdir(), 'raidtune-edit-files-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// A stand-in systemctl that records its arguments: the restart must come only after a change.
const SYSTEMCTL = join(temp, 'bin', 'systemctl');
const CALLS = join(temp, 'systemctl-calls');
mkdirSync(join(temp, 'bin'));
writeFileSync(SYSTEMCTL, `#!/bin/sh\necho "$*" >> '${CALLS}'\n`);
chmodSync(SYSTEMCTL, 0o755);
const calls = () => (existsSync(CALLS) ? readFileSync(CALLS, 'utf8') : '');

/** This host's state: its own mdadm.conf (its ARRAY line, MAILADDR root) and mdmonitor running. */
function hostState(files: Record<string, string>): MonitorState {
    const lines = Object.entries(files).flatMap(([path, text]) => [`@@file /etc/${path}`, ...text.replace(/\n$/, '').split('\n').map(l => `|${l}`)]);
    const units = ['@@units', 'Id=mdmonitor.service', 'LoadState=loaded', 'ActiveState=active', 'UnitFileState=static', ''];
    return parseMonitorRead([...lines, ...units, '@@end'].join('\n') + '\n', '/etc');
}

const HERE = hostState({ 'mdadm/mdadm.conf': 'MAILADDR root\nARRAY /dev/md0 metadata=1.2 UUID=11111111:11111111:11111111:11111111\n' });

function mailPlan(): Plan {
    const result = alertsPlan(HERE, { mailAddr: 'raid-team@example.com', mailFrom: HERE.conf.mailFrom ?? '', program: '', systemctl: SYSTEMCTL }, null);
    if (!result.plan) throw new Error(JSON.stringify(result.errors));
    return result.plan;
}

// The target's own file: a comment, its ARRAY lines, a MAILADDR with a continuation line, MAILFROM,
// a PROGRAM of its own, a blank line, and no newline at the end.
const THERE = '# mdadm.conf of the target\nDEVICE partitions\n\nARRAY /dev/md/data metadata=1.2 UUID=aaaaaaaa:bbbbbbbb:cccccccc:dddddddd\n' +
    'MAILADDR ops@target\n   backup@target\nMAILFROM raid@target\nARRAY /dev/md/logs metadata=1.2 UUID=eeeeeeee:ffffffff:00000000:11111111\n' +
    'PROGRAM /usr/local/sbin/target-alert';

function target(name: string, files: Record<string, string>): string {
    const root = join(temp, name);
    for (const [path, text] of Object.entries(files)) {
        mkdirSync(join(root, 'etc', path, '..'), { recursive: true });
        writeFileSync(join(root, 'etc', path), text, { mode: 0o600 });
    }
    return root;
}

const etc = (root: string, path: string) => readFileSync(join(root, 'etc', path), 'utf8');

// The continuation line belonged to the old MAILADDR (mdadm reads it as more addresses): the script
// takes it with it, as the page does; the playbook's lineinfile cannot see it and leaves it.
const WANTED = THERE.replace('MAILADDR ops@target\n   backup@target\n', 'MAILADDR raid-team@example.com\n');

beforeEach(() => rmSync(CALLS, { force: true }));

describe('the shell script of an alerts change', () => {
    test('changes only MAILADDR in the target\'s mdadm.conf, keeps its mode, restarts once; a second run changes nothing', () => {
        const root = target('sh', { 'mdadm/mdadm.conf': THERE });
        const script = shellScript(mailPlan(), 'Alerts', []);
        expect(script).not.toContain('11111111:11111111');
        const first = runShellScript(root, script);
        expect(first.stderr).toBe('');
        expect(first.status).toBe(0);
        expect(etc(root, 'mdadm/mdadm.conf')).toBe(WANTED);
        expect(statSync(join(root, 'etc/mdadm/mdadm.conf')).mode & 0o777).toBe(0o600);
        expect(calls()).toBe('restart mdmonitor.service\n');
        expect(first.stdout).toContain('finished: 2 changed');

        const second = runShellScript(root, script);
        expect(second.status).toBe(0);
        expect(second.stdout).toContain('finished: 0 changed');
        expect(etc(root, 'mdadm/mdadm.conf')).toBe(WANTED);
        expect(calls()).toBe('restart mdmonitor.service\n');
    });

    test('a target without mdadm.conf gets a new one of that line alone', () => {
        const root = target('sh-new', {});
        expect(runShellScript(root, shellScript(mailPlan(), 'Alerts', [])).status).toBe(0);
        expect(etc(root, 'mdadm/mdadm.conf')).toBe('MAILADDR raid-team@example.com\n');
    });
});

describe('the playbook of an alerts change', () => {
    test('changes only the MAILADDR line with lineinfile; a second run reports changed=0 and restarts nothing', () => {
        const root = target('ansible', { 'mdadm/mdadm.conf': THERE });
        const file = join(root, 'playbook.yml');
        const text = playbook(mailPlan(), 'Alerts', []);
        expect(text).not.toContain('11111111:11111111');
        expect(text).not.toContain('ansible.builtin.copy');
        writeFileSync(file, text);
        const first = runPlaybook(root, file);
        expect(first.status).toBe(0);
        expect(etc(root, 'mdadm/mdadm.conf')).toBe(THERE.replace('MAILADDR ops@target\n', 'MAILADDR raid-team@example.com\n'));
        expect(statSync(join(root, 'etc/mdadm/mdadm.conf')).mode & 0o777).toBe(0o600);
        expect(calls()).toBe('restart mdmonitor.service\n');

        const second = runPlaybook(root, file);
        expect(changedCount(second)).toBe(0);
        expect(calls()).toBe('restart mdmonitor.service\n');
    });
});

describe('the scheduled check switched off (checkarray)', () => {
    const OURS = { 'default/mdadm': 'AUTOCHECK=true\n', 'cron.d/mdadm': '57 0 * * 0 root /usr/share/mdadm/checkarray --cron --all\n' };
    const THEIRS = '# mdadm Debian configuration\nINITRDSTART=\'all\'\nAUTOCHECK=true\nSTART_DAEMON=true\nDAEMON_OPTIONS="--syslog"\n';

    function offPlan(): Plan {
        const state = hostState(OURS);
        const result = schedulePlan(state, 'checkarray', { ...scheduleInput(state, 'checkarray', true), enabled: false },
            { arrays: ['md0'], calendar: null, systemctl: SYSTEMCTL, timerEnabled: true });
        if (!result.plan) throw new Error(JSON.stringify(result.errors));
        return result.plan;
    }

    test('the script and the playbook change AUTOCHECK alone; a second run changes nothing', () => {
        const wanted = THEIRS.replace('AUTOCHECK=true', 'AUTOCHECK=false');
        const bySh = target('off-sh', { 'default/mdadm': THEIRS });
        const script = shellScript(offPlan(), 'Scheduled check', []);
        expect(runShellScript(bySh, script).status).toBe(0);
        expect(etc(bySh, 'default/mdadm')).toBe(wanted);
        expect(runShellScript(bySh, script).stdout).toContain('finished: 0 changed');

        const byAnsible = target('off-ansible', { 'default/mdadm': THEIRS });
        const file = join(byAnsible, 'playbook.yml');
        writeFileSync(file, playbook(offPlan(), 'Scheduled check', []));
        expect(runPlaybook(byAnsible, file).status).toBe(0);
        expect(etc(byAnsible, 'default/mdadm')).toBe(wanted);
        expect(changedCount(runPlaybook(byAnsible, file))).toBe(0);
    });
});

describe('units switched on: a second run changes nothing, and nothing is started again (#31)', () => {
    /** A stand-in systemctl for one target: keeps each unit's enabled and active state, records what changes it. */
    function unitsSystemctl(root: string): { path: string; calls: () => string } {
        const path = join(root, 'bin', 'systemctl');
        const log = join(root, 'systemctl-calls');
        mkdirSync(join(root, 'bin'), { recursive: true });
        writeFileSync(path, [
            '#!/bin/sh', `d='${root}/units'; mkdir -p "$d"`,
            'case $1 in',
            'is-enabled) [ -e "$d/$3.enabled" ] ;;',
            'is-active) [ -e "$d/$3.active" ] ;;',
            `enable) echo "$*" >> '${log}'; shift 2; for u; do touch "$d/$u.enabled" "$d/$u.active"; done ;;`,
            `disable) echo "$*" >> '${log}'; shift 2; for u; do rm -f "$d/$u.enabled" "$d/$u.active"; done ;;`,
            `*) echo "$*" >> '${log}' ;;`,
            'esac', '',
        ].join('\n'));
        chmodSync(path, 0o755);
        return { path, calls: () => (existsSync(log) ? readFileSync(log, 'utf8') : '') };
    }

    /** Runs the plan made for each target twice, by the script and by the playbook. */
    function twice(name: string, planFor: (systemctl: string) => Plan):
        { sh: string[]; ansible: (number | null)[]; calls: string[] } {
        const bySh = join(temp, `${name}-sh`);
        const shUnits = unitsSystemctl(bySh);
        const script = shellScript(planFor(shUnits.path), name, []);
        const sh = [runShellScript(bySh, script), runShellScript(bySh, script)].map(r => {
            expect(r.stderr).toBe('');
            return /finished: (\d+) changed/.exec(r.stdout)?.[0] ?? r.stdout;
        });
        const byAnsible = join(temp, `${name}-ansible`);
        const ansibleUnits = unitsSystemctl(byAnsible);
        const file = join(byAnsible, 'playbook.yml');
        writeFileSync(file, playbook(planFor(ansibleUnits.path), name, []));
        const ansible = [runPlaybook(byAnsible, file), runPlaybook(byAnsible, file)].map(r => {
            expect(r.status).toBe(0);
            return changedCount(r);
        });
        return { sh, ansible, calls: [shUnits.calls(), ansibleUnits.calls()] };
    }

    test('sync history recording turned on: enable --now once', () => {
        const runs = twice('history', systemctl => recordingPlan(true, systemctl));
        expect(runs.sh).toEqual(['finished: 1 changed', 'finished: 0 changed']);
        expect(runs.ansible).toEqual([1, 0]);
        expect(runs.calls).toEqual(Array(2).fill('enable --now raidtune-history.timer\n'));
    });

    test('raidtune\'s check window turned on: its files, daemon-reload, its off and its timers once', () => {
        const monitor = ['Id=mdmonitor.service', 'LoadState=loaded', 'ActiveState=active', 'UnitFileState=static', ''];
        const timers = OWN_WINDOW_TIMERS.flatMap(id => [`Id=${id}`, 'LoadState=loaded', 'ActiveState=inactive', 'UnitFileState=disabled', '']);
        const units = ['@@units', ...monitor, ...timers];
        const state = parseMonitorRead(['@@file /etc/default/mdadm', '|AUTOCHECK=true', ...units, '@@end', ''].join('\n'), '/etc');
        const planFor = (systemctl: string) => {
            const input = { ...scheduleInput(state, 'checkarray', true), windowStart: '00:30', window: '2', windowLimits: 'low-impact' };
            const result = schedulePlan(state, 'checkarray', input, { arrays: ['md0'], calendar: null, systemctl, timerEnabled: true });
            if (!result.plan) throw new Error(JSON.stringify(result.errors));
            return result.plan;
        };
        const runs = twice('window', planFor);
        expect(runs.sh[1]).toBe('finished: 0 changed');
        expect(runs.ansible[1]).toBe(0);
        expect(runs.calls).toEqual(Array(2).fill(
            `daemon-reload\nstart ${OWN_WINDOW_OFF}\nenable --now ${OWN_WINDOW_TIMERS.join(' ')}\n`));
    });
});

describe('the script\'s awk and the page\'s edit', () => {
    const CASES: [string, string | null, FileFormat, LineEdit][] = [
        ['a shortened keyword with continuation lines, the rest without a final newline', 'mail a\n  b\nARRAY x\nMAILF y', 'mdadm-conf',
            { key: 'MAILADDR', lines: ['MAILADDR c'] }],
        ['repeated lines removed, the last one among them', 'PROGRAM /a\nARRAY x\nprog /b', 'mdadm-conf', { key: 'PROGRAM', lines: [] }],
        ['a comment and a longer word left alone', '# MAILADDR x\nMAILADDRESS y\n', 'mdadm-conf', { key: 'MAILADDR', lines: ['MAILADDR z'] }],
        ['an export and blank lines', '\n# c\nexport AUTOCHECK=true\n\nSTART_DAEMON=true\n', 'shell-vars', { key: 'AUTOCHECK', lines: ['AUTOCHECK=false'] }],
        ['several lines put back by an undo', 'A=1\n', 'shell-vars', { key: 'B', lines: ['B=1', 'B=2'] }],
        ['no file', null, 'shell-vars', { key: 'AUTOCHECK', lines: ['AUTOCHECK=false'] }],
        ['an empty file', '', 'mdadm-conf', { key: 'MAILADDR', lines: ['MAILADDR root'] }],
        ['a sysctl with slashes and a leading -, another starting alike', '; c\n -dev/raid/speed_limit_min=5\ndev.raid.speed_limit_minimal = 1\n', 'sysctl',
            { key: 'dev.raid.speed_limit_min', lines: ['dev.raid.speed_limit_min = 9'] }],
    ];

    test.each(CASES)('%s: the same bytes', (name, text, format, edit) => {
        const path = format === 'mdadm-conf' ? 'mdadm/mdadm.conf' : 'default/mdadm';
        const root = target(`same-${CASES.findIndex(c => c[0] === name)}`, text === null ? {} : { [path]: text });
        const plan: Plan = { title: msg('x'), steps: [{ kind: 'edit-file', setting: msg('x'), path: `/etc/${path}`, format, edits: [edit], opened: text }] };
        const run = runShellScript(root, shellScript(plan, 'Edit', []));
        expect(run.stderr).toBe('');
        expect(etc(root, path)).toBe(applyLineEdits(text, format, [edit]));
    });

    test('the script passes sh -n and shellcheck', () => {
        const file = join(temp, 'edit.sh');
        writeFileSync(file, shellScript(mailPlan(), 'Alerts', []));
        expect(spawnSync('sh', ['-n', file]).status).toBe(0);
        const lint = spawnSync('shellcheck', ['-s', 'sh', file], { encoding: 'utf8' });
        expect(lint.stdout).toBe('');
        expect(lint.status).toBe(0);
    });
});
