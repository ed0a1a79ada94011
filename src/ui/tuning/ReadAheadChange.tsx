// SPDX-License-Identifier: LGPL-2.1-or-later
// The read-ahead of an array, typed in KiB (what read_ahead_kb takes) and shown in the 512-byte
// sectors of `blockdev --setra` too, since that is how most how-tos give it.

import { useState } from 'react';
import { Form, HelperTextItem } from '../pfForms';
import { NumberField } from '../common/NumberField';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel } from '../../md/modelTypes';
import { readAheadPlan, setraSectors } from '../../md/tuning/readAhead';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { ChangeModal } from '../plan/ChangeModal';
import { readAheadText } from './settingTexts';
import { READ_AHEAD_MAX_KIB, READ_AHEAD_MIN_KIB } from '../../md/settings/registry';

export function ReadAheadChange({ array: shown, onClose }: { array: ArrayModel; onClose: () => void }) {
    const { model } = useHostAsOpened();
    const array = arrayAsOpened(model, shown);
    const [kib, setKib] = useState(String(array.readAheadKiB ?? ''));
    const result = readAheadPlan(model, array, kib);
    const id = `${array.name}-read-ahead`;
    const asked = result.plan ? Number(kib.trim()) : null;
    return (
        <ChangeModal title={fmt(_('Read-ahead of $0'), array.name)} plan={result.plan ?? null} warnings={result.warnings} onClose={onClose}>
            <Form onSubmit={e => e.preventDefault()}>
                <NumberField id={id} label={fmt(_('Read-ahead in KiB ($0 to $1)'), READ_AHEAD_MIN_KIB, READ_AHEAD_MAX_KIB)}
                    value={kib} onChange={setKib} error={result.errors?.kib}>
                    {asked !== null && (
                        <HelperTextItem className="raidtune-setra">
                            {fmt(_('$0 KiB is $1 sectors of 512 bytes: the same as blockdev --setra $1 $2.'), asked, setraSectors(asked), array.device)}
                        </HelperTextItem>
                    )}
                    {array.readAheadKiB !== null && <HelperTextItem>{fmt(_('Now: $0.'), readAheadText(array.readAheadKiB))}</HelperTextItem>}
                    <HelperTextItem>
                        {_('Read-ahead speeds up large sequential reads from the array. A rebuild reads the disks without it, so it does not get faster.')}
                    </HelperTextItem>
                </NumberField>
            </Form>
        </ChangeModal>
    );
}
