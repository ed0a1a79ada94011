// SPDX-License-Identifier: LGPL-2.1-or-later
// The record of a guided "repair, then check again" (src/md/repairFlow.ts) on the host: one small
// file per array under the state folder, validated when read. Apart from the flow so that the
// model's types can name it without importing the flow (which reads the model).

export const REPAIR_FLOW_DIR = 'repair';
export const REPAIR_FLOW_SUFFIX = '.json';
/** Where the gather script's state section shows the records (src/host/gatherScript.ts). */
export const REPAIR_FLOW_SNAPSHOT_DIR = `/raidtune-state/${REPAIR_FLOW_DIR}/`;
const ARRAY_NAME = /^md[A-Za-z0-9_]+$/;

export interface RepairFlowRecord {
    version: 1;
    array: string;
    /** The array's UUID when the flow began: a record of an array since re-created is not its. */
    uuid: string | null;
    /** mismatch_cnt of the check the repair started from. */
    before: number;
    repairStartedAt: string;
    /** Set when "Check again" was asked for. */
    checkStartedAt: string | null;
}

export function serializeRepairFlow(record: RepairFlowRecord): string {
    return JSON.stringify(record) + '\n';
}

const isDate = (v: unknown): v is string => typeof v === 'string' && Number.isFinite(Date.parse(v));

/** The record in a file's text, or null when it is not one raidtune wrote for that array. */
export function parseRepairFlow(text: string | null | undefined, array: string): RepairFlowRecord | null {
    if (!text) return null;
    let data: Partial<RepairFlowRecord>;
    try {
        data = JSON.parse(text) as Partial<RepairFlowRecord>;
    } catch {
        return null;
    }
    const valid = !!data && data.version === 1 && data.array === array && ARRAY_NAME.test(array) &&
        (data.uuid === null || (typeof data.uuid === 'string' && /^[0-9a-f:-]{1,64}$/i.test(data.uuid))) &&
        Number.isSafeInteger(data.before) && data.before! >= 0 && isDate(data.repairStartedAt) &&
        (data.checkStartedAt === null || isDate(data.checkStartedAt));
    return valid ? {
        version: 1, array, uuid: data.uuid!, before: data.before!, repairStartedAt: data.repairStartedAt!,
        checkStartedAt: data.checkStartedAt!,
    } : null;
}

/** Every array's record, from the snapshot's state files. */
export function parseRepairFlows(files: ReadonlyMap<string, string>): Map<string, RepairFlowRecord> {
    const records = new Map<string, RepairFlowRecord>();
    for (const [path, text] of files) {
        if (!path.startsWith(REPAIR_FLOW_SNAPSHOT_DIR) || !path.endsWith(REPAIR_FLOW_SUFFIX)) continue;
        const array = path.slice(REPAIR_FLOW_SNAPSHOT_DIR.length, -REPAIR_FLOW_SUFFIX.length);
        const record = parseRepairFlow(text, array);
        if (record) records.set(array, record);
    }
    return records;
}

/** Two reads of the same record (the card renders again only when it changed). */
export function sameRepairFlow(a: RepairFlowRecord | undefined, b: RepairFlowRecord | undefined): boolean {
    return a === b || (!!a && !!b && serializeRepairFlow(a) === serializeRepairFlow(b));
}
