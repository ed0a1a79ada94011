// SPDX-License-Identifier: LGPL-2.1-or-later
// The opened "Layout and alignment" section (LayoutSection.tsx), in the later chunk (src/later.ts):
// most arrays' sections are never opened.

import { Alert, Content, Stack, StackItem } from '../pf';
import { DescriptionList } from '../pfDetails';
import { Fact } from '../common/Fact';
import { _, fmt, ngettext } from '../../host/i18n';
import { FS_BLOCK_KIB, type LayoutAdvice, type StripeGeometry } from '../../md/advice/layout';
import { hasStripeCache } from '../../md/levels';
import type { ArrayModel } from '../../md/modelTypes';
import { formatChunk } from '../common/labels';
import { CopyableCommands } from '../common/CopyableCommands';
import { text } from '../common/message';
import { LayoutMembers, LayoutPartitions } from './LayoutTables';

export function LayoutDetails({ array, advice }: { array: ArrayModel; advice: LayoutAdvice }) {
    return (
        <Stack hasGutter>
            {advice.stripe
                ? <StripeAdvice array={array} stripe={advice.stripe} />
                : <StackItem><Content component="p" className="raidtune-layout-nostripe">{advice.noStripe && text(advice.noStripe)}</Content></StackItem>}
            {advice.notes.map(note => (
                <StackItem key={note.message}><Alert isInline isPlain variant="info" title={text(note)} /></StackItem>
            ))}
            {advice.misaligned.length > 0 && (
                <StackItem>
                    <Alert isInline variant="warning" className="raidtune-layout-misaligned"
                        title={fmt(ngettext('Misaligned member: $0', 'Misaligned members: $0', advice.misaligned.length),
                            advice.misaligned.join(', '))}>
                        {_('Their data does not start on a 4 KiB boundary, so the disks turn writes into read-modify-write cycles. Partitions made by current tools start at 1 MiB (sector 2048). To move one, replace the member: remove it from the array, partition the disk again, add it back and let md rebuild it, one member at a time.')}
                    </Alert>
                </StackItem>
            )}
            {advice.offChunk.length > 0 && (
                <StackItem>
                    <Alert isInline isPlain variant="info" className="raidtune-layout-offchunk"
                        title={fmt(_('Not on a chunk boundary: $0'),
                            advice.offChunk.join(', '))} />
                </StackItem>
            )}
            <StackItem>
                <LayoutMembers array={array} members={advice.members} chunked={advice.stripe !== null} />
            </StackItem>
            {advice.offStripe.length > 0 && (
                <StackItem>
                    <Alert isInline variant="warning" className="raidtune-layout-offstripe"
                        title={fmt(ngettext('Misaligned partition on the array: $0', 'Misaligned partitions on the array: $0',
                            advice.offStripe.length), advice.offStripe.join(', '))}>
                        {advice.stripe && _('A file system counts its stride and stripe width from its partition\'s start, so writes it lines up with stripes land across two of them. A partition that starts on a multiple of the stripe width avoids this; so does a file system on the whole array, or LVM, which by default aligns its data to the stripe md reports.')}
                    </Alert>
                </StackItem>
            )}
            {advice.partitions.length > 0 && (
                <StackItem><LayoutPartitions array={array} partitions={advice.partitions} /></StackItem>
            )}
        </Stack>
    );
}

function StripeAdvice({ array, stripe }: { array: ArrayModel; stripe: StripeGeometry }) {
    // Parity levels pay a read-modify-write for partial stripes; striped mirrors and raid0 only
    // spread the file system's allocation across all disks.
    const why = hasStripeCache(array.level)
        ? _('A file system that knows the chunk and the stripe width lays out its data in whole stripes where it can: md then computes parity from the new data alone instead of first reading old data and parity back (read-modify-write).')
        : _('A file system that knows the chunk and the stripe width spreads its data and metadata over all disks evenly instead of piling them on one.');
    return (
        <>
            <StackItem>
                <DescriptionList isCompact isHorizontal className="raidtune-layout-geometry" columnModifier={{ default: '1Col', lg: '2Col' }}>
                    <Fact term={_('Chunk size')}>{formatChunk(stripe.chunkKiB)}</Fact>
                    <Fact term={_('Data disks')}>{String(stripe.dataDisks)}</Fact>
                    <Fact term={_('Stripe width')}>{fmt(_('$0 ($1 × $2)'), formatChunk(stripe.stripeWidthKiB), formatChunk(stripe.chunkKiB), stripe.dataDisks)}</Fact>
                    <Fact term={_('ext4')}>{fmt(_('stride=$0, stripe_width=$1 ($2 KiB blocks)'), stripe.ext4Stride, stripe.ext4StripeWidth, FS_BLOCK_KIB)}</Fact>
                    <Fact term={_('XFS')}>{`su=${stripe.chunkKiB}k, sw=${stripe.dataDisks}`}</Fact>
                </DescriptionList>
            </StackItem>
            <StackItem><Content component="p">{why}</Content></StackItem>
            <StackItem>
                <CopyableCommands id={`layout-${array.name}`} className="raidtune-layout-commands" commands={stripe.commands} />
            </StackItem>
            <StackItem>
                <Content component="small" className="raidtune-layout-note">
                    {fmt(_('These commands create new, empty file systems on $0 and erase what is there; raidtune never runs them. Recent mkfs.ext4 and mkfs.xfs read this geometry from md themselves: the options make it explicit, or supply it where a layer in between hides it. For a logical volume on the array, use its device instead.'), stripe.devices.join(', '))}
                </Content>
            </StackItem>
        </>
    );
}
