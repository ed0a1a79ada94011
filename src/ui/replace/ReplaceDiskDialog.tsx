// SPDX-License-Identifier: LGPL-2.1-or-later
// Replace disk… (issue #34): reads the host's block devices when it opens, lists the devices that
// can take the member's place and, for every other one, why not; the device chosen becomes a plan
// (wipe what the admin chose to wipe, copy the partition table where members are partitions, add
// or replace), previewed and applied by ChangeModal like every change.

import { useEffect, useMemo, useState } from 'react';
import { Alert, Content, Spinner, Stack } from '../pf';
import { ExpandableSection } from '../pfDetails';
import { Checkbox, Form, FormGroup, Radio } from '../pfForms';
import { _, fmt } from '../../host/i18n';
import { readForReplacement } from '../../host/replaceReads';
import { formatKiB, formatRateWithRaw } from '../../md/format';
import type { ArrayModel } from '../../md/modelTypes';
import { offeredCandidates, type CandidateVerdict } from '../../md/replace/candidates';
import { rebuildForecast, type RebuildForecast } from '../../md/replace/rebuildForecast';
import {
    replaceChoices, replaceDiskPlan,
    type ReplaceChoices, type ReplaceReads, type ReplaceSituation, type Replacing,
} from '../../md/replace/replaceDisk';
import type { ReplacementTarget } from '../../md/replace/replacePlan';
import { arrayAsOpened, useHostAsOpened } from '../common/HostContext';
import { text } from '../common/message';
import { durationText } from '../common/syncTexts';
import { ChangeModal } from '../plan/ChangeModal';

function bytesText(bytes: number): string {
    return formatKiB(bytes / 1024);
}

/** What the dialog does to the array, said before the choice. */
function purposeText(array: ArrayModel, replacing: Replacing): string {
    switch (replacing.kind) {
    case 'empty-slot':
        return fmt(_('md rebuilds the empty slot of $0 onto the device chosen.'), array.name);
    case 'failed':
        return fmt(_('$0 failed: it is removed from $1, and md rebuilds its slot onto the device chosen.'), replacing.member, array.name);
    case 'working':
        return fmt(_('$0 still works: md copies it onto the device chosen while it goes on serving (mdadm --replace), so $1 keeps its redundancy all along. At the end md marks $0 faulty; remove it then and pull its disk.'),
            replacing.member, array.name);
    }
}

/** Size, kind and identity of a device, as an admin matches it to the label on a disk. */
function deviceDetails(v: CandidateVerdict): string {
    const d = v.device;
    const parts = [bytesText(d.sizeBytes)];
    if (d.logicalBlockBytes !== null) parts.push(fmt(_('$0-byte logical blocks'), d.logicalBlockBytes));
    if (d.rotational !== null) parts.push(d.rotational ? _('rotating') : _('solid-state'));
    if (d.transport) parts.push(d.transport.toUpperCase());
    if (d.serial) parts.push(fmt(_('serial $0'), d.serial));
    return parts.join(', ');
}

function signaturesText(v: CandidateVerdict): string {
    return fmt(_('Signatures on it: $0. Chosen, it is wiped first.'),
        v.signatures.map(s => fmt(_('$0 on $1'), s.type, s.device)).join(', '));
}

function CandidateChoice({ verdict, chosen, onChoose }: {
    verdict: CandidateVerdict; chosen: boolean; onChoose: () => void;
}) {
    const notes = [
        ...verdict.warnings.map(w => text(w)),
        ...(verdict.signatures.length > 0 ? [signaturesText(verdict)] : []),
    ];
    return (
        <Radio id={`replace-candidate-${verdict.device.name}`} name="replace-candidate" isChecked={chosen} onChange={onChoose}
            className="raidtune-replace-candidate"
            label={verdict.device.path} description={deviceDetails(verdict)}
            body={notes.length > 0 && <ul className="raidtune-replace-notes">{notes.map(n => <li key={n}>{n}</li>)}</ul>} />
    );
}

/** The refused devices, without the partitions of a refused disk: the disk's line says why. */
function refusedToList(verdicts: CandidateVerdict[]): CandidateVerdict[] {
    const refused = verdicts.filter(v => v.refusals.length > 0);
    const refusedDisks = new Set(refused.filter(v => v.device.type === 'disk').flatMap(v => v.device.children.map(c => c.name)));
    return refused.filter(v => !refusedDisks.has(v.device.name));
}

function Refused({ verdicts, expanded }: { verdicts: CandidateVerdict[]; expanded: boolean }) {
    const [open, setOpen] = useState(expanded);
    if (verdicts.length === 0) return null;
    return (
        <ExpandableSection isExpanded={open} onToggle={(_event, value) => setOpen(value)}
            toggleText={fmt(_('Not usable ($0)'), verdicts.length)} className="raidtune-replace-refused">
            <ul>
                {verdicts.map(v => (
                    <li key={v.device.name} data-device={v.device.name}>
                        <strong>{v.device.path}</strong> ({bytesText(v.device.sizeBytes)}): {v.refusals.map(r => text(r)).join(' ')}
                    </li>
                ))}
            </ul>
        </ExpandableSection>
    );
}

function needsText(choices: ReplaceChoices): string {
    const { needs, tableCopy } = choices;
    return tableCopy === null
        ? fmt(_('The new device needs at least $0 and logical blocks of at most $1 bytes.'), bytesText(needs.minimumBytes), needs.logicalBlockBytes)
        : fmt(_('The members are partitions: a whole disk of at least $0, with logical blocks of at most $1 bytes, gets the partition table of $2, and each array with a member on $2 gets its partition.'),
            bytesText(needs.minimumBytes), needs.logicalBlockBytes, tableCopy.sourceDisk);
}

/** What the proposed limits would make of it, or that they gain nothing. */
function withFixText(forecast: RebuildForecast): string {
    const fix = forecast.withFix;
    if (!fix) return _('The limits are at the Fast rebuild level or above already: nothing to gain from the level the diagnosis proposes for a rebuild held back.');
    const { bounds } = fix;
    switch (fix.raises) {
    // A maximum of 2000 MiB/s bounds nothing a disk does: what the fix changes is the longest.
    case 'both':
    case 'min':
        return fmt(_('With the Fast rebuild minimum of $0 the diagnosis proposes for a rebuild held back by other I/O: up to $1.'),
            formatRateWithRaw(bounds.minKiBs), durationText(bounds.longestSeconds));
    case 'max':
        return fmt(_('With the Fast rebuild maximum of $0 the diagnosis proposes for a rebuild held at the maximum: at least $1, where the disks are that fast.'),
            formatRateWithRaw(bounds.maxKiBs), durationText(bounds.shortestSeconds));
    }
}

function measuredText(measured: NonNullable<RebuildForecast['measured']>): string {
    return fmt(measured.operation.type === 'recover'
        ? _('The last rebuild here averaged $0: at that pace, about $1.')
        : _('The last resync here averaged $0: at that pace, about $1.'),
    formatRateWithRaw(measured.kiBs), durationText(measured.seconds));
}

/** How long the rebuild or copy takes: between the array's limits, with the proposed ones, and as measured here. */
function DurationForecast({ situation, reads }: { situation: ReplaceSituation; reads: ReplaceReads }) {
    const forecast = rebuildForecast(situation.array, situation.host, reads.facts.componentKiB);
    if (!forecast) return null;
    const { now } = forecast;
    return (
        <Content className="raidtune-replace-duration">
            <p className="raidtune-replace-duration-now">
                {fmt(_('md writes $0 onto the new member. At the maximum of $1 that takes at least $2; held at the minimum of $3 by other I/O, up to $4.'),
                    formatKiB(now.componentKiB), formatRateWithRaw(now.maxKiBs), durationText(now.shortestSeconds),
                    formatRateWithRaw(now.minKiBs), durationText(now.longestSeconds))}
            </p>
            <p className="raidtune-replace-duration-fix">{withFixText(forecast)}</p>
            {forecast.measured && <p className="raidtune-replace-duration-measured">{measuredText(forecast.measured)}</p>}
            <p className="raidtune-replace-duration-after">
                {_('Once it runs, the array\'s row on the overview follows it and, where a change would make it faster, offers “Speed up rebuild…”.')}
            </p>
        </Content>
    );
}

function ReplaceForm({ situation, reads, choices, chosen, wipe, onChoose, onWipe }: {
    situation: ReplaceSituation; reads: ReplaceReads; choices: ReplaceChoices; chosen: string | null; wipe: boolean;
    onChoose: (name: string) => void; onWipe: (wipe: boolean) => void;
}) {
    const offered = offeredCandidates(choices.verdicts, wipe);
    const refused = refusedToList(choices.verdicts);
    const withSignatures = choices.verdicts.filter(v => v.refusals.length === 0 && v.signatures.length > 0);
    return (
        <Form onSubmit={e => e.preventDefault()}>
            <Content>
                <p>{purposeText(situation.array, situation.replacing)}</p>
                <p className="raidtune-replace-needs">{needsText(choices)}</p>
            </Content>
            <FormGroup role="radiogroup" isStack fieldId="replace-candidate" label={_('New device')}>
                {offered.length === 0 && (
                    <Alert isInline isPlain variant="warning" className="raidtune-replace-none"
                        title={_('No device here can take its place. Connect a new disk: the list is read again when this dialog opens.')} />
                )}
                {offered.map(v => (
                    <CandidateChoice key={v.device.name} verdict={v} chosen={chosen === v.device.name}
                        onChoose={() => onChoose(v.device.name)} />
                ))}
            </FormGroup>
            {withSignatures.length > 0 && (
                <Checkbox id="replace-wipe" isChecked={wipe} onChange={(_event, value) => onWipe(value)}
                    label={fmt(_('Also offer devices with signatures on them ($0): the one chosen is wiped (wipefs --all)'),
                        withSignatures.map(v => v.device.name).join(', '))} />
            )}
            <Refused verdicts={refused} expanded={offered.length === 0} />
            <DurationForecast situation={situation} reads={reads} />
        </Form>
    );
}

/** What each array gets: its empty slot filled, or a working member copied before it goes. */
function TargetsList({ targets }: { targets: ReplacementTarget[] }) {
    if (targets.length < 2 && targets.every(t => t.replaces === null)) return null;
    return (
        <Content>
            <ul className="raidtune-replace-targets">
                {targets.map(t => (
                    <li key={t.device}>
                        {t.replaces === null
                            ? fmt(_('$0: $1 fills the empty slot.'), t.device, t.newMember)
                            : fmt(_('$0: $1 takes the place of $2, which serves until the copy ends.'), t.device, t.newMember, t.replaces)}
                    </li>
                ))}
            </ul>
        </Content>
    );
}

/** The first device offered, kept while it still is. */
function currentChoice(choices: ReplaceChoices, chosen: string | null, wipe: boolean): string | null {
    const offered = offeredCandidates(choices.verdicts, wipe).map(v => v.device.name);
    return chosen !== null && offered.includes(chosen) ? chosen : offered[0] ?? null;
}

export function ReplaceDiskDialog({ array, replacing, onClose }: {
    array: ArrayModel; replacing: Replacing; onClose: () => void;
}) {
    const { config, model } = useHostAsOpened();
    const situation = useMemo<ReplaceSituation>(
        () => ({ array: arrayAsOpened(model, array), arrays: model.arrays, host: model, replacing }),
        [model, array, replacing]);
    const [reads, setReads] = useState<ReplaceReads | null>(null);
    const [readError, setReadError] = useState<string | null>(null);
    const [picked, setPicked] = useState<string | null>(null);
    const [wipe, setWipe] = useState(false);
    useEffect(() => {
        let current = true;
        readForReplacement(config, situation).then(
            result => current && setReads(result),
            (error: Error) => current && setReadError(error.message));
        return () => { current = false; };
    }, [config, situation]);
    const choices = useMemo(() => reads && replaceChoices(situation, reads), [situation, reads]);
    const chosen = choices && currentChoice(choices, picked, wipe);
    const result = choices && chosen !== null ? replaceDiskPlan(situation, choices, chosen, wipe) : null;
    const title = replacing.kind === 'empty-slot'
        ? fmt(_('Add a disk to $0'), array.name)
        : fmt(_('Replace $0 in $1'), replacing.member, array.name);
    return (
        <ChangeModal title={title} plan={result && 'plan' in result ? result.plan : null} recordOriginals={false}
            applyLabel={replacing.kind === 'empty-slot' ? _('Add') : _('Replace')} onClose={onClose}>
            <Stack hasGutter>
                {readError && <Alert isInline variant="danger" title={readError} />}
                {!reads && !readError && <Spinner size="lg" aria-label={_('Reading the block devices')} />}
                {reads && choices && (
                    <ReplaceForm situation={situation} reads={reads} choices={choices} chosen={chosen} wipe={wipe}
                        onChoose={setPicked} onWipe={setWipe} />
                )}
                {result && 'targets' in result && <TargetsList targets={result.targets} />}
                {result && 'error' in result && <Alert isInline variant="danger" title={text(result.error)} />}
            </Stack>
        </ChangeModal>
    );
}
