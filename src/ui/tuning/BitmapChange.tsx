// SPDX-License-Identifier: LGPL-2.1-or-later
// Adding or removing an array's write-intent bitmap: what changes, for an addition the chunk size
// with its write cost (a published measurement of sequential writes per chunk size, bitmap.ts) and
// the recommended one marked, then the exact mdadm command
// (ChangeModal). The array's button (ArrayActions) offers whichever of the two applies.

import { useState } from 'react';
import { Alert, Content, Stack } from '../pf';
import { Form, FormGroup, FormHelperText, HelperText, HelperTextItem, Radio } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import type { ArrayModel } from '../../md/modelTypes';
import {
    bitmapFailureHint,
    bitmapAddPlan, bitmapGuidance, bitmapPlanTitle, bitmapRemovePlan, chunkLabel,
    type BitmapAction, type BitmapGuidance,
} from '../../md/tuning/bitmap';
import { text } from '../common/message';
import { ChangeModal } from '../plan/ChangeModal';
import { CompactTable, type Column } from '../common/CompactTable';

function PenaltyTable({ guidance }: { guidance: BitmapGuidance }) {
    const columns: Column<BitmapGuidance['penalty'][number]>[] = [
        { title: _('Bitmap chunk'), cell: row => chunkLabel(row.chunkKiB) },
        { title: _('Sequential writes'), cell: row => fmt(_('$0% slower'), Math.abs(row.sequentialWritePercent)) },
    ];
    return (
        <CompactTable className="raidtune-bitmap-penalty" grid={false} caption={text(guidance.penaltySource)}
            columns={columns} rows={guidance.penalty} rowKey={row => String(row.chunkKiB)} />
    );
}

function ChunkChoice({ array, guidance, chunkKiB, onChange }: {
    array: ArrayModel; guidance: BitmapGuidance; chunkKiB: number; onChange: (kib: number) => void;
}) {
    const name = `${array.name}-bitmap-chunk`;
    // The sizes mdadm would refuse share one reason: say it once.
    const tooSmall = guidance.choices.find(c => c.tooSmall)?.tooSmall;
    return (
        <Form onSubmit={e => e.preventDefault()}>
            <FormGroup role="radiogroup" label={_('Chunk size')} fieldId={name} isInline>
                {guidance.choices.map(choice => (
                    <Radio key={choice.chunkKiB} id={`${name}-${choice.chunkKiB}`} name={name}
                        isChecked={chunkKiB === choice.chunkKiB} isDisabled={choice.tooSmall !== null}
                        onChange={() => onChange(choice.chunkKiB)}
                        label={choice.recommended ? fmt(_('$0 (recommended)'), chunkLabel(choice.chunkKiB)) : chunkLabel(choice.chunkKiB)} />
                ))}
                <FormHelperText>
                    <HelperText>
                        <HelperTextItem>{text(guidance.advice)}</HelperTextItem>
                        {tooSmall && <HelperTextItem>{text(tooSmall)}</HelperTextItem>}
                    </HelperText>
                </FormHelperText>
            </FormGroup>
        </Form>
    );
}

function AddBody({ array, chunkKiB, onChunk }: {
    array: ArrayModel; chunkKiB: number; onChunk: (kib: number) => void;
}) {
    const guidance = bitmapGuidance(array);
    return (
        <Stack hasGutter>
            <Content>
                <p>{_('A write-intent bitmap records which regions of the array are being written. After a crash, or when a disk that dropped out is added back, md then resyncs only those regions instead of the whole array.')}</p>
                <p>{_('It costs write speed: each write first marks its region on every member. Larger chunks mean fewer marks but more to resync for each marked region.')}</p>
                {array.llbitmapOffered && (
                    <p className="raidtune-llbitmap-note">
                        {_('This kernel also has md\'s lockless bitmap (llbitmap), experimental, which resyncs and recovers only the regions ever written. mdadm writes it only when it creates an array (mdadm --create --bitmap=lockless); what is added here is the classic bitmap.')}
                    </p>
                )}
            </Content>
            <PenaltyTable guidance={guidance} />
            <ChunkChoice array={array} guidance={guidance} chunkKiB={chunkKiB} onChange={onChunk} />
        </Stack>
    );
}

function RemoveBody() {
    return (
        <Content component="p">
            {_('Without the bitmap, writes no longer pay for marking their regions, but the next crash, or adding back a disk that dropped out, means a full resync of the whole array, which can take many hours on large disks.')}
        </Content>
    );
}

/** The dialog for one action, chosen when it opened: the array's bitmap changes under it when applied. */
export function BitmapChange({ array, action, onClose }: {
    array: ArrayModel; action: BitmapAction; onClose: () => void;
}) {
    const [chunkKiB, setChunkKiB] = useState(() => bitmapGuidance(array).recommendedKiB);
    const result = action === 'add' ? bitmapAddPlan(array, chunkKiB) : bitmapRemovePlan(array);
    const refusal = result.errors?.bitmap ?? result.errors?.chunk;
    return (
        <ChangeModal title={text(bitmapPlanTitle(array, action))} plan={result.plan ?? null} warnings={result.warnings}
            applyLabel={action === 'add' ? _('Add bitmap') : _('Remove bitmap')} onClose={onClose}
            failureHint={reason => { const hint = bitmapFailureHint(reason); return hint && text(hint); }}>
            <Stack hasGutter>
                {action === 'add' ? <AddBody array={array} chunkKiB={chunkKiB} onChunk={setChunkKiB} /> : <RemoveBody />}
                {refusal && <Alert isInline variant="warning" title={text(refusal)} className="raidtune-bitmap-refusal" />}
            </Stack>
        </ChangeModal>
    );
}
