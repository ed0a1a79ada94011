// A compact PatternFly table (plain markup with its classes, as the other tables of the page) from
// column definitions, so a new table states its columns once instead of repeating the markup.

export interface Column<T> {
    title: string;
    cell: (row: T) => React.ReactNode;
    /** Keep the cell on one line (numbers); other columns take the wrapping. */
    nowrap?: boolean;
}

export function CompactTable<T>({ label, className, columns, rows, rowKey, rowAttributes }: {
    label: string;
    className?: string;
    columns: Column<T>[];
    rows: T[];
    rowKey: (row: T) => string;
    /** data-* attributes per row, for tests and styling. */
    rowAttributes?: (row: T) => Record<`data-${string}`, string>;
}) {
    const modifier = (column: Column<T>) => (column.nowrap ? ' pf-m-nowrap' : '');
    return (
        <table className={`pf-v6-c-table pf-m-compact pf-m-grid-md ${className ?? ''}`} aria-label={label}>
            <thead className="pf-v6-c-table__thead">
                <tr className="pf-v6-c-table__tr">
                    {columns.map(c => <th key={c.title} className={`pf-v6-c-table__th${modifier(c)}`} scope="col">{c.title}</th>)}
                </tr>
            </thead>
            <tbody className="pf-v6-c-table__tbody">
                {rows.map(row => (
                    <tr className="pf-v6-c-table__tr" key={rowKey(row)} {...rowAttributes?.(row)}>
                        {columns.map(c => (
                            <td key={c.title} className={`pf-v6-c-table__td${modifier(c)}`} data-label={c.title}>{c.cell(row)}</td>
                        ))}
                    </tr>
                ))}
            </tbody>
        </table>
    );
}
