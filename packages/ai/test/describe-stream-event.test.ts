// How the Anthropic, Bedrock and Gemini decoders show an event they could not read in their
// "Malformed … stream event" errors.
import { describe, expect, it } from "vitest";
import { describeStreamEvent } from "../src/wire/describe-stream-event.js";

describe("describeStreamEvent", () => {
	it("shows a short event as its JSON", () => {
		expect(describeStreamEvent({ type: "content_block_delta", index: 3 })).toBe(
			'{"type":"content_block_delta","index":3}',
		);
	});

	it("cuts a long event to its first 300 characters and marks the cut", () => {
		const text = describeStreamEvent({ text: "x".repeat(1_000) });
		expect(text).toHaveLength(301);
		expect(text.endsWith("x…")).toBe(true);
	});

	it("shows an event with no JSON (undefined, a cycle, a BigInt) as String(event) rather than throwing", () => {
		const cyclic: Record<string, unknown> = {};
		cyclic.self = cyclic;
		expect(describeStreamEvent(undefined)).toBe("undefined");
		expect(describeStreamEvent(cyclic)).toBe("[object Object]");
		expect(describeStreamEvent(10n)).toBe("10");
	});
});
