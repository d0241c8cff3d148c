// A fallback chain over real providers and the wire-test server: Anthropic overloaded after its
// retries, then Chat Completions answers with its own key and nothing of Anthropic's request.
import { describe, expect, it } from "vitest";
import { createFallbackStream, FALLBACK_ATTEMPT_DIAGNOSTIC } from "../../src/index.js";
import type { Context } from "../../src/types.js";
import { collectEvents, userMessage } from "../helpers/messages.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { claudeModel, errorBody, TEST_KEY } from "../providers/anthropic/fixtures.js";
import { serverModel, textStream } from "../providers/openai-completions/fixtures.js";

const wire = useWireTestServer();
const context: Context = { systemPrompt: "Be brief.", messages: [userMessage("Hi")] };
const openAIKey = "sk-openai-fallback-0123456789";

describe("a fallback chain over HTTP providers", () => {
	it("moves from an overloaded Anthropic (after its retry) to Chat Completions, sending each its own request", async () => {
		const overloaded = {
			status: 529,
			headers: { "retry-after-ms": "1" },
			body: errorBody("overloaded_error", "Overloaded"),
		};
		wire.server.enqueue(overloaded, overloaded, { body: textStream("Hello from GPT") });
		const claude = claudeModel({ baseUrl: wire.server.url });
		const gpt = serverModel(wire.server.url);
		const fallback = createFallbackStream([claude, { model: gpt, options: { apiKey: openAIKey } }], {
			entry: "stream",
		});

		const events = await collectEvents(
			fallback(claude, context, {
				apiKey: TEST_KEY,
				headers: { "x-caller-header": "for-claude" },
				thinkingEnabled: true,
				maxRetries: 1,
				maxTokens: 2000,
			}),
		);
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
		const last = events[events.length - 1];
		expect(last.type === "done" && last.message.model).toBe("gpt-4.1-mini");

		expect(wire.server.requests.map((request) => request.url)).toEqual([
			"/v1/messages",
			"/v1/messages",
			"/chat/completions",
		]);
		const [toClaude, , toGpt] = wire.server.requests;
		expect(toClaude.headers["x-api-key"]).toBe(TEST_KEY);
		expect(toClaude.headers["x-caller-header"]).toBe("for-claude");
		expect(toGpt.headers.authorization).toBe(`Bearer ${openAIKey}`);
		expect(toGpt.headers["x-api-key"]).toBeUndefined();
		expect(toGpt.headers["x-caller-header"]).toBeUndefined();
		expect(JSON.stringify(toGpt)).not.toContain(TEST_KEY);
		expect(toGpt.json).toMatchObject({ model: "gpt-4.1-mini", max_completion_tokens: 2000 });
		expect(toGpt.json).not.toHaveProperty("thinking");
	});

	it("records the failed attempt's error text and the answer's model in the diagnostics", async () => {
		wire.server.enqueue(
			{ status: 401, body: errorBody("authentication_error", "invalid x-api-key") },
			{ body: textStream("ok") },
		);
		const claude = claudeModel({ baseUrl: wire.server.url });
		const gpt = serverModel(wire.server.url);
		const message = await createFallbackStream([claude, { model: gpt, options: { apiKey: openAIKey } }])(
			claude,
			context,
			{
				apiKey: TEST_KEY,
			},
		).result();
		const recorded = message.diagnostics?.filter((diagnostic) => diagnostic.type === FALLBACK_ATTEMPT_DIAGNOSTIC);
		expect(recorded?.map((diagnostic) => [diagnostic.details?.model, diagnostic.details?.outcome])).toEqual([
			["claude-sonnet-4-20250514", "failed"],
			["gpt-4.1-mini", "answered"],
		]);
		expect(recorded?.[0].error?.message).toContain("401 invalid x-api-key (authentication_error)");
	});
});
