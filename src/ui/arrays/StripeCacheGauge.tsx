// SPDX-License-Identifier: LGPL-2.1-or-later
// The stripe cache in use as a gauge an admin reads at a glance, coloured from the point where the
// diagnosis calls the cache full; the words beside it say the same for screen readers and copies.
// Not while a sync runs: a sync keeps every stripe it can in use, so full is its normal state; the
// diagnosis says when the disks wait for it (src/md/diagnosis/whatIf.ts).

import { Progress } from '../pf';
import { _, fmt } from '../../host/i18n';
import { isStripeCacheFull, stripeCacheShare } from '../../md/stripeCacheUse';
import { stripeCacheText } from '../common/labels';

export function StripeCacheGauge({ arrayName, cache, syncing }: {
    arrayName: string; cache: { size: number; active: number | null }; syncing: boolean;
}) {
    const text = stripeCacheText(cache);
    if (cache.active === null) return <>{text}</>;
    return (
        <Progress className="raidtune-stripe-gauge" size="sm" measureLocation="outside"
            value={Math.round(stripeCacheShare(cache.size, cache.active) * 100)} label={text}
            aria-label={fmt(_('Stripe cache of $0 in use'), arrayName)}
            variant={!syncing && isStripeCacheFull(cache.size, cache.active) ? 'danger' : undefined} />
    );
}
