// SPDX-License-Identifier: LGPL-2.1-or-later
// Where the user is: the page's fragment ("#/md0" selects array md0), and links to other Cockpit
// pages through cockpit.jump(). The fragment is read and written here, not through
// cockpit.location: in 287 its getter throws a TypeError on a fragment whose ".." climbs above the
// root ("#/md0/../../etc/passwd") and keeps throwing until the fragment changes, so one odd
// address broke every later click on an array's name. cockpit.js still mirrors each fragment
// change into the shell's address bar (/raidtune#/md0) and its history: it listens to hashchange.

import { cockpitApi } from './cockpit';

/** md device names as the kernel makes them (md0, md127, md_d0, named arrays "md/name" excluded). */
const ARRAY_NAME = /^md[\w.-]*$/;

/**
 * The fragment's path segments with "." and ".." resolved, as cockpit.location resolves them; null
 * when ".." climbs above the root or an escape is malformed: such an address names nothing.
 */
export function fragmentPath(hash: string): string[] | null {
    const path: string[] = [];
    for (const raw of hash.replace(/^#/, '').split('?')[0].split('/')) {
        let segment: string;
        try {
            segment = decodeURIComponent(raw);
        } catch {
            return null;
        }
        if (segment === '' || segment === '.') continue;
        if (segment !== '..') path.push(segment);
        else if (path.pop() === undefined) return null;
    }
    return path;
}

/** The array the URL selects ("#/md0"), or null when it names none. */
export function selectedArray(): string | null {
    const first = fragmentPath(window.location.hash)?.[0];
    return first && ARRAY_NAME.test(first) ? first : null;
}

/** The link target of an array, for href attributes (open in new tab, copy link). */
export function arrayHref(name: string): string {
    return `#/${encodeURIComponent(name)}`;
}

/** The overview's address, the page's root: the way back from an array's page. */
export function overviewHref(): string {
    return '#/';
}

/** Selects an array: the URL becomes "#/name" with a new history entry (Back returns). */
export function selectArray(name: string): void {
    window.location.hash = arrayHref(name);
}

/** Calls `listener` whenever the fragment changes (a click, Back/Forward, a link, the shell). */
export function onLocationChange(listener: () => void): () => void {
    window.addEventListener('hashchange', listener);
    return () => window.removeEventListener('hashchange', listener);
}

/** True inside Cockpit's shell (a frame it named "cockpit1:..."), where cockpit.jump() navigates. */
export function inShell(): boolean {
    return window.parent !== window && window.name.startsWith('cockpit1:');
}

/**
 * True when a link to Cockpit's Storage page works: cockpit-storaged is installed and the page
 * runs in the shell (cockpit.jump() does nothing on the page opened alone).
 */
export function hasStoragePage(): boolean {
    return Boolean(window.cockpit?.manifests.storage) && inShell();
}

/**
 * Opens Cockpit's Storage page (inside the shell: in its frame, like a menu click), at a block
 * device's own page where one is named (`#/sda`: its drive, SMART data and partitions, in the
 * Storage page of Cockpit 287 and of today's alike).
 */
export function openStoragePage(device?: string): void {
    cockpitApi().jump(device ? `/storage#/${encodeURIComponent(device)}` : '/storage');
}
