// SPDX-License-Identifier: LGPL-2.1-or-later
// Output as util-linux's libsmartcols prints it (lsblk, wipefs, sfdisk's tables), checked against
// util-linux 2.38.1 on this machine: JSON indented by three spaces per level with "},{" between
// rows and a blank line in an empty list; tables with every column but the last padded to its
// widest cell, one blank between columns, numbers right-aligned.

export type Cell = string | number | boolean | null | (string | null)[];

/** One JSON row: its fields in column order and the rows nested under it ("children"). */
export interface JsonRow {
    fields: [string, Cell][];
    children?: JsonRow[];
}

function jsonValue(value: Cell, indent: number): string {
    if (!Array.isArray(value)) return JSON.stringify(value);
    // A multi-line cell (lsblk's MOUNTPOINTS): its items one level and a bit deeper than the key.
    const items = value.map(item => `${' '.repeat(indent + 4)}${JSON.stringify(item)}`);
    return `[\n${items.join(',\n')}\n${' '.repeat(indent)}]`;
}

function jsonRows(rows: JsonRow[], indent: number): string {
    const pad = ' '.repeat(indent);
    const inner = ' '.repeat(indent + 3);
    const objects = rows.map(row => {
        const lines = row.fields.map(([key, value]) => `${inner}${JSON.stringify(key)}: ${jsonValue(value, indent + 3)}`);
        if (row.children?.length) lines.push(`${inner}"children": [\n${jsonRows(row.children, indent + 6)}\n${inner}]`);
        return `${lines.join(',\n')}\n${pad}}`;
    });
    return objects.length ? `${pad}{\n${objects.join(`,{\n`)}` : '';
}

/** `{ "<name>": [ rows ] }` as scols_print_table() writes a table in JSON mode. */
export function jsonTable(name: string, rows: JsonRow[]): string {
    return `{\n   ${JSON.stringify(name)}: [\n${jsonRows(rows, 6)}\n   ]\n}\n`;
}

export interface Column {
    header: string;
    right?: boolean;
    /**
     * A width hint (fdisk gives its number columns 5): it widens the column only when the data is at
     * least as wide as the header (seen with sfdisk 2.38's Size column: "1G" keeps 4, "1.8T" gets 5).
     */
    hint?: number;
}

/** A plain table: header line and rows, each line ending in a newline. */
export function textTable(columns: Column[], rows: string[][]): string {
    const widths = columns.map((c, i) => {
        const data = Math.max(0, ...rows.map(r => r[i].length));
        return Math.max(c.header.length, data, data >= c.header.length ? c.hint ?? 0 : 0);
    });
    const line = (cells: string[]) => cells.map((cell, i) => {
        if (i === cells.length - 1) return columns[i].right ? cell.padStart(widths[i]) : cell;
        return columns[i].right ? cell.padStart(widths[i]) : cell.padEnd(widths[i]);
    }).join(' ');
    return [columns.map(c => c.header), ...rows].map(line).join('\n') + '\n';
}
