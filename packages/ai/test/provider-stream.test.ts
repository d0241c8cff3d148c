import { describe, expect, it } from "vitest";
import { createProviderStream } from "../src/providers/shared/provider-stream.js";
import type { AssistantMessageEvent, Model } from "../src/types.js";

const model: Model<"test-api"> = {
	id: "test-model",
	name: "Test",
	api: "test-api",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text"],
	cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
	contextWindow: 1000,
	maxTokens: 100,
};

async function collect(stream: AsyncIterable<AssistantMessageEvent>) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) events.push(event);
	return events;
}

describe("createProviderStream", () => {
	it("ends with a clear error when no key is found", async () => {
		const result = await createProviderStream(model, {}, async () => {}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe('No API key for provider "test-provider": pass options.apiKey');
	});

	it("retries a 429 before content, then succeeds, and records the retry", async () => {
		let calls = 0;
		const stream = createProviderStream(model, { apiKey: "k-secret", maxRetries: 2 }, async ({ builder }) => {
			calls++;
			if (calls === 1)
				throw Object.assign(new Error("429 slow down"), { status: 429, headers: { "retry-after-ms": "5" } });
			const index = builder.startText();
			builder.appendText(index, "hi");
			builder.updateUsage({ input: 1_000_000, output: 0 });
			builder.finish("stop");
		});
		const events = await collect(stream);
		expect(calls).toBe(2);
		expect(events.filter((event) => event.type === "start")).toHaveLength(1);
		const result = await stream.result();
		expect(result.stopReason).toBe("stop");
		expect(result.usage.cost.input).toBe(3);
		expect(result.diagnostics?.[0]?.type).toBe("retry");
	});

	it("never retries once content was emitted, and keeps the partial content", async () => {
		let calls = 0;
		const result = await createProviderStream(model, { apiKey: "k" }, async ({ builder }) => {
			calls++;
			const index = builder.startText();
			builder.appendText(index, "partial");
			throw Object.assign(new Error("boom"), { status: 500 });
		}).result();
		expect(calls).toBe(1);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("500 boom");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("redacts the API key from error messages", async () => {
		const result = await createProviderStream(model, { apiKey: "sk-very-secret", maxRetries: 0 }, async () => {
			throw Object.assign(new Error("401 invalid key sk-very-secret"), { status: 401 });
		}).result();
		expect(result.errorMessage).toBe("401 invalid key [redacted]");
	});

	it("ends an idle stream even when the transport ignores the signal", async () => {
		const result = await createProviderStream(model, { apiKey: "k", idleTimeoutMs: 30 }, ({ builder }) => {
			builder.appendText(builder.startText(), "before stall");
			return new Promise(() => {});
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/No data received from the provider for 30 ms/);
		expect(result.content).toEqual([{ type: "text", text: "before stall" }]);
	});

	it("reports abort before the request as aborted without calling the transport", async () => {
		const controller = new AbortController();
		controller.abort();
		let called = false;
		const result = await createProviderStream(model, { apiKey: "k", signal: controller.signal }, async () => {
			called = true;
		}).result();
		expect(called).toBe(false);
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
	});

	it("fails when the transport returns without a stop event", async () => {
		const result = await createProviderStream(model, { apiKey: "k" }, async ({ builder }) => {
			builder.appendText(builder.startText(), "cut");
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/ended before the response was finished/);
		expect(result.content[0]).toEqual({ type: "text", text: "cut" });
	});
});
