// Session ids ↔ file names. The id is checked first (no separators, no '.' or '..'), then every
// character outside a portable set is percent-encoded, so any valid id maps to exactly one file name
// that is legal on every common file system and decodes back to the id.

import { assertValidSessionId } from "../session-id.js";

export const TRANSCRIPT_EXTENSION = ".jsonl";

const PORTABLE = /^[A-Za-z0-9_-]$/;
const encoder = new TextEncoder();

/** `<encoded id>.jsonl`; throws InvalidSessionIdError for an id that could leave the directory. */
export function transcriptFileName(sessionId: string): string {
	assertValidSessionId(sessionId);
	let name = "";
	for (const character of sessionId) {
		// '.' is kept except in first place, so an id never names a hidden file.
		if (PORTABLE.test(character) || (character === "." && name.length > 0)) {
			name += character;
			continue;
		}
		for (const byte of encoder.encode(character)) name += `%${byte.toString(16).toUpperCase().padStart(2, "0")}`;
	}
	return `${name}${TRANSCRIPT_EXTENSION}`;
}

/** The session id a transcript file name stands for, or undefined for any other file. */
export function sessionIdFromFileName(fileName: string): string | undefined {
	if (!fileName.endsWith(TRANSCRIPT_EXTENSION)) return undefined;
	try {
		return decodeURIComponent(fileName.slice(0, -TRANSCRIPT_EXTENSION.length));
	} catch {
		return undefined;
	}
}

/**
 * The outline index beside a transcript (outline-sidecar-format.ts): a cache of each line's place
 * and its message's outline, so load: "context" need not parse every line. Not a transcript: its
 * name does not end in `.jsonl`, so list() never takes it for a session.
 */
export function outlineSidecarPath(transcriptPath: string): string {
	return `${transcriptPath}.outline`;
}
