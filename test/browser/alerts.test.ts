// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, alerts: whether mdadm --monitor tells anyone. The simulated host is made a fresh one
// before the page loads again (an mdadm.conf without MAILADDR or PROGRAM, mdmonitor.service
// inactive): the page warns that nobody is told. Bad input is refused with its message and nothing written; a PROGRAM
// lands in the simulated host's mdadm.conf, is read back, and "Send a test alert" runs the
// simulated `mdadm --monitor --scan --oneshot --test`, which runs that program for the array as
// the real one does (test/vm/alerts.test.ts);
// the undo puts the file's old text back. Issue #31: lines the host's admin adds to mdadm.conf
// while the page is open (ARRAY lines of `mdadm --detail --scan >>`, MAILFROM) survive every change
// and undo, and a second tab that changed the file meanwhile gets "changed since the dialog opened".

import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { Locator, Page } from 'playwright-core';
import { setupRaidtune } from './harness/env';
import { writeUnit } from '../../sim/monitor/hostFiles';
import { changedCount, runPlaybook, runShellScript } from '../shared/runAutomation';
import { changeDialog, closeLeftoverDialog, dialogButton, settingDetails, waitUntil } from './harness/raidtunePage';

const env = setupRaidtune({ scenario: 'raid1-healthy', readySelector: '#monitor-alerts #alerts-change' });
const temp = mkdtempSync(join(tmpdir(), 'raidtune-alerts-'));
const EVENTS = join(temp, 'events');
const PROGRAM = join(temp, 'md-alert');
writeFileSync(PROGRAM, `#!/bin/sh\necho "$*" >> '${EVENTS}'\n`);
chmodSync(PROGRAM, 0o755);

const card = (): Locator => env.page.locator('#monitor-alerts');
/** The line's details (what mdadm.conf and systemd say), opened as an admin opens them. */
const details = () => settingDetails(env.page, 'monitor-alerts');
const fact = async (id: string) => (await details()).locator(`#${id}`).innerText();
const confPath = () => join(env.sim.root, 'etc/mdadm/mdadm.conf');
const confText = () => readFileSync(confPath(), 'utf8');

const FRESH_CONF = '# mdadm.conf of a host whose admin named nobody\nDEVICE partitions\nHOMEHOST <system>\n';

beforeAll(async () => {
    writeFileSync(confPath(), FRESH_CONF);
    writeUnit(env.sim.root, 'mdmonitor.service', { activeState: 'inactive', unitFileState: 'static' });
    await env.page.reload();
    await (await details()).locator('#alerts-fact-service').waitFor();
});

beforeEach(() => closeLeftoverDialog(env.page));

test('a fresh host: nobody is told when a disk fails, and the test alert cannot be sent', async () => {
    await card().getByText('Nobody is told when a disk fails').waitFor();
    expect(confText()).toBe(FRESH_CONF);
    expect(await fact('alerts-fact-conf')).toBe(confPath());
    expect(await fact('alerts-fact-mailaddr')).toBe('none');
    expect(await fact('alerts-fact-program')).toBe('none');
    expect(await fact('alerts-fact-service')).toBe('mdmonitor.service: inactive (static)');
    // The line itself, collapsed or not, says who is told and by what.
    expect(await card().locator('#alerts-summary').innerText()).toBe('Nobody: no address and no program, by mdmonitor.service (inactive)');
    expect(await card().locator('#alerts-test').getAttribute('aria-disabled')).toBe('true');
});

test('an address and no mail transfer agent: danger, naming the address and the missing program', async () => {
    const sendmail = join(env.sim.root, 'usr/sbin/sendmail');
    const kept = readFileSync(sendmail, 'utf8');
    writeFileSync(confPath(), `${FRESH_CONF}MAILADDR ops@example.com\n`);
    writeUnit(env.sim.root, 'mdmonitor.service', { activeState: 'active', unitFileState: 'static' });
    rmSync(sendmail);
    try {
        await env.page.reload();
        const problem = card().locator('.raidtune-alerts-problem');
        await problem.getByText('Alert mails cannot leave this host').waitFor();
        await expect(problem.getAttribute('class')).resolves.toMatch(/pf-m-danger/);
        expect(await problem.locator('p').innerText()).toBe(`mdadm --monitor hands its mail for ops@example.com to ${sendmail}, ` +
            'and this host has none: no mail is sent when a disk fails. Install a mail transfer agent (such as postfix) and send a ' +
            'test alert, or set a PROGRAM that tells someone another way.');
        // With the program back, nothing to say.
        writeFileSync(sendmail, kept);
        chmodSync(sendmail, 0o755);
        await env.page.reload();
        await (await details()).locator('#alerts-fact-service').waitFor();
        await (await details()).locator('#alerts-fact-mailaddr').getByText('ops@example.com').waitFor();
        expect(await card().locator('.raidtune-alerts-problem').count()).toBe(0);
    } finally {
        writeFileSync(sendmail, kept);
        chmodSync(sendmail, 0o755);
        writeFileSync(confPath(), FRESH_CONF);
        writeUnit(env.sim.root, 'mdmonitor.service', { activeState: 'inactive', unitFileState: 'static' });
        await env.page.reload();
        await (await details()).locator('#alerts-fact-service').waitFor();
    }
});

test('a healthy host: Cockpit\'s menu entry carries no status icon', async () => {
    const shell = await env.shellPage();
    await (await settingDetails(shell.frame, 'monitor-alerts')).locator('#alerts-fact-service').waitFor();
    await shell.page.getByRole('link', { name: 'RAID tuning', exact: true }).waitFor();
    expect(await shell.page.locator('.nav-item-status').count()).toBe(0);
});

test('an address with a newline or a shell character, or a program that is not there, is refused and nothing is written', async () => {
    const before = confText();
    await card().locator('#alerts-change').click();
    for (const bad of ['root@example.com\nPROGRAM /bin/sh', 'root;reboot', '$(id)@example.com']) {
        await changeDialog(env.page).locator('#alerts-mailaddr').fill(bad);
        await changeDialog(env.page).getByText('Enter one e-mail address (admin@example.com) or a local user name', { exact: false }).waitFor();
        expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    }
    await changeDialog(env.page).locator('#alerts-mailaddr').fill('');
    await changeDialog(env.page).locator('#alerts-program').fill(join(temp, 'missing'));
    await changeDialog(env.page).getByText(`There is no program the host can run at ${join(temp, 'missing')}.`).waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await dialogButton(env.page, 'Cancel').click();
    expect(confText()).toBe(before);
});

test('a PROGRAM is written to mdadm.conf, read back, receives the test alert, and the undo restores the file', async () => {
    const before = confText();
    await card().locator('#alerts-change').click();
    await changeDialog(env.page).locator('#alerts-program').fill(PROGRAM);
    const commands = changeDialog(env.page).locator('.raidtune-commands');
    await commands.getByText(`PROGRAM ${PROGRAM}`, { exact: false }).waitFor();
    expect(await commands.innerText()).toBe(`# edit ${confPath()}, every other line kept as it is:\n#   PROGRAM becomes: PROGRAM ${PROGRAM}`);
    await dialogButton(env.page, 'Apply').click();
    await changeDialog(env.page).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();

    expect(confText()).toBe(`${before}PROGRAM ${PROGRAM}\n`);
    await waitUntil('the program read back', async () => (await fact('alerts-fact-program')) === PROGRAM);
    // Someone is named now, but the monitor service does not run: still nobody told, with the command to start it.
    await card().getByText('The service that runs mdadm --monitor, mdmonitor.service, is inactive', { exact: false }).waitFor();
    expect(await card().locator('.raidtune-alerts-problem pre, .raidtune-alerts-problem code').first().innerText())
        .toContain('systemctl enable --now mdmonitor.service');

    expect(existsSync(EVENTS)).toBe(false);
    await card().locator('#alerts-test').click();
    await card().locator('.raidtune-test-alert-result').getByText('Test alert sent', { exact: false }).waitFor();
    expect(readFileSync(EVENTS, 'utf8')).toBe('TestMessage /dev/md0\nNewArray /dev/md0\n');

    await card().locator('#alerts-undo').click();
    expect(await changeDialog(env.page).locator('.raidtune-commands').innerText()).toBe(`# edit ${confPath()}, every other line kept as it is:\n#   PROGRAM removed`);
    await dialogButton(env.page, 'Apply').click();
    await changeDialog(env.page).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(confText()).toBe(before);
    await waitUntil('the program gone again', async () => (await fact('alerts-fact-program')) === 'none');
});

test('MAILFROM is set from the dialog, a header line refused; the test alert says whom it handed the mail', async () => {
    const before = confText();
    await card().locator('#alerts-change').click();
    const dialog = changeDialog(env.page);
    await dialog.locator('#alerts-mailaddr').fill('ops@example.com');
    // A sender becomes the mail's From: header; a line break would start another header.
    await dialog.locator('#alerts-mailfrom').fill('raid@example.com\nBcc: all@example.com');
    await dialog.getByText('Enter a sender address (raid@example.com), or a name and the address in angle brackets', { exact: false }).waitFor();
    expect(await dialogButton(env.page, 'Apply').isDisabled()).toBe(true);
    await dialog.locator('#alerts-mailfrom').fill('RAID monitor <raid@example.com>');
    const commands = dialog.locator('.raidtune-commands');
    await commands.getByText('MAILFROM RAID monitor <raid@example.com>', { exact: false }).waitFor();
    expect(await commands.innerText()).toBe(`# edit ${confPath()}, every other line kept as it is:\n` +
        '#   MAILADDR becomes: MAILADDR ops@example.com\n#   MAILFROM becomes: MAILFROM RAID monitor <raid@example.com>');
    await dialogButton(env.page, 'Apply').click();
    await dialog.getByText('Done.', { exact: false }).waitFor();
    await dialogButton(env.page, 'Close').click();
    expect(confText()).toBe(`${before}MAILADDR ops@example.com\nMAILFROM RAID monitor <raid@example.com>\n`);
    await waitUntil('the sender read back', async () => (await fact('alerts-fact-mailfrom')) === 'RAID monitor <raid@example.com>');

    const sent = join(env.sim.root, 'var/mail/mdadm-sent');
    rmSync(sent, { force: true });
    try {
        await card().locator('#alerts-test').click();
        const result = card().locator('.raidtune-test-alert-result');
        await result.getByText('Test alert sent', { exact: false }).waitFor();
        await expect(result.getAttribute('class')).resolves.toMatch(/pf-m-success/);
        expect(await result.locator('.raidtune-test-alert-handed').allInnerTexts()).toEqual([
            `A TestMessage mail for each array was handed to ${join(env.sim.root, 'usr/sbin/sendmail')} for ops@example.com: ` +
            'whether it arrived, that mailbox tells.']);
        expect(readFileSync(sent, 'utf8')).toBe('To: ops@example.com\nFrom: RAID monitor <raid@example.com>\nSubject: TestMessage event on /dev/md0\n\n');
    } finally {
        writeFileSync(confPath(), before);
        await env.page.reload();
        await waitUntil('the sender gone', async () => (await fact('alerts-fact-mailfrom')) === 'none');
    }
});

/** Opens the alerts dialog on `surface`, sets MAILADDR and presses Apply. */
async function applyMailAddr(surface: Page, value: string): Promise<void> {
    await surface.locator('#monitor-alerts #alerts-change').click();
    await changeDialog(surface).locator('#alerts-mailaddr').fill(value);
    await changeDialog(surface).locator('.raidtune-commands').getByText(`MAILADDR ${value}`, { exact: false }).waitFor();
    await dialogButton(surface, 'Apply').click();
}

async function done(surface: Page): Promise<void> {
    await changeDialog(surface).getByText('Done.', { exact: false }).waitFor();
    await dialogButton(surface, 'Close').click();
}

const SCAN = 'ARRAY /dev/md0 metadata=1.2 UUID=3b1c5e2a:7d4f4a9e:9c1b5f6e:7d8c9a0b\nMAILFROM raid@example.com\n';

test('lines appended to mdadm.conf after the page loaded survive the change and its undo, byte for byte', async () => {
    const loaded = confText();
    // What `mdadm --detail --scan >> mdadm.conf` and an admin's editor do behind the page's back.
    writeFileSync(confPath(), `${loaded}${SCAN}`);
    await applyMailAddr(env.page, 'ops@example.com');
    await done(env.page);
    expect(confText()).toBe(`${loaded}${SCAN}MAILADDR ops@example.com\n`);
    await waitUntil('the address read back', async () => (await fact('alerts-fact-mailaddr')) === 'ops@example.com');

    // More lines after the change: the undo takes back the MAILADDR line alone.
    writeFileSync(confPath(), `${confText()}# added after the change\n`);
    await card().locator('#alerts-undo').click();
    await dialogButton(env.page, 'Apply').click();
    await done(env.page);
    expect(confText()).toBe(`${loaded}${SCAN}# added after the change\n`);
    writeFileSync(confPath(), loaded);
});

test('the file keeps its owner and mode', async () => {
    chmodSync(confPath(), 0o640);
    await applyMailAddr(env.page, 'mode@example.com');
    await done(env.page);
    expect(statSync(confPath()).mode & 0o777).toBe(0o640);
    expect(confText()).toContain('MAILADDR mode@example.com\n');
});

test('two tabs: the second gets "changed since the dialog opened", and Apply anyway keeps the first tab\'s other lines', async () => {
    const other = await env.openPage();
    await (await settingDetails(other.page, 'monitor-alerts')).locator('#alerts-fact-service').waitFor();
    // Both dialogs open on the same file; the first tab applies, then the second.
    await env.page.locator('#monitor-alerts #alerts-change').click();
    await changeDialog(env.page).locator('#alerts-program').fill(PROGRAM);
    await applyMailAddr(other.page, 'second@example.com');
    await done(other.page);
    const afterSecond = confText();
    expect(afterSecond).toContain('MAILADDR second@example.com\n');

    await changeDialog(env.page).locator('.raidtune-commands').getByText(`PROGRAM ${PROGRAM}`, { exact: false }).waitFor();
    await dialogButton(env.page, 'Apply').click();
    const changed = changeDialog(env.page).locator('.raidtune-changed-since-opened');
    await changed.getByText('the file changed since the dialog opened', { exact: false }).waitFor();
    expect(confText()).toBe(afterSecond);
    await dialogButton(env.page, 'Apply anyway').click();
    await done(env.page);
    // The second tab's MAILADDR stays: the first tab's dialog set PROGRAM alone.
    expect(confText()).toBe(`${afterSecond}PROGRAM ${PROGRAM}\n`);
});

test('the dialog\'s shell script and playbook change only MAILADDR on a host with its own ARRAY lines; a second run changes nothing', async () => {
    await card().locator('#alerts-change').click();
    const dialog = changeDialog(env.page);
    await dialog.locator('#alerts-mailaddr').fill('fleet@example.com');
    await dialog.locator('.raidtune-commands').getByText('MAILADDR fleet@example.com', { exact: false }).waitFor();
    await dialog.getByRole('button', { name: 'Shell script' }).click();
    const script = await dialog.locator('#raidtune-shell-script-code').innerText();
    await dialog.getByRole('button', { name: 'Ansible playbook' }).click();
    const book = await dialog.locator('#raidtune-ansible-playbook-code').innerText();
    await dialogButton(env.page, 'Cancel').click();

    // The other host's own file (its path as on this host: the plan names the simulated one).
    const theirs = '# mdadm.conf of another host\nARRAY /dev/md/data metadata=1.2 UUID=aaaaaaaa:bbbbbbbb:cccccccc:dddddddd\n' +
        'MAILADDR ops@other\nARRAY /dev/md/logs metadata=1.2 UUID=eeeeeeee:ffffffff:00000000:11111111\n';
    const wanted = theirs.replace('MAILADDR ops@other', 'MAILADDR fleet@example.com');
    const otherHost = (name: string) => {
        const root = join(temp, name);
        mkdirSync(dirname(join(root, confPath())), { recursive: true });
        writeFileSync(join(root, confPath()), theirs);
        return root;
    };
    const bySh = otherHost('by-sh');
    const first = runShellScript(bySh, script);
    expect(first.stderr).toBe('');
    expect(readFileSync(join(bySh, confPath()), 'utf8')).toBe(wanted);
    expect(runShellScript(bySh, script).stdout).toContain('finished: 0 changed');

    const byAnsible = otherHost('by-ansible');
    writeFileSync(join(byAnsible, 'playbook.yml'), book);
    expect(runPlaybook(byAnsible, join(byAnsible, 'playbook.yml')).status).toBe(0);
    expect(readFileSync(join(byAnsible, confPath()), 'utf8')).toBe(wanted);
    expect(changedCount(runPlaybook(byAnsible, join(byAnsible, 'playbook.yml')))).toBe(0);
});

test('a PROGRAM the host can no longer run blocks no other change, and the test alert says it was not told (#31)', async () => {
    const gone = join(temp, 'removed-alert');
    writeFileSync(confPath(), `${FRESH_CONF}MAILADDR root\nPROGRAM ${gone}\n`);
    await env.page.reload();
    await (await details()).locator('#alerts-fact-program').getByText(gone).waitFor();

    await card().locator('#alerts-change').click();
    const dialog = changeDialog(env.page);
    await dialog.locator('.raidtune-program-missing')
        .getByText(`There is no program the host can run at ${gone}: mdadm --monitor cannot tell it anything.`, { exact: false }).waitFor();
    await dialog.locator('#alerts-mailaddr').fill('ops@example.com');
    await dialog.locator('.raidtune-commands').getByText('MAILADDR ops@example.com', { exact: false }).waitFor();
    await dialogButton(env.page, 'Apply').click();
    // A file is not read back from the kernel (#31 item 6h): the outcome does not say it was.
    const outcome = dialog.locator('.pf-v6-c-alert.pf-m-success .pf-v6-c-alert__title');
    await outcome.waitFor();
    expect(await outcome.innerText()).toMatch(/Done\.$/);
    await done(env.page);
    expect(confText()).toBe(`${FRESH_CONF}MAILADDR ops@example.com\nPROGRAM ${gone}\n`);
    await waitUntil('the address read back', async () => (await fact('alerts-fact-mailaddr')) === 'ops@example.com');

    // mdadm exits 0 whether or not it could run PROGRAM: the page does not call that a success.
    await card().locator('#alerts-test').click();
    const result = card().locator('.raidtune-test-alert-result');
    await result.getByText(`The test alert failed: mdadm --monitor ran, but there is no program the host can run at ${gone} (PROGRAM): it was not told.`,
        { exact: false }).waitFor();
    expect(await result.getAttribute('class')).toContain('pf-m-danger');
});
