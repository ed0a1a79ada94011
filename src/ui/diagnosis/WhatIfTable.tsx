// SPDX-License-Identifier: LGPL-2.1-or-later
// The what-if table: each change worth trying -> the speed and finish time it would give.

import { _, fmt } from '../../host/i18n';
import { formatRate } from '../../md/format';
import type { WhatIfRow } from '../../md/diagnosis/whatIf';
import type { CapacityBound } from '../../md/diagnosis/window';
import { CompactTable, type Column } from '../common/CompactTable';
import { durationText } from '../common/syncTexts';
import { changeText, outcomeText } from './findingTexts';

export function WhatIfTable({ arrayName, rows, bound }: {
    arrayName: string; rows: WhatIfRow[]; bound: CapacityBound | null;
}) {
    const columns: Column<WhatIfRow>[] = [
        { title: _('Change'), cell: changeText, rowHeader: true },
        { title: _('Speed per disk'), cell: row => formatRate(row.rateKiBs) },
        { title: _('Finishes in'), cell: row => durationText(row.etaSeconds) },
        { title: _('Why'), cell: row => outcomeText(row, bound) },
    ];
    return (
        <CompactTable className="raidtune-whatif" caption={fmt(_('What if: the finish time of $0 with each change'), arrayName)}
            columns={columns} rows={rows} rowKey={changeText} rowAttributes={row => ({ 'data-change': row.change.kind })} />
    );
}
