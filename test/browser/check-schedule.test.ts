// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, the host's own check scheduler, read only, per array (shared-disks: md0 and md1). The
// simulated host starts with Debian's checkarray cron job; then it gets the RHEL layout
// (/etc/sysconfig/raid-check listing md0 to check and md1 to repair, run by raid-check.timer with
// systemd's next run) and the page, reloaded, shows that instead; AUTOCHECK=false switches Debian's off.
// Then the changes, as plans (src/md/alerts/schedulePlan.ts): Debian's AUTOCHECK from the dialog;
// raid-check's action, lists and calendar (a drop-in, reloaded and restarted by the simulated
// systemctl, whose next run this machine's real systemd-analyze computes), the card showing the new
// schedule and the undo giving back each file's old text byte for byte; bad input refused with
// systemd's own message and nothing written.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setupRaidtune } from './harness/env';
import { formatViolations, runAxe, severe } from './harness/cockpitSettings';
import { changeDialog, closeLeftoverDialog, dialogButton, openDialog, waitUntil } from './harness/raidtunePage';
import { writeUnit } from '../../sim/monitor/hostFiles';

const env = setupRaidtune({ scenario: 'shared-disks', readySelector: '#check-schedule' });

/** The table as the user reads it: one [array, scheduled by, action, next run] per row. */
async function rows(): Promise<string[][]> {
    return env.page.locator('#check-schedule tbody tr').evaluateAll(trs =>
        trs.map(tr => [...tr.querySelectorAll('th, td')].map(c => (c as HTMLElement).innerText.trim())));
}

function writeEtc(path: string, text: string | null): void {
    const file = join(env.sim.root, 'etc', path);
    if (text === null) return rmSync(file, { force: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
}

const etcPath = (path: string) => join(env.sim.root, 'etc', path);
const etcText = (path: string) => (existsSync(etcPath(path)) ? readFileSync(etcPath(path), 'utf8') : null);

/** What this machine's systemd says of a calendar spec: its normalized form and next run. */
function systemdCalendar(spec: string): { normalized: string; next: string } {
    const out = execFileSync('systemd-analyze', ['calendar', '--', spec], { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    const field = (name: string) => new RegExp(`^\\s*${name}: (.*)$`, 'm').exec(out)?.[1] ?? '';
    return { normalized: field('Normalized form'), next: field('Next elapse') };
}

async function applyDialog(): Promise<void> {
    await dialogButton(env.page, 'Apply').click();
    await changeDialog(env.page).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
}

beforeEach(() => closeLeftoverDialog(env.page));

async function reload(): Promise<void> {
    await env.page.reload();
    await env.page.locator('#check-schedule').waitFor();
}

test('Debian: checkarray from cron checks every array', async () => {
    expect(await rows()).toEqual([
        ['md0', 'checkarray', 'check', 'cron: 30 1 * * 0'],
        ['md1', 'checkarray', 'check', 'cron: 30 1 * * 0'],
    ]);
});

test('Debian: AUTOCHECK=false in /etc/default/mdadm switches it off', async () => {
    writeEtc('default/mdadm', 'AUTOCHECK=false\n');
    await reload();
    expect((await rows()).map(r => [r[2], r[3]])).toEqual([['not checked', 'disabled'], ['not checked', 'disabled']]);
});

test('RHEL: raid-check\'s own lists decide per array, raid-check.timer the next run', async () => {
    writeEtc('cron.d/mdadm', null);
    writeEtc('sysconfig/raid-check', 'ENABLED=yes\nCHECK=check\nCHECK_DEVS="md0"\nREPAIR_DEVS="md1"\nSKIP_DEVS=""\n');
    writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'active', unitFileState: 'enabled', nextElapse: 'Sun 2026-11-29 01:00:00 UTC' });
    await reload();
    expect(await rows()).toEqual([
        ['md0', 'raid-check', 'check', 'Sun 2026-11-29 01:00:00 UTC'],
        ['md1', 'raid-check', 'repair', 'Sun 2026-11-29 01:00:00 UTC'],
    ]);
});

test('Debian: AUTOCHECK is switched on from the dialog (the cron time left as the package has it) and off again by the undo', async () => {
    writeEtc('cron.d/mdadm', '30 1 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n');
    writeEtc('sysconfig/raid-check', null);
    // Its last line without a newline: the undo must give that back too.
    const before = '# Written by the installer\nAUTOCHECK=false\nSTART_DAEMON=true';
    writeEtc('default/mdadm', before);
    await reload();
    await env.page.locator('#schedule-change-checkarray').click();
    await changeDialog(env.page).locator('#schedule-cron-note').waitFor();
    await changeDialog(env.page).locator('#schedule-enabled-yes').check();
    const path = etcPath('default/mdadm');
    const after = '# Written by the installer\nAUTOCHECK=true\nSTART_DAEMON=true\n';
    await changeDialog(env.page).locator('.raidtune-commands').getByText('AUTOCHECK=true', { exact: false }).waitFor();
    expect(await changeDialog(env.page).locator('.raidtune-commands').innerText()).toBe(`cat > ${path} <<'EOF'\n${after}EOF`);
    await applyDialog();
    expect(etcText('default/mdadm')).toBe(after);
    await waitUntil('checkarray on again', async () => (await rows())[0][3] === 'cron: 30 1 * * 0');
    await env.page.locator('#schedule-undo').click();
    await applyDialog();
    expect(etcText('default/mdadm')).toBe(before);
    await waitUntil('checkarray off again', async () => (await rows())[0][3] === 'disabled');
});

describe('RHEL raid-check', () => {
    const SYSCONFIG = '# raid-check settings\nENABLED=yes\nCHECK=check\nNICE=low\n# md0 checked, md1 repaired\nCHECK_DEVS="md0"\nREPAIR_DEVS=\'/dev/md1\'\nSKIP_DEVS=""\n';
    const DROP_IN = 'systemd/system/raid-check.timer.d/raidtune.conf';
    const field = (id: string) => changeDialog(env.page).locator(`#${id}`);

    beforeAll(async () => {
        writeEtc('cron.d/mdadm', null);
        writeEtc('default/mdadm', null);
        writeEtc('sysconfig/raid-check', SYSCONFIG);
        writeEtc(DROP_IN, null);
        writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'active', unitFileState: 'enabled',
            nextElapse: 'Sun 2026-11-29 01:00:00 UTC', calendar: 'Sun *-*-* 01:00:00' });
        await reload();
    });

    test('a calendar spec systemd refuses, or an array the host lacks, gets its message, and nothing is written', async () => {
        await env.page.locator('#schedule-change-raid-check').click();
        expect(await field('schedule-calendar').inputValue()).toBe('Sun *-*-* 01:00:00');
        await field('schedule-calendar').fill('Sat 25:00');
        await changeDialog(env.page).getByText("systemd cannot read this calendar spec: Failed to parse calendar specification 'Sat 25:00': Invalid argument").waitFor();
        expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
        await field('schedule-calendar').fill('Sun *-*-* 01:00:00');
        await field('schedule-skip-devs').fill('md1 md7');
        await changeDialog(env.page).getByText('There is no array md7 on this host.').waitFor();
        expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
        // The dialog with an error shown: radio groups, fields and messages named for assistive technology.
        expect(formatViolations(severe(await runAxe(env.page)))).toBe('');
        await dialogButton(env.page, 'Cancel').click();
        expect(etcText('sysconfig/raid-check')).toBe(SYSCONFIG);
        expect(existsSync(dirname(etcPath(DROP_IN)))).toBe(false);
    });

    test('repair everything on Saturdays: preview, apply, the card shows it; the undo gives the files back byte for byte', async () => {
        const spec = 'Sat *-*-* 03:30';
        const systemd = systemdCalendar(spec);
        await env.page.locator('#schedule-change-raid-check').click();
        await field('schedule-action-repair').check();
        await field('schedule-check-devs').fill('');
        await field('schedule-repair-devs').fill('');
        await field('schedule-calendar').fill(spec);
        await changeDialog(env.page).getByText(`Next run: ${systemd.next}`).waitFor();
        const sysconfig = SYSCONFIG.replace('CHECK=check', 'CHECK=repair').replace('CHECK_DEVS="md0"', 'CHECK_DEVS=""')
            .replace("REPAIR_DEVS='/dev/md1'", 'REPAIR_DEVS=""');
        const dropIn = "# Written by raidtune: when raid-check.timer runs. The empty line drops the package's own calendar.\n" +
            `[Timer]\nOnCalendar=\nOnCalendar=${spec}\n`;
        const systemctl = join(env.sim.root, 'bin/systemctl');
        const preview = changeDialog(env.page).locator('.raidtune-commands');
        await preview.getByText('daemon-reload', { exact: false }).waitFor();
        expect(await preview.innerText()).toBe([
            `cat > ${etcPath('sysconfig/raid-check')} <<'EOF'\n${sysconfig}EOF`,
            `cat > ${etcPath(DROP_IN)} <<'EOF'\n${dropIn}EOF`,
            `${systemctl} daemon-reload`,
            `${systemctl} try-restart raid-check.timer`,
        ].join('\n'));
        await applyDialog();
        expect(etcText('sysconfig/raid-check')).toBe(sysconfig);
        expect(etcText(DROP_IN)).toBe(dropIn);
        const shown = `${systemd.next} (${systemd.normalized})`;
        await waitUntil('the new schedule on the card', async () => (await rows()).every(r => r[2] === 'repair' && r[3] === shown));

        await env.page.locator('#schedule-undo').click();
        await preview.getByText('daemon-reload', { exact: false }).waitFor();
        expect(await preview.innerText()).toBe([
            `rm -f ${etcPath(DROP_IN)}`,
            `cat > ${etcPath('sysconfig/raid-check')} <<'EOF'\n${SYSCONFIG}EOF`,
            `${systemctl} daemon-reload`,
            `${systemctl} try-restart raid-check.timer`,
        ].join('\n'));
        await applyDialog();
        expect(etcText('sysconfig/raid-check')).toBe(SYSCONFIG);
        expect(etcText(DROP_IN)).toBeNull();
        const package_ = systemdCalendar('Sun *-*-* 01:00:00');
        await waitUntil('the package\'s schedule again', async () => {
            const now = await rows();
            return now[0][2] === 'check' && now[1][2] === 'repair' && now.every(r => r[3] === `${package_.next} (${package_.normalized})`);
        });
    });

    test('a drop-in systemd has not loaded (no daemon-reload since) is named on the card', async () => {
        writeEtc(DROP_IN, '[Timer]\nOnCalendar=\nOnCalendar=Mon 05:00\n');
        await reload();
        await env.page.locator('#check-schedule .raidtune-dropin-not-loaded').getByText(
            `${etcPath(DROP_IN)} says "Mon 05:00", but systemd follows "Sun *-*-* 01:00:00" for raid-check.timer: run systemctl daemon-reload, or look for another drop-in.`).waitFor();
        writeEtc(DROP_IN, null);
        await reload();
    });
});

test('mdcheck: its timers disabled with systemctl, and enabled again by the undo', async () => {
    writeEtc('sysconfig/raid-check', null);
    writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'inactive', unitFileState: 'disabled' });
    rmSync(join(env.sim.root, 'run/systemd-sim/raid-check.timer'));
    for (const [id, calendar] of [['mdcheck_start.timer', 'Sun *-*-1..7 1:00:00'], ['mdcheck_continue.timer', '1:05:00']]) {
        writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', nextElapse: 'Sun 2026-12-06 01:00:00 UTC', calendar });
    }
    await reload();
    await env.page.locator('#schedule-change-mdcheck').click();
    const dialog = changeDialog(env.page);
    expect(await dialog.locator('#schedule-calendar').inputValue()).toBe('Sun *-*-01..07 01:00:00');
    await dialog.locator('#schedule-enabled-no').check();
    const systemctl = join(env.sim.root, 'bin/systemctl');
    const preview = dialog.locator('.raidtune-commands');
    await preview.getByText('disable', { exact: false }).waitFor();
    expect(await preview.innerText()).toBe(`${systemctl} disable --now mdcheck_start.timer mdcheck_continue.timer`);
    await applyDialog();
    await waitUntil('mdcheck disabled', async () => (await rows()).every(r => r[2] === 'not checked' && r[3] === 'disabled'));

    await env.page.locator('#schedule-undo').click();
    await preview.getByText('enable', { exact: false }).waitFor();
    expect(await preview.innerText()).toBe(`${systemctl} enable --now mdcheck_start.timer mdcheck_continue.timer`);
    await applyDialog();
    const systemd = systemdCalendar('Sun *-*-1..7 1:00:00');
    await waitUntil('mdcheck enabled again', async () => (await rows()).every(r => r[2] === 'check' && r[3] === `${systemd.next} (${systemd.normalized})`));
});

/** What this machine's systemd gives as the next runs of a spec after `base` (unix seconds), in UTC. */
function systemdRuns(spec: string, base: number, count: number): number[] {
    const out = execFileSync('systemd-analyze', ['calendar', `--iterations=${count}`, `--base-time=@${base}`, '--', spec],
        { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C', TZ: 'UTC' } });
    return [...out.matchAll(/(?:Next elapse|Iter\. #\d+): \w+ (\S+) (\S+) UTC/g)].map(m => Date.parse(`${m[1]}T${m[2]}Z`) / 1000);
}

/** One operation as the recorder writes it (recorder/raidtune-history). */
function recordedCheck(array: string, uuid: string, sizeKiB: number, avgKiBps: number): string {
    const end = Math.floor(Date.now() / 1000) - 86400;
    const seconds = Math.round(sizeKiB / avgKiBps);
    return JSON.stringify({
        v: 1, array, uuid, type: 'check', start: end - seconds, end, seconds, result: 'finished', limitsChanged: false,
        startKiB: 0, doneKiB: sizeKiB, sizeKiB, avgKiBps, speedMin: 1000, speedMax: 200000, mismatches: 0, interval: 60,
    }) + '\n';
}

test('mdcheck\'s window: a drop-in on both services sets how long one run may check; the undo takes them away', async () => {
    const services = ['mdcheck_start.service', 'mdcheck_continue.service'];
    for (const [id, calendar] of [['mdcheck_start.timer', 'Sun *-*-1..7 1:00:00'], ['mdcheck_continue.timer', '1:05:00']]) {
        writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', nextElapse: 'Sun 2026-12-06 01:00:00 UTC', calendar });
    }
    for (const id of services) {
        writeUnit(env.sim.root, id, { activeState: 'inactive', unitFileState: 'static', environment: '"MDADM_CHECK_DURATION=6 hours"' });
    }
    await reload();
    const systemd = systemdCalendar('Sun *-*-1..7 1:00:00');
    const shown = (window: string) => `${systemd.next} (${systemd.normalized}), for at most ${window} a run`;
    await waitUntil('the package\'s window on the card', async () => (await rows()).every(r => r[3] === shown('6 hours')));

    const dialog = await openDialog(env.page.locator('#schedule-change-mdcheck'));
    const window = dialog.locator('#schedule-window');
    expect(await window.inputValue()).toBe('');
    await dialog.getByText('In force now: 6 hours').waitFor();
    await window.fill('30');
    await dialog.getByText('Enter the hours one run may check, from 0.25 to 23 (such as 4 or 1.5); empty keeps the package\'s own.').waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);

    await window.fill('1.5');
    const dropIn = (id: string) => `# Written by raidtune: how long one run of ${id} may check (mdcheck --duration).\n` +
        '[Service]\nEnvironment="MDADM_CHECK_DURATION=90 minutes"\n';
    const file = (id: string) => `systemd/system/${id}.d/raidtune.conf`;
    const systemctl = join(env.sim.root, 'bin/systemctl');
    const preview = dialog.locator('.raidtune-commands');
    await preview.getByText('daemon-reload', { exact: false }).waitFor();
    expect(await preview.innerText()).toBe([
        ...services.map(id => `cat > ${etcPath(file(id))} <<'EOF'\n${dropIn(id)}EOF`),
        `${systemctl} daemon-reload`,
    ].join('\n'));
    await applyDialog();
    expect(services.map(id => etcText(file(id)))).toEqual(services.map(dropIn));
    await waitUntil('the new window on the card', async () => (await rows()).every(r => r[3] === shown('90 minutes')));
    // What systemd holds after the reload: the simulated systemctl loaded the drop-ins.
    const held = execFileSync(systemctl, ['show', '--property=Environment', ...services], { encoding: 'utf8' });
    expect(held.split('\n').filter(l => l.startsWith('Environment='))).toEqual(services.map(() => 'Environment="MDADM_CHECK_DURATION=90 minutes"'));

    await openDialog(env.page.locator('#schedule-undo'));
    await preview.getByText('daemon-reload', { exact: false }).waitFor();
    expect(await preview.innerText()).toBe([
        ...[...services].reverse().map(id => `rm -f ${etcPath(file(id))}`),
        `${systemctl} daemon-reload`,
    ].join('\n'));
    await applyDialog();
    expect(services.map(id => etcText(file(id)))).toEqual([null, null]);
    await waitUntil('the package\'s window again', async () => (await rows()).every(r => r[3] === shown('6 hours')));
});

test('a whole check over mdcheck\'s windows: runs and end at the array\'s last recorded speed, from systemd\'s timers', async () => {
    // Left by the test above: mdcheck's timers running, its window the package's 6 hours.
    await waitUntil('no speed known yet', async () => (await rows()).every(r => r[4] === 'not known: no check recorded'));
    expect(await env.page.locator('#whole-check-note').innerText()).toMatch(/^Whole check: at the speed of the array's last recorded check/);
    // md0's last check: 50,400,000 KiB at 1000 KiB/s, 14 hours. Six on the start night (the 01:05
    // continuation that night finds it still running), six the next night from 01:05, two the night after.
    const uuid = readFileSync(join(env.sim.sysRoot, 'block/md0/md/uuid'), 'utf8').trim();
    const history = join(env.sim.root, 'var/lib/raidtune/history', `${uuid}.jsonl`);
    mkdirSync(dirname(history), { recursive: true });
    writeFileSync(history, recordedCheck('md0', uuid, 50_400_000, 1000));
    try {
        const [start] = systemdRuns('Sun *-*-1..7 1:00:00', Math.floor(Date.now() / 1000), 1);
        const continuations = systemdRuns('1:05:00', start, 3);
        expect(continuations[0] - start).toBe(300);
        const finish = continuations[2] + 2 * 3600;
        const shownFinish = await env.page.evaluate(t => new Date(t * 1000).toLocaleString(), finish);
        const md0 = await waitUntil('md0\'s whole check', async () => {
            const row = (await rows()).find(r => r[0] === 'md0');
            return row && row[4] !== 'not known: no check recorded' && row[4];
        }, 30_000);
        expect(md0).toBe(`3 runs, ends about ${shownFinish}`);
        expect((await rows()).find(r => r[0] === 'md1')?.[4]).toBe('not known: no check recorded');
    } finally {
        rmSync(history);
    }
});
