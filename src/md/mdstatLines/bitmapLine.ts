// SPDX-License-Identifier: LGPL-2.1-or-later
// The bitmap line of a /proc/mdstat stanza:
//   bitmap: 3/8 pages [12KB], 65536KB chunk[, file: /path]

import type { MdstatBitmap } from './types';
import { words } from './words';

const BITMAP_PAGES = /^(\d{1,15})\/(\d{1,15}) pages \[(\d{1,15})KB\]$/;
const BITMAP_CHUNK = /^(\d{1,15})(B|KB|MB|GB) chunk$/;
// Looked up only with BITMAP_CHUNK's unit group.
const CHUNK_UNIT_KIB: Record<string, number> = { B: 1 / 1024, KB: 1, MB: 1024, GB: 1024 * 1024 };

/**
 * `bitmap: 3/8 pages [12KB], 65536KB chunk, file: /path`. Read part by part, so one odd part does
 * not lose the others; returns the parts it could not read.
 */
export function parseBitmap(line: string): { bitmap: MdstatBitmap; unread: string[] } {
    const bitmap: MdstatBitmap = { pagesUsed: null, pagesTotal: null, sizeKiB: null, chunkKiB: null, file: null };
    const unread: string[] = [];
    const body = line.slice(line.indexOf(':') + 1);
    // The file path comes last and may itself contain commas.
    const fileAt = body.search(/,\s*file:/);
    if (fileAt >= 0) bitmap.file = body.slice(body.indexOf('file:', fileAt) + 'file:'.length).trim();
    const parts = (fileAt >= 0 ? body.slice(0, fileAt) : body).split(',').map(p => words(p).join(' '));
    for (const part of parts) {
        const pages = BITMAP_PAGES.exec(part);
        const chunk = BITMAP_CHUNK.exec(part);
        if (pages) {
            bitmap.pagesUsed = Number(pages[1]);
            bitmap.pagesTotal = Number(pages[2]);
            bitmap.sizeKiB = Number(pages[3]);
        } else if (chunk) {
            bitmap.chunkKiB = Number(chunk[1]) * CHUNK_UNIT_KIB[chunk[2]];
        } else if (part !== '') {
            unread.push(part);
        }
    }
    return { bitmap, unread };
}
