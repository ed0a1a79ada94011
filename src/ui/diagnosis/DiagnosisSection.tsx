// SPDX-License-Identifier: LGPL-2.1-or-later
// "Why is it slow?" in the sync panel: the findings of src/md/diagnosis with their numbers and
// fixes, or "gathering data" until there is enough to go on, and the what-if table.

import './diagnosis.css';
import { Content, Title } from '../pf';
import { _, fmt, ngettext } from '../../host/i18n';
import { diagnosisOf, type Diagnosis, type Finding, type FixIntent } from '../../md/diagnosis/findings';
import { MIN_SAMPLES, MIN_WINDOW_S } from '../../md/diagnosis/window';
import type { ArrayModel, HostModel } from '../../md/modelTypes';
import { durationText } from '../common/syncTexts';
import { FixButton } from './FixButton';
import { boundText, findingText, verdictText, windowText } from './findingTexts';
import { findingTitle } from './paceTexts';
import { WhatIfTable } from './WhatIfTable';

function FindingItem({ finding, onFix }: { finding: Finding; onFix: (fix: FixIntent) => void }) {
    const fix = 'fix' in finding ? finding.fix : null;
    return (
        <li className="raidtune-finding" data-finding={finding.kind}>
            <strong>{findingTitle(finding)}:</strong> {findingText(finding)}
            {finding.kind === 'slow-member' && <> <code>{finding.smartArgv.join(' ')}</code></>}
            {fix && <> <FixButton fix={fix} onOpen={onFix} /></>}
        </li>
    );
}

function Verdict({ diagnosis, onFix }: { diagnosis: Diagnosis; onFix: (fix: FixIntent) => void }) {
    if (diagnosis.gathering) {
        const { samples, seconds } = diagnosis.gathering;
        return (
            <Content component="p" className="raidtune-diagnosis-gathering">
                {fmt(ngettext('Gathering data: $0 sample over $1 so far; a verdict needs at least $2 samples over $3.',
                    'Gathering data: $0 samples over $1 so far; a verdict needs at least $2 samples over $3.', samples),
                samples, durationText(seconds), MIN_SAMPLES, durationText(MIN_WINDOW_S))}
            </Content>
        );
    }
    if (!diagnosis.findings.length) {
        return diagnosis.verdict && <Content component="p" className="raidtune-diagnosis-clear">{verdictText(diagnosis.verdict)}</Content>;
    }
    return (
        <ul className="raidtune-findings">
            {diagnosis.findings.map(f => <FindingItem key={`${f.kind}-${'member' in f ? f.member : ''}`} finding={f} onFix={onFix} />)}
        </ul>
    );
}

/** A check or repair need not be fast (findings.ts): its section asks what it costs, not why it is slow. */
const scrubbing = (array: ArrayModel) => array.sync?.action === 'check' || array.sync?.action === 'repair';

/** `onFix` opens a fix's dialog, kept by the array's card (useFixDialog). */
export function DiagnosisSection({ array, host, onFix }: {
    array: ArrayModel; host: HostModel; onFix: (fix: FixIntent) => void;
}) {
    const diagnosis = diagnosisOf(host, array);
    if (!diagnosis.gathering && !diagnosis.findings.length && !diagnosis.window) return null;
    const titleId = `diagnosis-${array.name}-title`;
    const facts = diagnosis.window;
    return (
        <section className="raidtune-diagnosis" aria-labelledby={titleId}>
            <Title headingLevel="h3" size="md" id={titleId}>{scrubbing(array) ? _('What it takes from other I/O') : _('Why is it slow?')}</Title>
            <Verdict diagnosis={diagnosis} onFix={onFix} />
            {facts && (
                <Content component="p" className="raidtune-diagnosis-evidence">
                    <small>{windowText(facts)} {boundText(facts.bound)}</small>
                </Content>
            )}
            {diagnosis.whatIf.length > 1 && (
                <WhatIfTable arrayName={array.name} rows={diagnosis.whatIf} bound={facts?.bound ?? null} />
            )}
        </section>
    );
}
