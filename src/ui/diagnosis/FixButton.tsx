// SPDX-License-Identifier: LGPL-2.1-or-later
// A finding's one-click fix button: it opens the fix's dialog, which belongs to the array's card
// (fixDialog.tsx).

import type { FixIntent } from '../../md/diagnosis/findings';
import { GuardedButton } from '../common/GuardedButton';
import { fixLabel } from './paceTexts';

export function FixButton({ fix, onOpen }: { fix: FixIntent; onOpen: (fix: FixIntent) => void }) {
    return (
        <GuardedButton variant="secondary" size="sm" className="raidtune-diagnosis-fix" onClick={() => onOpen(fix)}>
            {fixLabel(fix)}
        </GuardedButton>
    );
}
