// SPDX-License-Identifier: LGPL-2.1-or-later
import { useState } from 'react';
import { Form, HelperTextItem } from '../pfForms';
import { NumberField } from '../common/NumberField';
import { _, fmt } from '../../host/i18n';
import { formatKiB } from '../../md/format';
import type { ArrayModel } from '../../md/modelTypes';
import { ARRAY_SETTINGS, STRIPE_CACHE_DEFAULT } from '../../md/settings/registry';
import { stripeCacheChoice } from '../../md/tuning/stripeCache';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { ChangeModal } from '../plan/ChangeModal';

function percent(share: number | null): string {
    return share === null ? '?' : `${(share * 100).toFixed(share < 0.01 ? 2 : 1)}%`;
}

/** The memory a new size takes beyond the current one, or gives back (a smaller cache). */
function changeText(extraBytes: number): string {
    return extraBytes < 0
        ? fmt(_('$0 less than now'), formatKiB(-extraBytes / 1024))
        : fmt(_('$0 more than now'), formatKiB(extraBytes / 1024));
}

/** `suggested` prefills the entries, as a diagnosis fix does. */
export function StripeCacheChange({ array: shown, onClose, suggested }: {
    array: ArrayModel; onClose: () => void; suggested?: number;
}) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const [entries, setEntries] = useState(String(suggested ?? array.stripeCache?.size ?? STRIPE_CACHE_DEFAULT));
    const { result, entries: parsed, cost } = stripeCacheChoice(model, array, entries);
    const { min, max } = ARRAY_SETTINGS.stripeCache.bounds;
    const memory = model.memory;
    const shares = cost === null ? [] : [
        changeText(cost.extraBytes), percent(cost.ofTotal), formatKiB(memory?.totalKiB ?? null),
        percent(cost.ofAvailable), formatKiB(memory?.availableKiB ?? null),
    ];
    return (
        <ChangeModal title={fmt(_('Stripe cache of $0'), array.name)} plan={result.plan ?? null} warnings={result.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <NumberField id={`${array.name}-stripe-cache`} label={fmt(_('Entries ($0 to $1)'), min, max)}
                    value={entries} onChange={setEntries} error={result.errors?.entries}>
                    {cost && (
                        <HelperTextItem className="raidtune-stripe-cost">
                            {cost.pagesPerStripe === array.raidDisks
                                ? fmt(_('Memory: $0 = page size $1 × $2 disks × $3 entries; $4, $5 of the memory ($6) and $7 of what is available ($8).'),
                                    formatKiB(cost.bytes / 1024), formatKiB((model.pageSize ?? 0) / 1024), array.raidDisks, parsed ?? '?', ...shares)
                                // 64 KiB pages with 4 KiB stripes: several disks' buffers share a page.
                                : fmt(_('Memory: $0 = page size $1 × $2 (pages per stripe: the disks share pages, md/stripe_size is $3) × $4 entries; $5, $6 of the memory ($7) and $8 of what is available ($9).'),
                                    formatKiB(cost.bytes / 1024), formatKiB((model.pageSize ?? 0) / 1024),
                                    cost.pagesPerStripe,
                                    formatKiB((array.stripeSizeBytes ?? 0) / 1024), parsed ?? '?', ...shares)}
                        </HelperTextItem>
                    )}
                </NumberField>
            </Form>
        </ChangeModal>
    );
}
