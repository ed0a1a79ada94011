// SPDX-License-Identifier: LGPL-2.1-or-later
import { isStripeCacheFull, STRIPE_CACHE_FULL_SHARE, stripeCacheShare } from '../../../src/md/stripeCacheUse';

describe('stripe cache use', () => {
    test('full from 90% of the entries: 231 of 256 is, 230 is not', () => {
        expect(STRIPE_CACHE_FULL_SHARE).toBe(0.9);
        expect(isStripeCacheFull(256, 231)).toBe(true);
        expect(isStripeCacheFull(256, 242)).toBe(true);
        expect(isStripeCacheFull(256, 230)).toBe(false);
        expect(isStripeCacheFull(0, 0)).toBe(false);
    });

    test('the share stays within 0..1', () => {
        expect(stripeCacheShare(256, 128)).toBe(0.5);
        expect(stripeCacheShare(256, 300)).toBe(1);
        expect(stripeCacheShare(0, 5)).toBe(0);
    });
});
