// SPDX-License-Identifier: LGPL-2.1-or-later
import { memo } from 'react';
import { Alert, Button, Card, CardBody, CardHeader, CardTitle, Content, Label } from '../pf';
import { DescriptionList, Flex, FlexItem } from '../pfDetails';
import { _, fmt } from '../../host/i18n';
import { hasStoragePage, openStoragePage } from '../../host/location';
import { formatKiB } from '../../md/format';
import { mismatchExplanation, mismatchesShown } from '../../md/mismatches';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { SyncPanel } from '../sync/SyncPanel';
import { useFixDialog } from '../diagnosis/fixDialog';
import { bitmapText, formatChunk, mismatchText, HEALTH_LABEL, levelName } from '../common/labels';
import { HealthAlert } from './HealthAlert';
import { StripeCacheGauge } from './StripeCacheGauge';
import { MembersTable } from './MembersTable';
import { sameArrayFields, SUMMARY_FIELDS } from '../common/cardProps';
import { Fact } from '../common/Fact';
import { text } from '../common/message';
import { LayoutSection } from '../advice/LayoutSection';
import { ArrayActions } from '../tuning/ArrayActions';
import { readAheadText, workerThreadsText } from '../tuning/settingTexts';
import { RepairFlow } from '../sync/lazySyncParts';
import { slowMemberNames } from '../../md/diagnosis/slowMembers';
import { failuresLeft } from '../../md/levels';

/** What a count a check found means on this level (mismatches.ts), below the count. */
function MismatchMeaningText({ array }: { array: ArrayModel }) {
    const explanation = mismatchExplanation(array.level, array.mismatchCount, array.mismatchMeaning);
    return explanation && <Content component="small" className="raidtune-mismatch-meaning">{text(explanation)}</Content>;
}

function disksText(array: ArrayModel): string {
    if (array.raidDisks === null) return '—';
    // Not running: none of its disks works yet, whatever its (slot-less) members look like.
    if (array.health === 'inactive') {
        return fmt(_('Not started ($0 of $1 devices present)'), array.members.filter(m => m.role !== 'faulty').length, array.raidDisks);
    }
    const working = array.raidDisks - array.missingSlots.length;
    return working === array.raidDisks
        ? fmt(_('$0 of $0 working'), array.raidDisks)
        : fmt(_('$0 of $1 working'), working, array.raidDisks);
}

/**
 * The card's title: the array's name, level and health word, red where one more failed disk loses
 * data (as the alert below it and the overview's redundancy say), not only where it is lost.
 */
export const ArrayTitle = memo(function ArrayTitle({ array }: { array: ArrayModel }) {
    const health = HEALTH_LABEL[array.health];
    const noneLeft = array.health === 'degraded' &&
        failuresLeft(array.level, array.raidDisks, array.layout, array.missingSlots) === 0;
    return (
        <Flex alignItems={{ default: 'alignItemsCenter' }}>
            <FlexItem>
                <CardTitle id={`array-${array.name}-title`} component="h2">
                    {array.device}
                </CardTitle>
            </FlexItem>
            <FlexItem>{levelName(array.level)}</FlexItem>
            <FlexItem><Label className="raidtune-health" color={noneLeft ? 'red' : health.color}>{health.text()}</Label></FlexItem>
        </Flex>
    );
}, (before, after) => before.array.name === after.array.name &&
    before.array.device === after.array.device && before.array.level === after.array.level &&
    before.array.health === after.array.health && before.array.missingSlots.join() === after.array.missingSlots.join());

/**
 * `syncing`: a sync runs, which keeps the stripe cache full as a matter of course. `slow`: the
 * members it waits for (slowMemberNames), which the health alert names.
 */
type SummaryProps = { array: ArrayModel; syncing?: boolean; slow?: string };

// A syncing array is a new object at every refresh; its alert and facts mostly are not new.
export const ArraySummary = memo(function ArraySummary({ array, syncing = false, slow = '' }: SummaryProps) {
    return (
        <>
            <HealthAlert array={array} slow={slow} />
            <CardBody>
                <DescriptionList isCompact isHorizontal className="raidtune-array-facts" columnModifier={{ default: '1Col', lg: '3Col' }}>
                    <Fact term={_('Size')}>{formatKiB(array.sizeKiB)}</Fact>
                    <Fact term={_('Disks')}>{disksText(array)}</Fact>
                    <Fact term={_('Kernel state')}>{array.arrayState ?? '—'}</Fact>
                    <Fact term={_('Metadata')}>{array.metadata ?? '—'}</Fact>
                    <Fact term={_('Chunk size')}>{array.chunkKiB ? formatChunk(array.chunkKiB) : '—'}</Fact>
                    <Fact term={_('Bitmap')}>{bitmapText(array)}</Fact>
                    {array.stripeCache && <Fact term={_('Stripe cache')}><StripeCacheGauge arrayName={array.name} cache={array.stripeCache} syncing={syncing} /></Fact>}
                    {array.readAheadKiB !== null && <Fact term={_('Read-ahead')}>{readAheadText(array.readAheadKiB)}</Fact>}
                    {array.groupThreadCount !== null && <Fact term={_('Worker threads')}>{workerThreadsText(array.groupThreadCount)}</Fact>}
                    {mismatchesShown(array.mismatchCount, array.mismatchMeaning) && (
                        <Fact term={_('Mismatches')}>
                            {mismatchText(array.mismatchCount ?? 0, array.mismatchMeaning)}
                            <MismatchMeaningText array={array} />
                        </Fact>
                    )}
                </DescriptionList>
            </CardBody>
        </>
    );
}, (before: SummaryProps, after: SummaryProps) =>
    before.syncing === after.syncing && before.slow === after.slow &&
    sameArrayFields(before.array, after.array, SUMMARY_FIELDS));

/**
 * The header's right side: the array's actions by weight (Cockpit's place for a card's primary
 * actions and its kebab: at the top, where they do not move as the card's parts come in), and the
 * link to Cockpit's Storage page.
 */
function HeaderActions({ array, host }: { array: ArrayModel; host: HostModel }) {
    return (
        <Flex alignItems={{ default: 'alignItemsCenter' }} spaceItems={{ default: 'spaceItemsSm' }}>
            {array.health !== 'inactive' && <FlexItem><ArrayActions array={array} host={host} /></FlexItem>}
            {hasStoragePage() && (
                <FlexItem>
                    <Button variant="link" isInline className="raidtune-storage-link" onClick={() => openStoragePage()}
                        aria-label={fmt(_('Open $0 in the Storage page'), array.device)}>
                        {_('Storage')}
                    </Button>
                </FlexItem>
            )}
        </Flex>
    );
}

export function ArrayCard({ array, host }: { array: ArrayModel; host: HostModel }) {
    const openFix = useFixDialog(array);
    const slow = slowMemberNames(array);
    return (
        <Card id={`array-${array.name}`} aria-labelledby={`array-${array.name}-title`} component="section"
            className="raidtune-array-card">
            {/* The actions after the title in the document too (CardHeader's `actions` come first in
                it), so that Tab reaches them in reading order. */}
            <CardHeader>
                <Flex alignItems={{ default: 'alignItemsCenter' }}>
                    <FlexItem><ArrayTitle array={array} /></FlexItem>
                    <FlexItem align={{ default: 'alignRight' }}><HeaderActions array={array} host={host} /></FlexItem>
                </Flex>
            </CardHeader>
            <ArraySummary array={array} syncing={array.sync?.runState === 'running'} slow={slow} />
            {array.sync && (
                <CardBody><SyncPanel array={array} sync={array.sync} host={host} onFix={openFix} /></CardBody>
            )}
            {array.syncFrozen && !array.sync && (
                <CardBody>
                    <Alert isInline isPlain variant="info" className="raidtune-frozen"
                        title={_('Syncing is frozen on this array: no resync, rebuild or check starts until it is resumed.')} />
                </CardBody>
            )}
            <RepairFlow array={array} host={host} record={host.repairFlows.get(array.name) ?? null} />
            <CardBody><MembersTable array={array} slow={slow} /></CardBody>
            <CardBody><LayoutSection array={array} /></CardBody>
        </Card>
    );
}
