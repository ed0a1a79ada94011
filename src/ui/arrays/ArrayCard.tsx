import {
    Card, CardBody, CardHeader, CardTitle, DescriptionList, DescriptionListDescription,
    DescriptionListGroup, DescriptionListTerm, Flex, FlexItem, Label,
} from '../pf';
import { _, fmt } from '../../host/i18n';
import { formatKiB } from '../../md/format';
import type { ArrayModel, HostModel } from '../../md/model';
import { SyncPanel } from '../sync/SyncPanel';
import { bitmapText, formatChunk, HEALTH_LABEL, levelName } from './labels';
import { MembersTable } from './MembersTable';

function Fact({ term, children }: { term: string; children: React.ReactNode }) {
    return (
        <DescriptionListGroup>
            <DescriptionListTerm>{term}</DescriptionListTerm>
            <DescriptionListDescription>{children}</DescriptionListDescription>
        </DescriptionListGroup>
    );
}

function disksText(array: ArrayModel): string {
    if (array.raidDisks === null) return '—';
    const working = array.raidDisks - array.missingSlots.length;
    return working === array.raidDisks
        ? fmt(_('$0 of $0 working'), array.raidDisks)
        : fmt(_('$0 of $1 working'), working, array.raidDisks);
}

export function ArrayCard({ array, host }: { array: ArrayModel; host: HostModel }) {
    const health = HEALTH_LABEL[array.health];
    const titleId = `array-${array.name}-title`;
    return (
        <Card id={`array-${array.name}`} aria-labelledby={titleId} component="section">
            <CardHeader>
                <Flex alignItems={{ default: 'alignItemsCenter' }}>
                    <FlexItem><CardTitle id={titleId} component="h2">{array.device}</CardTitle></FlexItem>
                    <FlexItem>{levelName(array.level)}</FlexItem>
                    <FlexItem><Label className="raidtune-health" color={health.color}>{health.text()}</Label></FlexItem>
                </Flex>
            </CardHeader>
            <CardBody>
                <DescriptionList isCompact isHorizontal columnModifier={{ default: '1Col', lg: '3Col' }}>
                    <Fact term={_('Size')}>{formatKiB(array.sizeKiB)}</Fact>
                    <Fact term={_('Disks')}>{disksText(array)}</Fact>
                    <Fact term={_('Kernel state')}>{array.arrayState ?? '—'}</Fact>
                    <Fact term={_('Metadata')}>{array.metadata ?? '—'}</Fact>
                    <Fact term={_('Chunk size')}>{array.chunkKiB ? formatChunk(array.chunkKiB) : '—'}</Fact>
                    <Fact term={_('Bitmap')}>{bitmapText(array)}</Fact>
                    {array.mismatchCount !== null && array.mismatchCount > 0 && (
                        <Fact term={_('Mismatches')}>{fmt(_('$0 sectors found inconsistent by the last check'), array.mismatchCount)}</Fact>
                    )}
                </DescriptionList>
            </CardBody>
            {array.sync && <CardBody><SyncPanel array={array} sync={array.sync} host={host} /></CardBody>}
            <CardBody><MembersTable array={array} /></CardBody>
        </Card>
    );
}
