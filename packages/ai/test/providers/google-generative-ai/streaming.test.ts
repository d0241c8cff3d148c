// The google-generative-ai provider against a local server speaking Gemini's streamed wire format
// (alt=sse, CRLF between events): the request, text, tools, usage, errors, retries and abort.
import { describe, expect, it } from "vitest";
import { streamGoogle, streamSimpleGoogle } from "../../../src/providers/google-generative-ai/index.js";
import type { AssistantMessage } from "../../../src/types.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { finishChunk, functionCallAnswer, geminiModel, geminiSse, partsChunk, textAnswer } from "./fixtures.js";

const wire = useWireTestServer();
const KEY = "gemini-test-key-0123456789";
const context = { messages: [userMessage("Hi")] };
const fast = { apiKey: KEY, maxRetries: 0 };

function model(overrides: Parameters<typeof geminiModel>[0] = {}) {
	return geminiModel({ baseUrl: `${wire.server.url}/v1beta`, ...overrides });
}

describe("google-generative-ai request", () => {
	it("posts to models/{id}:streamGenerateContent?alt=sse with the key in x-goog-api-key; caller headers win", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await streamGoogle(model({ headers: { "x-model": "m" } }), context, {
			...fast,
			headers: { "X-Model": "caller" },
		}).result();
		expect(result.stopReason).toBe("stop");
		const request = wire.server.requests[0];
		expect(request.method).toBe("POST");
		expect(request.url).toBe("/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe(KEY);
		expect(request.headers["x-model"]).toBe("caller");
		expect(request.json).toEqual({
			contents: [{ role: "user", parts: [{ text: "Hi" }] }],
		});
	});

	it("ends with a clear error and sends nothing without a key", async () => {
		const previous = process.env.GEMINI_API_KEY;
		delete process.env.GEMINI_API_KEY;
		try {
			const result = await streamGoogle(model(), context, { maxRetries: 0 }).result();
			expect(result.errorMessage).toBe('No API key for provider "google": set GEMINI_API_KEY or pass options.apiKey');
			expect(wire.server.requests).toHaveLength(0);
		} finally {
			if (previous !== undefined) process.env.GEMINI_API_KEY = previous;
		}
	});
});

describe("google-generative-ai streaming", () => {
	it("reads CRLF-separated events cut inside the line ending and inside a multi-byte character", async () => {
		const body = new TextEncoder().encode(textAnswer(["Grüße ", "🙂 done"]));
		const pieces: Uint8Array[] = [];
		for (let start = 0; start < body.length; start += 7) pieces.push(body.slice(start, start + 7));
		wire.server.enqueue({ body: pieces });
		const result = await streamGoogle(model(), context, fast).result();
		expect(result.content).toEqual([{ type: "text", text: "Grüße 🙂 done" }]);
		expect(result.responseId).toBe("resp-1");
	});

	it("streams a function call and ends with toolUse, usage and cost", async () => {
		wire.server.enqueue({ body: functionCallAnswer("ls", { dir: "." }) });
		const result = await streamGoogle(model(), context, fast).result();
		expect(result.stopReason).toBe("toolUse");
		expect(result.content).toEqual([
			{ type: "toolCall", id: expect.stringMatching(/^call_[a-z0-9]+_1$/), name: "ls", arguments: { dir: "." } },
		]);
		expect(result.usage).toMatchObject({ input: 10, output: 5, totalTokens: 15 });
		expect(result.usage.cost.total).toBeGreaterThan(0);
	});

	it("gives function calls of two answers different ids", async () => {
		wire.server.enqueue({ body: functionCallAnswer("ls", {}) }, { body: functionCallAnswer("ls", {}) });
		const first = await streamGoogle(model(), context, fast).result();
		const second = await streamGoogle(model(), context, fast).result();
		const id = (message: AssistantMessage) => (message.content[0].type === "toolCall" ? message.content[0].id : "");
		expect(id(first)).not.toBe(id(second));
	});

	it("ends an unknown finishReason as an error with rawStopReason", async () => {
		wire.server.enqueue({ body: textAnswer(["x"], "IMAGE_SAFETY") });
		const result = await streamGoogle(model(), context, fast).result();
		expect(result).toMatchObject({ stopReason: "error", rawStopReason: "IMAGE_SAFETY" });
	});
});

describe("google-generative-ai errors", () => {
	const exhausted = {
		error: {
			code: 429,
			message: "Resource has been exhausted (e.g. check quota).",
			status: "RESOURCE_EXHAUSTED",
			details: [{ "@type": "type.googleapis.com/google.rpc.RetryInfo", retryDelay: "0.001s" }],
		},
	};

	it("retries RESOURCE_EXHAUSTED after the RetryInfo delay, naming the status", async () => {
		wire.server.enqueue({ status: 429, body: exhausted }, { body: textAnswer(["ok"]) });
		const result = await streamGoogle(model(), context, { apiKey: KEY, maxRetries: 1 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.diagnostics?.[0]).toMatchObject({
			type: "retry",
			error: { message: "429 Resource has been exhausted (e.g. check quota). (RESOURCE_EXHAUSTED)" },
		});
	});

	it("reads Gemini's context-overflow error so isContextOverflow recognises it", async () => {
		wire.server.enqueue({
			status: 400,
			body: {
				error: {
					code: 400,
					message: "The input token count (1196265) exceeds the maximum number of tokens allowed (1048575).",
					status: "INVALID_ARGUMENT",
				},
			},
		});
		const result = await streamGoogle(model(), context, { apiKey: KEY, maxRetries: 2 }).result();
		expect(result.errorMessage).toContain(
			"400 The input token count (1196265) exceeds the maximum number of tokens allowed (1048575). (INVALID_ARGUMENT)",
		);
		expect(isContextOverflow(result)).toBe(true);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("retries an in-stream UNAVAILABLE error before any content", async () => {
		wire.server.enqueue(
			{ body: geminiSse([{ error: { code: 503, message: "The model is overloaded.", status: "UNAVAILABLE" } }]) },
			{ body: textAnswer(["ok"]) },
		);
		const result = await streamGoogle(model(), context, { apiKey: KEY, maxRetries: 1, maxRetryDelayMs: 5 }).result();
		expect(result.stopReason).toBe("stop");
		expect(result.diagnostics?.[0]).toMatchObject({
			error: { message: "Gemini error 503 UNAVAILABLE: The model is overloaded." },
		});
	});

	it("keeps the text of an in-stream error after content", async () => {
		wire.server.enqueue({
			body: geminiSse([
				partsChunk([{ text: "partial" }]),
				{ error: { code: 500, message: "Internal error encountered.", status: "INTERNAL" } },
			]),
		});
		const result = await streamGoogle(model(), context, { apiKey: KEY, maxRetries: 2 }).result();
		expect(result).toMatchObject({
			stopReason: "error",
			errorMessage: "Gemini error 500 INTERNAL: Internal error encountered.",
			content: [{ type: "text", text: "partial" }],
		});
		expect(wire.server.requests).toHaveLength(1);
	});
});

describe("google-generative-ai stalls", () => {
	it("ends a stream that stalls after its first text with the idle watchdog, keeping the text", async () => {
		wire.server.enqueue({ body: geminiSse([partsChunk([{ text: "stuck" }])]), stall: true });
		// Long enough for the first bytes to arrive on a busy machine; the stall after them is what ends it.
		const result = await streamGoogle(model(), context, { ...fast, idleTimeoutMs: 2000 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(/No data received from the provider for 2000 ms/);
		expect(result.content).toEqual([{ type: "text", text: "stuck" }]);
	});

	it("ends a call that outlives timeoutMs with an error naming the limit, keeping the text", async () => {
		wire.server.enqueue({ body: geminiSse([partsChunk([{ text: "slow" }])]), stall: true });
		// Long enough for the first bytes to arrive on a busy machine.
		const result = await streamGoogle(model(), context, { ...fast, timeoutMs: 2000 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toBe("Request timed out after 2000 ms (timeoutMs)");
		expect(result.content).toEqual([{ type: "text", text: "slow" }]);
	});
});

describe("google-generative-ai abort", () => {
	it("aborted mid-stream: aborted with the partial text and usage kept", async () => {
		wire.server.enqueue({
			body: geminiSse([
				partsChunk([{ text: "partial" }], { usageMetadata: { promptTokenCount: 4, candidatesTokenCount: 1 } }),
			]),
			stall: true,
		});
		const controller = new AbortController();
		const stream = streamGoogle(model(), context, { ...fast, signal: controller.signal });
		let last: AssistantMessage | undefined;
		for await (const event of stream) {
			if (event.type === "text_delta") controller.abort();
			if (event.type === "error") last = event.error;
		}
		expect(last).toMatchObject({ stopReason: "aborted", content: [{ type: "text", text: "partial" }] });
		expect(last?.usage).toMatchObject({ input: 4, output: 1 });
	});
});

describe("google-generative-ai streamSimple reasoning", () => {
	async function sentThinking(
		modelOverrides: Parameters<typeof geminiModel>[0],
		reasoning?: "minimal" | "low" | "medium" | "high" | "xhigh",
	) {
		wire.server.enqueue({ body: geminiSse([finishChunk()]) });
		await streamSimpleGoogle(model(modelOverrides), context, { ...fast, reasoning }).result();
		const body = wire.server.requests.at(-1)?.json as { generationConfig?: { thinkingConfig?: unknown } };
		return body.generationConfig?.thinkingConfig;
	}

	it.each([
		["minimal", 128],
		["low", 2048],
		["medium", 8192],
		["high", 24576],
		["xhigh", 24576],
	] as const)("Gemini 2.5 Flash %s → thinkingBudget %i", async (level, budget) => {
		expect(await sentThinking({}, level)).toEqual({ includeThoughts: true, thinkingBudget: budget });
	});

	it("Gemini 2.5 Pro high → 32768; a model outside the tables → -1 (dynamic)", async () => {
		expect(await sentThinking({ id: "gemini-2.5-pro" }, "high")).toEqual({
			includeThoughts: true,
			thinkingBudget: 32768,
		});
		expect(await sentThinking({ id: "gemini-exp-1206" }, "low")).toEqual({ includeThoughts: true, thinkingBudget: -1 });
	});

	it.each([
		["gemini-3-pro-preview", "minimal", "LOW"],
		["gemini-3-pro-preview", "medium", "HIGH"],
		["gemini-3-flash-preview", "minimal", "MINIMAL"],
		["gemini-3-flash-preview", "medium", "MEDIUM"],
	] as const)("%s %s → thinkingLevel %s", async (id, level, expected) => {
		expect(await sentThinking({ id }, level)).toEqual({ includeThoughts: true, thinkingLevel: expected });
	});

	it("custom budgets win over the table", async () => {
		wire.server.enqueue({ body: geminiSse([finishChunk()]) });
		await streamSimpleGoogle(model(), context, { ...fast, reasoning: "low", thinkingBudgets: { low: 777 } }).result();
		expect((wire.server.requests[0].json as { generationConfig: unknown }).generationConfig).toMatchObject({
			thinkingConfig: { thinkingBudget: 777 },
		});
	});

	it("no reasoning level sends no thinkingConfig (the model's default thinking applies)", async () => {
		expect(await sentThinking({}, undefined)).toBeUndefined();
	});
});
