// SPDX-License-Identifier: LGPL-2.1-or-later
// Translation entry points for the UI: every user-visible string goes through these.

import { cockpitApi } from './cockpit';

export function _(text: string): string {
    return window.cockpit ? cockpitApi().gettext(text) : text;
}

export function ngettext(singular: string, plural: string, n: number): string {
    return window.cockpit ? cockpitApi().ngettext(singular, plural, n) : n === 1 ? singular : plural;
}

/** Fill "$0 of $1"-style placeholders (Cockpit's convention, so translators can reorder). */
export function fmt(template: string, ...args: (string | number)[]): string {
    return template.replace(/\$(\d+)/g, (match, i) => (args[Number(i)] === undefined ? match : String(args[Number(i)])));
}

/** The page's language as an HTML lang value ("de", "zh-CN"); "en" when Cockpit has no translation. */
export function documentLanguage(): string {
    const language = window.cockpit?.language || 'en';
    return language.replace('_', '-');
}
