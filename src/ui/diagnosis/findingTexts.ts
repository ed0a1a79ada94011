// SPDX-License-Identifier: LGPL-2.1-or-later
// Sentences for the diagnosis: each finding with the numbers behind it and the what-if table's
// words (the findings' titles and the fixes' labels are in paceTexts.ts). Rates are per member
// disk, like md's limits.

import { _, fmt, ngettext } from '../../host/i18n';
import { formatMs, formatRate, formatShare } from '../../md/format';
import type { BackgroundJob } from '../../md/diagnosis/backgroundJobs';
import type { Finding, Verdict } from '../../md/diagnosis/findings';
import { NEAR_MIN_BELOW, type WhatIfRow } from '../../md/diagnosis/whatIf';
import type { CapacityBound, SiblingIo, WindowFacts } from '../../md/diagnosis/window';
import { arrayNames } from './paceTexts';
import { durationText } from '../common/syncTexts';

function jobText(job: BackgroundJob): string {
    const name = job.count > 1 ? `${job.name} (${job.count}×)` : job.name;
    switch (job.kind) {
    case 'ext4-lazyinit':
        return fmt(_('$0: a new ext4 file system initialising its inode tables in the background; it stops by itself when done, or at once after a remount with -o noinit_itable'), name);
    case 'file-index': return fmt(_('$0: the nightly file name index walking every file system'), name);
    case 'fs-check': return fmt(_('$0: a file system check reading its whole file system'), name);
    case 'backup': return fmt(_('$0: a copy or backup program'), name);
    }
}

/**
 * Whose the other I/O is when arrays on other partitions of the same disks move it (RHEL's /boot, /
 * and data arrays): md judges a member by its whole disk, so their I/O slows this sync too.
 */
function siblingsText(siblings: readonly SiblingIo[]): string {
    if (!siblings.length) return '';
    const rate = formatRate(siblings.reduce((sum, s) => sum + s.kiBs, 0));
    return ' ' + (siblings.length === 1
        ? fmt(_('$0 moves $1 of it: it lies on other partitions of the same disks, and md gives way to I/O on any partition of a member disk.'),
            siblings[0].array, rate)
        : fmt(_('$0 move $1 of it: they lie on other partitions of the same disks, and md gives way to I/O on any partition of a member disk.'),
            arrayNames(siblings), rate));
}

export function findingText(finding: Finding): string {
    switch (finding.kind) {
    case 'capped-by-max':
        return fmt(_('It runs at $0 per disk, at the maximum of $1 that applies to this array: the limit, not the disks, sets the pace.'),
            formatRate(finding.rateKiBs), formatRate(finding.maxKiBs))
            + (finding.noFix === 'no-gain' ? ' ' + _('The member disks are near their limit too, so a higher maximum would not make it faster.') : '');
    case 'starved':
    case 'slowed':
        return fmt(finding.kind === 'starved' && finding.rateKiBs < finding.minKiBs * NEAR_MIN_BELOW
            ? _('It runs at $0 per disk, below the minimum of $1, while other I/O moves $2 on the member disks ($3 of their traffic): md gives way to other I/O down to the minimum, and with the disks queued all the time each wait takes it below.')
            : finding.kind === 'starved'
            ? _('It runs at $0 per disk, near the minimum of $1, while other I/O moves $2 on the member disks ($3 of their traffic): md gives way to other I/O down to the minimum.')
            : _('It runs at $0 per disk, above the minimum of $1, while other I/O moves $2 on the member disks ($3 of their traffic): md gives way to other I/O as long as the sync runs above its minimum, and a higher minimum takes that room back.'),
        formatRate(finding.rateKiBs), formatRate(finding.minKiBs), formatRate(finding.otherKiBs),
        formatShare(finding.otherShare))
            + siblingsText(finding.siblings)
            + (finding.noFix === 'members' ? ' ' + _('The member disks cannot go much faster, so a higher minimum would not help.')
                : finding.noFix === 'fast-already' ? ' ' + _('The minimum is already at the Fast rebuild level: a higher one would take the disks from the other I/O.') : '');
    case 'scrub':
        return fmt(_('It runs at $0 per disk and leaves the other I/O what the disks have left. It need not be fast: a lower maximum leaves the disks more room, and a check window (Scheduled checks) keeps checks to quiet hours.'),
            formatRate(finding.rateKiBs));
    case 'slow-member':
        // A failing disk and one that takes more of the other I/O than its identical peers (and so
        // queues near its limit) look the same in the counters (doc/benchmarks.md, issue #14): both are said.
        return fmt(_('$0 is busy $1 of the time and needs $2 ms of I/O per MiB; the other members are busy $3 and need $4 ms. It moves $5, they move $6: the sync waits for it. A failing or slower disk does this, and so does one that gets more of the other I/O than its peers. Check its health with'),
            finding.disk, formatShare(finding.busyShare), formatMs(finding.msPerMiB),
            formatShare(finding.peerBusyShare), formatMs(finding.peerMsPerMiB),
            formatRate(finding.kiBs), formatRate(finding.peerKiBs));
    case 'cache-bound':
        return finding.spare
            ? fmt(_('Its stripe cache of $0 entries was full in $1 of the samples while the member disks had time to spare ($2 is busy $3 of the time): md keeps no more stripes in flight than its cache holds, so the disks wait for it. A larger cache lets them work more of the time.'),
                finding.entries, formatShare(finding.fullShare), finding.spare.disk,
                formatShare(finding.spare.busyShare))
            : fmt(_('On hard disks that serve other I/O too, md sends the sync in batches of at most its stripe cache ($0 entries, full in $1 of the samples), and each batch waits behind the other requests and costs the disks a seek. A larger cache lets md send more at once; how much faster that makes it, raidtune cannot measure.'),
                finding.entries, formatShare(finding.fullShare));
    case 'frozen':
        return _('The sync is frozen (sync_action "frozen") and makes no progress until it is resumed.');
    case 'background-jobs':
        return fmt(_('Other I/O moves $0 on the member disks, and programs known for heavy disk I/O run on this host (raidtune cannot tell which disks they use):'),
            formatRate(finding.otherKiBs)) + ' ' + finding.jobs.map(jobText).join('; ') + '.';
    case 'delayed':
        return finding.waitingFor.length
            ? fmt(_('Arrays that share disks sync one at a time: this one starts when $0 finishes.'), finding.waitingFor.join(', '))
            : _('Arrays that share disks sync one at a time: this one starts when the other finishes.');
    }
}

export function windowText(facts: WindowFacts): string {
    const base = fmt(ngettext('Measured over $1 ($0 sample): $2 per disk; the member disks moved $3 in all.',
        'Measured over $1 ($0 samples): $2 per disk; the member disks moved $3 in all.', facts.samples),
    facts.samples, durationText(facts.seconds), formatRate(facts.rateKiBs), formatRate(facts.totalKiBs));
    return facts.otherKiBs === null ? base : base + ' ' + fmt(_('Other I/O: $0.'), formatRate(facts.otherKiBs));
}

export function boundText(bound: CapacityBound | null): string {
    if (bound?.atLeast) {
        return fmt(_('The member disks can move at least $0 per disk: $1 is busy $2 of the time, mostly with other I/O, whose scattered requests take a hard disk longer per MiB than the sync\'s.'),
            formatRate(bound.kiBs), bound.disk, formatShare(bound.busyShare));
    }
    return bound
        ? fmt(_('The member disks can move about $0 per disk at most: $1 is busy $2 of the time.'),
            formatRate(bound.kiBs), bound.disk, formatShare(bound.busyShare))
        : _('How fast the member disks could go is unknown (too little busy to tell, or a RAID 10 layout other than during a rebuild).');
}

export function changeText(row: WhatIfRow): string {
    const change = row.change;
    switch (change.kind) {
    case 'now': return _('No change');
    case 'min': return fmt(_('Minimum $0'), formatRate(change.kiBs));
    case 'max': return fmt(_('Maximum $0'), formatRate(change.kiBs));
    case 'stripe-cache': return fmt(_('Stripe cache $0 entries'), change.entries);
    }
}

export function outcomeText(row: WhatIfRow, bound: CapacityBound | null): string {
    switch (row.outcome) {
    case 'now': return _('As measured');
    case 'faster': return _('Faster');
    case 'unchecked': return _('Faster, if the member disks keep up (their capacity is unknown)');
    case 'same': return _('No faster: something else holds it back');
    case 'members': return fmt(_('Limited by $0, what the member disks can move'), bound?.disk ?? '?');
    case 'slower': return _('Slower: the disks keep more room for other I/O');
    case 'likely-faster': return _('Faster on hard disks that serve other I/O too, by an amount raidtune cannot measure');
    case 'unknown': return row.change.kind === 'stripe-cache'
        ? _('Cannot tell: the member disks were too little busy to measure what they can move')
        : _('Cannot tell: the other I/O cannot be measured on this layout, so whether md gives way to some is unknown');
    }
}

function paceText(verdict: Verdict): string {
    const pace = verdict.pace;
    switch (pace.kind) {
    case 'members':
        return fmt(_('The member disks set the pace: $0 is busy $1 of the time.'), pace.bound.disk, formatShare(pace.bound.busyShare));
    case 'minimum':
        return fmt(_('It runs at its minimum of $0 while other I/O moves $1 on the member disks: md gives way to other I/O down to the minimum.'),
            formatRate(pace.minKiBs), formatRate(pace.otherKiBs));
    case 'gives-way':
        return fmt(_('md gives way to other I/O, which moves $0 on the member disks, as long as the sync runs above its minimum of $1.'),
            formatRate(pace.otherKiBs), formatRate(pace.minKiBs));
    case 'maximum':
        return fmt(_('Its maximum of $0 sets the pace.'), formatRate(pace.maxKiBs));
    case 'nothing':
        switch (verdict.other) {
        case 'none': return _('Nothing measured holds it back: no limit is reached, no other I/O competes and no member disk stands out.');
        case 'some': return _('Nothing measured holds it back: no limit is reached, the other I/O is too little to slow it and no member disk stands out.');
        case 'unknown': return _('Nothing measured holds it back: no limit is reached and no member disk stands out.');
        }
    }
}

/** What the section says when there is no finding: what sets the pace, in terms of the evidence beside it. */
export function verdictText(verdict: Verdict): string {
    // A sync keeps every stripe it can in use: a full cache is its normal state, a cause only where
    // the disks wait for it (then a finding says so, not this).
    return verdict.cacheFull
        ? paceText(verdict) + ' ' + _('Its stripe cache is full, as usual while a sync runs: not what holds it back here.')
        : paceText(verdict);
}
