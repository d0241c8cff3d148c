// A message's outline (outlineMessageRecord) as the outline index stores it when it has no plain
// fields (outline-sidecar-fields.ts): JSON without the session id.

import { outlineMessageRecord } from "../context-loading.js";
import type { ParsedSessionRecord } from "../record-format.js";

/** The outline's JSON, or undefined for a record that has none (see outlineMessageRecord). */
export function outlineJson(record: ParsedSessionRecord): string | undefined {
	const outlined = outlineMessageRecord(record);
	if (!outlined) return undefined;
	// The reader knows the session: its id is not repeated on every line.
	(outlined as { sessionId?: string }).sessionId = undefined;
	return JSON.stringify(outlined);
}
