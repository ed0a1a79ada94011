// SPDX-License-Identifier: LGPL-2.1-or-later
// Issue #15, alerts, on the real kernel and Debian's mdadm 4.2: a PROGRAM set from the page lands
// in the guest's /etc/mdadm.conf (the rest of the file kept), and "Send a test alert" runs the real
// `mdadm --monitor --scan --oneshot --test`, which runs that program with a TestMessage for the
// array md created (and no NewArray: the file's ARRAY line names md0). The guest has no systemd
// (busybox init): the page says the monitor service's state is unknown, no restart is planned, and
// no periodic check is found. An ARRAY line appended after the page opened (`mdadm --detail --scan
// >> mdadm.conf`, issue #31) survives the change, and `mdadm --assemble --scan` still assembles md0
// by it.
import { settingDetails, showOverview, waitUntil } from '../browser/harness/raidtunePage';
import { applyAndWait, footerButton, formState, previewedCommands } from './harness/dialog';
import { createSlowly, mdCreate, waitForCard } from './harness/scenarios';
import { setupVm } from './harness/vmEnv';

const vm = setupVm();
const CONF = '/etc/mdadm.conf';
const PROGRAM = '/run/md-alert';
const EVENTS = '/run/md-alert.events';
const CONF_BEFORE = 'DEVICE partitions\nHOMEHOST <system>\n';

afterEach(() => vm.guest.run(`rm -f ${CONF} ${PROGRAM} ${EVENTS}`));

test('a PROGRAM written from the page is the one the real mdadm --monitor runs for the test alert', async () => {
    await createSlowly(vm.guest, mdCreate('md0', 'raid1', ['vda', 'vdb'], '--assume-clean'));
    await vm.guest.runOk(`rm -f ${EVENTS}; printf '${CONF_BEFORE.replace(/\n/g, '\\n')}' > ${CONF}; ` +
        `printf '#!/bin/sh\\necho "$*" >> ${EVENTS}\\n' > ${PROGRAM}; chmod 755 ${PROGRAM}`);

    const { page } = await vm.openPage();
    await waitForCard(page, 'md0', false);
    // Who is told is a host setting, on the overview below the arrays.
    await showOverview(page);
    const card = page.locator('#monitor-alerts');
    await card.getByText('Nobody is told when a disk fails').waitFor();
    await settingDetails(page, 'monitor-alerts');
    await expect(card.locator('#alerts-fact-service').innerText()).resolves.toBe('unknown (the host has no systemctl)');
    await expect(card.locator('#alerts-fact-conf').innerText()).resolves.toBe(CONF);
    // The guest has neither cron.d nor sysconfig files nor systemd timers: no periodic check.
    await expect(page.locator('#check-schedule').innerText()).resolves.toContain('No periodic check found');

    // What an admin does after creating an array, while the page is open: the change must keep it.
    await vm.guest.runOk(`mdadm --detail --scan >> ${CONF}`);
    const arrayLine = (await vm.guest.runOk(`grep '^ARRAY /dev/md0 ' ${CONF}`)).trim();

    await card.locator('#alerts-change').click();
    // A path the guest cannot run is refused before anything is written.
    await page.locator('#alerts-program').fill('/run/no-such-program');
    await page.locator('#alerts-program').blur();
    await waitUntil('the missing program refused', async () =>
        (await formState(page)).errors.includes('There is no program the host can run at /run/no-such-program.'));
    expect((await formState(page)).applyDisabled).toBe(true);
    await page.locator('#alerts-program').fill(PROGRAM);
    await waitUntil('the plan shown', async () => (await previewedCommands(page)) !== null);
    expect(await previewedCommands(page)).toBe(`# edit ${CONF}, every other line kept as it is:\n#   PROGRAM becomes: PROGRAM ${PROGRAM}`);
    expect((await applyAndWait(page))[0]).toMatch(/^Done\./);
    await footerButton(page, 'Close').click();

    expect(await vm.guest.runOk(`cat ${CONF}`)).toBe(`${CONF_BEFORE}${arrayLine}\nPROGRAM ${PROGRAM}\n`);
    await waitUntil('the program read back', async () => (await card.locator('#alerts-fact-program').innerText()) === PROGRAM);

    await card.locator('#alerts-test').click();
    await card.locator('.raidtune-test-alert-result').getByText('Test alert sent', { exact: false }).waitFor({ timeout: 30000 });
    // Without the ARRAY line mdadm 4.2 would add a NewArray for md0: the kept line is what it reads.
    expect(await vm.guest.runOk(`cat ${EVENTS}`)).toBe('TestMessage /dev/md0\n');

    // The kept ARRAY line is what the real mdadm assembles by.
    await vm.guest.runOk('mdadm --stop /dev/md0 2>&1 && mdadm --assemble --scan 2>&1');
    expect(await vm.guest.runOk('cat /proc/mdstat')).toMatch(/^md0 : active /m);
});
