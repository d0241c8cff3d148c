// When an attempt ends without reading its response body (here: `onResponse` throws right after the
// headers), the request must still be closed: an open body keeps the socket, and the server keeps
// streaming into a connection nobody reads. The server's response closes only when the client
// disconnects, so the test waits for that event; it times out when the body is left open (undici
// frees an unreferenced body only when it is garbage-collected, seconds later if at all).
import { once } from "node:events";
import type { ServerResponse } from "node:http";
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../src/providers/anthropic/index.js";
import { streamOpenAIResponses } from "../src/providers/openai-responses/index.js";
import type { WireTestServer } from "../src/testing/wire-test-server.js";
import type { Context } from "../src/types.js";
import { useWireTestServer } from "./helpers/wire-server.js";
import {
	anthropicSse,
	claudeModel,
	messageStart,
	TEST_KEY,
	textDelta,
	textStart,
} from "./providers/anthropic/fixtures.js";
import { created, responsesModel, responsesSse } from "./providers/openai-responses/fixtures.js";

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

/** The server's newest open response (WireTestServer tracks them to close them on shutdown). */
function newestOpenResponse(server: WireTestServer): ServerResponse {
	const open = [...(server as unknown as { open: Set<ServerResponse> }).open];
	expect(open.length).toBeGreaterThan(0);
	return open[open.length - 1];
}

const throwingOnResponse = () => {
	throw new Error("onResponse failed");
};

describe("an attempt that ends with its response body unread closes the request", () => {
	it("anthropic: onResponse throws after the headers", async () => {
		wire.server.enqueue({
			body: [anthropicSse([messageStart({ input_tokens: 1 }), textStart(0), textDelta(0, "hi")])],
			stall: true,
		});
		const result = await streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context, {
			apiKey: TEST_KEY,
			maxRetries: 0,
			onResponse: throwingOnResponse,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("onResponse failed");
		const response = newestOpenResponse(wire.server);
		if (!response.closed) await once(response, "close");
		expect(response.closed).toBe(true);
	}, 3000);

	it("openai-responses: onResponse throws after the headers", async () => {
		wire.server.enqueue({ body: [responsesSse([created()])], stall: true });
		const result = await streamOpenAIResponses(responsesModel({ baseUrl: wire.server.url }), context, {
			apiKey: "sk-test-secret-key-123",
			maxRetries: 0,
			onResponse: throwingOnResponse,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("onResponse failed");
		const response = newestOpenResponse(wire.server);
		if (!response.closed) await once(response, "close");
		expect(response.closed).toBe(true);
	}, 3000);
});
