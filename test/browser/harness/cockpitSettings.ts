// SPDX-License-Identifier: LGPL-2.1-or-later
// Cockpit's per-user settings as the 287 shell stores them, and accessibility checks with axe-core.
//
// - Language: the shell's "Display language" dialog sets the cookie CockpitLang (e.g. "de-de";
//   cockpit-ws then asks the bridge for po.js in that language) and localStorage "cockpit.lang",
//   and reloads. chooseLanguage() does the same in the page's origin.
// - Style: the shell's "Style" menu stores localStorage "shell:style" = auto | dark | light;
//   other documents of the origin (the plugin's iframe) get a `storage` event.
import { readFileSync } from 'node:fs';
import type { Frame, Page } from 'playwright-core';

export type Surface = Page | Frame;

/** Sets Cockpit's display language for the whole origin, as the shell does (no reload). */
export async function chooseLanguage(page: Page, language: string): Promise<void> {
    await page.evaluate(lang => {
        document.cookie = `CockpitLang=${encodeURIComponent(lang)}; path=/; expires=Sun, 16 Jul 3567 06:23:41 GMT`;
        window.localStorage.setItem('cockpit.lang', lang);
    }, language);
}

/** Sets the shell's style for the whole origin; open documents see it through the storage event. */
export async function chooseStyle(page: Page, style: 'auto' | 'dark' | 'light'): Promise<void> {
    await page.evaluate(value => window.localStorage.setItem('shell:style', value), style);
}

/** Relative luminance (0 black .. 1 white) of a CSS rgb()/rgba() colour. */
export function luminance(color: string): number {
    const m = color.match(/rgba?\(\s*(\d+)[,\s]+(\d+)[,\s]+(\d+)/);
    if (!m) throw new Error(`not an rgb() colour: ${color}`);
    const [r, g, b] = m.slice(1, 4).map(v => {
        const c = Number(v) / 255;
        return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r + 0.7152 * g + 0.0722 * b;
}

export interface AxeViolation {
    id: string;
    impact: 'minor' | 'moderate' | 'serious' | 'critical' | null;
    help: string;
    nodes: { target: string[]; summary: string }[];
}

const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/**
 * Runs axe-core on the surface's document. The script is evaluated through the DevTools protocol
 * (Playwright's evaluate), which Cockpit's Content-Security-Policy does not apply to; a <script>
 * element (page.addScriptTag, inline or not) would be blocked or load a file the page does not serve.
 */
export async function runAxe(surface: Surface): Promise<AxeViolation[]> {
    // Colours fade after a style switch (PatternFly's transitions): axe must read the end state,
    // not a light link colour on a background that is already dark.
    await surface.waitForFunction(() => document.getAnimations().every(a => !(a instanceof CSSTransition) || a.playState !== 'running'));
    const loaded = await surface.evaluate('typeof window.axe === "object"');
    if (!loaded)
        await surface.evaluate(`${AXE_SOURCE}\n;0`);
    return surface.evaluate(async () => {
        type Axe = { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> };
        const axe = (window as unknown as { axe: Axe }).axe;
        const result = await axe.run(document, { resultTypes: ['violations'] });
        return result.violations.map(v => ({
            id: v.id,
            impact: v.impact,
            help: v.help,
            nodes: v.nodes.map(n => ({ target: n.target, summary: (n as unknown as { failureSummary?: string }).failureSummary ?? '' })),
        }));
    });
}

/** The violations that fail a test: serious or critical. */
export function severe(violations: AxeViolation[]): AxeViolation[] {
    return violations.filter(v => v.impact === 'serious' || v.impact === 'critical');
}

export function formatViolations(violations: AxeViolation[]): string {
    return violations.map(v => `${v.impact} ${v.id}: ${v.help}\n${v.nodes.map(n => `    ${n.target.join(' ')}\n      ${n.summary.replace(/\n/g, '\n      ')}`).join('\n')}`).join('\n');
}
