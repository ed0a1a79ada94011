// SPDX-License-Identifier: LGPL-2.1-or-later
// PatternFly's faces say font-display: fallback: text drawn before its face came is drawn in the
// system's font, then drawn again in the face when it comes (up to 3 s later), every line a little
// wider or narrower; on a loaded host the page's buttons moved under the admin's pointer that way
// (page-opening.test.ts). So the page asks for the faces its first view draws with as it starts
// (index.tsx), and draws once they are in (main.tsx), or once the swap would no longer happen.

/** The faces of the first view: the body's regular and bold, the headings'. */
const FIRST_VIEW_FACES = ['400 1em "Red Hat Text"', '600 1em "Red Hat Text"', '700 1em "Red Hat Display"'];
/** After this long a face not in yet would not be swapped in any more: the system's font stays. */
const SWAP_PERIOD_MS = 3000;

let faces: Promise<void> | null = null;

/** Starts loading the first view's faces, once; resolves when they are in, failed, or late. */
export function loadPageFonts(): Promise<void> {
    faces ??= Promise.race([
        Promise.all(FIRST_VIEW_FACES.map(face => document.fonts.load(face))).then(() => undefined, () => undefined),
        new Promise<void>(resolve => setTimeout(resolve, SWAP_PERIOD_MS)),
    ]);
    return faces;
}
