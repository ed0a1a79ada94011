// SPDX-License-Identifier: LGPL-2.1-or-later
// The sync operations the host's recorder kept (src/md/history.ts), per array, newest first, with
// whether the recorder's timer runs and the plan that turns it on or off (src/md/historyRecording.ts).

import { memo, useState } from 'react';
import { Card, CardBody, CardHeader, CardTitle, Content, Stack, StackItem, Title } from '../pf';
import { CompactTable, type Column } from '../common/CompactTable';
import { GuardedButton } from '../common/GuardedButton';
import { ChangeModal } from '../plan/lazyChangeModal';
import { SettingLine } from '../common/SettingLine';
import { syncActionName } from '../common/labels';
import { durationText } from '../common/syncTexts';
import { _, fmt, ngettext } from '../../host/i18n';
import { useHostConfig } from '../common/HostContext';
import { formatKiB, formatRate } from '../../md/format';
import { historyOf, type SyncHistory as History, type SyncOperation } from '../../md/history';
import { recordingPlan, recordingState, type RecordingState } from '../../md/historyRecording';
import type { MonitorState } from '../../md/alerts/monitor';

/** Rows shown per array: the file keeps more (HISTORY_KEEP), the card stays short. */
const SHOWN = 10;

const time = (seconds: number) => new Date(seconds * 1000).toLocaleString();
const orDash = (value: string | null) => value ?? '—';

function limitsText(op: SyncOperation): string {
    const limits = fmt(_('$0 to $1'), op.speedMinKiBs === null ? '—' : formatRate(op.speedMinKiBs),
        op.speedMaxKiBs === null ? '—' : formatRate(op.speedMaxKiBs));
    return op.limitsChanged ? fmt(_('$0 (changed while it ran)'), limits) : limits;
}

function amountText(op: SyncOperation): string {
    const done = op.doneKiB === null ? '—' : formatKiB(op.doneKiB);
    const size = op.sizeKiB === null ? '—' : formatKiB(op.sizeKiB);
    return op.startKiB ? fmt(_('$0 of $1 (from $2)'), done, size, formatKiB(op.startKiB)) : fmt(_('$0 of $1'), done, size);
}

const columns = (): Column<SyncOperation>[] => [
    { title: _('Operation'), cell: op => syncActionName(op.type), rowHeader: true },
    { title: _('Started'), cell: op => time(op.start), nowrap: true },
    { title: _('Ended'), cell: op => time(op.end), nowrap: true },
    { title: _('Duration'), cell: op => durationText(op.seconds), nowrap: true },
    { title: _('Per device'), cell: amountText },
    { title: _('Average speed'), cell: op => orDash(op.avgKiBs === null ? null : formatRate(op.avgKiBs)), nowrap: true },
    { title: _('Limits (minimum to maximum)'), cell: limitsText },
    { title: _('Mismatches'), cell: op => orDash(op.mismatches === null ? null : String(op.mismatches)), nowrap: true },
    { title: _('Result'), cell: op => (op.finished ? _('finished') : _('interrupted')) },
];

function stateText(state: RecordingState): string {
    switch (state) {
    case 'on': return _('Recording is on: the host samples every array once a minute, also while no browser is open.');
    case 'off': return _('Recording is off.');
    case 'not-installed': return _('Recording is not available: this host has no raidtune-history.timer (the plugin was installed without its systemd units).');
    case 'unknown': return _('Recording: unknown (no systemd to ask).');
    }
}

/** What the card needs of an array: its history file is named by its uuid (else its name). */
export interface HistoryArray {
    name: string;
    uuid: string | null;
}

function ArrayOperations({ array, history }: { array: HistoryArray; history: History }) {
    const kept = historyOf(history, array);
    const operations = kept?.operations.slice(0, SHOWN) ?? [];
    return (
        <StackItem className="raidtune-history-array" data-array={array.name}>
            <Title headingLevel="h3" size="md">{array.name}</Title>
            {operations.length === 0
                ? <Content component="p">{_('No operation recorded.')}</Content>
                : <CompactTable label={fmt(_('Sync operations of $0'), array.name)} columns={columns()} rows={operations}
                    rowKey={op => `${op.type}-${op.start}`}
                    rowAttributes={op => ({ 'data-type': op.type, 'data-result': op.finished ? 'finished' : 'interrupted' })} />}
            {kept && kept.skipped > 0 && (
                <Content component="p" className="raidtune-history-skipped">
                    {fmt(ngettext('$0 line of the history file could not be read and is left out.',
                        '$0 lines of the history file could not be read and are left out.', kept.skipped), kept.skipped)}
                </Content>
            )}
        </StackItem>
    );
}

interface Props {
    arrays: readonly HistoryArray[];
    history: History;
    monitor: MonitorState | null;
    reread: () => void;
}

/** The recorder's state, and the button and dialog that turn it on or off. */
function useRecorderSwitch(monitor: MonitorState | null, reread: () => void) {
    const config = useHostConfig();
    const state = recordingState(monitor);
    const [changing, setChanging] = useState(false);
    const turnOn = state !== 'on';
    const button = (state === 'on' || state === 'off') && (
        <GuardedButton variant="secondary" id="history-recording" onClick={() => setChanging(true)}>
            {turnOn ? _('Record sync history…') : _('Stop recording…')}
        </GuardedButton>
    );
    const dialog = changing && (
        <ChangeModal title={turnOn ? _('Record sync history') : _('Stop recording sync history')}
            plan={recordingPlan(turnOn, config.systemctl)} recordOriginals={false}
            onClose={() => setChanging(false)} onApplied={reread} />
    );
    const stateLine = <Content component="p" id="history-recording-state" data-state={state}>{stateText(state)}</Content>;
    return { button, dialog, stateLine };
}

function RecorderFacts({ history }: { history: History }) {
    return (
        <>
            <Content component="p">
                {_('Samples a minute apart: an operation shorter than that may be missed, and its start and end are known to within a minute. The files are in /var/lib/raidtune/history, the last 50 operations per array.')}
            </Content>
            {history.lastRun !== null && (
                <Content component="p" id="history-last-run">{fmt(_('Last sample: $0'), time(history.lastRun))}</Content>
            )}
        </>
    );
}

/** An array's page: the operations the recorder kept of it, with the recorder's state and switch. */
function SyncHistoryCard({ arrays, history, monitor, reread }: Props) {
    const { button, dialog, stateLine } = useRecorderSwitch(monitor, reread);
    return (
        <Card isCompact id="sync-history" component="section" aria-labelledby="sync-history-title">
            <CardHeader actions={button ? { actions: button } : undefined}>
                <CardTitle id="sync-history-title" component="h2">{_('Sync history')}</CardTitle>
            </CardHeader>
            {dialog}
            <CardBody>
                <Stack hasGutter>
                    <StackItem>
                        {stateLine}
                        <RecorderFacts history={history} />
                    </StackItem>
                    {arrays.map(array => <ArrayOperations key={array.name} array={array} history={history} />)}
                </Stack>
            </CardBody>
        </Card>
    );
}

/** The overview's host settings: the recorder's state on a line; each array's operations are on its page. */
export function HistoryRecorderLine({ history, monitor, reread }: Omit<Props, 'arrays'>) {
    const { button, dialog, stateLine } = useRecorderSwitch(monitor, reread);
    return (
        <SettingLine id="sync-history" title={_('Sync history')} summary={stateLine} actions={button}
            details={<RecorderFacts history={history} />}>
            {dialog}
        </SettingLine>
    );
}

const sameArrays = (a: readonly HistoryArray[], b: readonly HistoryArray[]) =>
    a.length === b.length && a.every((x, i) => x.name === b[i].name && x.uuid === b[i].uuid);

// Rendered again only when the history (shared between refreshes while unchanged), the arrays or
// the timer's state change: not at every 2 s refresh of a running sync.
export const SyncHistory = memo(SyncHistoryCard, (before, after) => before.history === after.history &&
    before.monitor === after.monitor && before.reread === after.reread && sameArrays(before.arrays, after.arrays));
