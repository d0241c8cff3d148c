/**
 * Merges header records case-insensitively; later records win and keys come out lower-cased.
 * Header names are case-insensitive on the wire, but a plain object holding both `X-Initiator` and
 * `x-initiator` would be sent as one header with both values joined by a comma.
 */
export function mergeHeaders(...sources: (Record<string, string> | undefined)[]): Record<string, string> {
	const merged: Record<string, string> = {};
	for (const source of sources) {
		if (!source) continue;
		for (const [name, value] of Object.entries(source)) merged[name.toLowerCase()] = value;
	}
	return merged;
}
