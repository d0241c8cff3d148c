// A built-in provider is loaded on its first call and its events are forwarded into a stream
// returned synchronously. When the loaded provider's stream breaks while being read, the caller
// must still get one error event and a settled result, not a stream that never ends.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { resetApiProviders } from "../src/providers/register-builtins.js";
import { streamSimple } from "../src/stream.js";
import type { AssistantMessageEvent } from "../src/types.js";
import { createEmptyAssistantMessage } from "../src/utils/event-stream.js";
import { testModel } from "./helpers/models.js";

vi.mock("../src/providers/anthropic/index.js", () => {
	// A stream that emits `start`, then throws while being iterated.
	const brokenStream = () => {
		const partial = createEmptyAssistantMessage("anthropic-messages", "anthropic", "broken");
		return {
			async *[Symbol.asyncIterator](): AsyncGenerator<AssistantMessageEvent> {
				yield { type: "start", partial };
				throw new Error("iteration broke for key sk-lazy-secret-0123456789");
			},
			result: () => new Promise(() => {}),
		};
	};
	return { streamAnthropic: brokenStream, streamSimpleAnthropic: brokenStream };
});

const model = testModel({
	api: "anthropic-messages",
	id: "broken",
	name: "Broken",
	provider: "anthropic",
	baseUrl: "http://127.0.0.1:1",
});

describe("lazily loaded provider", () => {
	beforeAll(() => resetApiProviders());

	it("turns an exception thrown while reading the provider's stream into one error event, key redacted", async () => {
		const stream = streamSimple(model, { messages: [] }, { apiKey: "sk-lazy-secret-0123456789" });
		const events: AssistantMessageEvent[] = [];
		for await (const event of stream) events.push(event);
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("iteration broke for key [redacted]");
		expect(JSON.stringify(events)).not.toContain("sk-lazy-secret");
	});
});
