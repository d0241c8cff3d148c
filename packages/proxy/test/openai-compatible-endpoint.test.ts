// The proxy's OpenAI-compatible endpoint, driven by OpenAI's own SDK (the `openai` package) against
// the Node handler on 127.0.0.1 with the faux provider behind it: the model list, streamed and whole
// answers, tool calls and their results both ways, usage, and errors as the SDK's error classes; and
// with real wire formats behind it (an OpenAI Chat Completions and an Anthropic Messages upstream).
import type { Context, Model } from "@keel/ai";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
	WireTestServer,
} from "@keel/ai/testing";
import OpenAI from "openai";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { createProxyHandler } from "../src/node-handler.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let server: RunningServer;
let client: OpenAI;

beforeEach(async () => {
	faux = registerFauxProvider({ models: [{ id: "faux-model" }, { id: "faux-other" }] });
	server = await startServer(
		createProxyHandler({
			authenticate: (token) => token === "good-token",
			models: [faux.getModel("faux-model")],
			openAICompatible: true,
		}),
	);
	// No retries: every refusal must reach the test as the SDK's error class, once.
	client = new OpenAI({ apiKey: "good-token", baseURL: `${server.url}/v1`, maxRetries: 0 });
});
afterEach(async () => {
	faux.unregister();
	await server.close();
});

const addTool = {
	type: "function" as const,
	function: {
		name: "add",
		description: "Adds two numbers",
		parameters: { type: "object", properties: { a: { type: "number" }, b: { type: "number" } }, required: ["a", "b"] },
	},
};

describe("the endpoint is opt-in", () => {
	it("answers 404 on /v1 paths unless openAICompatible is set", async () => {
		const plain = await startServer(
			createProxyHandler({ authenticate: () => true, models: [faux.getModel("faux-model")] }),
		);
		try {
			const plainClient = new OpenAI({ apiKey: "good-token", baseURL: `${plain.url}/v1`, maxRetries: 0 });
			const error = await plainClient.models.list().catch((caught: unknown) => caught);
			expect(error).toBeInstanceOf(OpenAI.NotFoundError);
		} finally {
			await plain.close();
		}
	});
});

describe("the fetch handler", () => {
	it("serves the same endpoint to the SDK (given the handler as its fetch)", async () => {
		faux.setResponses([fauxAssistantMessage("From the fetch handler.")]);
		const handler = createFetchProxyHandler({
			authenticate: (token) => token === "good-token",
			models: [faux.getModel("faux-model")],
			openAICompatible: true,
		});
		const fetchClient = new OpenAI({
			apiKey: "good-token",
			baseURL: "http://proxy.test/v1",
			maxRetries: 0,
			fetch: (url, init) => handler(new Request(url, init)),
		});
		const stream = await fetchClient.chat.completions.create({
			model: "faux/faux-model",
			messages: [{ role: "user", content: "Hi" }],
			stream: true,
		});
		let text = "";
		for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
		expect(text).toBe("From the fetch handler.");
	});
});

describe("with a real provider call behind it", () => {
	it("passes a streamed OpenAI Chat Completions upstream (the wire-test server) through, with its cached-token usage", async () => {
		const upstream = await WireTestServer.start();
		try {
			const chunk = (body: Record<string, unknown>) =>
				`data: ${JSON.stringify({ id: "u", object: "chat.completion.chunk", created: 1, model: "up", ...body })}\n\n`;
			upstream.enqueue({
				headers: { "content-type": "text/event-stream" },
				body: [
					chunk({ choices: [{ index: 0, delta: { role: "assistant", content: "Upstream " }, finish_reason: null }] }),
					chunk({ choices: [{ index: 0, delta: { content: "answer." }, finish_reason: "stop" }] }),
					chunk({
						choices: [],
						usage: {
							prompt_tokens: 120,
							completion_tokens: 7,
							total_tokens: 127,
							prompt_tokens_details: { cached_tokens: 100 },
						},
					}),
					"data: [DONE]\n\n",
				],
			});
			const upstreamModel: Model<"openai-completions"> = {
				id: "up-model",
				name: "up-model",
				api: "openai-completions",
				provider: "local",
				baseUrl: upstream.url,
				reasoning: false,
				input: ["text"],
				cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
				contextWindow: 8_000,
				maxTokens: 1_000,
			};
			const proxy = await startServer(
				createProxyHandler({
					authenticate: () => true,
					models: [upstreamModel],
					getApiKey: () => "upstream-key",
					openAICompatible: true,
				}),
			);
			try {
				const local = new OpenAI({ apiKey: "any", baseURL: `${proxy.url}/v1`, maxRetries: 0 });
				const stream = await local.chat.completions.create({
					model: "local/up-model",
					messages: [{ role: "user", content: "Hi" }],
					stream: true,
					stream_options: { include_usage: true },
				});
				let text = "";
				let usage: OpenAI.CompletionUsage | null | undefined;
				for await (const part of stream) {
					text += part.choices[0]?.delta.content ?? "";
					if (part.usage) usage = part.usage;
				}
				expect(text).toBe("Upstream answer.");
				expect(usage).toEqual({
					prompt_tokens: 120,
					completion_tokens: 7,
					total_tokens: 127,
					prompt_tokens_details: { cached_tokens: 100 },
				});
				// The upstream saw the server's key, never the client's.
				expect(upstream.requests[0].headers.authorization).toBe("Bearer upstream-key");
			} finally {
				await proxy.close();
			}
		} finally {
			await upstream.close();
		}
	});
});

describe("an Anthropic Messages model behind it", () => {
	// Anthropic's streaming events as the API sends them
	// (https://docs.anthropic.com/en/api/messages-streaming): a tool_use block whose input arrives as
	// input_json_delta pieces, then a second answer in text.
	const anthropicSse = (events: Record<string, unknown>[]) =>
		events.map((event) => `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`).join("");
	const messageStart = {
		type: "message_start",
		message: {
			id: "msg_1",
			type: "message",
			role: "assistant",
			model: "claude-up",
			content: [],
			stop_reason: null,
			usage: { input_tokens: 30, output_tokens: 1 },
		},
	};
	const toolUseAnswer = anthropicSse([
		messageStart,
		{
			type: "content_block_start",
			index: 0,
			content_block: { type: "tool_use", id: "toolu_1", name: "add", input: {} },
		},
		{ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '{"a": 2, ' } },
		{ type: "content_block_delta", index: 0, delta: { type: "input_json_delta", partial_json: '"b": 40}' } },
		{ type: "content_block_stop", index: 0 },
		{ type: "message_delta", delta: { stop_reason: "tool_use", stop_sequence: null }, usage: { output_tokens: 12 } },
		{ type: "message_stop" },
	]);
	const textAnswer = anthropicSse([
		messageStart,
		{ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } },
		{ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "It is 42." } },
		{ type: "content_block_stop", index: 0 },
		{ type: "message_delta", delta: { stop_reason: "end_turn", stop_sequence: null }, usage: { output_tokens: 4 } },
		{ type: "message_stop" },
	]);

	it("maps its streamed tool_use to OpenAI tool_calls, and the tool's result back to a tool_result", async () => {
		const upstream = await WireTestServer.start();
		const claude: Model<"anthropic-messages"> = {
			id: "claude-up",
			name: "claude-up",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: upstream.url,
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 200_000,
			maxTokens: 1_000,
		};
		const proxy = await startServer(
			createProxyHandler({
				authenticate: () => true,
				models: [claude],
				getApiKey: () => "anthropic-upstream-key",
				openAICompatible: true,
			}),
		);
		try {
			const local = new OpenAI({ apiKey: "any", baseURL: `${proxy.url}/v1`, maxRetries: 0 });
			upstream.enqueue({ headers: { "content-type": "text/event-stream" }, body: [toolUseAnswer] });
			const stream = await local.chat.completions.create({
				model: "anthropic/claude-up",
				messages: [{ role: "user", content: "What is 2 + 40?" }],
				tools: [addTool],
				stream: true,
			});
			const calls = new Map<number, { id?: string; name?: string; arguments: string }>();
			let finishReason: string | null | undefined;
			for await (const chunk of stream) {
				for (const call of chunk.choices[0]?.delta.tool_calls ?? []) {
					const entry = calls.get(call.index) ?? { arguments: "" };
					entry.id ??= call.id;
					entry.name ??= call.function?.name;
					entry.arguments += call.function?.arguments ?? "";
					calls.set(call.index, entry);
				}
				finishReason = chunk.choices[0]?.finish_reason ?? finishReason;
			}
			expect(finishReason).toBe("tool_calls");
			expect([...calls.values()].map((call) => ({ ...call, arguments: JSON.parse(call.arguments) }))).toEqual([
				{ id: "toolu_1", name: "add", arguments: { a: 2, b: 40 } },
			]);
			// Anthropic got the OpenAI tool as one of its own, with the server's key.
			const first = upstream.requests[0];
			expect(first.headers["x-api-key"]).toBe("anthropic-upstream-key");
			expect((first.json as { tools: unknown[] }).tools).toEqual([
				{ name: "add", description: "Adds two numbers", input_schema: addTool.function.parameters },
			]);

			upstream.enqueue({ headers: { "content-type": "text/event-stream" }, body: [textAnswer] });
			const completion = await local.chat.completions.create({
				model: "anthropic/claude-up",
				messages: [
					{ role: "user", content: "What is 2 + 40?" },
					{
						role: "assistant",
						content: null,
						tool_calls: [{ id: "toolu_1", type: "function", function: { name: "add", arguments: '{"a":2,"b":40}' } }],
					},
					{ role: "tool", tool_call_id: "toolu_1", content: "42" },
				],
				tools: [addTool],
			});
			expect(completion.choices[0].message.content).toBe("It is 42.");
			expect(completion.usage).toMatchObject({ prompt_tokens: 30, completion_tokens: 4 });
			// The OpenAI tool message reached Anthropic as a tool_result paired with its tool_use.
			const second = upstream.requests[1].json as { messages: { role: string; content: unknown }[] };
			expect(second.messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
			expect(second.messages[1].content).toEqual([
				{ type: "tool_use", id: "toolu_1", name: "add", input: { a: 2, b: 40 } },
			]);
			expect(second.messages[2].content).toEqual([
				expect.objectContaining({
					type: "tool_result",
					tool_use_id: "toolu_1",
					content: "42",
				}),
			]);
		} finally {
			await proxy.close();
			await upstream.close();
		}
	});
});

describe("GET /v1/models", () => {
	it("lists the models the proxy allows, named provider/id", async () => {
		const models = [];
		for await (const model of client.models.list()) models.push(model);
		expect(models).toEqual([{ id: "faux/faux-model", object: "model", created: 0, owned_by: "faux" }]);
	});
});

describe("POST /v1/chat/completions", () => {
	it("answers a non-streaming request with one chat.completion and its usage", async () => {
		faux.setResponses([fauxAssistantMessage("Hello from Keel.")]);
		const completion = await client.chat.completions.create({
			model: "faux/faux-model",
			messages: [
				{ role: "system", content: "Be brief." },
				{ role: "user", content: "Hi" },
			],
		});
		expect(completion.object).toBe("chat.completion");
		expect(completion.model).toBe("faux/faux-model");
		expect(completion.choices).toEqual([
			{ index: 0, message: { role: "assistant", content: "Hello from Keel." }, finish_reason: "stop", logprobs: null },
		]);
		expect(completion.usage?.completion_tokens).toBeGreaterThan(0);
		expect(completion.usage?.total_tokens).toBe(
			(completion.usage?.prompt_tokens ?? 0) + (completion.usage?.completion_tokens ?? 0),
		);
		// The system message became the context's system prompt.
		expect(faux.state.requests[0].context.systemPrompt).toBe("Be brief.");
	});

	it("streams text deltas, the finish reason and a usage chunk when asked", async () => {
		faux.setResponses([fauxAssistantMessage("Streaming through the proxy works.")]);
		const stream = await client.chat.completions.create({
			model: "faux/faux-model",
			messages: [{ role: "user", content: "Hi" }],
			stream: true,
			stream_options: { include_usage: true },
		});
		let text = "";
		const finishReasons: (string | null)[] = [];
		let usage: OpenAI.CompletionUsage | null | undefined;
		for await (const chunk of stream) {
			text += chunk.choices[0]?.delta.content ?? "";
			if (chunk.choices[0]?.finish_reason) finishReasons.push(chunk.choices[0].finish_reason);
			if (chunk.usage) usage = chunk.usage;
		}
		expect(text).toBe("Streaming through the proxy works.");
		expect(finishReasons).toEqual(["stop"]);
		expect(usage?.completion_tokens).toBeGreaterThan(0);
	});

	it("streams a tool call, and takes the call and its result back in the next request", async () => {
		let secondContext: Context | undefined;
		faux.setResponses([
			fauxAssistantMessage([fauxText("Adding."), fauxToolCall("add", { a: 2, b: 3 }, "call_1")]),
			(context) => {
				secondContext = context;
				return fauxAssistantMessage("2 + 3 = 5.");
			},
		]);
		const runner = client.chat.completions.stream({
			model: "faux/faux-model",
			messages: [{ role: "user", content: "What is 2 + 3?" }],
			tools: [addTool],
		});
		const first = await runner.finalChatCompletion();
		expect(first.choices[0].finish_reason).toBe("tool_calls");
		const call = first.choices[0].message.tool_calls?.[0];
		expect(call).toMatchObject({ id: "call_1", type: "function", function: { name: "add" } });
		expect(JSON.parse((call as { function: { arguments: string } }).function.arguments)).toEqual({ a: 2, b: 3 });
		expect(faux.state.requests[0].context.tools?.map((tool) => tool.name)).toEqual(["add"]);

		const second = await client.chat.completions.create({
			model: "faux/faux-model",
			tools: [addTool],
			messages: [
				{ role: "user", content: "What is 2 + 3?" },
				{ role: "assistant", content: "Adding.", tool_calls: first.choices[0].message.tool_calls },
				{ role: "tool", tool_call_id: "call_1", content: "5" },
			],
		});
		expect(second.choices[0].message.content).toBe("2 + 3 = 5.");
		expect(secondContext?.messages.slice(1)).toMatchObject([
			{
				role: "assistant",
				content: [
					{ type: "text", text: "Adding." },
					{ type: "toolCall", id: "call_1", name: "add", arguments: { a: 2, b: 3 } },
				],
			},
			{
				role: "toolResult",
				toolCallId: "call_1",
				toolName: "add",
				content: [{ type: "text", text: "5" }],
				isError: false,
			},
		]);
	});

	it("returns a whole answer's tool calls in a non-streaming response", async () => {
		faux.setResponses([fauxAssistantMessage([fauxToolCall("add", { a: 1, b: 1 }, "call_9")])]);
		const completion = await client.chat.completions.create({
			model: "faux/faux-model",
			messages: [{ role: "user", content: "1 + 1?" }],
			tools: [addTool],
		});
		expect(completion.choices[0]).toMatchObject({
			finish_reason: "tool_calls",
			message: {
				content: null,
				tool_calls: [{ id: "call_9", type: "function", function: { name: "add", arguments: '{"a":1,"b":1}' } }],
			},
		});
	});
});

describe("errors, as the OpenAI SDK's error classes", () => {
	it("a wrong key is an AuthenticationError (401)", async () => {
		const stranger = new OpenAI({ apiKey: "bad", baseURL: `${server.url}/v1`, maxRetries: 0 });
		const error = await stranger.chat.completions
			.create({ model: "faux/faux-model", messages: [{ role: "user", content: "Hi" }] })
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(OpenAI.AuthenticationError);
		expect((error as InstanceType<typeof OpenAI.AuthenticationError>).message).toContain("Invalid token");
	});

	it("a model the proxy does not allow is a PermissionDeniedError (403)", async () => {
		const error = await client.chat.completions
			.create({ model: "faux/faux-other", messages: [{ role: "user", content: "Hi" }] })
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(OpenAI.PermissionDeniedError);
		expect((error as Error).message).toContain('Model "faux/faux-other" is not allowed by this proxy');
	});

	it("a malformed request is a BadRequestError (400) naming the field, and nothing is called", async () => {
		const error = await client.chat.completions
			.create({
				model: "faux/faux-model",
				messages: [
					{ role: "user", content: "Hi" },
					{ role: "tool", tool_call_id: "call_unknown", content: "5" },
				],
			})
			.catch((caught: unknown) => caught);
		expect(error).toBeInstanceOf(OpenAI.BadRequestError);
		expect((error as Error).message).toContain(
			'Invalid chat completion request: "messages[1].tool_call_id" "call_unknown" answers no earlier tool call',
		);
		const badText = await client.chat.completions
			.create({
				model: "faux/faux-model",
				messages: [
					{ role: "system", content: "Be brief." },
					{ role: "user", content: [{ type: "text", text: 5 as unknown as string }] },
				],
			})
			.catch((caught: unknown) => caught);
		expect(badText).toBeInstanceOf(OpenAI.BadRequestError);
		expect((badText as Error).message).toContain(
			'Invalid chat completion request: messages[1] (context.messages[0] once translated): "context.messages[0].content[0].text" must be a string, got a number',
		);
		const unnamed = await client.chat.completions
			.create({ model: "faux-model", messages: [{ role: "user", content: "Hi" }] })
			.catch((caught: unknown) => caught);
		expect(unnamed).toBeInstanceOf(OpenAI.BadRequestError);
		expect(faux.state.callCount).toBe(0);
	});

	it("an upstream failure is a 502 for a whole answer and an APIError while streaming", async () => {
		faux.setResponses([
			fauxAssistantMessage("", { stopReason: "error", errorMessage: "Upstream overloaded" }),
			fauxAssistantMessage([fauxText("Partial ")], { stopReason: "error", errorMessage: "Upstream cut off" }),
		]);
		const whole = await client.chat.completions
			.create({ model: "faux/faux-model", messages: [{ role: "user", content: "Hi" }] })
			.catch((caught: unknown) => caught);
		expect(whole).toBeInstanceOf(OpenAI.InternalServerError);
		expect((whole as InstanceType<typeof OpenAI.APIError>).status).toBe(502);
		expect((whole as Error).message).toContain("Upstream overloaded");

		const stream = await client.chat.completions.create({
			model: "faux/faux-model",
			messages: [{ role: "user", content: "Hi" }],
			stream: true,
		});
		let text = "";
		const streamed = await (async () => {
			for await (const chunk of stream) text += chunk.choices[0]?.delta.content ?? "";
		})().catch((caught: unknown) => caught);
		expect(text).toBe("Partial ");
		expect(streamed).toBeInstanceOf(OpenAI.APIError);
		expect((streamed as Error).message).toContain("Upstream cut off");
	});
});
