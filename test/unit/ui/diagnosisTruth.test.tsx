/**
 * @jest-environment jsdom
 */
// SPDX-License-Identifier: LGPL-2.1-or-later
// "Why is it slow?" as the page shows it, on simulated hosts read every 2 s like the page: what it
// says sets the pace never contradicts the figures beside it (issue #33 item 5). No "no other I/O
// competes" beside other I/O that is measured; no stripe cache finding whose remedy is "no faster";
// a check, a background scrub, is offered less impact and never more speed.

import { flushSync } from 'react-dom';
import { createRoot } from 'react-dom/client';
import { formatRate } from '../../../src/md/format';
import { diagnose } from '../../../src/md/diagnosis/findings';
import type { HostModel } from '../../../src/md/modelTypes';
import { DiagnosisSection } from '../../../src/ui/diagnosis/DiagnosisSection';
import { removeTempRoots, startHost, tee, watchHost } from '../sim/simHelpers';

afterAll(removeTempRoots);

/** Each syncing array's diagnosis section, rendered. */
function sections(model: HostModel): Map<string, HTMLElement> {
    const shown = new Map<string, HTMLElement>();
    for (const array of model.arrays.filter(a => a.sync)) {
        const container = document.createElement('div');
        const section = <DiagnosisSection array={array} host={model} onFix={() => undefined} />;
        flushSync(() => createRoot(container).render(section));
        shown.set(array.name, container);
    }
    return shown;
}

/** The scenarios of the issue, each after 20 s, and raid6-recovery again after its fix. */
function models(): [string, HostModel][] {
    const list: [string, HostModel][] = [];
    for (const scenario of ['newer-kernel-rebuild', 'raid6-recovery', 'slow-rebuilds', 'raid5-reshape', 'check-mismatches', 'seeking-rebuild',
        'rhel-layout']) {
        const host = startHost(scenario);
        const model = watchHost(host, 20);
        list.push([scenario, model]);
        if (scenario === 'raid6-recovery') {
            tee(host, 'sys/block/md0/md/sync_speed_min', '51200');
            list.push(['raid6-recovery at Fast rebuild\'s minimum', watchHost(host, 20, model)]);
        }
    }
    return list;
}

const all = models();

test('no "no other I/O competes" while other I/O above zero is measured', () => {
    const said: string[] = [];
    for (const [scenario, model] of all) {
        for (const [name, section] of sections(model)) {
            const other = diagnose(model.arrays.find(a => a.name === name)!, model).window?.otherKiBs ?? null;
            if (other === null || formatRate(other) === formatRate(0)) continue;
            if (/no other I\/O/i.test(section.textContent ?? '')) said.push(`${scenario} ${name}: ${formatRate(other)} of other I/O`);
        }
    }
    expect(said).toEqual([]);
});

test('no stripe cache finding whose remedy would make it no faster, and the full cache is no alarm', () => {
    const alarms: string[] = [];
    for (const [scenario, model] of all) {
        for (const [name, section] of sections(model)) {
            const row = section.querySelector('tbody tr[data-change="stripe-cache"] td:last-child')?.textContent ?? '';
            for (const item of section.querySelectorAll('[data-finding="cache-bound"]')) {
                if (!item.querySelector('button') || !/^(Faster|Limited by)/.test(row)) alarms.push(`${scenario} ${name}: ${item.textContent} / ${row}`);
            }
        }
    }
    expect(alarms).toEqual([]);
    // slow-rebuilds md3 and raid5-reshape: a full cache while the members are busy all the time is
    // how a sync at the disks' speed looks: the section says the disks set the pace.
    const reshape = sections(all.find(([s]) => s === 'raid5-reshape')![1]).get('md0')!;
    expect(reshape.textContent).toMatch(/The member disks set the pace: sd[b-e] is busy (99|100)% of the time\./);
});

test('a check is offered less impact, not more speed', () => {
    const [, model] = all.find(([s]) => s === 'check-mismatches')!;
    const section = sections(model).get('md0')!;
    const buttons = [...section.querySelectorAll('button')].map(b => b.textContent);
    expect(buttons.filter(label => /^Raise/.test(label ?? ''))).toEqual([]);
    expect(buttons).toContainEqual(expect.stringMatching(/^Lower the maximum to [\d.]+ Mi?B\/s…$/));
    // The what-if: no higher minimum or maximum, a lower maximum with its later finish.
    const rows = [...section.querySelectorAll('tbody tr')].map(tr => tr.querySelector('th, td')?.textContent);
    expect(rows).toEqual(['No change', expect.stringMatching(/^Maximum [\d.]+ Mi?B\/s$/)]);
    expect(section.textContent).toMatch(/check window/);
});

test('RHEL\'s layout: the rebuild held back by I/O on / names the array on the same disks, and offers a higher minimum', () => {
    const [, model] = all.find(([s]) => s === 'rhel-layout')!;
    const md2 = model.arrays.find(a => a.name === 'md2')!;
    const md1Rate = diagnose(md2, model).window!.siblings.find(s => s.array === 'md1')!.kiBs;
    const section = sections(model).get('md2')!;
    const finding = section.querySelector('[data-finding="starved"]')!;
    expect(finding.textContent).toContain('Starved by I/O on md1');
    expect(finding.textContent).toContain(`md1 moves ${formatRate(md1Rate)} of it: it lies on other partitions of the same disks, ` +
        'and md gives way to I/O on any partition of a member disk.');
    expect([...finding.querySelectorAll('button')].map(b => b.textContent)).toEqual([expect.stringMatching(/^Raise the minimum to [\d.]+ MiB\/s…$/)]);
});
