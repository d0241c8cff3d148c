// How a failed call ends: one error event through the builder, content kept, key redacted, the
// stop reason "aborted" only for the caller's own abort, and nothing at all once the message ended.
import { describe, expect, it } from "vitest";
import { failAttempt, failStoppedCall, failUnexpectedly, failUnfinishedStream } from "../src/call/call-failure.js";
import { AssistantMessageBuilder } from "../src/message/assistant-message-builder.js";
import type { AssistantMessageEvent } from "../src/types.js";
import { testModel } from "./helpers/models.js";

const KEY = "sk-call-failure-0123456789";
const model = testModel({ api: "test-api", id: "m", name: "M", provider: "test-provider", baseUrl: "http://x" });

function setup() {
	const events: AssistantMessageEvent[] = [];
	const builder = new AssistantMessageBuilder(model, (event) => events.push(event), { secret: KEY });
	return { events, builder, call: { model, builder } };
}

describe("call failures", () => {
	it("a failed attempt: the classification's text, redacted, with the note, keeping the content", () => {
		const { builder, call } = setup();
		builder.appendText(builder.startText(), "so far");
		failAttempt(
			call,
			new Error("429"),
			{ message: `429 slow down ${KEY}`, status: 429, retryable: true },
			{ attempts: 1, startedAt: 0 },
			"the provider asked to retry in 120 s, more than maxRetryDelayMs 60000 ms",
		);
		expect(builder.message.errorMessage).toContain(
			"429 slow down [redacted] (the provider asked to retry in 120 s, more than maxRetryDelayMs 60000 ms)",
		);
		expect(builder.message.content).toEqual([{ type: "text", text: "so far" }]);
	});

	it("a stopped call: 'aborted' for the caller's abort, 'error' for timeoutMs and the idle watchdog", () => {
		const aborted = setup();
		failStoppedCall(aborted.call, { kind: "aborted" });
		expect([aborted.builder.message.stopReason, aborted.builder.message.errorMessage]).toEqual([
			"aborted",
			"Request was aborted",
		]);
		const timedOut = setup();
		failStoppedCall(timedOut.call, { kind: "timeout", ms: 5 });
		expect(timedOut.builder.message.stopReason).toBe("error");
		const idle = setup();
		failStoppedCall(idle.call, { kind: "idle", ms: 5 });
		expect(idle.builder.message.stopReason).toBe("error");
	});

	it("anything unexpected: its text, with what was being done, redacted", () => {
		const { builder, call } = setup();
		failUnexpectedly(call, new Error(`boom ${KEY}`), "Failed to prepare");
		expect(builder.message.errorMessage).toBe("Failed to prepare: boom [redacted]");
		const plain = setup();
		failUnexpectedly(plain.call, { code: 7 });
		expect(plain.builder.message.errorMessage).toBe('{"code":7}');
	});

	it("a stream that ended without a stop event says so", () => {
		const { builder, call } = setup();
		failUnfinishedStream(call);
		expect(builder.message.errorMessage).toBe(
			"The provider's stream ended before the response was finished (no stop event)",
		);
	});

	it("does nothing once the message has ended: exactly one terminal event", () => {
		const { events, builder, call } = setup();
		builder.finish("stop");
		failUnexpectedly(call, new Error("late"));
		failStoppedCall(call, { kind: "aborted" });
		failUnfinishedStream(call);
		expect(events.map((event) => event.type)).toEqual(["start", "done"]);
	});
});
