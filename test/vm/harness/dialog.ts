// SPDX-License-Identifier: LGPL-2.1-or-later
// raidtune's change dialog (src/ui/plan/ChangeModal.tsx) as the tests drive it.
import type { Locator, Page } from 'playwright-core';
import { logTiming } from './vmEnv';

export function dialog(page: Page): Locator {
    return page.getByRole('dialog');
}

export function footerButton(page: Page, name: string): Locator {
    return dialog(page).locator('.pf-v6-c-modal-box__footer').getByRole('button', { name, exact: true });
}

/**
 * The commands the dialog says it will run (null when it shows none), once the dialog is there: its
 * code may still be on its way from the guest's bridge when the click that opens it returns.
 */
export async function previewedCommands(page: Page): Promise<string | null> {
    await dialog(page).waitFor();
    const commands = dialog(page).locator('.raidtune-commands');
    return await commands.count() ? (await commands.innerText()).trim() : null;
}

/** The script the open dialog shows under "Shell script" (the automation script view). */
export async function shownScript(page: Page): Promise<string> {
    await dialog(page).getByRole('button', { name: 'Shell script' }).click();
    return dialog(page).locator('#raidtune-shell-script-code').innerText();
}

export const DONE = 'Done. The values were read back from the kernel.';
/** The outcome of a plan that writes no kernel value (files, mdadm, systemctl): nothing is read back. */
export const DONE_NOT_KERNEL = 'Done.';

/**
 * How long an apply may take in the emulated guest: each plan is several round trips through the
 * guest's bridge (the plan's record, the record of originals, each write and its read-back, the
 * record's end). A bound on waiting for the outcome, not a figure held against the page: with the
 * machine loaded well past its two cores (make check's two lanes plus other runs) one took over 30 s.
 */
const APPLY_OUTCOME_MS = 90000;

/** Clicks the primary button and waits for the outcome; returns the outcome's alert titles. */
export async function applyAndWait(page: Page, label = 'Apply'): Promise<string[]> {
    const started = performance.now();
    await footerButton(page, label).click();
    await footerButton(page, 'Close').waitFor({ timeout: APPLY_OUTCOME_MS });
    logTiming(`apply (${label}) to its outcome`, performance.now() - started);
    const titles = await dialog(page).locator('.pf-v6-c-alert__title').allInnerTexts();
    return titles.map(t => t.replace(/^(Success|Danger|Warning|Info) alert:\s*/, '').trim());
}

/** The dialog's state in one DOM pass: error texts, whether its primary button is disabled, the commands shown. */
export async function formState(page: Page): Promise<{
    errors: string[]; applyDisabled: boolean; commands: string | null;
}> {
    return dialog(page).evaluate((el: HTMLElement) => {
        // PatternFly adds ": error status;" for screen readers.
        const errors = [...el.querySelectorAll('.pf-v6-c-helper-text__item.pf-m-error')]
            .map(e => (e as HTMLElement).innerText.replace(/\s*: error status;\s*$/, '').trim());
        const apply = el.querySelector('.pf-v6-c-modal-box__footer button.pf-m-primary') as HTMLButtonElement | null;
        const commands = el.querySelector('.raidtune-commands') as HTMLElement | null;
        return {
            errors,
            applyDisabled: !apply || apply.disabled || apply.getAttribute('aria-disabled') === 'true',
            commands: commands ? commands.innerText.trim() : null,
        };
    });
}
