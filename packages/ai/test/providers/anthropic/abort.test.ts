import { describe, expect, it, vi } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	claudeModel,
	messageStart,
	sseResponse,
	TEST_KEY,
	textDelta,
	textResponseEvents,
	textStart,
} from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };
const model = () => claudeModel({ baseUrl: wire.server.url });

describe("anthropic abort", () => {
	it("aborted before the request: no request is sent", async () => {
		const controller = new AbortController();
		controller.abort();
		const result = await streamAnthropic(model(), context, { apiKey: TEST_KEY, signal: controller.signal }).result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("aborted mid-stream: ends as aborted with the partial text and usage", async () => {
		wire.server.enqueue({
			body: [anthropicSse([messageStart({ input_tokens: 12 }), textStart(0), textDelta(0, "partial")])],
			stall: true,
		});
		const controller = new AbortController();
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY, signal: controller.signal });
		for await (const event of stream) {
			if (event.type === "text_delta") controller.abort();
		}
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(result.usage.input).toBe(12);
		expect(result.usage.cost.input).toBeCloseTo((12 * 3) / 1_000_000);
	});

	it("aborted while waiting for headers: ends as aborted, not retried", async () => {
		wire.server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY, signal: controller.signal, maxRetries: 2 });
		// Abort once the server holds the request (polling the recorded requests, not sleeping).
		await vi.waitFor(() => expect(wire.server.requests).toHaveLength(1), { interval: 5 });
		controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(wire.server.requests).toHaveLength(1);
	});

	it("aborted after done: the finished message is unchanged", async () => {
		wire.server.enqueue(sseResponse(textResponseEvents(["complete"])));
		const controller = new AbortController();
		const stream = streamAnthropic(model(), context, { apiKey: TEST_KEY, signal: controller.signal });
		const result = await stream.result();
		controller.abort();
		expect(result.stopReason).toBe("stop");
		expect(result.errorMessage).toBeUndefined();
		expect(result.content).toEqual([{ type: "text", text: "complete" }]);
	});
});
