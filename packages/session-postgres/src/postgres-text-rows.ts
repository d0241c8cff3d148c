// The scans of a long session read tens of thousands of rows: node-postgres building an object per
// row and parsing each bigint column (a regular expression a value) cost more CPU than the rest of
// the scan. These queries take rows as arrays of the server's text instead; the scans turn the few
// numbers they read themselves.
import type { Pool } from "pg";

/** Every column as the text the server sent (null stays null). */
const SERVER_TEXT = { getTypeParser: () => (value: string) => value };

/** The rows of a query as arrays of column text, in the order of its select list. */
export async function queryTextRows(pool: Pool, text: string, values: unknown[]): Promise<(string | null)[][]> {
	const { rows } = await pool.query<(string | null)[]>({
		text,
		values,
		rowMode: "array",
		types: SERVER_TEXT as never,
	});
	return rows;
}
