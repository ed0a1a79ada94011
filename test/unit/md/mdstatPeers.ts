// SPDX-License-Identifier: LGPL-2.1-or-later
// Reads the peer corpus (test/fixtures/mdstat-peers) and maps our parse results to the common shape
// its expected.json files use, so the conformance test can compare field by field.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { MdstatArray, MdstatMember, MemberFlag } from '../../../src/md/mdstat';

export const PEER_DIR = path.join(__dirname, '../../fixtures/mdstat-peers');

export type PeerArray = Record<string, unknown> & { name: string };

export interface PeerSample {
    id: string;
    text: string;
    expectError: boolean;
    personalities?: string[];
    arrays: PeerArray[];
}

export function loadPeerSamples(): PeerSample[] {
    return fs.readdirSync(PEER_DIR)
        .filter(file => file.endsWith('.mdstat'))
        .sort()
        .map(file => {
            const id = file.replace(/\.mdstat$/, '');
            const expected = JSON.parse(fs.readFileSync(path.join(PEER_DIR, `${id}.expected.json`), 'utf8'));
            return {
                id,
                text: fs.readFileSync(path.join(PEER_DIR, file), 'utf8'),
                expectError: expected.expect_error === true,
                personalities: expected.personalities,
                arrays: expected.arrays ?? [],
            };
        });
}

const FLAG_LETTER: Record<MemberFlag, string> = {
    faulty: 'F', spare: 'S', 'write-mostly': 'W', replacement: 'R', journal: 'J',
};

/** A member as `name[role](F)(S)`, keeping only the parts the peer asserts. */
function memberText(name: string, role: number | null | undefined, flags: string[] | undefined): string {
    const roleText = role === undefined ? '' : `[${role}]`;
    return `${name}${roleText}${(flags ?? []).map(f => `(${f})`).join('')}`;
}

interface PeerMember { name: string; role_index?: number; flags?: string[] }

/** Renders our members in the peer's notation, with the same parts (role, flags) the peer gave. */
function membersLike(ours: MdstatMember[], peer: PeerMember[]): string[] {
    const withRole = peer.some(m => m.role_index !== undefined);
    const withFlags = peer.some(m => m.flags !== undefined);
    return ours.map(m => memberText(m.name, withRole ? m.role : undefined,
        withFlags ? m.flags.map(f => FLAG_LETTER[f]) : undefined));
}

export function peerMembersText(peer: PeerMember[]): string[] {
    return peer.map(m => memberText(m.name, m.role_index, m.flags));
}

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);
const has = (flag: MemberFlag) => (m: MdstatMember) => m.flags.includes(flag);
const names = (members: MdstatMember[]) => members.map(m => m.name);

/** Listed members that are neither faulty nor spare (Diamond member_count.active, Checkmk "Active"). */
function unflaggedCount(a: MdstatArray): number {
    return a.members.filter(m => !m.flags.includes('faulty') && !m.flags.includes('spare')).length;
}

/** An external-metadata container (imsm/ddf) rather than an array inside one (`external:/md127/0`). */
function isContainer(a: MdstatArray): boolean {
    return a.super !== null && a.super.startsWith('external:') && !a.super.startsWith('external:/');
}

/** `external:/md127/0` -> ['md127', '0']. */
function containerParts(a: MdstatArray): [string, string] | null {
    const match = /^external:\/([^/]+)\/(.+)$/.exec(a.super ?? '');
    return match ? [match[1], match[2]] : null;
}

/** check_raid's size: bytes in binary units with 2 decimals ("1.82 TiB"). */
export function sizeHuman(kib: number): string {
    const units = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];
    let value = kib * 1024;
    let unit = 0;
    while (value >= 1024 && unit < units.length - 1) {
        value /= 1024;
        unit++;
    }
    return `${value.toFixed(2)} ${units[unit]}`;
}

// libstorage-ng names raid5/6 algorithms and raid10 copies this way.
const RAID5_ALGORITHM: Record<number, string> = {
    0: 'left-asymmetric', 1: 'right-asymmetric', 2: 'left-symmetric', 3: 'right-symmetric',
    4: 'parity-first', 5: 'parity-last',
};

function parityName(a: MdstatArray): string | null {
    if (a.nearCopies) return `n${a.nearCopies}`;
    if (a.farCopies) return `f${a.farCopies}`;
    if (a.offsetCopies) return `o${a.offsetCopies}`;
    return a.algorithm === null || a.algorithm === undefined ? null : RAID5_ALGORITHM[a.algorithm] ?? null;
}

/**
 * How each asserted field reads from our model. `peer` is the peer's value, used only to render our
 * members in the same notation (which parts, which order) the peer asserts.
 */
export const FIELD_MAP: Record<string, (a: MdstatArray, peer: unknown) => unknown> = {
    state: a => a.state,
    level: a => a.level,
    disks_total: a => a.disks?.total ?? null,
    disks_active: a => a.disks?.active ?? null,
    disks_down: a => (a.disks ? a.disks.total - a.disks.active : null),
    disks_failed: a => a.members.filter(has('faulty')).length,
    disks_spare: a => a.members.filter(has('spare')).length,
    blocks: a => a.blocks,
    status_pattern: a => a.status,
    read_only_flag: a => a.readOnly !== false,
    size_human: a => (a.blocks === null ? null : sizeHuman(a.blocks)),
    sync_action: a => a.sync?.action ?? 'none',
    sync_percent: a => a.sync?.percent ?? null,
    sync_done_blocks: a => a.sync?.done ?? null,
    sync_total_blocks: a => a.sync?.total ?? null,
    finish_minutes: a => a.sync?.finishMinutes ?? null,
    speed_kib_s: a => a.sync?.speedKiBs ?? null,
    // Diamond keeps the ETA in milliseconds, truncated.
    finish_minutes_from_peer_ms: a =>
        (a.sync?.finishMinutes == null ? null : Math.trunc(a.sync.finishMinutes * 60 * 1000)),
    members: (a, peer) => membersLike(a.members, peer as PeerMember[]),
    members_unordered: (a, peer) => membersLike(a.members, peer as PeerMember[]).sort(byName),
    members_sorted_by_name: (a, peer) =>
        membersLike([...a.members].sort((x, y) => byName(x.name, y.name)), peer as PeerMember[]),
    failed_members: a => names(a.members.filter(has('faulty'))),
    members_spare: a => names(a.members.filter(has('spare'))),
    member_journal: a => a.members.find(has('journal'))?.name ?? null,
    // ohai: everything not flagged spare or journal counts as active, faulty included.
    members_active_sorted: a =>
        names(a.members.filter(m => !m.flags.includes('spare') && !m.flags.includes('journal'))).sort(byName),
    members_unflagged_count: unflaggedCount,
    peer_active_member_count: unflaggedCount,
    peer_active_bool: a => a.state === 'active',
    // procfs/node_exporter: synced blocks are the array size when nothing runs.
    peer_blocks_synced: a => (a.sync ? a.sync.done : a.blocks),
    peer_sync_state: a => (a.sync && a.sync.state !== 'running' ? `${a.sync.action}=${a.sync.state.toUpperCase()}` : null),
    peer_status_text: a => `${a.state}${a.readOnly ? `(${a.readOnly})` : ''}`,
    peer_level: a => a.level ?? 'unknown',
    peer_type: a => a.level,
    peer_md_level: a => (isContainer(a) ? 'CONTAINER' : a.level?.toUpperCase() ?? null),
    peer_kind: a => (isContainer(a) ? 'MdContainer' : containerParts(a) ? 'MdMember' : 'Md'),
    peer_super: a => a.super,
    peer_is_container: isContainer,
    peer_container_name: a => containerParts(a)?.[0] ?? null,
    peer_container_member: a => containerParts(a)?.[1] ?? null,
    peer_chunk_size: a => (a.chunkKiB === null ? null : String(a.chunkKiB * 1024)),
    peer_md_parity: parityName,
    peer_size_bytes: a => (a.blocks === null ? null : a.blocks * 1024),
    peer_region_bytes: a => (isContainer(a) ? 0 : a.blocks === null ? null : a.blocks * 1024),
};

/** Asserted keys that say nothing our parser could check, and why. */
export const NOT_COMPARED: Record<string, string> = {
    name: 'the key we match arrays by',
    _note: 'comment',
    _peer_bug: 'comment (the bug is in the exceptions table)',
    peer_raw: 'the peer\'s own struct, a copy of the fields mapped above',
    peer_raw_metrics: 'node_exporter metrics, a copy of the fields mapped above',
    peer_verdict: 'check_raid\'s free-text verdict',
    peer_sync_text: 'Checkmk\'s free-text summary of the sync fields mapped above',
    peer_devname: '/dev/md/NAME comes from udev, not from mdstat',
};

/** Lists are compared in the notation built above; everything else as it is. */
export function peerValue(field: string, value: unknown): unknown {
    const memberLists = ['members', 'members_unordered', 'members_sorted_by_name'];
    if (!memberLists.includes(field)) return value;
    const text = peerMembersText(value as PeerMember[]);
    return field === 'members_unordered' ? text.sort(byName) : text;
}
