// The what-if table: each change worth trying -> the speed and finish time it would give.

import { _, fmt } from '../../host/i18n';
import { formatRate } from '../../md/format';
import type { WhatIfRow } from '../../md/diagnosis/whatIf';
import type { CapacityBound } from '../../md/diagnosis/window';
import { durationText } from '../common/syncTexts';
import { changeText, outcomeText } from './findingTexts';

export function WhatIfTable({ arrayName, rows, bound }: { arrayName: string; rows: WhatIfRow[]; bound: CapacityBound | null }) {
    const th = 'pf-v6-c-table__th';
    const td = 'pf-v6-c-table__td';
    return (
        <table className="pf-v6-c-table pf-m-compact pf-m-grid-md raidtune-whatif">
            <caption className="pf-v6-c-table__caption">{fmt(_('What if: the finish time of $0 with each change'), arrayName)}</caption>
            <thead className="pf-v6-c-table__thead">
                <tr className="pf-v6-c-table__tr">
                    <th className={th} scope="col">{_('Change')}</th>
                    <th className={th} scope="col">{_('Speed per disk')}</th>
                    <th className={th} scope="col">{_('Finishes in')}</th>
                    <th className={th} scope="col">{_('Why')}</th>
                </tr>
            </thead>
            <tbody className="pf-v6-c-table__tbody">
                {rows.map(row => {
                    const change = changeText(row);
                    return (
                        <tr className="pf-v6-c-table__tr" key={change} data-change={row.change.kind}>
                            <th className={td} scope="row" data-label={_('Change')}>{change}</th>
                            <td className={td} data-label={_('Speed per disk')}>{formatRate(row.rateKiBs)}</td>
                            <td className={td} data-label={_('Finishes in')}>{durationText(row.etaSeconds)}</td>
                            <td className={td} data-label={_('Why')}>{outcomeText(row, bound)}</td>
                        </tr>
                    );
                })}
            </tbody>
        </table>
    );
}
