// The file format of a recorded call (what `recordCall` saves and `WireTestServer.enqueueRecording`
// replays), its validation and its SSE text. Node-only (it reads files), like the rest of
// @keel/ai/testing.
import { readFile } from "node:fs/promises";

/** Identifies a Keel call recording; a file without it is refused. */
export const CALL_RECORDING_FORMAT = "keel-call-recording";

/** One server-sent event as the provider sent it: `event:` name when given, `data:` lines joined by "\n". */
export interface RecordedEvent {
	event?: string;
	data: string;
}

/** One HTTP answer of the call (one per attempt: a retried 529 and then the stream are two). */
export interface RecordedResponse {
	status: number;
	/**
	 * Only the headers Keel reads from an answer: `content-type`, `retry-after`, `retry-after-ms`.
	 * The others (request ids, organisation, rate limits) stay out of a file meant to be committed.
	 */
	headers: Record<string, string>;
	/** Every server-sent event of a 2xx event stream, in order; empty for an error answer. */
	events: RecordedEvent[];
}

/** A recorded call: which model answered, and every answer's status, headers and raw events. */
export interface CallRecording {
	format: typeof CALL_RECORDING_FORMAT;
	version: 1;
	/** The model's wire API, provider and id, so a test can build the same model against a replay. */
	api: string;
	provider: string;
	model: string;
	responses: RecordedResponse[];
}

/** The response headers a recording keeps: those that change what Keel does with an answer. */
export const RECORDED_HEADERS = ["content-type", "retry-after", "retry-after-ms"] as const;

/**
 * Checks that `value` is a call recording and returns it typed. Throws an error naming `source`,
 * the first field that is wrong and what it should be; the value is not changed.
 */
export function parseCallRecording(value: unknown, source = "the recording"): CallRecording {
	const fail = (problem: string): never => {
		throw new Error(`Not a valid Keel call recording (${source}): ${problem}`);
	};
	if (!isRecord(value)) return fail(`expected a JSON object, got ${describe(value)}`);
	if (value.format !== CALL_RECORDING_FORMAT) {
		fail(`"format" must be "${CALL_RECORDING_FORMAT}", got ${describe(value.format)}`);
	}
	if (value.version !== 1) fail(`"version" must be 1, got ${describe(value.version)}`);
	for (const field of ["api", "provider", "model"] as const) {
		if (typeof value[field] !== "string") fail(`"${field}" must be a string, got ${describe(value[field])}`);
	}
	if (!Array.isArray(value.responses)) return fail(`"responses" must be an array, got ${describe(value.responses)}`);
	for (const [index, response] of (value.responses as unknown[]).entries()) {
		checkResponse(response, `responses[${index}]`, fail);
	}
	return value as unknown as CallRecording;
}

/** Reads and checks a recording file; errors name the file. */
export async function readCallRecording(path: string): Promise<CallRecording> {
	const text = await readFile(path, "utf8");
	let value: unknown;
	try {
		value = JSON.parse(text);
	} catch (error) {
		throw new Error(
			`Not a valid Keel call recording (${path}): the file is not JSON: ${error instanceof Error ? error.message : String(error)}`,
		);
	}
	return parseCallRecording(value, path);
}

/**
 * The events as an SSE body, one string per event: the `event:` line when named, one `data:` line
 * per line of data, a blank line. Keel's reader turns this text back into exactly these events.
 */
export function formatRecordedEvents(events: readonly RecordedEvent[]): string[] {
	return events.map((event) => {
		const name = event.event === undefined ? "" : `event: ${event.event}\n`;
		return `${name}data: ${event.data.split("\n").join("\ndata: ")}\n\n`;
	});
}

function checkResponse(response: unknown, path: string, fail: (problem: string) => never): void {
	if (!isRecord(response)) fail(`${path} must be an object, got ${describe(response)}`);
	const { status, headers, events } = response as Record<string, unknown>;
	if (typeof status !== "number" || !Number.isInteger(status) || status < 200 || status > 599) {
		fail(`${path}.status must be an HTTP status from 200 to 599, got ${describe(status)}`);
	}
	if (!isRecord(headers)) fail(`${path}.headers must be an object, got ${describe(headers)}`);
	for (const [name, value] of Object.entries(headers as Record<string, unknown>)) {
		if (typeof value !== "string") fail(`${path}.headers["${name}"] must be a string, got ${describe(value)}`);
	}
	if (!Array.isArray(events)) fail(`${path}.events must be an array, got ${describe(events)}`);
	for (const [index, event] of (events as unknown[]).entries()) {
		const at = `${path}.events[${index}]`;
		if (!isRecord(event)) fail(`${at} must be an object, got ${describe(event)}`);
		const { event: name, data } = event as Record<string, unknown>;
		if (typeof data !== "string") fail(`${at}.data must be a string, got ${describe(data)}`);
		// A carriage return would end the line early on replay: Keel's reader never produces one.
		if ((data as string).includes("\r")) fail(`${at}.data must not contain a carriage return`);
		if (name !== undefined && (typeof name !== "string" || /[\r\n]/.test(name))) {
			fail(`${at}.event must be a string without line breaks, got ${describe(name)}`);
		}
	}
}

function isRecord(value: unknown): value is Record<string, unknown> {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
	if (value === undefined) return "nothing";
	if (Array.isArray(value)) return "an array";
	if (value === null) return "null";
	if (typeof value === "string") return JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value);
	if (typeof value === "object") return "an object";
	return `${typeof value} ${String(value)}`;
}
