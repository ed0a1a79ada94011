// Where the user is: the page's fragment ("#/md0" selects array md0) through cockpit.location,
// which Cockpit mirrors into the shell's address bar (/raidtune#/md0) and its history, and links
// to other Cockpit pages through cockpit.jump().

import { cockpitApi } from './cockpit';

/** md device names as the kernel makes them (md0, md127, md_d0, named arrays "md/name" excluded). */
const ARRAY_NAME = /^md[\w.-]*$/;

/** The array the URL selects ("#/md0"), or null. */
export function selectedArray(): string | null {
    const first = window.cockpit ? cockpitApi().location.path[0] : decodeURIComponent(window.location.hash.replace(/^#\/?/, '').split(/[/?]/)[0]);
    return first && ARRAY_NAME.test(first) ? first : null;
}

/** The link target of an array, for href attributes (open in new tab, copy link). */
export function arrayHref(name: string): string {
    return `#/${encodeURIComponent(name)}`;
}

/** Selects an array: the URL becomes "#/name" with a new history entry (Back returns). */
export function selectArray(name: string): void {
    if (window.cockpit) cockpitApi().location.go([name]);
    else window.location.hash = arrayHref(name);
}

/** Calls `listener` whenever the fragment changes (a click, Back/Forward, a link). */
export function onLocationChange(listener: () => void): () => void {
    if (window.cockpit) {
        cockpitApi().addEventListener('locationchanged', listener);
        return () => cockpitApi().removeEventListener('locationchanged', listener);
    }
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

/** Opens Cockpit's Storage page (inside the shell: in its frame, like a menu click). */
export function openStoragePage(): void {
    cockpitApi().jump('/storage');
}
