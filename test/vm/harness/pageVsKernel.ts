// SPDX-License-Identifier: LGPL-2.1-or-later
// What raidtune's page shows for one array (read in ONE pass over the DOM), and the check that it
// says what the guest kernel and mdadm said around that moment (readKernel() before and after).
// Expected texts are derived here from the kernel's values, not from raidtune's own code.
import type { Page } from 'playwright-core';
import { arrayActionLabels, cardInView, waitForRefreshes } from '../../browser/harness/raidtunePage';
import { kernelArray, readKernel, type KernelArray, type KernelView } from './kernelFacts';
import type { GuestControl } from '../../../tools/vm/vm';

export interface PageArray {
    name: string;
    /** "RAID 5", "Linear" */
    level: string;
    /** "Clean", "Degraded", ... */
    health: string;
    /** The card's "Term: value" facts (Size, Disks, Kernel state, Metadata, Chunk size, Bitmap, Stripe cache...). */
    facts: Record<string, string>;
    /** The members table, one entry per row (empty slots included). */
    rows: { device: string; role: string; state: string; errors: string }[];
    sync: null | {
        /** "Resync", "Reshape from 3 to 4 disks" */
        title: string;
        /** The percent the bar shows ("12.3%" -> 12.3; "—" -> null). */
        percent: number | null;
        /** The sentence for a sync that does not run; null when running. */
        explanation: string | null;
        /** "Done", "Speed", "Minimum speed", ... */
        facts: Record<string, string>;
    };
}

export async function readPageArray(page: Page, name: string): Promise<PageArray> {
    // On the array's own page (cardInView opens it), scrolled to, as a reader looks at it.
    const inView = await cardInView(page, name);
    return inView.evaluate((card: HTMLElement, arrayName: string) => {
        const text = (el: Element | null) => (el ? (el as HTMLElement).innerText.trim() : '');
        const header = card.querySelector('.pf-v6-c-card__header');
        const headerItems = text(header).split(/\s*\n\s*|\t/);
        const facts: Record<string, string> = {};
        for (const group of card.querySelectorAll('.raidtune-array-facts .pf-v6-c-description-list__group'))
            facts[text(group.querySelector('.pf-v6-c-description-list__term'))] = text(group.querySelector('.pf-v6-c-description-list__description'));
        // The members table by its own class: the card's what-if table has rows too.
        const members = card.querySelector('table.raidtune-members');
        const rows = [...(members?.querySelectorAll('tbody tr') ?? [])].map(row => {
            const cells = [...row.querySelectorAll('td')].map(text);
            return { device: cells[0], role: cells[1], state: cells[2], errors: cells[3] };
        });
        const syncEl = card.querySelector('.raidtune-sync');
        let sync: PageArray['sync'] = null;
        if (syncEl) {
            const measure = text(syncEl.querySelector('.pf-v6-c-progress__status .pf-v6-c-progress__measure'));
            const syncFacts: Record<string, string> = {};
            for (const fact of syncEl.querySelectorAll('.raidtune-sync-fact')) {
                const t = text(fact);
                const colon = t.indexOf(':');
                syncFacts[t.slice(0, colon)] = t.slice(colon + 1).trim();
            }
            const alert = syncEl.querySelector('.raidtune-sync-explanation .pf-v6-c-alert__title');
            sync = {
                title: text(syncEl.querySelector('.pf-v6-c-progress__description')),
                percent: /^[\d.]+%$/.test(measure) ? Number(measure.slice(0, -1)) : null,
                explanation: alert ? text(alert).replace(/^Info alert:\s*/, '') : null,
                facts: syncFacts,
            };
        }
        return {
            name: arrayName,
            level: headerItems.find(t => /^(RAID \d+|Linear|Unknown level|raid\w+)$/.test(t)) ?? '',
            health: text(card.querySelector('.raidtune-health')),
            facts,
            rows,
            sync,
        };
    }, name);
}

/** The actions this tier checks (others, like read-ahead or disk queues, are left to their own tests). */
const CHECKED_ACTIONS = ['Speed limits…', 'Stripe cache…', 'Pause', 'Resume', 'Restart sync', 'Stop check', 'Start check', 'Start repair'];

/** The array's speed-limit, stripe-cache and sync-control actions: its buttons, and its menu's items, in page order. */
export async function syncActions(page: Page, name: string): Promise<{ buttons: string[]; menu: string[] }> {
    const { buttons, menu } = await arrayActionLabels(page, name);
    const checked = (labels: string[]) => labels.filter(label => CHECKED_ACTIONS.includes(label));
    return { buttons: checked(buttons), menu: checked(menu) };
}

/**
 * Reads the kernel, then `show()` brings the page to a state read AFTER that (opening or reloading
 * it, or waiting for refreshes: see afterRefreshes()), reads the page, reads the kernel again.
 */
export async function pageBetweenKernelReads(guest: GuestControl, show: () => Promise<Page>, names: string[]):
    Promise<{ page: Page; before: KernelView; shown: Map<string, PageArray>; after: KernelView }> {
    const before = await readKernel(guest);
    const page = await show();
    const shown = new Map<string, PageArray>();
    for (const name of names)
        shown.set(name, await readPageArray(page, name));
    const after = await readKernel(guest);
    return { page, before, shown, after };
}

/** For pageBetweenKernelReads on an open page: two more refreshes (the second started after the read). */
export function afterRefreshes(page: Page): () => Promise<Page> {
    return async () => {
        await waitForRefreshes(page, 2);
        return page;
    };
}

// ---- expected texts, from the kernel's values ----

function levelText(level: string): string {
    const raid = level.match(/^raid(\d+)$/);
    return raid ? `RAID ${raid[1]}` : level === 'linear' ? 'Linear' : level;
}

function healthFromMdadm(state: string): string {
    if (/\b(FAILED|Not Started)\b/.test(state))
        return 'Failed';
    return /\bdegraded\b/.test(state) ? 'Degraded' : 'Clean';
}

function chunkText(kib: number): string {
    return kib >= 1024 && kib % 1024 === 0 ? `${kib / 1024} MiB` : `${kib} KiB`;
}

function bitmapText(k: KernelArray): string {
    const location = k.sysfs['bitmap/location'];
    if (location === undefined || location === 'none')
        return 'None';
    const kind = location === 'file' ? 'File' : 'Internal';
    const bytes = Number(k.sysfs['bitmap/chunksize']);
    return bytes ? `${kind}, ${chunkText(bytes / 1024)} chunks` : kind;
}

const ACTION_WORDS: Record<string, string> = {
    resync: 'Resync', recover: 'Rebuild', recovery: 'Rebuild', check: 'Check', repair: 'Repair', reshape: 'Reshape',
};

/** A size the page shows ("508 MiB", "3.25 MiB", "640 KiB") in KiB, with half a unit of its last digit. */
export function parseShownSize(text: string): { kib: number; tolerance: number } {
    const m = text.match(/^(\d+)(?:\.(\d+))? (KiB|MiB|GiB|TiB)$/);
    if (!m)
        throw new Error(`not a size: ${JSON.stringify(text)}`);
    const unit = 1024 ** ['KiB', 'MiB', 'GiB', 'TiB'].indexOf(m[3]);
    const decimals = m[2]?.length ?? 0;
    return { kib: Number(`${m[1]}.${m[2] ?? '0'}`) * unit, tolerance: (0.5 / 10 ** decimals) * unit + 1e-9 };
}

/** "0.20 MiB/s (200 KiB/s), from the system limit" -> { kiBs: 200, source: 'system' }. */
function parseShownLimit(text: string): { kiBs: number; source: string } | null {
    const m = text.match(/^[\d.]+ MiB\/s \((\d+) KiB\/s\), (set for this array|from the system limit)$/);
    return m ? { kiBs: Number(m[1]), source: m[2] === 'set for this array' ? 'local' : 'system' } : null;
}

function kernelLimit(value: string | undefined): { kiBs: number; source: string } | null {
    const m = value?.match(/^(\d+) \((local|system)\)$/);
    return m ? { kiBs: Number(m[1]), source: m[2] } : null;
}

/** The part of the page that must equal the kernel's word for word (given one kernel read). */
function expectedStatic(k: KernelArray) {
    const d = k.detail;
    const rows = d.members.map(m => {
        if (!m.device) {
            return { device: '—', role: `Slot ${m.raidDevice} is empty: no working disk`, state: 'missing', errors: '—' };
        }
        const dev = m.device.replace('/dev/', '');
        let role: string;
        if (/^active sync\b/.test(m.state)) role = `Active, slot ${m.raidDevice}`;
        else if (m.state === 'spare rebuilding') role = `Rebuilding into slot ${m.raidDevice}`;
        else if (m.state === 'spare') role = 'Spare';
        else if (/faulty/.test(m.state)) role = 'Faulty';
        else role = `? mdadm says ${m.state}`;
        return {
            device: m.device,
            role,
            state: (k.sysfs[`dev-${dev}/state`] ?? '').split(',').join(', ') || '—',
            errors: k.sysfs[`dev-${dev}/errors`] ?? '—',
        };
    });
    const syncAction = k.sysfs.sync_action;
    const hasSync = !!k.mdstat.progress || !!k.mdstat.waiting || syncAction === 'frozen';
    let title: string | null = null;
    if (hasSync) {
        const action = syncAction === 'frozen' || syncAction === undefined || syncAction === 'idle'
            ? (k.mdstat.progress?.action ?? k.sysfs.last_sync_action) : syncAction;
        title = ACTION_WORDS[action] ?? `? ${action}`;
        if (action === 'reshape' && d.delta)
            title = `Reshape from ${d.delta.from} to ${d.delta.to} disks`;
    }
    let explanation: string | null = null;
    if (syncAction === 'frozen')
        explanation = 'Paused (frozen): the sync makes no progress until it is resumed.';
    else if (k.mdstat.waiting === 'DELAYED')
        explanation = 'Waiting: another array on the same disks is syncing';
    return {
        level: levelText(d.level),
        health: healthFromMdadm(d.state),
        facts: {
            Disks: `${d.activeDevices} of ${d.raidDevices} working`,
            'Kernel state': k.sysfs.array_state,
            Metadata: d.version,
            'Chunk size': d.chunkKiB ? chunkText(d.chunkKiB) : '—',
            Bitmap: bitmapText(k),
        },
        stripeCache: k.sysfs.stripe_cache_size === undefined ? null : Number(k.sysfs.stripe_cache_size),
        rows: rows.sort((a, b) => (a.device + a.role).localeCompare(b.device + b.role)),
        sync: hasSync ? { title, explanation } : null,
        limits: hasSync ? { min: kernelLimit(k.sysfs.sync_speed_min), max: kernelLimit(k.sysfs.sync_speed_max) } : null,
    };
}

function shownStatic(p: PageArray) {
    const stripe = p.facts['Stripe cache']?.match(/^(\d+) entries/);
    return {
        level: p.level,
        health: p.health,
        facts: {
            Disks: p.facts.Disks,
            'Kernel state': p.facts['Kernel state'],
            Metadata: p.facts.Metadata,
            'Chunk size': p.facts['Chunk size'],
            Bitmap: p.facts.Bitmap,
        },
        stripeCache: stripe ? Number(stripe[1]) : p.facts['Stripe cache'] === undefined ? null : NaN,
        // A rebuilding member's own progress "(12.3%)" is checked apart.
        rows: p.rows.map(r => ({ ...r, role: r.role.replace(/ \([\d.]+%\)$/, '') }))
            .sort((a, b) => (a.device + a.role).localeCompare(b.device + b.role)),
        sync: p.sync && {
            title: p.sync.title,
            // The waiting sentence names the array waited for: checked by the caller.
            explanation: p.sync.explanation?.replace(/ \(md\d+(, md\d+)*\)\. This one starts when it finishes\.$|\. This one starts when it finishes\.$/, '') ?? null,
        },
        limits: p.sync && { min: parseShownLimit(p.sync.facts['Minimum speed'] ?? ''), max: parseShownLimit(p.sync.facts['Maximum speed'] ?? '') },
    };
}

/**
 * The page's view of an array against the kernel's, read before and after it: what does not move
 * must equal one of the two reads; the progress must lie between them.
 */
export function expectArrayAsKernel(shown: PageArray, beforeView: KernelView, afterView: KernelView): void {
    const before = kernelArray(beforeView, shown.name);
    const after = kernelArray(afterView, shown.name);
    const page = shownStatic(shown);
    const candidates = [expectedStatic(before), expectedStatic(after)];
    // Tell jest which one to diff against: the read the page matches, else the later one.
    const matching = candidates.find(c => JSON.stringify(c) === JSON.stringify(page)) ?? candidates[1];
    expect({ array: shown.name, ...page }).toEqual({ array: shown.name, ...matching });

    // Size: mdadm's Array Size, within the page's rounding.
    const size = parseShownSize(shown.facts.Size);
    expect(Math.abs(size.kib - before.detail.arraySizeKiB)).toBeLessThanOrEqual(size.tolerance);

    // A running sync: the percent and the done counter lie between the two reads of mdstat.
    const [p0, p1] = [before.mdstat.progress, after.mdstat.progress];
    if (shown.sync && p0 && p1 && !before.mdstat.waiting && before.sysfs.sync_action !== 'frozen') {
        expect(shown.sync.percent).not.toBeNull();
        expect(shown.sync.percent!).toBeGreaterThanOrEqual(p0.percent);
        expect(shown.sync.percent!).toBeLessThanOrEqual(p1.percent);
        const done = shown.sync.facts.Done.match(/^(.+) of (.+?)( per disk)?$/);
        expect(done).not.toBeNull();
        // raid10 counts array blocks, the other levels blocks per member device.
        expect(done![3] === ' per disk').toBe(before.detail.level !== 'raid10');
        const [doneShown, totalShown] = [parseShownSize(done![1]), parseShownSize(done![2])];
        expect(Math.abs(totalShown.kib - p0.total)).toBeLessThanOrEqual(totalShown.tolerance);
        expect(doneShown.kib).toBeGreaterThanOrEqual(p0.done - doneShown.tolerance);
        expect(doneShown.kib).toBeLessThanOrEqual(p1.done + doneShown.tolerance);
        expect(shown.sync.facts.Speed).toMatch(/^[\d.]+ MiB\/s \(\d+ KiB\/s\)$/);
    }
}
