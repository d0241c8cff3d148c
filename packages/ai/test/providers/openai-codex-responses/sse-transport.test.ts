// The Codex provider over server-sent events (the default transport), against the local wire-test server.
import { afterEach, describe, expect, it, vi } from "vitest";
import { completeSimple, getModel } from "../../../src/index.js";
import { streamOpenAICodexResponses } from "../../../src/providers/openai-codex-responses/index.js";
import type { AssistantMessageEvent, Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responseObject,
	responsesSse,
} from "../openai-responses/fixtures.js";
import { ACCOUNT_ID, codexModel, TOKEN } from "./fixtures.js";

const wire = useWireTestServer();
const context: Context = { systemPrompt: "Be brief.", messages: [{ role: "user", content: "Hi", timestamp: 1 }] };

afterEach(() => {
	vi.unstubAllEnvs();
});

describe("openai-codex-responses over server-sent events", () => {
	it("POSTs to {baseUrl}/codex/responses with the token, the account from its claims and the Codex headers", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["Hello", " there"]), completed()]) });
		const result = await streamOpenAICodexResponses(codexModel(`${wire.server.url}/backend-api/`), context, {
			apiKey: TOKEN,
			sessionId: "session-7",
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(result.content).toEqual([expect.objectContaining({ type: "text", text: "Hello there" })]);
		const request = wire.server.lastRequest;
		expect(request?.method).toBe("POST");
		expect(request?.url).toBe("/backend-api/codex/responses");
		expect(request?.headers).toMatchObject({
			authorization: `Bearer ${TOKEN}`,
			"chatgpt-account-id": ACCOUNT_ID,
			"openai-beta": "responses=experimental",
			accept: "text/event-stream",
			originator: "keel",
			session_id: "session-7",
			"content-type": "application/json",
		});
		expect(request?.json).toMatchObject({
			instructions: "Be brief.",
			stream: true,
			store: false,
			prompt_cache_key: "session-7",
		});
	});

	it("streams reasoning, a tool call and usage", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				...reasoningEvents(0, [["Thinking", " hard"]]),
				...functionCallEvents(1, "read", ['{"path":', '"a.txt"}']),
				completed({ input_tokens: 100, cached: 40, output_tokens: 20 }),
			]),
		});
		const events: AssistantMessageEvent[] = [];
		const stream = streamOpenAICodexResponses(codexModel(wire.server.url), context, { apiKey: TOKEN, maxRetries: 0 });
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content[0]).toMatchObject({ type: "thinking", thinking: "Thinking hard" });
		expect(result.content[1]).toMatchObject({
			type: "toolCall",
			id: "call_1|fc_1",
			name: "read",
			arguments: { path: "a.txt" },
		});
		expect(result.usage).toMatchObject({ input: 60, cacheRead: 40, output: 20, totalTokens: 120 });
		expect(events.filter((event) => event.type === "thinking_delta")).toHaveLength(2);
		expect(events.filter((event) => event.type === "toolcall_delta")).toHaveLength(2);
	});

	it("ends at response.done, Codex's name for the terminal event, even when the body stays open", async () => {
		const done = {
			type: "response.done",
			response: responseObject("completed", { usage: { input_tokens: 3, output_tokens: 2 } }),
		};
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), done]), stall: true });
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(result.usage.output).toBe(2);
	});

	it("reads the token from OPENAI_CODEX_ACCESS_TOKEN and runs through the registry for catalogue rows", async () => {
		vi.stubEnv("OPENAI_CODEX_ACCESS_TOKEN", TOKEN);
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["from the catalogue"]), completed()]) });
		const model = { ...getModel("openai-codex", "gpt-5.2-codex"), baseUrl: wire.server.url };
		const result = await completeSimple(model, context, { maxRetries: 0, reasoning: "high" });
		expect(result.errorMessage).toBeUndefined();
		expect(result.content[0]).toMatchObject({ text: "from the catalogue" });
		expect(wire.server.lastRequest?.headers.authorization).toBe(`Bearer ${TOKEN}`);
		expect(wire.server.lastRequest?.json).toMatchObject({ reasoning: { effort: "high", summary: "auto" } });
	});

	it("ends with a clear error naming the variable when there is no token", async () => {
		vi.stubEnv("OPENAI_CODEX_ACCESS_TOKEN", "");
		const model = { ...getModel("openai-codex", "gpt-5.2"), baseUrl: wire.server.url };
		const result = await completeSimple(model, context, { maxRetries: 0 });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe(
			'No API key for provider "openai-codex": set OPENAI_CODEX_ACCESS_TOKEN or pass options.apiKey',
		);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("ends with a clear error, and sends nothing, when the token is not a JWT", async () => {
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: "sk-plain-api-key-SECRET-0123456789",
			maxRetries: 2,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("The OpenAI Codex access token is not a JWT");
		expect(result.errorMessage).not.toContain("SECRET");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("uses options.accountId instead of the token's claims when given", async () => {
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]) });
		await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: "opaque-token-without-claims",
			accountId: "acct-explicit",
			maxRetries: 0,
		}).result();
		expect(wire.server.lastRequest?.headers["chatgpt-account-id"]).toBe("acct-explicit");
	});
});

describe("openai-codex-responses errors", () => {
	it("reports a 400 with the endpoint's detail and does not retry it", async () => {
		wire.server.enqueue({ status: 400, body: { detail: "Unsupported parameter: max_output_tokens" } });
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			maxRetries: 2,
		}).result();
		expect(result.errorMessage).toContain("400 Unsupported parameter: max_output_tokens");
		expect(wire.server.requests).toHaveLength(1);
	});

	it("says a usage limit was hit, for which plan and when to try again, without retrying", async () => {
		wire.server.enqueue({
			status: 429,
			body: {
				error: {
					type: "usage_limit_reached",
					message: "The usage limit has been reached.",
					plan_type: "plus",
					resets_in_seconds: 1234,
				},
			},
		});
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			maxRetries: 2,
		}).result();
		expect(result.errorMessage).toContain(
			"429 You have hit your ChatGPT usage limit (plus plan): The usage limit has been reached. Try again in about 21 min.",
		);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("turns an in-stream error event into one error that keeps the text so far", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				{
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "message", id: "msg_0", role: "assistant", status: "in_progress", content: [] },
				},
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_0", content_index: 0, delta: "partial" },
				{ type: "error", code: "server_error", message: "The server had an error" },
			]),
		});
		const events: AssistantMessageEvent[] = [];
		const stream = streamOpenAICodexResponses(codexModel(wire.server.url), context, { apiKey: TOKEN, maxRetries: 0 });
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(events.filter((event) => event.type === "error")).toHaveLength(1);
		expect(result.errorMessage).toBe("OpenAI Codex stream error server_error: The server had an error");
		expect(result.content[0]).toMatchObject({ type: "text", text: "partial" });
	});

	it("never lets the token appear in the message, even when the server echoes it", async () => {
		wire.server.enqueue({ status: 401, body: { error: { message: `Invalid token ${TOKEN}`, type: "invalid_token" } } });
		const result = await streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("401 Invalid token");
		expect(JSON.stringify(result)).not.toContain("signature-part-SECRET");
		expect(JSON.stringify(result)).not.toContain(TOKEN.slice(0, 20));
	});

	it("aborts mid-stream keeping the text received", async () => {
		wire.server.enqueue({
			body: responsesSse([
				created(),
				{
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "message", id: "msg_0", role: "assistant", status: "in_progress", content: [] },
				},
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_0", content_index: 0, delta: "so far" },
			]),
			stall: true,
		});
		const controller = new AbortController();
		const stream = streamOpenAICodexResponses(codexModel(wire.server.url), context, {
			apiKey: TOKEN,
			maxRetries: 0,
			signal: controller.signal,
		});
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.content[0]).toMatchObject({ text: "so far" });
	});
});
