// Tracing of model calls: one client span per call with the GenAI semantic conventions'
// attributes, a child span per attempt, an event at the first token, error status on failure and
// abort, content only when opted in, and the client metrics.
import { SpanKind, SpanStatusCode } from "@opentelemetry/api";
import { afterEach, describe, expect, it } from "vitest";
import { createProviderStream } from "../src/call/provider-stream.js";
import { AMBIENT_CREDENTIALS } from "../src/env-api-keys.js";
import { stream } from "../src/stream.js";
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "../src/testing/faux-provider.js";
import { disableTracing, enableTracing } from "../src/tracing/index.js";
import { testModel } from "./helpers/models.js";
import { recordTelemetry } from "./helpers/tracing.js";

const model = testModel({
	api: "test-api",
	id: "test-model",
	name: "Test",
	provider: "test-provider",
	baseUrl: "http://127.0.0.1:1",
});

/** A call that fails once with a 429 (retried after 1 ms), then answers "hi" with usage. */
function callWithOneRetry() {
	let calls = 0;
	return createProviderStream(model, { apiKey: "k-secret", maxRetries: 2, maxTokens: 100 }, async ({ builder }) => {
		calls++;
		if (calls === 1) {
			throw Object.assign(new Error("429 slow down"), { status: 429, headers: { "retry-after-ms": "1" } });
		}
		builder.setResponseIdentity({ responseId: "resp_1", responseModel: "test-model-2026" });
		const index = builder.startText();
		builder.appendText(index, "hi");
		builder.updateUsage({ input: 1000, output: 500, cacheRead: 200, cacheWrite: 100 });
		builder.finish("stop");
	});
}

describe("model call spans", () => {
	it("makes one client span per call with a child span per attempt, the failed one in error", async () => {
		const telemetry = recordTelemetry();
		await callWithOneRetry().result();

		const call = telemetry.span("chat test-model");
		expect(call.kind).toBe(SpanKind.CLIENT);
		const attempts = telemetry.children(call);
		expect(attempts.map((span) => span.name)).toEqual(["chat test-model attempt 1", "chat test-model attempt 2"]);
		expect(attempts[0].status).toEqual({ code: SpanStatusCode.ERROR, message: "429 slow down" });
		expect(attempts[1].status.code).toBe(SpanStatusCode.UNSET);
		expect(call.status.code).toBe(SpanStatusCode.UNSET);
		expect(telemetry.spans()).toHaveLength(3);
	});

	it("carries the GenAI request and response attributes, usage with cache tokens, and cost", async () => {
		const telemetry = recordTelemetry();
		const message = await callWithOneRetry().result();

		expect(telemetry.span("chat test-model").attributes).toMatchObject({
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": "test-provider",
			"gen_ai.request.model": "test-model",
			"gen_ai.request.max_tokens": 100,
			"gen_ai.response.model": "test-model-2026",
			"gen_ai.response.id": "resp_1",
			"gen_ai.response.finish_reasons": ["stop"],
			"gen_ai.usage.input_tokens": 1300,
			"gen_ai.usage.output_tokens": 500,
			"gen_ai.usage.cache_read.input_tokens": 200,
			"gen_ai.usage.cache_creation.input_tokens": 100,
			"keel.usage.cost_usd": message.usage.cost.total,
		});
		expect(message.usage.cost.total).toBeGreaterThan(0);
	});

	it("adds an event at the first token", async () => {
		const telemetry = recordTelemetry();
		await callWithOneRetry().result();
		const events = telemetry.span("chat test-model").events;
		expect(events.map((event) => event.name)).toEqual(["gen_ai.first_token"]);
		expect(events[0].attributes?.["keel.time_to_first_token_s"]).toEqual(expect.any(Number));
	});

	it("sets error status and error.type when the call fails, and never records the key", async () => {
		const telemetry = recordTelemetry();
		const message = await createProviderStream(model, { apiKey: "k-secret-123456" }, async () => {
			throw Object.assign(new Error("400 bad request for k-secret-123456"), { status: 400 });
		}).result();

		const call = telemetry.span("chat test-model");
		expect(call.status).toEqual({ code: SpanStatusCode.ERROR, message: message.errorMessage });
		expect(call.attributes["error.type"]).toBe("error");
		expect(call.attributes["gen_ai.response.finish_reasons"]).toEqual(["error"]);
		expect(JSON.stringify(telemetry.spans().map((span) => [span.attributes, span.status]))).not.toContain(
			"k-secret-123456",
		);
	});

	it("marks an aborted call with error.type aborted", async () => {
		const telemetry = recordTelemetry();
		const controller = new AbortController();
		const call = createProviderStream(
			model,
			{ apiKey: "k", signal: controller.signal },
			async ({ builder, signal }) => {
				const index = builder.startText();
				builder.appendText(index, "part");
				await new Promise((_, reject) => signal.addEventListener("abort", () => reject(new Error("aborted"))));
			},
		);
		for await (const event of call) if (event.type === "text_delta") controller.abort();

		const span = telemetry.span("chat test-model");
		expect(span.status.code).toBe(SpanStatusCode.ERROR);
		expect(span.attributes["error.type"]).toBe("aborted");
		expect(span.events.map((event) => event.name)).toEqual(["gen_ai.first_token"]);
		expect(telemetry.children(span)[0].status).toEqual({ code: SpanStatusCode.ERROR, message: "aborted" });
	});

	it("keeps a failed attempt's status text whole when the call runs on ambient credentials", async () => {
		const telemetry = recordTelemetry();
		await createProviderStream(model, { apiKey: AMBIENT_CREDENTIALS, maxRetries: 0 }, async () => {
			throw Object.assign(new Error("request not authenticated"), { status: 401 });
		}).result();
		expect(telemetry.span("chat test-model attempt 1").status.message).toBe("401 request not authenticated");
	});
});

describe("content recording", () => {
	const faux = registerFauxProvider({ api: "tracing-faux", provider: "faux-provider" });
	afterEach(() => faux.setResponses([]));
	const context = {
		systemPrompt: "Be brief.",
		messages: [{ role: "user" as const, content: "What is the secret word?", timestamp: 0 }],
	};

	it("records no prompt or response by default", async () => {
		const telemetry = recordTelemetry();
		faux.setResponses([fauxAssistantMessage("The word is swordfish.")]);
		await stream(faux.getModel(), context).result();
		const recorded = JSON.stringify(telemetry.spans().map((span) => span.attributes));
		expect(recorded).not.toContain("secret word");
		expect(recorded).not.toContain("swordfish");
		expect(recorded).not.toContain("Be brief");
	});

	it("records prompt, system instructions and response when the user opts in", async () => {
		const telemetry = recordTelemetry({ recordContent: true });
		faux.setResponses([
			fauxAssistantMessage([{ type: "text", text: "Checking." }, fauxToolCall("lookup", { q: "word" }, "c1")]),
		]);
		await stream(faux.getModel(), context).result();
		const attributes = telemetry.span("chat faux-model").attributes;
		expect(JSON.parse(String(attributes["gen_ai.input.messages"]))).toEqual([
			{ role: "user", parts: [{ type: "text", content: "What is the secret word?" }] },
		]);
		expect(JSON.parse(String(attributes["gen_ai.system_instructions"]))).toEqual([
			{ type: "text", content: "Be brief." },
		]);
		expect(JSON.parse(String(attributes["gen_ai.output.messages"]))).toEqual([
			{
				role: "assistant",
				parts: [
					{ type: "text", content: "Checking." },
					{ type: "tool_call", id: "c1", name: "lookup", arguments: { q: "word" } },
				],
				finish_reason: "tool_call",
			},
		]);
	});
});

describe("metrics", () => {
	it("records duration, time to first chunk, input and output tokens, and cost", async () => {
		const telemetry = recordTelemetry();
		const message = await callWithOneRetry().result();
		const attributes = {
			"gen_ai.operation.name": "chat",
			"gen_ai.provider.name": "test-provider",
			"gen_ai.request.model": "test-model",
			"gen_ai.response.model": "test-model-2026",
			"keel.api": "test-api",
		};
		const [duration] = await telemetry.metric("gen_ai.client.operation.duration");
		expect(duration.attributes).toEqual(attributes);
		expect(duration.value).toMatchObject({ count: 1 });
		const [firstChunk] = await telemetry.metric("gen_ai.client.operation.time_to_first_chunk");
		expect(firstChunk.value).toMatchObject({ count: 1 });
		const tokens = await telemetry.metric("gen_ai.client.token.usage");
		expect(
			tokens.map((point) => [point.attributes["gen_ai.token.type"], (point.value as { sum: number }).sum]),
		).toEqual([
			["input", 1300],
			["output", 500],
		]);
		const [cost] = await telemetry.metric("keel.gen_ai.client.cost");
		expect(cost.value).toBeCloseTo(message.usage.cost.total, 10);
	});

	it("labels a failed call's duration with error.type and records no tokens it never used", async () => {
		const telemetry = recordTelemetry();
		await createProviderStream(model, { apiKey: "k" }, async () => {
			throw Object.assign(new Error("400 bad request"), { status: 400 });
		}).result();
		const [duration] = await telemetry.metric("gen_ai.client.operation.duration");
		expect(duration.attributes["error.type"]).toBe("error");
		expect(await telemetry.metric("gen_ai.client.token.usage")).toEqual([]);
		expect(await telemetry.metric("gen_ai.client.operation.time_to_first_chunk")).toEqual([]);
	});
});

describe("tracing off", () => {
	it("records nothing once disabled", async () => {
		const telemetry = recordTelemetry();
		disableTracing();
		await callWithOneRetry().result();
		expect(telemetry.spans()).toEqual([]);
		expect(await telemetry.metric("gen_ai.client.operation.duration")).toEqual([]);
	});
});

describe("enableTracing options", () => {
	it("rejects options that are not an object, saying what it got", () => {
		expect(() => enableTracing(null as never)).toThrow("enableTracing options must be an object, got null");
		expect(() => enableTracing("on" as never)).toThrow("enableTracing options must be an object, got string");
	});
});
