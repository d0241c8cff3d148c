// stream()/streamSimple() turn a provider that throws synchronously into one error event; the
// caller's API key must not reach that event's errorMessage, as with every other failure.
import { afterEach, describe, expect, it } from "vitest";
import { registerApiProvider, unregisterApiProviders } from "../src/api-registry.js";
import { stream, streamSimple } from "../src/stream.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const KEY = "sk-review-secret-0123456789";
const SOURCE = "review-stream-redaction";

const model: Model<"review-throwing-api"> = {
	id: "throwing",
	name: "Throwing",
	api: "review-throwing-api",
	provider: "review-provider",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1000,
	maxTokens: 100,
};

function throwWithKey(): never {
	throw new Error(`Invalid API key: ${KEY}`);
}

afterEach(() => unregisterApiProviders(SOURCE));

describe("synchronous provider failures", () => {
	for (const [name, call] of [
		["stream", stream],
		["streamSimple", streamSimple],
	] as const) {
		it(`${name}: redacts the key from the error event`, async () => {
			registerApiProvider({ api: model.api, stream: throwWithKey, streamSimple: throwWithKey }, SOURCE);
			const events: AssistantMessageEvent[] = [];
			const result = call(model, { messages: [] }, { apiKey: KEY });
			for await (const event of result) events.push(event);
			const message = await result.result();
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe("Invalid API key: [redacted]");
			expect(JSON.stringify(events)).not.toContain(KEY);
		});
	}
});
