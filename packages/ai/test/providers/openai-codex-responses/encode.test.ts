import { describe, expect, it } from "vitest";
import { getModel } from "../../../src/index.js";
import { encodeOpenAICodexRequest } from "../../../src/providers/openai-codex-responses/encode.js";
import { codexResponsesUrl, webSocketUrl } from "../../../src/providers/openai-codex-responses/endpoint.js";
import type { Context } from "../../../src/types.js";
import { codexModel } from "./fixtures.js";

const model = codexModel("https://chatgpt.com/backend-api");
const context: Context = {
	systemPrompt: "You are terse.",
	messages: [{ role: "user", content: "Hi", timestamp: 1 }],
	tools: [{ name: "read", description: "Reads a file", parameters: { type: "object", properties: {} } as never }],
};

describe("the Codex request body", () => {
	it("puts the system prompt in instructions, not in the input", () => {
		const body = encodeOpenAICodexRequest(model, context, {});
		expect(body.instructions).toBe("You are terse.");
		expect(body.input).toEqual([{ role: "user", content: [{ type: "input_text", text: "Hi" }] }]);
	});

	it("sends an empty instructions field when there is no system prompt", () => {
		expect(encodeOpenAICodexRequest(model, { messages: [] }, {}).instructions).toBe("");
	});

	it("asks for a stream that is not stored, with the encrypted reasoning to replay", () => {
		const body = encodeOpenAICodexRequest(model, context, {});
		expect(body).toMatchObject({
			model: "gpt-5.2-codex",
			stream: true,
			store: false,
			include: ["reasoning.encrypted_content"],
			text: { verbosity: "medium" },
			tool_choice: "auto",
			parallel_tool_calls: true,
		});
		expect(body.tools).toEqual([expect.objectContaining({ type: "function", name: "read" })]);
	});

	it("leaves out max_output_tokens and temperature, which the endpoint rejects", () => {
		const body = encodeOpenAICodexRequest(model, context, { maxTokens: 1000, temperature: 0.2 });
		expect(body).not.toHaveProperty("max_output_tokens");
		expect(body).not.toHaveProperty("temperature");
	});

	it("sends the session as prompt_cache_key, the verbosity and the reasoning effort asked for", () => {
		const body = encodeOpenAICodexRequest(model, context, {
			sessionId: "session-1",
			textVerbosity: "low",
			reasoningEffort: "high",
		});
		expect(body.prompt_cache_key).toBe("session-1");
		expect(body.text).toEqual({ verbosity: "low" });
		expect(body.reasoning).toEqual({ effort: "high", summary: "auto" });
	});

	it("moves a level the catalogue row does not support to one it does (gpt-5.1-codex-mini: low → medium)", () => {
		const mini = getModel("openai-codex", "gpt-5.1-codex-mini");
		expect(encodeOpenAICodexRequest(mini, context, { reasoningEffort: "low" }).reasoning?.effort).toBe("medium");
	});
});

describe("the Codex endpoint URL", () => {
	it.each([
		["https://chatgpt.com/backend-api", "https://chatgpt.com/backend-api/codex/responses"],
		["https://chatgpt.com/backend-api/", "https://chatgpt.com/backend-api/codex/responses"],
		["https://chatgpt.com/backend-api/codex", "https://chatgpt.com/backend-api/codex/responses"],
		["https://chatgpt.com/backend-api/codex/responses/", "https://chatgpt.com/backend-api/codex/responses"],
	])("%s → %s", (baseUrl, expected) => {
		expect(codexResponsesUrl(baseUrl)).toBe(expected);
	});

	it("uses wss: for https: and ws: for http:", () => {
		expect(webSocketUrl("https://chatgpt.com/backend-api/codex/responses")).toBe(
			"wss://chatgpt.com/backend-api/codex/responses",
		);
		expect(webSocketUrl("http://127.0.0.1:8080/codex/responses")).toBe("ws://127.0.0.1:8080/codex/responses");
	});
});
