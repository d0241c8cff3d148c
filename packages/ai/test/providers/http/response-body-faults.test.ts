// What happens to the body of a 200 answer, for every HTTP API: a connection cut mid-body, an
// abort mid-body, a body that ends without the API's terminal event, a JSON body where an event
// stream was expected, and a connection left open after the terminal event.
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { claudeModel, sseResponse, textResponseEvents } from "../anthropic/fixtures.js";
import { responsesModel } from "../openai-responses/fixtures.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };

const LABELS: Record<string, string> = {
	"anthropic-messages": "Anthropic",
	"openai-completions": "openai",
	"openai-responses": "OpenAI",
	"azure-openai-responses": "Azure OpenAI",
	"openai-codex-responses": "OpenAI Codex",
	"mistral-conversations": "Mistral",
	"google-generative-ai": "Gemini",
	"google-vertex": "Vertex AI",
};

const MISSING_TERMINAL: Record<string, string> = {
	"anthropic-messages": "The Anthropic stream ended before the response was finished (no message_stop event)",
	"openai-completions": "The openai stream ended without a finish_reason (the response is incomplete)",
	"openai-responses": "The OpenAI stream ended before the response was finished (no response.completed event)",
	"azure-openai-responses":
		"The Azure OpenAI stream ended before the response was finished (no response.completed event)",
	"openai-codex-responses":
		"The OpenAI Codex stream ended before the response was finished (no response.completed event)",
	"mistral-conversations": "The Mistral stream ended without a finish_reason (the response is incomplete)",
	"google-generative-ai": "The Gemini stream ended before the response was finished (no finishReason)",
	"google-vertex": "The Vertex AI stream ended before the response was finished (no finishReason)",
};

describe.each(API_CASES)("$name response body", (api) => {
	it("cut mid-body: one error naming the provider and the cut, partial text kept, no retry", async () => {
		wire.server.enqueue({ body: [api.partialBody()], cut: true });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 2 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			new RegExp(`^The connection to ${LABELS[api.name]} closed before the response was finished: terminated`),
		);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("aborted mid-body: ends as aborted with the partial text", async () => {
		wire.server.enqueue({ body: [api.partialBody()], stall: true });
		const controller = new AbortController();
		const stream = api.stream(wire.server.url, { apiKey: TEST_KEY, signal: controller.signal });
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.errorMessage).toBe("Request was aborted");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("a line that is not JSON after the terminal event, in the same network chunk, spoils nothing", async () => {
		// A proxy that appends its own `data: [DONE]` or junk after the API's last event.
		wire.server.enqueue({ body: [`${api.okBody()}data: [DONE]\n\ndata: {not json\n\n`] });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toHaveLength(1);
		expect(result.content[0]).toMatchObject({ type: "text", text: "ok" });
	});

	it("a line that is not JSON mid-stream keeps every event before it from the same network chunk", async () => {
		wire.server.enqueue({ body: [`${api.partialBody()}data: {not json\n\n`] });
		const events: string[] = [];
		const stream = api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 0 });
		for await (const event of stream) events.push(event.type);
		const result = await stream.result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/not JSON|JSON/);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
		expect(events).toContain("text_delta");
	});

	it("ended without the terminal event: an error that names the missing event", async () => {
		wire.server.enqueue({ body: [api.partialBody()] });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(MISSING_TERMINAL[api.name]);
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("left open after the terminal event: finishes without waiting for the connection to close", async () => {
		wire.server.enqueue({ body: [api.okBody()], stall: true });
		const result = await api.stream(wire.server.url, { apiKey: TEST_KEY, idleTimeoutMs: 60_000 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toMatchObject([{ type: "text", text: "ok" }]);
	});
});

describe("a JSON body where an event stream was expected", () => {
	it("anthropic: an error object is the provider's error, retried when its type is transient", async () => {
		wire.server.enqueue(
			{ body: { type: "error", error: { type: "overloaded_error", message: "Overloaded" } } },
			sseResponse(textResponseEvents(["after"])),
		);
		const result = await streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context, {
			apiKey: TEST_KEY,
			maxRetries: 1,
		}).result();
		expect(result.content).toEqual([{ type: "text", text: "after" }]);
		expect(result.diagnostics?.[0]?.error?.message).toBe("Anthropic error overloaded_error: Overloaded");
	});

	it("anthropic: any other JSON is quoted in a clear error", async () => {
		wire.server.enqueue({ body: { id: "msg_1", type: "message", content: [] } });
		const result = await streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context, {
			apiKey: TEST_KEY,
		}).result();
		expect(result.errorMessage).toBe(
			'Anthropic answered with JSON instead of an event stream: {"id":"msg_1","type":"message","content":[]}',
		);
	});

	it("openai-responses: an error object keeps its code, and a non-transient one is not retried", async () => {
		wire.server.enqueue({ body: { error: { message: "Unsupported model", code: "model_not_found" } } });
		const result = await streamOpenAIResponses(responsesModel({ baseUrl: wire.server.url }), context, {
			apiKey: TEST_KEY,
			maxRetries: 2,
		}).result();
		expect(result.errorMessage).toBe("OpenAI error model_not_found: Unsupported model");
		expect(wire.server.requests).toHaveLength(1);
	});
});
