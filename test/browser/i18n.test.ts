// SPDX-License-Identifier: LGPL-2.1-or-later
// Translations in a real Cockpit 287: the user picks a language the way the shell's "Display
// language" dialog does (cookie CockpitLang + localStorage "cockpit.lang"), cockpit-ws has the
// bridge answer the page's `po.js` with dist/po.<lang>.js, and the page, its <html lang>, its
// title and the shell's menu entry come out in German or Chinese. No English text that has a
// translation may remain on the page, neither on the overview with its host settings nor on an
// array's own page. Device and kernel attribute names keep their case in every language, also at
// the start of a table cell.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Frame, Page } from 'playwright-core';
import { isTranslated, parsePo } from '../../tools/i18n/po';
import { repoRoot } from '../../tools/cockpit';
import { setupRaidtune } from './harness/env';
import { chooseLanguage } from './harness/cockpitSettings';
import {
    cardInView, changeDialog, dialogButton, memberRoles, openArrayDialog, syncFact, waitUntil,
} from './harness/raidtunePage';

const stateDir = mkdtempSync(join(tmpdir(), 'raidtune-state-'));
const env = setupRaidtune({ scenario: 'raid6-recovery', arrayPage: 'md0', config: { stateDir } });

type Surface = Page | Frame;

interface Case {
    /** The shell's language code (cookie value). */
    cookie: string;
    po: string;
    htmlLang: string;
    title: string;
    degraded: string;
    activeSlot0: string;
    rebuild: string;
    /** The kernel's estimate, e.g. "12 Std. 5 Min.". */
    duration: RegExp;
}

const CASES: Case[] = [
    {
        cookie: 'de-de', po: 'de', htmlLang: 'de', title: 'RAID-Optimierung', degraded: 'Degradiert',
        activeSlot0: 'Aktiv, Slot 0', rebuild: 'Wiederaufbau', duration: /^\d+ Std\. \d+ Min\.$/,
    },
    {
        cookie: 'zh-cn', po: 'zh_CN', htmlLang: 'zh-CN', title: 'RAID 调优', degraded: '已降级',
        activeSlot0: '活动，槽位 0', rebuild: '重建', duration: /^\d+ 小时 \d+ 分钟$/,
    },
];

/** Every text node and every aria-label/title of the page. */
function visibleTexts(surface: Surface): Promise<string[]> {
    return surface.evaluate(() => {
        const texts: string[] = [];
        const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
            const text = node.textContent?.trim();
            if (text) texts.push(text);
        }
        for (const el of document.querySelectorAll('[aria-label], [title]'))
            texts.push(...['aria-label', 'title'].map(a => el.getAttribute(a)?.trim() ?? '').filter(Boolean));
        return texts;
    });
}

/** English msgids (without placeholders) whose translation differs, found as a whole text on the page. */
async function untranslatedOnPage(surface: Surface, language: string): Promise<string[]> {
    const po = parsePo(readFileSync(join(repoRoot(), `po/${language}.po`), 'utf8'));
    const english = new Set(po.entries
        .filter(e => isTranslated(e) && !e.id.includes('$') && e.str[0] !== e.id && e.id.length > 2)
        .map(e => e.id));
    return (await visibleTexts(surface)).filter(text => english.has(text));
}

async function expectTranslated(surface: Surface, c: Case) {
    await surface.waitForSelector(`h1:has-text("${c.title}")`);
    // The page sets it from cockpit.language ("de", "zh-CN"); inside the shell, the shell then
    // writes its own code ("de-de", "zh-cn") into its frames: both name the language.
    const lang = await surface.evaluate(() => document.documentElement.lang);
    expect([c.htmlLang, c.cookie]).toContain(lang);
    await expect(surface.evaluate(() => document.title)).resolves.toBe(c.title);
    // The overview, once its host settings are there (they come a moment after it).
    await surface.locator('#global-limits').waitFor();
    expect(await untranslatedOnPage(surface, c.po)).toEqual([]);
    // md0's own page, as its link in the overview opens it.
    const card = await cardInView(surface, 'md0');
    await expect(card.locator('.raidtune-health').innerText()).resolves.toBe(c.degraded);
    expect((await memberRoles(surface, 'md0')).sda1).toBe(c.activeSlot0);
    await expect(card.locator('.raidtune-sync .pf-v6-c-progress__description').innerText()).resolves.toBe(c.rebuild);
    const estimate = await card.locator('.raidtune-sync-fact').nth(2).innerText();
    expect(estimate.replace(/^[^:：]+[:：]\s*/, '')).toMatch(c.duration);
    expect(await untranslatedOnPage(surface, c.po)).toEqual([]);
}

describe.each(CASES)('$cookie', c => {
    test('Cockpit serves po.js as the translation of the chosen language', async () => {
        const page = (await env.openPage()).page;
        await chooseLanguage(page, c.cookie);
        const po = await page.evaluate(() => fetch('po.js').then(r => r.text()));
        expect(po.startsWith('cockpit.locale({')).toBe(true);
        expect(po).toContain(JSON.stringify(c.title));
        expect(po).toBe(readFileSync(join(repoRoot(), `dist/po.${c.po}.js`), 'utf8'));
    });

    test('the page alone is translated', async () => {
        const page = (await env.openPage()).page;
        await chooseLanguage(page, c.cookie);
        await page.reload();
        await expectTranslated(page, c);
        await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe(c.htmlLang);
    });

    test('the page in the shell is translated, and so is its menu entry', async () => {
        const shell = await env.shellPage();
        await chooseLanguage(shell.page, c.cookie);
        await shell.page.reload();
        const frame = await shell.waitForFrame(env.cockpit.shellFrameName);
        await expectTranslated(frame, c);
        // The shell translates the manifest's label with the packages' po.js ("../*/po.js").
        await shell.page.getByRole('link', { name: c.title, exact: true }).waitFor();
    });
});

test('without a translation for the language the page is English, and po.js is empty (no error)', async () => {
    const page = (await env.openPage()).page;
    await chooseLanguage(page, 'fr-fr');
    const po = await page.evaluate(() => fetch('po.js').then(async r => [r.status, await r.text()] as const));
    expect(po).toEqual([200, '']);
    await page.reload();
    await page.waitForSelector('table.raidtune-overview');
    await expect(page.locator('h1').innerText()).resolves.toBe('RAID tuning');
    await expect(page.evaluate(() => document.documentElement.lang)).resolves.toBe('en');
    expect(await syncFact(page, 'md0', 'Kernel estimate')).toMatch(/^\d+ h \d+ min$/);
});

test('the check for untranslated text finds English on an English page', async () => {
    expect(await untranslatedOnPage(env.page, 'de')).toEqual(expect.arrayContaining(['RAID tuning', 'Degraded', 'Kernel state']));
});

describe('names keep their case at the start of a cell', () => {
    /** The Setting cells of the "Keep after reboot" table, from the DOM (laid out or not). */
    const settingCells = (surface: Surface) => surface.locator('#keep-after-reboot tbody tr td:first-child')
        .evaluateAll(cells => cells.map(cell => cell.textContent?.trim() ?? ''));
    /** The leading word of a cell when it is a device name (md0, sda) or a kernel attribute name (nr_requests). */
    const leadingName = (cell: string) => cell.match(/^(md\d+|sd[a-z]+\d*|[a-z0-9]+_[a-z0-9_]+)(?![\w-])/i)?.[1] ?? null;

    beforeAll(async () => {
        // Changed through raidtune (the kept-for-reboot table lists a disk's queue only then) and
        // from a shell: the table gets "nr_requests of sdX" and "stripe cache size of md0" rows.
        await openArrayDialog(env.page, 'md0', 'Disk queues…');
        const dialog = changeDialog(env.page);
        await dialog.getByRole('radio', { name: 'Request queue size (nr_requests)', exact: true }).check();
        await dialog.getByLabel('New value for every disk: Request queue size (nr_requests)').fill('128');
        await dialogButton(env.page, 'Apply').click();
        await dialog.getByText('Done.', { exact: false }).waitFor();
        await dialogButton(env.page, 'Close').click();
        await env.writeSim('/sys/block/md0/md/stripe_cache_size', '4096\n');
    });

    test.each([
        { cookie: 'en-us', names: ['nr_requests of sda', 'Stripe cache size of md0'] },
        { cookie: 'de-de', names: ['nr_requests von sda', 'Stripe-Cache-Größe von md0'] },
        { cookie: 'zh-cn', names: ['sda 的 nr_requests', 'md0 的条带缓存大小'] },
    ])('$cookie', async ({ cookie, names }) => {
        const page = (await env.openPage()).page;
        await chooseLanguage(page, cookie);
        await page.reload();
        // Both rows there, whatever their case: the assertions below say what is wrong with them.
        await waitUntil('the settings listed', async () => {
            const cells = (await settingCells(page)).map(cell => cell.toLowerCase());
            return names.every(name => cells.includes(name.toLowerCase()));
        }, 20000);
        const cells = await settingCells(page);
        expect(cells).toEqual(expect.arrayContaining(names));
        const capitalised = cells.filter(cell => {
            const name = leadingName(cell);
            return name !== null && name !== name.toLowerCase();
        });
        expect(capitalised).toEqual([]);
    });
});
