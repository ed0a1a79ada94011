// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, the host's own check scheduler, read only, per array (shared-disks: md0 and md1). The
// simulated host starts with Debian's checkarray cron job; then it gets the RHEL layout
// (/etc/sysconfig/raid-check listing md0 to check and md1 to repair, run by raid-check.timer with
// systemd's next run) and the page, reloaded, shows that instead; AUTOCHECK=false switches Debian's off.
// Then the changes, as plans (src/md/alerts/schedulePlan.ts): Debian's AUTOCHECK from the dialog;
// raid-check's action, lists and calendar (a drop-in, reloaded and restarted by the simulated
// systemctl, whose next run this machine's real systemd-analyze computes), the card showing the new
// schedule and the undo giving back each file's old text byte for byte; bad input refused with
// systemd's own message and nothing written. Where the check has no window of its own (checkarray,
// raid-check), raidtune's: its timers' drop-ins, its limits file, both timers on, and the undo.
// Issue #31: /etc/default/mdadm and /etc/sysconfig/raid-check are edited line by line, as they are
// at Apply: lines written behind the page's back stay through the change and the undo.

import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { setupRaidtune } from './harness/env';
import { formatViolations, runAxe, severe } from './harness/cockpitSettings';
import { changeDialog, closeLeftoverDialog, dialogButton, openDialog, settingDetails, waitUntil } from './harness/raidtunePage';
import { KERNEL_JOURNAL, writeUnit } from '../../sim/monitor/hostFiles';
import { parseCalendarIterations } from '../../src/md/alerts/checkWindow';
import { englishHostTime, plainSpaces, shownNextRun, systemdCalendar } from './harness/nextRun';

const env = setupRaidtune({ scenario: 'shared-disks', readySelector: '#check-schedule' });

/** The table as the user reads it: one [arrays, scheduled by, action, next run] per distinct schedule. */
async function rows(): Promise<string[][]> {
    return (await settingDetails(env.page, 'check-schedule')).locator('tbody tr').evaluateAll(trs =>
        trs.map(tr => [...tr.querySelectorAll('th, td')].map(c => (c as HTMLElement).innerText))).then(r => r.map(row => row.map(plainSpaces)));
}

function writeEtc(path: string, text: string | null): void {
    const file = join(env.sim.root, 'etc', path);
    if (text === null) return rmSync(file, { force: true });
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
}

const etcPath = (path: string) => join(env.sim.root, 'etc', path);
const etcText = (path: string) => (existsSync(etcPath(path)) ? readFileSync(etcPath(path), 'utf8') : null);

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

/** The simulated host's checkarray line: every Sunday at 01:30, by the host's systemd. */
const everySunday = () => shownNextRun('Sun *-*-* 01:30:00', 'every Sunday');

test('Debian: checkarray from cron checks every array; its next run is a date, not cron\'s fields', async () => {
    // Both arrays are checked alike: one row (issue #33). The cron line's next run is the host's
    // systemd's answer, which comes after the card: until then the row says only "every Sunday".
    await waitUntil('systemd\'s next run for the cron line', async () => (await rows())[0]?.[3] === everySunday());
    expect(await rows()).toEqual([['md0, md1', 'checkarray', 'check', everySunday()]]);
    // The line says it without opening: one sentence per distinct schedule.
    expect(await env.page.locator('#check-schedule .raidtune-schedule-summary').allInnerTexts().then(t => t.map(plainSpaces)))
        .toEqual([`md0, md1: check, ${everySunday()}`]);
    // Debian 12's own line runs checkarray only while the day of the month is at most 7.
    writeEtc('cron.d/mdadm', '57 0 * * 0 root if [ -x /usr/share/mdadm/checkarray ] && [ $(date +\\%d) -le 7 ]; ' +
        'then /usr/share/mdadm/checkarray --cron --all --idle --quiet; fi\n');
    await reload();
    const firstSunday = shownNextRun('Sun *-*-01..07 00:57:00', 'first Sunday of the month');
    await waitUntil('the first Sunday of the month', async () => (await rows()).every(r => r[3] === firstSunday));
    writeEtc('cron.d/mdadm', '30 1 * * 0 root /usr/share/mdadm/checkarray --cron --all --idle --quiet\n');
    await reload();
});

test('Debian: AUTOCHECK=false in /etc/default/mdadm switches it off', async () => {
    writeEtc('default/mdadm', 'AUTOCHECK=false\n');
    await reload();
    expect((await rows()).map(r => [r[0], r[2], r[3]])).toEqual([['md0, md1', 'not checked', 'disabled']]);
});

test('the overview marks an array whose periodic check is overdue: none enabled, then a last recorded check too old', async () => {
    // Left by the test above: AUTOCHECK=false, so no scheduler checks md0 or md1.
    const due = (array: string) => env.page.locator(`#raidtune-overview tr[data-array="${array}"] .raidtune-overview-check-due`);
    /** The mark, and the reason its tooltip gives on hover. */
    const reason = async (array: string) => {
        await due(array).hover();
        const tip = env.page.getByRole('tooltip');
        await tip.waitFor();
        const text = await tip.innerText();
        await env.page.mouse.move(0, 0);
        await tip.waitFor({ state: 'hidden' });
        return [await due(array).innerText(), text];
    };
    await waitUntil('both marked', async () => await due('md0').count() === 1 && await due('md1').count() === 1);
    for (const array of ['md0', 'md1']) expect(await reason(array)).toEqual(['Check overdue', 'The periodic check is disabled.']);
    // Checked every Sunday again (the simulated host's line): md0's last check ended 40 days ago,
    // more than a week; md1 has none recorded, and what raidtune cannot tell it does not call late.
    const uuid = readFileSync(join(env.sim.sysRoot, 'block/md0/md/uuid'), 'utf8').trim();
    const history = join(env.sim.root, 'var/lib/raidtune/history', `${uuid}.jsonl`);
    mkdirSync(dirname(history), { recursive: true });
    writeFileSync(history, recordedCheck('md0', uuid, 1_000_000, 1000, 40));
    writeEtc('default/mdadm', 'AUTOCHECK=true\n');
    try {
        await reload();
        const end = JSON.parse(readFileSync(history, 'utf8')).end as number;
        const ended = await env.page.evaluate(t => new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' })
            .format(new Date(t * 1000)), end);
        await waitUntil('md0 late', async () => await due('md0').count() === 1, 30_000);
        expect(await reason('md0')).toEqual(['Check overdue', `The last completed check ended ${ended}, longer ago than its schedule's 7 days.`]);
        expect(await due('md1').count()).toBe(0);
        // The kernel's journal (its own "data-check done." lines, read through journalctl) knows
        // of checks raidtune did not record: md0's two days ago, later than the history's; md1's 20 days ago.
        const now = Math.floor(Date.now() / 1000);
        const md1Ended = now - 20 * 86400;
        mkdirSync(dirname(join(env.sim.root, KERNEL_JOURNAL)), { recursive: true });
        writeFileSync(join(env.sim.root, KERNEL_JOURNAL), [
            `${now - 2 * 86400}.000001 sim kernel: md: md0: data-check done.`,
            `${now - 1 * 86400}.000001 sim kernel: md: md1: data-check interrupted.`,
            `${md1Ended}.000001 sim kernel: md: md1: data-check done.`, ''].join('\n'));
        await reload();
        const md1Date = await env.page.evaluate(t => new Intl.DateTimeFormat('en', { day: 'numeric', month: 'short', year: 'numeric' })
            .format(new Date(t * 1000)), md1Ended);
        await waitUntil('md1 late from the journal', async () => await due('md1').count() === 1, 30_000);
        expect(await reason('md1')).toEqual(['Check overdue', `The last completed check ended ${md1Date}, longer ago than its schedule's 7 days.`]);
        expect(await due('md0').count()).toBe(0);
    } finally {
        rmSync(join(env.sim.root, KERNEL_JOURNAL), { force: true });
        rmSync(history);
        writeEtc('default/mdadm', 'AUTOCHECK=false\n');
        await reload();
    }
});

test('RHEL: raid-check\'s own lists decide per array, raid-check.timer the next run', async () => {
    writeEtc('cron.d/mdadm', null);
    writeEtc('sysconfig/raid-check', 'ENABLED=yes\nCHECK=check\nCHECK_DEVS="md0"\nREPAIR_DEVS="md1"\nSKIP_DEVS=""\n');
    writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'active', unitFileState: 'enabled', nextElapse: 'Sun 2026-11-29 01:00:00 UTC' });
    await reload();
    expect(await rows()).toEqual([
        ['md0', 'raid-check', 'check', englishHostTime('Sun 2026-11-29 01:00:00 UTC')],
        ['md1', 'raid-check', 'repair', englishHostTime('Sun 2026-11-29 01:00:00 UTC')],
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
    const after = '# Written by the installer\nAUTOCHECK=true\nSTART_DAEMON=true';
    await changeDialog(env.page).locator('.raidtune-commands').getByText('AUTOCHECK=true', { exact: false }).waitFor();
    expect(await changeDialog(env.page).locator('.raidtune-commands').innerText())
        .toBe(`# edit ${path}, every other line kept as it is:\n#   AUTOCHECK becomes: AUTOCHECK=true`);
    await applyDialog();
    expect(etcText('default/mdadm')).toBe(after);
    await waitUntil('checkarray on again', async () => (await rows())[0]?.[3] === everySunday());
    await env.page.locator('#schedule-undo').click();
    await applyDialog();
    expect(etcText('default/mdadm')).toBe(before);
    await waitUntil('checkarray off again', async () => (await rows())[0]?.[3] === 'disabled');
});

test('Debian: "Do not run it" changes AUTOCHECK alone in /etc/default/mdadm as it is at Apply; the undo puts back that line alone', async () => {
    writeEtc('default/mdadm', 'AUTOCHECK=true\n');
    await reload();
    await waitUntil('checkarray on', async () => (await rows())[0]?.[3] === everySunday());
    // The package's whole file, written after the page loaded.
    const debian = '# mdadm Debian configuration\nINITRDSTART=\'all\'\nAUTOCHECK=true\nSTART_DAEMON=true\nDAEMON_OPTIONS="--syslog"\n';
    writeEtc('default/mdadm', debian);
    await env.page.locator('#schedule-change-checkarray').click();
    await changeDialog(env.page).locator('#schedule-enabled-no').check();
    await changeDialog(env.page).locator('.raidtune-commands').getByText('AUTOCHECK=false', { exact: false }).waitFor();
    // And one more line while the dialog is open: Apply says so and writes nothing until told.
    writeEtc('default/mdadm', `${debian}VERBOSE=false\n`);
    await dialogButton(env.page, 'Apply').click();
    await changeDialog(env.page).locator('.raidtune-changed-since-opened').waitFor();
    expect(etcText('default/mdadm')).toBe(`${debian}VERBOSE=false\n`);
    await dialogButton(env.page, 'Apply anyway').click();
    await changeDialog(env.page).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    const off = `${debian.replace('AUTOCHECK=true', 'AUTOCHECK=false')}VERBOSE=false\n`;
    expect(etcText('default/mdadm')).toBe(off);
    await waitUntil('checkarray off', async () => (await rows())[0]?.[3] === 'disabled');

    writeEtc('default/mdadm', `${off}# after the change\n`);
    await env.page.locator('#schedule-undo').click();
    await applyDialog();
    expect(etcText('default/mdadm')).toBe(`${debian}VERBOSE=false\n# after the change\n`);
});

test('Debian: a check window of raidtune\'s own (checkarray has none): its timers set and on, with its limits; the undo takes it away', async () => {
    const left = etcText('default/mdadm');
    writeEtc('default/mdadm', 'AUTOCHECK=true\n');
    await reload();
    await waitUntil('checkarray on, no window', async () => (await rows())[0]?.[3] === everySunday());
    const dialog = await openDialog(env.page.locator('#schedule-change-checkarray'));
    const start = dialog.locator('#schedule-window-start');
    expect(await start.inputValue()).toBe('');
    await start.fill('25:00');
    await dialog.getByText('Enter the time the window opens, as HH:MM (such as 01:00); empty: no window.').waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await start.fill('23:30');
    await dialog.getByText('Enter the hours the window stays open, from 0.25 to 23 (such as 6 or 1.5).').waitFor();
    await dialog.locator('#schedule-window').fill('6');
    await dialog.locator('#schedule-window-limits-low-impact').check();

    const timers = ['raidtune-check-window-start.timer', 'raidtune-check-window-end.timer'];
    const file = (id: string) => `systemd/system/${id}.d/raidtune.conf`;
    const dropIn = (id: string, at: string) => `# Written by raidtune: when ${id} runs. The empty line drops the package's own calendar.\n` +
        `[Timer]\nOnCalendar=\nOnCalendar=*-*-* ${at}:00\n`;
    const limits = '# Written by raidtune: md\'s limits while the check window is open (preset low-impact).\n' +
        '/proc/sys/dev/raid/speed_limit_min\t1000\n/proc/sys/dev/raid/speed_limit_max\t200000\n';
    const systemctl = join(env.sim.root, 'bin/systemctl');
    const preview = dialog.locator('.raidtune-commands');
    await preview.getByText('enable --now', { exact: false }).waitFor();
    await dialog.screenshot({ path: 'test-results/screenshots/check-window-dialog.png' });
    expect(await preview.innerText()).toBe([
        `cat > ${etcPath(file(timers[0]))} <<'EOF'\n${dropIn(timers[0], '23:30')}EOF`,
        `cat > ${etcPath(file(timers[1]))} <<'EOF'\n${dropIn(timers[1], '05:30')}EOF`,
        `cat > ${etcPath('raidtune/check-window-limits')} <<'EOF'\n${limits}EOF`,
        `${systemctl} daemon-reload`,
        `${systemctl} start raidtune-check-window@off.service`,
        `${systemctl} enable --now ${timers.join(' ')}`,
    ].join('\n'));
    await applyDialog();
    expect([etcText(file(timers[0])), etcText(file(timers[1])), etcText('raidtune/check-window-limits')])
        .toEqual([dropIn(timers[0], '23:30'), dropIn(timers[1], '05:30'), limits]);
    await waitUntil('the window on the card', async () => (await rows()).every(r =>
        r[3] === `${everySunday()}, checking only from 23:30 to 05:30, with the limits of Low impact`));
    // What systemd holds after the reload: both timers running on raidtune's calendars.
    const held = execFileSync(systemctl, ['show', '--property=ActiveState,TimersCalendar', ...timers], { encoding: 'utf8' });
    expect(held.split('\n').filter(l => /^(ActiveState|TimersCalendar)=/.test(l)).map(l => l.replace(/ ; next_elapse=.*/, ''))).toEqual([
        'ActiveState=active', 'TimersCalendar={ OnCalendar=*-*-* 23:30:00', 'ActiveState=active', 'TimersCalendar={ OnCalendar=*-*-* 05:30:00']);
    // The dialog opens with the window as it is.
    const again = await openDialog(env.page.locator('#schedule-change-checkarray'));
    expect([await again.locator('#schedule-window-start').inputValue(), await again.locator('#schedule-window').inputValue(),
        await again.locator('#schedule-window-limits-low-impact').isChecked()]).toEqual(['23:30', '6', true]);
    await dialogButton(env.page, 'Cancel').click();

    await openDialog(env.page.locator('#schedule-undo'));
    await preview.getByText('disable --now', { exact: false }).waitFor();
    expect(await preview.innerText()).toBe([
        `rm -f ${etcPath('raidtune/check-window-limits')}`, `rm -f ${etcPath(file(timers[1]))}`, `rm -f ${etcPath(file(timers[0]))}`,
        `${systemctl} daemon-reload`, `${systemctl} start raidtune-check-window@off.service`, `${systemctl} disable --now ${timers.join(' ')}`,
    ].join('\n'));
    await applyDialog();
    // The tool's off ran both times: limits from before, paused checks forgotten.
    expect(readFileSync(join(env.sim.root, 'run/systemd-sim/started'), 'utf8')).toBe('raidtune-check-window@off.service\n'.repeat(2));
    expect([etcText(file(timers[0])), etcText(file(timers[1])), etcText('raidtune/check-window-limits')]).toEqual([null, null, null]);
    await waitUntil('no window on the card', async () => (await rows()).every(r => r[3] === everySunday()));

    // A window whose limits were edited by hand: the card names the file, where it is.
    timers.forEach((timer, i) => writeEtc(file(timer), dropIn(timer, ['23:30', '05:30'][i])));
    writeEtc('raidtune/check-window-limits', '/proc/sys/dev/raid/speed_limit_max\t5000\n');
    execFileSync(systemctl, ['daemon-reload']);
    execFileSync(systemctl, ['enable', '--now', ...timers]);
    await reload();
    await waitUntil('the hand-edited limits on the card', async () => (await rows()).every(r =>
        r[3] === `${everySunday()}, checking only from 23:30 to 05:30, with the limits of ${etcPath('raidtune/check-window-limits')}`));
    execFileSync(systemctl, ['disable', '--now', ...timers]);
    for (const path of [...timers.map(file), 'raidtune/check-window-limits']) writeEtc(path, null);
    execFileSync(systemctl, ['daemon-reload']);
    writeEtc('default/mdadm', left);
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
            `# edit ${etcPath('sysconfig/raid-check')}, every other line kept as it is:`,
            '#   CHECK becomes: CHECK=repair', '#   CHECK_DEVS becomes: CHECK_DEVS=""', '#   REPAIR_DEVS becomes: REPAIR_DEVS=""',
            `cat > ${etcPath(DROP_IN)} <<'EOF'\n${dropIn}EOF`,
            `${systemctl} daemon-reload`,
            `${systemctl} try-restart raid-check.timer`,
        ].join('\n'));
        await applyDialog();
        expect(etcText('sysconfig/raid-check')).toBe(sysconfig);
        expect(etcText(DROP_IN)).toBe(dropIn);
        const shown = `${englishHostTime(systemd.next)} (every Saturday)`;
        await waitUntil('the new schedule on the card', async () => (await rows()).every(r => r[2] === 'repair' && r[3] === shown));

        await env.page.locator('#schedule-undo').click();
        await preview.getByText('daemon-reload', { exact: false }).waitFor();
        expect(await preview.innerText()).toBe([
            `rm -f ${etcPath(DROP_IN)}`,
            `# edit ${etcPath('sysconfig/raid-check')}, every other line kept as it is:`,
            "#   REPAIR_DEVS becomes: REPAIR_DEVS='/dev/md1'", '#   CHECK_DEVS becomes: CHECK_DEVS="md0"', '#   CHECK becomes: CHECK=check',
            `${systemctl} daemon-reload`,
            `${systemctl} try-restart raid-check.timer`,
        ].join('\n'));
        await applyDialog();
        expect(etcText('sysconfig/raid-check')).toBe(SYSCONFIG);
        expect(etcText(DROP_IN)).toBeNull();
        const package_ = systemdCalendar('Sun *-*-* 01:00:00');
        await waitUntil('the package\'s schedule again', async () => {
            const now = await rows();
            // The card's rows change from one to two as the refresh after the undo comes in.
            return now.length === 2 && now[0][2] === 'check' && now[1][2] === 'repair' &&
                now.every(r => r[3] === `${englishHostTime(package_.next)} (every Sunday)`);
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
    test('raidtune\'s window on raid-check: the card\'s next run says it, and a whole check is split over it', async () => {
        const timers = ['raidtune-check-window-start.timer', 'raidtune-check-window-end.timer'];
        const at = ['23:30', '05:30'];
        const armed = join(env.sim.root, 'var/lib/raidtune/check-window/limits.armed');
        mkdirSync(dirname(armed), { recursive: true });
        timers.forEach((id, i) => {
            writeEtc(`systemd/system/${id}.d/raidtune.conf`, `[Timer]\nOnCalendar=\nOnCalendar=*-*-* ${at[i]}:00\n`);
            writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', calendar: `*-*-* ${at[i]}:00` });
        });
        // md0's 14-hour check: raid-check.timer starts it on Sunday at 01:00, 4.5 hours until the
        // window closes at 05:30, 6 from 23:30, the last 3.5 the night after.
        try {
            await withRecordedCheck(async () => {
                await reload();
                const systemd = systemdCalendar('Sun *-*-* 01:00:00');
                await waitUntil('the window on the card', async () => (await rows()).every(r =>
                    r[3] === `${englishHostTime(systemd.next)} (every Sunday), checking only from 23:30 to 05:30`));
                expect(await env.page.locator('#whole-check-note').innerText()).toBe('Whole check: at the speed of the array\'s ' +
                    'last recorded check (sync history); a check still running at 05:30 is paused, and goes on when the window opens ' +
                    'again at 23:30.');
                const [start] = systemdRuns('Sun *-*-* 01:00:00', Math.floor(Date.now() / 1000), 1);
                const opens = systemdRuns('*-*-* 23:30:00', start, 2);
                await expectMd0WholeCheck(3, opens[1] + 3.5 * 3600);
                // The window open: the tool's start kept the limits it replaced; the card says what
                // its end writes back.
                writeFileSync(armed, '/proc/sys/dev/raid/speed_limit_max\t2000000\n/proc/sys/dev/raid/speed_limit_min\t50000\n');
                await env.page.locator('#check-window-limits').getByText('A check window is open: its limits are in force, and its ' +
                    'end writes back speed_limit_max 2000000, speed_limit_min 50000.').waitFor();
                await env.page.locator('#check-schedule').screenshot({ path: 'test-results/screenshots/check-window-card.png' });
                rmSync(armed);
                await env.page.locator('#check-window-limits').waitFor({ state: 'detached' });
                // md0's check paused 32 GiB in, and the window's start left it paused: md0 lost a
                // member meanwhile (the tool's record and reason, issue #35).
                const record = join(dirname(armed), '0a1b2c3d-1111-2222-3333-444455550000.window');
                writeFileSync(record, 'paused 67108864 md0 12\n');
                writeFileSync(record.replace(/window$/, 'waiting'), 'degraded md0\n');
                const note = env.page.locator('#check-schedule .raidtune-paused-check[data-array="md0"]');
                await note.getByText('The check of md0 is paused after 32.0 GiB of each member and stays paused: the array is ' +
                    'degraded. The window goes on with it once md0 is whole again.').waitFor();
                expect(await note.getAttribute('class')).toMatch(/pf-m-warning/);
                await env.page.locator('#check-schedule').screenshot({ path: 'test-results/screenshots/check-window-paused.png' });
                rmSync(record.replace(/window$/, 'waiting'));
                await note.getByText('The check of md0 is paused after 32.0 GiB of each member and goes on when the window opens at 23:30.').waitFor();
                rmSync(record);
                await note.waitFor({ state: 'detached' });
            });
        } finally {
            for (const id of timers) {
                writeEtc(`systemd/system/${id}.d/raidtune.conf`, null);
                writeUnit(env.sim.root, id, { activeState: 'inactive', unitFileState: 'disabled' });
            }
            await reload();
        }
    });
});

test('mdcheck: its timers disabled with systemctl, and enabled again by the undo', async () => {
    writeEtc('sysconfig/raid-check', null);
    writeUnit(env.sim.root, 'raid-check.timer', { activeState: 'inactive', unitFileState: 'disabled' });
    rmSync(join(env.sim.root, 'run/systemd-sim/raid-check.timer'));
    for (const [id, calendar] of [['mdcheck_start.timer', 'Sun *-*-1..7 1:00:00'], ['mdcheck_continue.timer', '1:05:00']]) {
        writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', nextElapse: systemdCalendar(calendar).next, calendar });
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
    await waitUntil('mdcheck enabled again', async () => (await rows()).every(r => r[2] === 'check' && r[3] === `${englishHostTime(systemd.next)} (first Sunday of the month)`));
});

/** What this machine's systemd gives as the next runs of a spec after `base` (unix seconds), in UTC. */
/** The runs of a calendar spec in this machine's time zone (the bridge's, as the host's timers run). */
function systemdRuns(spec: string, base: number, count: number): number[] {
    const out = execFileSync('systemd-analyze', ['calendar', `--iterations=${count}`, `--base-time=@${base}`, '--', spec],
        { encoding: 'utf8', env: { ...process.env, LC_ALL: 'C' } });
    return parseCalendarIterations(out);
}

/** md0's last check in its sync history (50,400,000 KiB at 1000 KiB/s: 14 hours) while `body` runs. */
async function withRecordedCheck(body: () => Promise<void>): Promise<void> {
    const uuid = readFileSync(join(env.sim.sysRoot, 'block/md0/md/uuid'), 'utf8').trim();
    const history = join(env.sim.root, 'var/lib/raidtune/history', `${uuid}.jsonl`);
    mkdirSync(dirname(history), { recursive: true });
    writeFileSync(history, recordedCheck('md0', uuid, 50_400_000, 1000));
    try {
        await body();
    } finally {
        rmSync(history);
    }
}

/** md0's "Whole check" cell, once the page knows it: `runs` runs, ending at `finish` in the page's locale. */
async function expectMd0WholeCheck(runs: number, finish: number): Promise<void> {
    const shownFinish = await env.page.evaluate(t => new Date(t * 1000).toLocaleString(), finish);
    const md0 = await waitUntil('md0\'s whole check', async () => {
        const row = (await rows()).find(r => r[0] === 'md0');
        return row && row[4] !== 'not known: no check recorded' && row[4];
    }, 30_000);
    expect(md0).toBe(`${runs} runs, ends about ${shownFinish}`);
}

/** One operation as the recorder writes it (recorder/raidtune-history), ended `endDaysAgo` days ago. */
function recordedCheck(array: string, uuid: string, sizeKiB: number, avgKiBps: number, endDaysAgo = 1): string {
    const end = Math.floor(Date.now() / 1000) - endDaysAgo * 86400;
    const seconds = Math.round(sizeKiB / avgKiBps);
    return JSON.stringify({
        v: 1, array, uuid, type: 'check', start: end - seconds, end, seconds, result: 'finished', limitsChanged: false,
        startKiB: 0, doneKiB: sizeKiB, sizeKiB, avgKiBps, speedMin: 1000, speedMax: 200000, mismatches: 0, interval: 60,
    }) + '\n';
}

test('mdcheck\'s window: a drop-in on both services sets how long one run may check; the undo takes them away', async () => {
    const services = ['mdcheck_start.service', 'mdcheck_continue.service'];
    for (const [id, calendar] of [['mdcheck_start.timer', 'Sun *-*-1..7 1:00:00'], ['mdcheck_continue.timer', '1:05:00']]) {
        writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', nextElapse: systemdCalendar(calendar).next, calendar });
    }
    for (const id of services) {
        writeUnit(env.sim.root, id, { activeState: 'inactive', unitFileState: 'static', environment: '"MDADM_CHECK_DURATION=6 hours"' });
    }
    await reload();
    const systemd = systemdCalendar('Sun *-*-1..7 1:00:00');
    const shown = (window: string) => `${englishHostTime(systemd.next)} (first Sunday of the month), for at most ${window} a run`;
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
    // md0's 14-hour check: six hours on the start night (the 01:05 continuation that night finds it
    // still running), six the next night from 01:05, two the night after.
    await withRecordedCheck(async () => {
        const [start] = systemdRuns('Sun *-*-1..7 1:00:00', Math.floor(Date.now() / 1000), 1);
        const continuations = systemdRuns('1:05:00', start, 3);
        expect(continuations[0] - start).toBe(300);
        await expectMd0WholeCheck(3, continuations[2] + 2 * 3600);
        expect((await rows()).find(r => r[0] === 'md1')?.[4]).toBe('not known: no check recorded');
    });
});

test('mdadm 4.5 and later: mdcheck_continue.timer\'s runs check, mdcheck_start.timer begins a round; the window and the whole check are theirs', async () => {
    // mdadm 4.6's units: mdcheck_start.service only clears the last round's markers and has no
    // window; mdcheck_continue.service checks, daily at 01:00, for at most 6 hours a run.
    const exec = (args: string) => `{ path=/usr/share/mdadm/mdcheck ; argv[]=/usr/share/mdadm/mdcheck ${args} ; ignore_errors=no ; ` +
        'start_time=[n/a] ; stop_time=[n/a] ; pid=0 ; code=(null) ; status=0/0 }';
    const [roundSpec, runSpec] = ['Sun *-*-1..7 0:45:00', '1:00:00'];
    for (const [id, calendar] of [['mdcheck_start.timer', roundSpec], ['mdcheck_continue.timer', runSpec]]) {
        writeUnit(env.sim.root, id, { activeState: 'active', unitFileState: 'enabled', nextElapse: systemdCalendar(calendar).next, calendar });
    }
    writeUnit(env.sim.root, 'mdcheck_start.service', { activeState: 'inactive', unitFileState: 'static', execStart: exec('--restart') });
    writeUnit(env.sim.root, 'mdcheck_continue.service', { activeState: 'inactive', unitFileState: 'static',
        environment: '"MDADM_CHECK_DURATION=6 hours"', execStart: exec('--start --duration ${MDADM_CHECK_DURATION}') });
    try {
        await reload();
        const round = englishHostTime(systemdCalendar(roundSpec).next);
        const next = `${shownNextRun(runSpec, 'every day')}, for at most 6 hours a run, until each array is checked once a round; ` +
            `the next round from ${round} (mdcheck --restart)`;
        await waitUntil('the continuation\'s runs on the card', async () => (await rows()).every(r => r[3] === next));
        // md0's 14-hour check: the round begins at 00:45, its first run is the 01:00 continuation
        // (six hours), then the next night's, then two hours the night after.
        await withRecordedCheck(async () => {
            const [begins] = systemdRuns(roundSpec, Math.floor(Date.now() / 1000), 1);
            const runs = systemdRuns(runSpec, begins, 3);
            expect(runs[0] - begins).toBe(900);
            await expectMd0WholeCheck(3, runs[2] + 2 * 3600);
        });
    } finally {
        for (const id of ['mdcheck_start.service', 'mdcheck_continue.service']) {
            writeUnit(env.sim.root, id, { activeState: 'inactive', unitFileState: 'static', environment: '"MDADM_CHECK_DURATION=6 hours"' });
        }
    }
});

test('the test alert asks before mailing each of the two arrays (issue #33), and sends only on yes', async () => {
    const sent = join(env.sim.root, 'var/mail/mdadm-sent');
    rmSync(sent, { force: true });
    await reload();
    const test = env.page.locator('#monitor-alerts #alerts-test');
    const confirm = env.page.locator('#test-alert-confirm');
    await test.click();
    await confirm.getByText('mdadm --monitor sends one mail per array: 2 mails to root.', { exact: true }).waitFor();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await confirm.waitFor({ state: 'detached' });
    expect(existsSync(sent)).toBe(false);
    await test.click();
    await confirm.getByRole('button', { name: 'Send 2 mails' }).click();
    await env.page.locator('#monitor-alerts .raidtune-test-alert-result').getByText('Test alert sent', { exact: false }).waitFor();
    // One mail per array, in /proc/mdstat's order.
    expect(readFileSync(sent, 'utf8').match(/^Subject: .*$/gm)?.sort()).toEqual(
        ['Subject: TestMessage event on /dev/md0', 'Subject: TestMessage event on /dev/md1']);
});
