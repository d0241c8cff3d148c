// Searching message text without a second copy of it. Appends store each record's line once; a
// search first lets SQLite keep only the lines that contain the search string as JSON writes it
// (`instr(lower(line), …)`: lower() folds ASCII letters only, like foldForSearch, and JSON's escapes
// are lower-case), then checks those few candidates with the same rule as every other store: the
// message's readable text (searchableText) contains the string. A string spanning two content blocks
// of one message is therefore not found here; everything else is found as in the other stores.

import { foldForSearch, parseSessionRecords, searchableText } from "@keel/agent-core/session";
import type { Database } from "better-sqlite3";

/** The SQL function the list query calls to confirm a candidate line. */
export const MESSAGE_TEXT_CONTAINS = "keel_message_text_contains";

export function registerSearchFunction(database: Database): void {
	database.function(MESSAGE_TEXT_CONTAINS, { deterministic: true }, (line: unknown, foldedSearch: unknown) => {
		if (typeof line !== "string" || typeof foldedSearch !== "string") return 0;
		try {
			for (const record of parseSessionRecords(line)) {
				if (foldForSearch(searchableText(record)).includes(foldedSearch)) return 1;
			}
		} catch {
			// A damaged line has no text to search; read() reports it.
		}
		return 0;
	});
}

/** The search string as it appears inside a JSON string in a stored line. */
export function searchAsJson(foldedSearch: string): string {
	return JSON.stringify(foldedSearch).slice(1, -1);
}
