// Mutations of a valid wire body, shared by the fuzz tests (fast-check picks the mutations) and the
// longer campaign (scripts/fuzz/, which picks them from a corpus). A mutation is plain data, so a
// failing case prints as something a reader can replay.
//
// Two levels: structure-aware edits of the events of an SSE body (drop, repeat, swap, cut the list,
// replace a value inside an event's JSON), which get past the JSON parser into the decoders; and
// byte-level edits (flip, insert, delete, truncate), which exercise the readers beneath them.
import fc from "fast-check";

export type BodyMutation =
	| { kind: "drop-event"; at: number }
	| { kind: "repeat-event"; at: number }
	| { kind: "swap-events"; at: number; with: number }
	| { kind: "cut-events"; at: number }
	| { kind: "replace-value"; at: number; path: number; value: unknown }
	| { kind: "insert-line"; at: number; line: string }
	| { kind: "flip-character"; at: number; character: string }
	| { kind: "insert-text"; at: number; text: string }
	| { kind: "delete-range"; at: number; length: number }
	| { kind: "truncate"; at: number };

/**
 * Positions are fractions of the current length, so one mutation fits any body. From integers:
 * fc.double's bias towards tiny values would put nearly every edit at the very start.
 */
export const position = fc.integer({ min: 0, max: 9_999 }).map((value) => value / 10_000);

/** Text a server or a proxy might put in a stream: JSON-ish fragments, SSE syntax, odd Unicode. */
export const hostileText = fc.oneof(
	fc.string({ maxLength: 40 }),
	fc.string({ unit: "grapheme", maxLength: 20 }),
	fc.string({ unit: "binary", maxLength: 20 }),
	fc.constantFrom(
		"data: ",
		"data: [DONE]",
		"event: error",
		"event: ping",
		": keep-alive",
		"\r\n",
		"\r",
		"\n\n",
		"{",
		"}",
		'"',
		"\\",
		"\\u",
		"\\ud800",
		"\ud800",
		"\u0000",
		"null",
		"[]",
		'{"type":"error","error":{"type":"overloaded_error","message":"x"}}',
		'{"choices":[]}',
		'{"type":"response.failed"}',
		"9".repeat(400),
	),
);

/** JSON values to put where a decoder expects something else: wrong types, huge and odd numbers. */
export const hostileValue: fc.Arbitrary<unknown> = fc.oneof(
	fc.jsonValue({ maxDepth: 3 }),
	fc.constantFrom(null, -1, 0, 1e308, -0, 2 ** 53 + 1, "", "toolu_1", "call_1", [], {}, true, "\ud800"),
);

export const bodyMutation: fc.Arbitrary<BodyMutation> = fc.oneof(
	fc.record({ kind: fc.constant("drop-event" as const), at: position }),
	fc.record({ kind: fc.constant("repeat-event" as const), at: position }),
	fc.record({ kind: fc.constant("swap-events" as const), at: position, with: position }),
	fc.record({ kind: fc.constant("cut-events" as const), at: position }),
	// Twice: the edit that reaches deepest into a decoder (valid JSON, wrong contents).
	fc.record({ kind: fc.constant("replace-value" as const), at: position, path: position, value: hostileValue }),
	fc.record({ kind: fc.constant("replace-value" as const), at: position, path: position, value: hostileValue }),
	fc.record({ kind: fc.constant("insert-line" as const), at: position, line: hostileText }),
	fc.record({ kind: fc.constant("flip-character" as const), at: position, character: hostileText }),
	fc.record({ kind: fc.constant("insert-text" as const), at: position, text: hostileText }),
	fc.record({ kind: fc.constant("delete-range" as const), at: position, length: fc.integer({ min: 1, max: 40 }) }),
	fc.record({ kind: fc.constant("truncate" as const), at: position }),
);

/** Chunk sizes for the body's bytes: many tiny ones (inside lines, inside UTF-8 characters) and a few large. */
export const chunkSizes = fc.array(fc.oneof(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 9, max: 4096 })), {
	minLength: 1,
	maxLength: 24,
});

function index(fraction: number, length: number): number {
	return Math.min(length - 1, Math.floor(fraction * length));
}

/** Every leaf path of a JSON value (as key lists), to pick one to replace. */
function leafPaths(value: unknown, prefix: (string | number)[] = [], paths: (string | number)[][] = []) {
	if (value !== null && typeof value === "object") {
		const entries = Array.isArray(value) ? value.map((item, key) => [key, item] as const) : Object.entries(value);
		if (entries.length === 0) paths.push(prefix);
		for (const [key, item] of entries) leafPaths(item, [...prefix, key], paths);
	} else {
		paths.push(prefix);
	}
	return paths;
}

function replaceAt(value: unknown, path: (string | number)[], replacement: unknown): unknown {
	if (path.length === 0) return replacement;
	const [head, ...rest] = path;
	const copy = (Array.isArray(value) ? [...value] : { ...(value as object) }) as Record<string | number, unknown>;
	copy[head] = replaceAt(copy[head], rest, replacement);
	return copy;
}

/** Replaces one value inside the JSON of an SSE event's `data:` line; other events are left alone. */
function replaceValueInEvent(event: string, pathFraction: number, replacement: unknown): string {
	const lines = event.split("\n");
	const dataIndex = lines.findIndex((line) => line.startsWith("data:"));
	if (dataIndex === -1) return event;
	let parsed: unknown;
	try {
		parsed = JSON.parse(lines[dataIndex].slice(5));
	} catch {
		return event;
	}
	const paths = leafPaths(parsed);
	const path = paths[index(pathFraction, paths.length)];
	lines[dataIndex] = `data: ${JSON.stringify(replaceAt(parsed, path, replacement))}`;
	return lines.join("\n");
}

/** Applies mutations in order to an SSE (or any text) body. */
export function mutateBody(body: string, mutations: readonly BodyMutation[]): string {
	let text = body;
	for (const mutation of mutations) text = applyMutation(text, mutation);
	return text;
}

function applyMutation(text: string, mutation: BodyMutation): string {
	if (mutation.kind === "insert-text" || mutation.kind === "flip-character" || mutation.kind === "delete-range") {
		const at = text.length === 0 ? 0 : index(mutation.at, text.length + 1);
		if (mutation.kind === "insert-text") return text.slice(0, at) + mutation.text + text.slice(at);
		if (mutation.kind === "flip-character") return text.slice(0, at) + mutation.character + text.slice(at + 1);
		return text.slice(0, at) + text.slice(at + mutation.length);
	}
	if (mutation.kind === "truncate") return text.slice(0, Math.floor(mutation.at * text.length));
	// Structure-aware: on the list of events (separated by blank lines; Gemini ends lines with CRLF).
	const separator = text.includes("\r\n\r\n") ? "\r\n\r\n" : "\n\n";
	const events = text.split(separator);
	const trailing = events.length > 1 && events[events.length - 1] === "" ? events.pop() : undefined;
	if (events.length === 0) return text;
	const at = index(mutation.at, events.length);
	switch (mutation.kind) {
		case "drop-event":
			events.splice(at, 1);
			break;
		case "repeat-event":
			events.splice(at, 0, events[at]);
			break;
		case "swap-events": {
			const other = index(mutation.with, events.length);
			[events[at], events[other]] = [events[other], events[at]];
			break;
		}
		case "cut-events":
			events.length = at;
			break;
		case "replace-value":
			events[at] = replaceValueInEvent(events[at], mutation.path, mutation.value);
			break;
		case "insert-line":
			events.splice(at, 0, mutation.line);
			break;
	}
	return events.join(separator) + (trailing !== undefined ? separator : "");
}

/**
 * The bytes cut into pieces of the given sizes, in order, then the rest as one piece: cuts fall
 * inside lines and UTF-8 characters, while the number of writes (each one a turn of the server's
 * event loop) stays small.
 */
export function chunkBytes(bytes: Uint8Array, sizes: readonly number[]): Uint8Array[] {
	const pieces: Uint8Array[] = [];
	let offset = 0;
	for (const size of sizes) {
		if (offset >= bytes.length) return pieces;
		pieces.push(bytes.subarray(offset, offset + size));
		offset += size;
	}
	if (offset < bytes.length) pieces.push(bytes.subarray(offset));
	return pieces;
}
