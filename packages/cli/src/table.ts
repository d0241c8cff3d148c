// Plain-text tables: columns padded to their widest cell, numbers right-aligned, two spaces apart.

export interface Column<TRow> {
	header: string;
	value(row: TRow): string;
	align?: "left" | "right";
}

export function formatTable<TRow>(columns: Column<TRow>[], rows: TRow[]): string {
	const cells = rows.map((row) => columns.map((column) => column.value(row)));
	const widths = columns.map((column, index) =>
		Math.max(column.header.length, ...cells.map((row) => row[index].length)),
	);
	const line = (values: string[]) =>
		values
			.map((value, index) =>
				columns[index].align === "right" ? value.padStart(widths[index]) : value.padEnd(widths[index]),
			)
			.join("  ")
			.trimEnd();
	return [line(columns.map((column) => column.header)), ...cells.map((row) => line(row))].join("\n");
}
