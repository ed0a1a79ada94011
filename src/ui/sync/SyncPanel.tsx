// SPDX-License-Identifier: LGPL-2.1-or-later
import { Alert, Content, Label, Progress, Stack, StackItem } from '../pf';
import { _, fmt } from '../../host/i18n';
import { formatKiB, formatPercent, formatRateWithRaw } from '../../md/format';
import type { ArrayModel, HostModel, SyncModel } from '../../md/modelTypes';
import { mergeTrend } from '../../md/trend';
import { syncActionName } from '../common/labels';
import { DiagnosisSection, SyncChart } from './lazySyncParts';
import { StallAlert } from './StallAlert';
import type { FixIntent } from '../../md/diagnosis/findings';
import { arraySyncIoDepthText } from '../tuning/syncIoDepthTexts';
import { kernelEstimateText, limitText, smoothedEstimateText, syncScopeText, syncStateExplanation } from '../common/syncTexts';

/** `ownLine`: a fact whose text grows once measured, on a line of its own from the first frame. */
function Fact({ name, ownLine = false, children }: { name: string; ownLine?: boolean; children: React.ReactNode }) {
    const className = ownLine ? 'raidtune-sync-fact raidtune-sync-fact-own-line' : 'raidtune-sync-fact';
    return <span className={className}><strong>{name}:</strong> {children}</span>;
}

export function SyncPanel({ array, sync, host, onFix }: {
    array: ArrayModel; sync: SyncModel; host: HostModel; onFix: (fix: FixIntent) => void;
}) {
    const name = syncActionName(sync.action);
    const explanation = syncStateExplanation(sync);
    const scopeText = syncScopeText(sync);
    const title = sync.reshape
        ? fmt(_('$0 from $1 to $2 disks'), name, sync.reshape.fromDisks, sync.reshape.toDisks)
        : name;
    return (
        <Stack hasGutter className="raidtune-sync" role="group" aria-label={fmt(_('$0 on $1'), name, array.name)}>
            <StackItem>
                <Progress
                    title={title}
                    value={sync.percent ?? 0}
                    label={formatPercent(sync.percent)}
                    measureLocation="outside"
                    aria-label={fmt(_('$0 progress'), name)}
                    variant={sync.runState === 'running' ? undefined : 'warning'}
                />
            </StackItem>
            {explanation && <StackItem><Alert isInline isPlain variant="info" component="h3" className="raidtune-sync-explanation" title={explanation} /></StackItem>}
            {sync.stall && <StackItem><StallAlert stall={sync.stall} onFix={onFix} /></StackItem>}
            <StackItem>
                <Content component="p" className="raidtune-sync-facts">
                    {sync.doneKiB !== null && (
                        <Fact name={_('Done')}>
                            {fmt(sync.perDevice ? _('$0 of $1 per disk') : _('$0 of $1'), formatKiB(sync.doneKiB), formatKiB(sync.totalKiB))}
                        </Fact>
                    )}
                    {scopeText && <Fact name={_('What md syncs')} ownLine>{scopeText}</Fact>}
                    {sync.runState === 'running' && (
                        <>
                            <Fact name={_('Speed')}>{formatRateWithRaw(sync.speedKiBs)}</Fact>
                            <Fact name={_('Kernel estimate')}>{kernelEstimateText(sync)}</Fact>
                            <Fact name={_('Average-speed estimate')} ownLine>{smoothedEstimateText(sync)}</Fact>
                        </>
                    )}
                </Content>
            </StackItem>
            <StackItem>
                <Content component="p" className="raidtune-sync-facts">
                    <Fact name={_('Minimum speed')}>{limitText(array.speedMin)}</Fact>
                    <Fact name={_('Maximum speed')}>{limitText(array.speedMax)}</Fact>
                    {array.syncIoDepth && <Fact name={_('Sync I/O depth')}>{arraySyncIoDepthText(array.syncIoDepth)}</Fact>}
                    {array.cappedByMax && <Label color="orange">{_('Capped by the maximum speed')}</Label>}
                </Content>
            </StackItem>
            {sync.runState === 'running' && (
                <StackItem>
                    <SyncChart id={`sync-chart-${array.name}`} samples={mergeTrend(host.autoRestore.get(array.name)?.history ?? [], sync.trend)} />
                </StackItem>
            )}
            <StackItem><DiagnosisSection array={array} host={host} onFix={onFix} /></StackItem>
        </Stack>
    );
}
