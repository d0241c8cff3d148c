// Keeps the caller's API key out of everything a call reports. Servers echo keys in error text
// ("Incorrect API key provided: sk-…"), and some echo them anywhere a string goes (a stop reason,
// a response id). Text quoted from a server is often cut to a few hundred characters before it
// reaches a message, which can cut a key in two: replacing only the whole key would let the piece
// before the cut through. So every run of 7 or more characters that is part of the key is replaced,
// wherever it stands; at most 6 characters of a key can remain next to a cut.

/** What replaces the key, or a piece of it. */
export const REDACTED = "[redacted]";

/** Pieces of a key shorter than this are left alone: too short to help anyone guess it. */
const SHORTEST_REDACTED_PIECE = 7;

/** Keys shorter than this are not redacted at all: they would match ordinary words. */
const SHORTEST_REDACTED_SECRET = 4;

/**
 * `text` with the secret replaced by `[redacted]`, and with every piece of the secret of 7 or more
 * characters replaced too (a key cut by an earlier truncation, or split across two quotes).
 * Work is linear in the text's length.
 */
export function redactSecret(text: string, secret: string | undefined): string {
	if (!secret || secret.length < SHORTEST_REDACTED_SECRET || typeof text !== "string") return text;
	if (secret.length < SHORTEST_REDACTED_PIECE) return text.split(secret).join(REDACTED);
	if (text.length < SHORTEST_REDACTED_PIECE) return text;
	const pieces = piecesOf(secret);
	let result = "";
	let copiedUpTo = 0;
	let position = 0;
	const last = text.length - SHORTEST_REDACTED_PIECE;
	while (position <= last) {
		if (!pieces.has(text.slice(position, position + SHORTEST_REDACTED_PIECE))) {
			position++;
			continue;
		}
		// Extend the match while the following 7 characters are still a piece of the secret: the run
		// may be made of several pieces; redacting a little more than the key never leaks it.
		let end = position + SHORTEST_REDACTED_PIECE;
		while (end < text.length && pieces.has(text.slice(end - SHORTEST_REDACTED_PIECE + 1, end + 1))) {
			end++;
		}
		result += text.slice(copiedUpTo, position) + REDACTED;
		copiedUpTo = end;
		position = end;
	}
	return copiedUpTo === 0 ? text : result + text.slice(copiedUpTo);
}

/**
 * `text` with each of the secrets redacted as `redactSecret` does. A call holds a handful at most
 * (its API key, an OAuth access token, the credentials that obtained it), so the work stays linear.
 */
export function redactSecrets(text: string, secrets: string | readonly (string | undefined)[] | undefined): string {
	if (typeof secrets === "string" || secrets === undefined) return redactSecret(text, secrets);
	let redacted = text;
	for (const secret of secrets) redacted = redactSecret(redacted, secret);
	return redacted;
}

/**
 * Every 7-character substring of the secret: 40 for a 46-character key, built per call rather
 * than cached, so no module keeps a key alive.
 */
function piecesOf(secret: string): Set<string> {
	const pieces = new Set<string>();
	for (let start = 0; start + SHORTEST_REDACTED_PIECE <= secret.length; start++) {
		pieces.add(secret.slice(start, start + SHORTEST_REDACTED_PIECE));
	}
	return pieces;
}

/** Longest string copied from a server into a message field (`errorMessage`, `rawStopReason` …). */
export const MAX_SERVER_TEXT_LENGTH = 4000;

/**
 * The one treatment of a string a server sent that goes into a message or event: the secret is
 * redacted first, then the text is cut to `MAX_SERVER_TEXT_LENGTH` characters with a note of the
 * original length.
 */
export function sanitizeServerText(text: string, secret: string | readonly string[] | undefined): string {
	if (typeof text !== "string") return text;
	// Only what can be kept is scanned: a key cut by this first slice loses its piece of 7 or more
	// characters to the redaction like any other; fewer than 7 may stay, as anywhere.
	const scanned = text.length > 2 * MAX_SERVER_TEXT_LENGTH ? text.slice(0, 2 * MAX_SERVER_TEXT_LENGTH) : text;
	const redacted = redactSecrets(scanned, secret);
	if (redacted.length <= MAX_SERVER_TEXT_LENGTH && scanned === text) return redacted;
	return `${redacted.slice(0, MAX_SERVER_TEXT_LENGTH)}… (cut at ${MAX_SERVER_TEXT_LENGTH} of ${text.length} characters)`;
}
