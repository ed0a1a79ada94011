// SPDX-License-Identifier: LGPL-2.1-or-later
// A compact PatternFly table (plain markup with its classes, as the other tables of the page) from
// column definitions, so a new table states its columns once instead of repeating the markup.

export interface Column<T> {
    title: string;
    cell: (row: T) => React.ReactNode;
    /** Keep the cell on one line (numbers); other columns take the wrapping. */
    nowrap?: boolean;
    /** The cell names its row (a header cell, scope "row"). */
    rowHeader?: boolean;
}

export function CompactTable<T>({ label, caption, grid = true, className, columns, rows, rowKey, rowAttributes }: {
    /** The table's accessible name, where no caption gives it one. */
    label?: string;
    caption?: React.ReactNode;
    /** Stack the columns on narrow screens (PatternFly's grid-md); false for small tables in dialogs. */
    grid?: boolean;
    className?: string;
    columns: readonly Column<T>[];
    rows: readonly T[];
    rowKey: (row: T) => string;
    /** data-* attributes per row, for tests and styling. */
    rowAttributes?: (row: T) => Partial<Record<`data-${string}`, string>>;
}) {
    const modifier = (column: Column<T>) => (column.nowrap ? ' pf-m-nowrap' : '');
    const cell = (c: Column<T>, row: T) => {
        const props = { className: `pf-v6-c-table__td${modifier(c)}`, 'data-label': c.title };
        return c.rowHeader ? <th key={c.title} scope="row" {...props}>{c.cell(row)}</th> : <td key={c.title} {...props}>{c.cell(row)}</td>;
    };
    return (
        <table className={`pf-v6-c-table pf-m-compact${grid ? ' pf-m-grid-md' : ''} ${className ?? ''}`} aria-label={label}>
            {caption && <caption className="pf-v6-c-table__caption">{caption}</caption>}
            <thead className="pf-v6-c-table__thead">
                <tr className="pf-v6-c-table__tr">
                    {columns.map(c => <th key={c.title} className={`pf-v6-c-table__th${modifier(c)}`} scope="col">{c.title}</th>)}
                </tr>
            </thead>
            <tbody className="pf-v6-c-table__tbody">
                {rows.map(row => (
                    <tr className="pf-v6-c-table__tr" key={rowKey(row)} {...rowAttributes?.(row)}>
                        {columns.map(c => cell(c, row))}
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
