// What every runtime must make of the answers in wire-answers.ts: the same events, text, tool
// call, usage and stop reason, whichever runtime ran the stream.
import { expect } from "vitest";
import { RUNTIME_APIS, RUNTIME_TEST_KEY, type StreamSummary } from "./stream-cases.js";
import { ARGUMENT_PIECES, INPUT_TOKENS, OUTPUT_TOKENS, TEXT_PIECES } from "./wire-answers.js";

/** Gemini sends a function call's arguments whole: one delta, where the other APIs stream pieces. */
function expectedEventTypes(api: string): string[] {
	const argumentDeltas = api.startsWith("google-") ? 1 : ARGUMENT_PIECES.length;
	return [
		"start",
		"text_start",
		...TEXT_PIECES.map(() => "text_delta"),
		"text_end",
		"toolcall_start",
		...Array.from({ length: argumentDeltas }, () => "toolcall_delta"),
		"toolcall_end",
		"done",
	];
}

/** Checks one API's stream; the message names the API so a failure says which one broke. */
export function expectStreamedAnswer(summary: StreamSummary | undefined): void {
	expect(summary, "no summary came back").toBeDefined();
	const { api } = summary as StreamSummary;
	// Failures first, with their own text: a failed stream says why better than a list of events.
	expect(summary?.thrown, `${api}: stream() threw`).toBeUndefined();
	expect(summary?.errorMessage, `${api}: the stream ended with an error event`).toBeUndefined();
	expect(summary?.eventTypes, `${api}: events`).toEqual(expectedEventTypes(api));
	expect(summary?.text, `${api}: text`).toBe(TEXT_PIECES.join(""));
	expect(summary?.toolCalls, `${api}: tool calls`).toEqual([
		{ name: "get_weather", arguments: JSON.parse(ARGUMENT_PIECES.join("")) },
	]);
	expect(summary?.usage, `${api}: usage`).toEqual({
		input: INPUT_TOKENS,
		output: OUTPUT_TOKENS,
		totalTokens: INPUT_TOKENS + OUTPUT_TOKENS,
	});
	expect(summary?.stopReason, `${api}: stop reason`).toBe("toolUse");
	expect(JSON.stringify(summary), `${api}: the key leaked into the summary`).not.toContain(RUNTIME_TEST_KEY);
}

/** The summaries in the order of RUNTIME_APIS, keyed by API for one `it` per API. */
export function summariesByApi(summaries: StreamSummary[]): Map<string, StreamSummary> {
	expect(summaries.map((summary) => summary.api)).toEqual([...RUNTIME_APIS]);
	return new Map(summaries.map((summary) => [summary.api, summary]));
}
