// SPDX-License-Identifier: LGPL-2.1-or-later
// A plan as an Ansible playbook, with ansible-core's own modules only (no collection to install):
// the arrays found by the kernel's md/uuid, every check before the first write (slurp + fail),
// sysfs and /proc/sys written with `command: tee` only where the value read differs, raidtune's
// kept files with copy/file, the host's own files (mdadm.conf, /etc/default/mdadm) line by line
// with lineinfile/replace, mdadm as argv, units restarted only where a file changed. dev.raid.* is
// not written with ansible.posix.sysctl: that module always also writes a sysctl file
// (/etc/sysctl.conf by default), so a change the plan makes live only would be kept after reboot
// too; "Keep after reboot" plans have their own sysctl.d file.
// `raidtune_root` prefixes every path (tests on a simulated host); it is empty on a real host.

import { ownerPattern } from '../lineEdit';
import type { EditFileStep, Plan, Step } from '../plan';
import { STRIPE_CACHE_MEMORY } from '../tuning/stripeCache';
import { ARRAY_SETTINGS } from '../settings/registry';
import { yamlLiteral, yamlTemplate } from './quote';
import {
    diskMissingText, newDiskProgram, newDisksOfPlan, placesOf,
    type DiskId, type DiskRef, type NewDiskAction, type NewDisks,
} from './newDisk';
import {
    argvWords, arrayNumber, attributeTarget, checkedValue, diskNumber, grownBitmap, MEMBER_DISK,
    AutomationError, memberMissingText, memberText, missingText, planNames, refuseHostBound, removedMember,
    restartsForFiles, unitGates, UNITS_ARE, type ArrayRef, type MemberKey, type PlanNames, type Target, type UnitSwitch,
} from './targets';

/** One task as YAML lines, indented under `tasks:`. */
type Task = string[];

/** Prints the md device whose md/uuid is $2 under root $1 (nothing if none); fixed text, argv only. */
const FIND_ARRAY = 'for f in "$1"/sys/block/md*/md/uuid; do [ "$(cat "$f" 2>/dev/null)" = "$2" ] && { d=${f%/md/uuid}; echo "${d##*/}"; }; done; exit 0';

/** The value read back as the kernel shows it already holds `want` ("N (local)", "a [b] c", "N (system)"). */
const HOLDS = "cur in [want, want ~ ' (local)'] or ('[' ~ want ~ ']') in cur or (want == 'system' and cur is match('.* [(]system[)]$'))";

/** What the playbook registers the arrays and member disks it finds on the managed host as. */
const arrayVar = (names: PlanNames, ref: ArrayRef) => `raidtune_md_${arrayNumber(names, ref)}`;
const diskVar = (names: PlanNames, key: MemberKey) => `raidtune_disk_${diskNumber(names, key)}`;

/** A Jinja expression for the array's name on the managed host. */
function arrayName(names: PlanNames, ref: ArrayRef): string {
    return `{{ ${arrayVar(names, ref)}.stdout }}`;
}

function diskName(names: PlanNames, key: MemberKey): string {
    return `{{ ${diskVar(names, key)}.stdout }}`;
}

function targetPath(names: PlanNames, t: Target): string {
    switch (t.kind) {
    case 'sysctl': return `{{ raidtune_root }}${t.path}`;
    case 'array': return `{{ raidtune_root }}/sys/block/${arrayName(names, t.array)}/${t.attribute}`;
    case 'disk': return `{{ raidtune_root }}/sys/block/${diskName(names, t.member)}/${t.attribute}`;
    }
}

function targetLabel(t: Target): string {
    switch (t.kind) {
    case 'sysctl': return t.key;
    case 'array': return `${t.array.uuid} (${t.array.name} where this was made) ${t.attribute}`;
    case 'disk': return `the disk of ${memberText(t.member)} (${t.member.disk} where this was made) ${t.attribute}`;
    }
}

function task(name: string, module: string, args: string[], extra: string[] = []): Task {
    return [`- name: ${yamlLiteral(name)}`, `  ${module}:`, ...args.map(a => `    ${a}`), ...extra.map(e => `  ${e}`)];
}

/** Runs a fixed `sh -c` finder with `args` (YAML words) into `v`, and fails with `missing` where it prints nothing. */
function find(what: string, finder: string, args: string[], v: string, missing: string): Task[] {
    return [
        task(`Find ${what}`, 'ansible.builtin.command', [
            'argv:', `  - sh`, `  - -c`, `  - ${yamlLiteral(finder)}`, '  - raidtune-find', '  - "{{ raidtune_root }}"', ...args.map(a => `  - ${a}`),
        ], [`register: ${v}`, 'changed_when: false']),
        task(`Fail: ${missing}`, 'ansible.builtin.fail', [`msg: ${yamlLiteral(missing)}`], [`when: ${v}.stdout == ""`]),
    ];
}

function findArray(names: PlanNames, ref: ArrayRef): Task[] {
    return find(`md array ${ref.uuid} by its UUID`, FIND_ARRAY, [yamlLiteral(ref.uuid)], arrayVar(names, ref),
        `no md array with UUID ${ref.uuid} on this host`);
}

function findMemberDisk(names: PlanNames, key: MemberKey): Task[] {
    const how = 'slot' in key ? ['slot', yamlLiteral(String(key.slot))] : ['name', yamlLiteral(key.name)];
    return find(`the disk of ${memberText(key)} (${key.disk} where this was made)`, MEMBER_DISK,
        [yamlTemplate(arrayName(names, key.array)), ...how], diskVar(names, key), memberMissingText(key));
}

/** Read one file into `reg` (failing with `missing` when it is not there); `label`: the task's name. */
function readFile(path: string, reg: string, missing: string, label = path): Task[] {
    return [
        task(`Read ${label}`, 'ansible.builtin.slurp', [`src: ${yamlTemplate(path)}`], [`register: ${reg}`, 'failed_when: false']),
        task(`Fail: ${missing}`, 'ansible.builtin.fail', [`msg: ${yamlLiteral(missing)}`], [`when: "'content' not in ${reg}"`]),
    ];
}

const PERCENT = Math.round(STRIPE_CACHE_MEMORY.refuse * 100);

function stripeCacheChecks(names: PlanNames, ref: ArrayRef, n: number, value: string | null): Task[] {
    const md = `{{ raidtune_root }}/sys/block/${arrayName(names, ref)}/md`;
    const tasks = [
        ...readFile(`${md}/level`, `raidtune_level_${n}`, `md array ${ref.uuid} has no md/level`, `the level of ${ref.uuid}`),
        task(`Fail where md array ${ref.uuid} has no stripe cache`, 'ansible.builtin.fail', [
            `msg: ${yamlTemplate(`md array ${ref.uuid} is {{ raidtune_level_${n}.content | b64decode | trim }} on this host: it has no stripe cache`)}`,
        ], [`when: (raidtune_level_${n}.content | b64decode | trim) not in ['raid4', 'raid5', 'raid6']`]),
    ];
    if (value === null) return tasks;
    return [...tasks,
        ...readFile(`${md}/raid_disks`, `raidtune_disks_${n}`, `md array ${ref.uuid} has no md/raid_disks`, `the disks of ${ref.uuid}`),
        ...readFile(`${md}/stripe_cache_size`, `raidtune_cache_${n}`, `md array ${ref.uuid} has no stripe cache`,
            `the stripe cache of ${ref.uuid}`),
        ...readFile('{{ raidtune_root }}/proc/meminfo', `raidtune_meminfo_${n}`, 'no /proc/meminfo', '/proc/meminfo'),
        task('Read the page size', 'ansible.builtin.command', ['argv: [getconf, PAGESIZE]'], [`register: raidtune_page_${n}`, 'changed_when: false']),
        task(`Fail where a stripe cache of ${value} takes over ${PERCENT} % of MemAvailable`, 'ansible.builtin.fail', [
            `msg: ${yamlLiteral(`a stripe cache of ${value} on md array ${ref.uuid} needs over ${PERCENT} % of the available memory`)}`,
        ], [
            'vars:',
            `  extra_kib: "{{ (${value} - (raidtune_cache_${n}.content | b64decode | int)) * ((raidtune_disks_${n}.content | b64decode).split() | first | int) * (raidtune_page_${n}.stdout | int) // 1024 }}"`,
            `  avail_kib: "{{ (raidtune_meminfo_${n}.content | b64decode | regex_search('MemAvailable:\\\\s+(\\\\d+)', '\\\\1') | first) | int }}"`,
            `when: (extra_kib | int) > (avail_kib | int) * ${PERCENT} // 100`,
        ]),
    ];
}

interface StepTasks { checks: Task[]; writes: Task[] }

function attributeTasks(names: PlanNames, step: Step & { kind: 'write-attribute' }, n: number): StepTasks {
    const t = attributeTarget(step.path, names.arrays);
    const value = checkedValue(t, step.to);
    const path = targetPath(names, t);
    const reg = `raidtune_now_${n}`;
    const checks: Task[] = [];
    if (t.kind === 'array' && t.needsStripeCache) {
        const entries = t.attribute === ARRAY_SETTINGS.stripeCache.attribute ? value : null;
        checks.push(...stripeCacheChecks(names, t.array, n, entries));
    }
    checks.push(...readFile(path, reg, missingText(t), targetLabel(t)));
    if (t.kind === 'disk' && t.attribute === 'queue/scheduler') {
        checks.push(task(`Fail where the disk of ${memberText(t.member)} offers no scheduler ${value}`, 'ansible.builtin.fail', [
            `msg: ${yamlTemplate(`${diskName(names, t.member)} offers no I/O scheduler {{ want }}`)}`,
        ], ['vars:', `  want: ${yamlLiteral(value)}`, `when: want not in (${reg}.content | b64decode | replace('[', '') | replace(']', '')).split()`]));
    }
    const write = task(`Write ${value} to ${targetLabel(t)}`, 'ansible.builtin.command', [
        'argv:', '  - tee', `  - ${yamlTemplate(path)}`, `stdin: ${yamlLiteral(value)}`,
    ], ['vars:', `  want: ${yamlLiteral(value)}`, `  cur: "{{ ${reg}.content | b64decode | trim }}"`, `when: not (${HOLDS})`]);
    return { checks, writes: [write] };
}

function fileTasks(step: Step & { kind: 'write-file' }, n: number): Task[] {
    const dest = yamlTemplate(`{{ raidtune_root }}${step.path}`);
    if (step.content === null) return [task(`Remove ${step.path}`, 'ansible.builtin.file', [`path: ${dest}`, 'state: absent'], [`register: ${fileVar(n, 0)}`])];
    const dir = step.path.replace(/\/[^/]*$/, '') || '/';
    return [
        task(`Create ${dir}`, 'ansible.builtin.file', [`path: ${yamlTemplate(`{{ raidtune_root }}${dir}`)}`, 'state: directory']),
        task(`Write ${step.path}`, 'ansible.builtin.copy', [`dest: ${dest}`, `content: ${yamlLiteral(step.content)}`, 'mode: "0644"'],
            [`register: ${fileVar(n, 0)}`]),
    ];
}

/** What the playbook registers the n-th file step's k-th task as, to restart units only after a change. */
const fileVar = (n: number, k: number) => `raidtune_file_${n}_${k}`;

/**
 * The edits of a host file, line by line with ansible-core's modules: a removal is lineinfile's
 * `absent` (every line of the directive); a set is lineinfile (the directive's last line replaced,
 * or the line added at the end) and then `replace` (every other line of it made the same, since
 * mdadm reads its first). Each reports a change only when the file changed. mdadm.conf's
 * continuation lines are not followed here (the page and the shell script follow them).
 */
function editTasks(step: EditFileStep, n: number): Task[] {
    const path = yamlTemplate(`{{ raidtune_root }}${step.path}`);
    return step.edits.flatMap((edit, i) => {
        const { regex } = ownerPattern(step.format, edit.key);
        if (edit.lines.length > 1) throw new AutomationError(`${edit.key}: more than one line`);
        const reg = (k: number) => `register: ${fileVar(n, 2 * i + k)}`;
        if (!edit.lines.length) {
            return [task(`Remove the ${edit.key} lines of ${step.path}`, 'ansible.builtin.lineinfile',
                [`path: ${path}`, `regexp: ${yamlLiteral(regex)}`, 'state: absent'], [reg(0)])];
        }
        const line = edit.lines[0];
        return [
            task(`Set ${edit.key} in ${step.path}`, 'ansible.builtin.lineinfile',
                [`path: ${path}`, `regexp: ${yamlLiteral(regex)}`, `line: ${yamlLiteral(line)}`, 'create: true'], [reg(0)]),
            task(`Make every ${edit.key} line of ${step.path} the same`, 'ansible.builtin.replace',
                [`path: ${path}`, `regexp: ${yamlLiteral(`${regex}.*$`)}`, `replace: ${yamlLiteral(line.replace(/\\/g, '\\\\'))}`], [reg(1)]),
        ];
    });
}

/** The registered results of the file tasks before the n-th step. */
function fileResults(plan: Plan, before: number): string[] {
    return plan.steps.slice(0, before - 1).flatMap((s, i) => {
        if (s.kind === 'write-file') return [fileVar(i + 1, 0)];
        if (s.kind === 'edit-file') return s.edits.flatMap((e, j) => (e.lines.length ? [fileVar(i + 1, 2 * j), fileVar(i + 1, 2 * j + 1)] : [fileVar(i + 1, 2 * j)]));
        return [];
    });
}

function runTasks(names: PlanNames, step: Step & { kind: 'run' }, n: number, plan: Plan): StepTasks {
    refuseHostBound(step);
    const words = argvWords(step.argv, names.arrays);
    const argv = words.map(w => `  - ${'array' in w ? yamlTemplate(`/dev/${arrayName(names, w.array)}`) : yamlLiteral(w.literal)}`);
    const array = words.find((w): w is { array: ArrayRef } => 'array' in w)?.array;
    const md = array && `{{ raidtune_root }}/sys/block/${arrayName(names, array)}/md`;
    const name = `Run ${step.argv.join(' ')}`;
    const bitmap = grownBitmap(step);
    const member = removedMember(step);
    if (md && bitmap) {
        const reg = `raidtune_bitmap_${n}`;
        const test = bitmap === 'none' ? '!=' : '==';
        return {
            checks: readFile(`${md}/bitmap/location`, reg, `md array ${array.uuid} has no md/bitmap/location`, `the bitmap of ${array.uuid}`),
            writes: [task(name, 'ansible.builtin.command', ['argv:', ...argv], [`when: (${reg}.content | b64decode | trim) ${test} 'none'`])],
        };
    }
    if (md && member) {
        // Removed only where it has failed: on another host the same name may be a working disk.
        const reg = `raidtune_member_${n}`;
        const state = `(${reg}.content | b64decode | trim)`;
        return {
            checks: [
                task(`Read the state of member ${member}`, 'ansible.builtin.slurp', [`src: ${yamlTemplate(`${md}/dev-${member}/state`)}`],
                    [`register: ${reg}`, 'failed_when: false']),
                task(`Fail where member ${member} has not failed`, 'ansible.builtin.fail', [
                    `msg: ${yamlTemplate(`${member} of md array ${array.uuid} has not failed on this host ({{ ${state} }}): it is not removed`)}`,
                ], [`when: "'content' in ${reg} and 'faulty' not in ${state}.split(',')"`]),
            ],
            writes: [task(name, 'ansible.builtin.command', ['argv:', ...argv], [`when: "'content' in ${reg}"`])],
        };
    }
    const gates = unitGates(plan);
    const switched = gates.switches.get(n - 1);
    // Switches read their units' state before the first change; a start goes with the plan's switches.
    const by = switched ? [n] : gates.startGatedBy(n - 1).map(i => i + 1);
    if (by.length) {
        const checks = switched ? [readUnits(switched, n)] : [];
        return { checks, writes: [task(name, 'ansible.builtin.command', ['argv:', ...argv], [`when: ${by.map(i => `${unitsVar(i)}.rc != 0`).join(' or ')}`])] };
    }
    const files = restartsForFiles(step) ? fileResults(plan, n) : [];
    const gate = files.length ? [`when: ${files.map(r => `${r} is changed`).join(' or ')}`] : [];
    return { checks: [], writes: [task(name, 'ansible.builtin.command', ['argv:', ...argv], gate)] };
}

const unitsVar = (n: number) => `raidtune_units_${n}`;

/** Whether the units are as the switch of step `n` leaves them already (rc 0: so, it changes nothing). */
function readUnits(is: UnitSwitch, n: number): Task {
    const args = [is.systemctl, is.want, ...is.units].map(w => `  - ${yamlLiteral(w)}`);
    return task(`Read whether ${is.units.join(', ')} are ${is.want} already`, 'ansible.builtin.command',
        ['argv:', '  - sh', '  - -c', `  - ${yamlLiteral(UNITS_ARE)}`, '  - units_are', ...args],
        [`register: ${unitsVar(n)}`, 'changed_when: false', 'failed_when: false']);
}

/** What the playbook registers a new disk's name and whether its devices are in place as. */
const newVar = (plan: NewDisks, disk: DiskId) => `raidtune_new_${plan.disks.findIndex(d => d.ref === disk.ref) + 1}`;
const placedVar = (plan: NewDisks, disk: DiskId) => `raidtune_placed_${plan.disks.findIndex(d => d.ref === disk.ref) + 1}`;
const newName = (plan: NewDisks, disk: DiskId) => `{{ ${newVar(plan, disk)}.stdout }}`;

/** `sh -c` one of newDisk.ts's functions with `args` (YAML words), the root first. */
function diskCommand(fn: Parameters<typeof newDiskProgram>[0], args: string[]): string[] {
    return ['argv:', '  - sh', '  - -c', `  - ${yamlLiteral(newDiskProgram(fn))}`, '  - raidtune-disk', '  - "{{ raidtune_root }}"',
        ...args.map(a => `  - ${a}`)];
}

/**
 * Each new disk found by what it reports, whether its devices are in their arrays already (all,
 * some or none), and where none is, that nothing uses it: a run cut short goes on from there.
 */
function findNewDisks(names: PlanNames, plan: NewDisks): Task[] {
    return plan.disks.flatMap(disk => {
        const places = placesOf(plan, disk)
            .flatMap(p => [yamlTemplate(arrayName(names, p.array)), yamlLiteral(String(p.number))]);
        const wiped = plan.actions.some(a => a?.kind === 'wipe' && a.disk.ref === disk.ref) ? '1' : '0';
        const v = yamlTemplate(newName(plan, disk));
        return [
            ...find(`the new disk, ${disk.ref.name} where this was made, by its ${disk.by}`, newDiskProgram('disk_by_id'),
                [yamlLiteral(disk.by), yamlLiteral(disk.value)], newVar(plan, disk), diskMissingText(disk)),
            task(`Read whether ${disk.ref.name}'s devices are in their arrays`, 'ansible.builtin.command', diskCommand('placed', [v, ...places]),
                [`register: ${placedVar(plan, disk)}`, 'changed_when: false']),
            task(`Fail where something uses ${disk.ref.name}`, 'ansible.builtin.command', diskCommand('need_unused', [v, yamlLiteral(wiped)]),
                ['changed_when: false', `when: ${placedVar(plan, disk)}.stdout == "none"`]),
        ];
    });
}

/** A new disk's step: wipe and table only where none of its devices is in place yet. */
function newDiskTasks(names: PlanNames, plan: NewDisks, action: NewDiskAction, n: number): StepTasks {
    const untouched = (disk: DiskId) => `when: ${placedVar(plan, disk)}.stdout == "none"`;
    // The functions print "unchanged: ..." where the end state is there already.
    const reported = (reg: string) => [`register: ${reg}`, `changed_when: "not ${reg}.stdout.startswith('unchanged: ')"`];
    switch (action.kind) {
    case 'wipe':
        return { checks: [], writes: [task(`Wipe the signatures on ${action.disk.ref.name}`, 'ansible.builtin.command',
            diskCommand('wipe_disk', [yamlTemplate(newName(plan, action.disk))]), [untouched(action.disk)])] };
    case 'table':
        return { checks: [], writes: [task(`Give ${action.disk.ref.name} its partition table`, 'ansible.builtin.command',
            ['argv:', '  - sfdisk', `  - ${yamlTemplate(`/dev/${newName(plan, action.disk)}`)}`, `stdin: ${yamlLiteral(action.script)}`],
            [untouched(action.disk)])] };
    case 'add': {
        const { array, device, how } = action;
        const args = [yamlTemplate(arrayName(names, array)), yamlTemplate(newName(plan, device.disk)),
            yamlLiteral(String(device.number)), yamlLiteral(how)];
        return { checks: [], writes: [task(`Add ${device.disk.ref.name}'s device ${device.number} to ${array.uuid} (${how})`,
            'ansible.builtin.command', diskCommand('add_member', args), reported(`raidtune_added_${n}`))] };
    }
    case 'replace': {
        const { array, old, device } = action;
        const oldVar = `raidtune_old_${n}`;
        const args = [yamlTemplate(arrayName(names, array)), yamlTemplate(`{{ ${oldVar}.stdout }}`), yamlTemplate(newName(plan, device.disk)),
            yamlLiteral(String(device.number))];
        return {
            checks: find(`${memberText(old)} (${old.disk} where this was made)`, MEMBER_DISK,
                [yamlTemplate(arrayName(names, array)), 'slot', yamlLiteral(String(old.slot)), 'member'], oldVar, memberMissingText(old)),
            writes: [task(`Replace ${memberText(old)} with ${device.disk.ref.name}'s device ${device.number}`, 'ansible.builtin.command',
                diskCommand('replace_member', args), reported(`raidtune_replaced_${n}`))],
        };
    }
    }
}

function stepTasks(names: PlanNames, step: Step, n: number, plan: Plan): StepTasks {
    switch (step.kind) {
    case 'write-attribute': return attributeTasks(names, step, n);
    case 'write-file': return { checks: [], writes: fileTasks(step, n) };
    case 'edit-file': return { checks: [], writes: editTasks(step, n) };
    case 'run': return runTasks(names, step, n, plan);
    }
}

/**
 * The plan as a playbook for `hosts: all`. `arrays`: this host's arrays with their UUIDs
 * (`arrayRefs`); throws AutomationError for a step that cannot be said for another host.
 */
export function playbook(plan: Plan, title: string, arrays: readonly ArrayRef[],
    disks: readonly DiskRef[] = []): string {
    const names = planNames(plan, arrays);
    const newDisks = newDisksOfPlan(plan, arrays, disks);
    const parts = plan.steps.map((s, i) => {
        const action = newDisks.actions[i];
        return action ? newDiskTasks(names, newDisks, action, i + 1) : stepTasks(names, s, i + 1, plan);
    });
    const tasks = [
        ...names.arrays.flatMap(a => findArray(names, a)), ...names.disks.flatMap(k => findMemberDisk(names, k)),
        ...findNewDisks(names, newDisks),
        ...parts.flatMap(p => p.checks), ...parts.flatMap(p => p.writes),
    ];
    return [
        '# Made by raidtune. Finds the arrays by UUID, checks everything before the first write and',
        '# writes only what differs: a second run reports changed=0. raidtune_root: a test tree.',
        '---',
        `- name: ${yamlLiteral(`raidtune: ${title}`)}`,
        '  hosts: all',
        '  become: true',
        '  gather_facts: false',
        '  vars:',
        '    raidtune_root: ""',
        '  tasks:',
        ...tasks.flatMap(t => t.map(line => `    ${line}`)),
        '',
    ].join('\n');
}
