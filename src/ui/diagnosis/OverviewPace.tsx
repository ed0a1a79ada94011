// SPDX-License-Identifier: LGPL-2.1-or-later
// The overview row's "what sets the pace" and its one action (issue #33): the same diagnosis as the
// array's card, in a few words, and the fix that helps most as the row's primary button, opening
// the same dialog as the card's fix button.

import { diagnosisOf, primaryFix } from '../../md/diagnosis/findings';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { GuardedButton } from '../common/GuardedButton';
import { useHost } from '../common/HostContext';
import { useFixDialog } from './fixDialog';
import { paceWords, primaryFixLabel } from './paceTexts';

function PaceOf({ array, host }: { array: ArrayModel; host: HostModel }) {
    const diagnosis = diagnosisOf(host, array);
    const openFix = useFixDialog(array);
    const fix = primaryFix(diagnosis);
    return (
        <div className="raidtune-overview-pace">
            <span className="raidtune-overview-pace-words">{paceWords(diagnosis)}</span>
            {fix && array.sync
                ? (
                    <GuardedButton variant="primary" size="sm" className="raidtune-overview-action" onClick={() => openFix(fix)}>
                        {primaryFixLabel(fix, array.sync.action)}
                    </GuardedButton>
                )
                // The button's room, kept while there is none (the first 10 s gather data): a button
                // that came later would push down everything below the row (issue #33 item 7).
                // PatternFly's small button classes on a span: its height, and no control to find.
                : <span className="pf-v6-c-button pf-m-primary pf-m-small raidtune-overview-action-room" aria-hidden="true">—</span>}
        </div>
    );
}

export function OverviewPace({ name }: { name: string }) {
    const { model } = useHost();
    const array = model.arrays.find(a => a.name === name);
    return array?.sync ? <PaceOf array={array} host={model} /> : <>—</>;
}
