// completeObject / streamObject end to end: real providers against the wire-test server.
import { type Static, Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
// The package entry registers the built-in providers.
import { completeObject, StructuredOutputError, streamObject } from "../../src/index.js";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxText,
	fauxToolCall,
	registerFauxProvider,
} from "../../src/testing/faux-provider.js";
import type { Context } from "../../src/types.js";
import { collectEvents, userMessage } from "../helpers/messages.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	TEST_KEY,
	textResponseEvents,
	toolUseStart,
} from "../providers/anthropic/fixtures.js";
import { geminiModel, textAnswer } from "../providers/google-generative-ai/fixtures.js";
import { mistralModel, mistralTextStream } from "../providers/mistral-conversations/fixtures.js";
import { chunk, serverModel, sse, usageChunk } from "../providers/openai-completions/fixtures.js";
import {
	completed,
	created,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../providers/openai-responses/fixtures.js";

const wire = useWireTestServer();

/** A top-level field of the last request's JSON body. */
function lastRequestField(name: string): unknown {
	return (wire.server.lastRequest?.json as Record<string, unknown> | undefined)?.[name];
}

function unexpectedObject(): never {
	throw new Error("Expected the structured call to fail");
}

function caughtError(error: unknown): StructuredOutputError {
	if (error instanceof StructuredOutputError) return error;
	throw error;
}

const City = Type.Object({ city: Type.String(), population: Type.Number() });
const context: Context = { systemPrompt: "Be exact.", messages: [userMessage("Largest city of France?")] };
const apiKey = "sk-test-structured-0123456789";

/** A Chat Completions answer whose text arrives in these pieces, with usage. */
function chatAnswer(pieces: string[]): string {
	return sse([
		chunk({ role: "assistant", content: "" }),
		...pieces.map((piece) => chunk({ content: piece })),
		chunk({}, { finish: "stop" }),
		usageChunk({ prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 }),
	]);
}

describe("structured output through Chat Completions' response_format", () => {
	it("returns the validated object and sends the schema as json_schema", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Par', 'is", "population": 2102650}']) });
		const result = await completeObject(serverModel(wire.server.url), context, { schema: City, name: "city", apiKey });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		expect(result.message.stopReason).toBe("stop");
		expect(result.usage.input).toBe(100);
		expect(wire.server.requests).toHaveLength(1);
		expect(wire.server.lastRequest?.json).toMatchObject({
			response_format: { type: "json_schema", json_schema: { name: "city", schema: City, strict: false } },
			messages: [
				{ role: "system", content: "Be exact." },
				{ role: "user", content: "Largest city of France?" },
			],
		});
		expect(lastRequestField("tools")).toBeUndefined();
	});

	it("coerces values to the schema's types (AJV): a number sent as a string becomes a number", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris", "population": "2102650"}']) });
		const result = await completeObject(serverModel(wire.server.url), context, { schema: City, apiKey });
		expect(result.object.population).toBe(2102650);
	});

	it("emits one object_delta per text delta, all the same object growing in place, then done", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Pa', 'ris", "popu', 'lation": 21', "02650}"]) });
		const events = await collectEvents(streamObject(serverModel(wire.server.url), context, { schema: City, apiKey }));
		expect(events.map((event) => event.type)).toEqual([
			"object_start",
			"object_delta",
			"object_delta",
			"object_delta",
			"object_delta",
			"done",
		]);
		const objects = new Set(events.map((event) => (event.type === "object_delta" ? event.object : undefined)));
		objects.delete(undefined);
		expect(objects.size).toBe(1);
	});
});

describe("partial objects while streaming", () => {
	// The faux provider lets the consumer see each delta before the next exists, so what the
	// object looked like at each event can be read as it arrives.
	let faux: FauxProviderRegistration;
	beforeEach(() => {
		faux = registerFauxProvider({ chunkCharacters: 12 });
	});
	afterEach(() => faux.unregister());

	it("shows the object parsed so far at every delta", async () => {
		faux.setResponses(['{"city": "Paris", "population": 2102650}']);
		const objects = streamObject(faux.getModel(), context, { schema: City });
		const seen: string[] = [];
		for await (const event of objects) if (event.type === "object_delta") seen.push(JSON.stringify(event.object));
		// Deltas of 12 characters: '{"city": "Pa' 'ris", "popul' 'ation": 2102' '650}'.
		expect(seen).toEqual([
			'{"city":"Pa"}',
			'{"city":"Paris"}',
			'{"city":"Paris","population":2102}',
			'{"city":"Paris","population":2102650}',
		]);
		expect((await objects.result()).object).toEqual({ city: "Paris", population: 2102650 });
		// Faux has no JSON-schema output: the answer tool is offered and asked for in the system prompt.
		expect(faux.state.requests[0].context.tools?.map((tool) => tool.name)).toEqual(["response"]);
		expect(faux.state.requests[0].context.systemPrompt).toBe(
			'Be exact.\n\nAnswer by calling the tool "response" once, with your answer as its arguments.',
		);
	});

	it("an abort ends the call as a failed request, without a repair round trip", async () => {
		faux.setResponses(['{"city": "Paris"}', '{"city": "Paris"}']);
		const controller = new AbortController();
		const objects = streamObject(faux.getModel(), context, { schema: City, signal: controller.signal });
		const types: string[] = [];
		for await (const event of objects) {
			types.push(event.type);
			if (event.type === "object_delta") controller.abort();
		}
		expect(types).toEqual(["object_start", "object_delta", "error"]);
		const failure = await objects.result().then(unexpectedObject, caughtError);
		expect(failure.failure).toBe("request_failed");
		expect(failure.assistantMessage.stopReason).toBe("aborted");
		expect(faux.state.callCount).toBe(1);
	});

	it("shows the answer tool's arguments as they stream", async () => {
		faux.setResponses([fauxAssistantMessage(fauxToolCall("response", { city: "Paris", population: 2102650 }))]);
		const objects = streamObject(faux.getModel(), context, { schema: City });
		const seen: string[] = [];
		for await (const event of objects) if (event.type === "object_delta") seen.push(JSON.stringify(event.object));
		// JSON.stringify of the arguments, 12 characters at a time: '{"city":"Par' first.
		expect(seen[0]).toBe('{"city":"Par"}');
		expect(seen[seen.length - 1]).toBe('{"city":"Paris","population":2102650}');
		expect((await objects.result()).message.stopReason).toBe("toolUse");
	});

	it("shows the answer tool's arguments when the model writes a sentence before calling it", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxText("Sure, here it is"), fauxToolCall("response", { city: "Paris", population: 1 })]),
		]);
		const objects = streamObject(faux.getModel(), context, { schema: City });
		const seen: string[] = [];
		for await (const event of objects) if (event.type === "object_delta") seen.push(JSON.stringify(event.object));
		expect(seen[0]).toBe('{"city":"Par"}');
		expect(seen[seen.length - 1]).toBe('{"city":"Paris","population":1}');
		expect((await objects.result()).object).toEqual({ city: "Paris", population: 1 });
	});

	it("shows a text answer that follows a block of prose, leaving the prose out", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxText("Sure, here it is:"), fauxText('{"city": "Paris", "population": 1}')]),
		]);
		const objects = streamObject(faux.getModel(), context, { schema: City });
		const seen: string[] = [];
		for await (const event of objects) if (event.type === "object_delta") seen.push(JSON.stringify(event.object));
		expect(seen[0]).toBe('{"city":"Pa"}');
		expect(seen[seen.length - 1]).toBe('{"city":"Paris","population":1}');
		expect((await objects.result()).object).toEqual({ city: "Paris", population: 1 });
		expect(faux.state.callCount).toBe(1);
	});

	it("continues a text answer split over two text blocks", async () => {
		faux.setResponses([fauxAssistantMessage([fauxText('{"city": "Paris",'), fauxText(' "population": 1}')])]);
		const objects = streamObject(faux.getModel(), context, { schema: City });
		const seen: string[] = [];
		for await (const event of objects) if (event.type === "object_delta") seen.push(JSON.stringify(event.object));
		expect(seen).toContain('{"city":"Paris"}');
		expect(seen[seen.length - 1]).toBe('{"city":"Paris","population":1}');
		expect((await objects.result()).object).toEqual({ city: "Paris", population: 1 });
	});
});

describe("the repair round trip", () => {
	it("sends the validation errors back once and returns the corrected object, with the usage of both", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris", "population": "about two million"}']) });
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris", "population": 2000000}']) });
		const events = await collectEvents(streamObject(serverModel(wire.server.url), context, { schema: City, apiKey }));
		const starts = events.filter((event) => event.type === "object_start");
		expect(starts).toHaveLength(2);
		expect(starts[1]).toMatchObject({
			attempt: 2,
			validationErrors: expect.stringContaining("population: must be number"),
		});
		const done = events[events.length - 1];
		expect(done).toMatchObject({ type: "done", object: { city: "Paris", population: 2000000 } });
		if (done.type === "done") expect(done.usage.input).toBe(200);

		const repair = wire.server.requests[1].json as { messages: { role: string; content: unknown }[] };
		expect(repair.messages.map((message) => message.role)).toEqual(["system", "user", "assistant", "user"]);
		expect(repair.messages[2].content).toBe('{"city": "Paris", "population": "about two million"}');
		expect(repair.messages[3].content).toBe(
			[
				"Your answer does not match the required JSON schema.",
				"",
				'Validation failed for schema "response":',
				"  - population: must be number",
				"",
				"Received value:",
				'{\n  "city": "Paris",\n  "population": "about two million"\n}',
				"",
				"Answer again with only the corrected JSON.",
			].join("\n"),
		);
	});

	it("fails with a clear error carrying the raw text when the repaired answer is still invalid", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris"}']) });
		wire.server.enqueue({ body: chatAnswer(["Paris, about two million people."]) });
		const failure = await completeObject(serverModel(wire.server.url), context, { schema: City, apiKey }).then(
			unexpectedObject,
			caughtError,
		);
		expect(failure).toBeInstanceOf(StructuredOutputError);
		const error = failure as StructuredOutputError;
		expect(error.failure).toBe("invalid_output");
		expect(error.rawText).toBe("Paris, about two million people.");
		expect(error.assistantMessage.stopReason).toBe("stop");
		expect(error.message).toMatch(
			/^The answer of "gpt-4\.1-mini" does not match the schema "response" after one repair round trip: The answer is not valid JSON: .+\n\nRaw answer:\nParis, about two million people\.$/,
		);
		expect(wire.server.requests).toHaveLength(2);
	});

	it("makes no repair round trip with repair: false", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris"}']) });
		const failure = await completeObject(serverModel(wire.server.url), context, {
			schema: City,
			apiKey,
			repair: false,
		}).then(unexpectedObject, caughtError);
		expect(failure.message).toContain(
			'does not match the schema "response": Validation failed for schema "response":\n  - population: must have required property \'population\'',
		);
		expect(failure.validationErrors).toContain("population: must have required property 'population'");
		expect(wire.server.requests).toHaveLength(1);
	});

	it("a failed request is reported at once, not repaired", async () => {
		wire.server.enqueue({
			status: 400,
			body: { error: { message: "Invalid schema for response_format", type: "invalid_request_error" } },
		});
		const failure = await completeObject(serverModel(wire.server.url), context, { schema: City, apiKey }).then(
			unexpectedObject,
			caughtError,
		);
		expect(failure.failure).toBe("request_failed");
		expect(failure.message).toContain(
			'Structured output from "gpt-4.1-mini" failed: 400 Invalid schema for response_format (invalid_request_error)',
		);
		expect(wire.server.requests).toHaveLength(1);
	});

	it("bad options end the stream with an error instead of throwing", async () => {
		const objects = streamObject(serverModel(wire.server.url), context, { schema: Type.String() as never, apiKey });
		const failure = await objects.result().then(unexpectedObject, caughtError);
		expect(failure.message).toBe(
			'Structured output failed: Structured output "response" needs an object schema at the root, got type "string": wrap the value in Type.Object({...})',
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("structured output through Anthropic", () => {
	const older = () => claudeModel({ baseUrl: wire.server.url });

	it("forces a call to the answer tool for a model without structured outputs, streaming its arguments", async () => {
		wire.server.enqueue({
			body: anthropicSse([
				messageStart(),
				toolUseStart(0, "toolu_1", "city"),
				inputJsonDelta(0, '{"city": "Pa'),
				inputJsonDelta(0, 'ris", "population": 2102650}'),
				blockStop(0),
				messageDelta("tool_use"),
				messageStop,
			]),
		});
		const objects = streamObject(older(), context, { schema: City, name: "city", apiKey: TEST_KEY });
		const events = await collectEvents(objects);
		expect(events.filter((event) => event.type === "object_delta")).toHaveLength(2);
		expect((await objects.result()).object).toEqual({ city: "Paris", population: 2102650 });
		const body = wire.server.lastRequest?.json as { tools: { name: string }[]; tool_choice: unknown };
		expect(body.tools.map((tool) => tool.name)).toEqual(["city"]);
		expect(body.tool_choice).toEqual({ type: "tool", name: "city" });
	});

	it("answers an invalid tool call with an error tool result in the repair round trip", async () => {
		const toolAnswer = (json: string) =>
			anthropicSse([
				messageStart(),
				toolUseStart(0, "toolu_1", "city"),
				inputJsonDelta(0, json),
				blockStop(0),
				messageDelta("tool_use"),
				messageStop,
			]);
		wire.server.enqueue({ body: toolAnswer('{"city": "Paris"}') });
		wire.server.enqueue({ body: toolAnswer('{"city": "Paris", "population": 2102650}') });
		const result = await completeObject(older(), context, { schema: City, name: "city", apiKey: TEST_KEY });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		const repair = wire.server.requests[1].json as { messages: { role: string; content: unknown }[] };
		expect(repair.messages[1].content).toMatchObject([{ type: "tool_use", id: "toolu_1", name: "city" }]);
		expect(repair.messages[2].content).toMatchObject([
			{
				type: "tool_result",
				tool_use_id: "toolu_1",
				is_error: true,
				content: expect.stringContaining("population: must have required property 'population'"),
			},
		]);
	});

	it("uses output_config.format for a model with structured outputs", async () => {
		wire.server.enqueue({ body: anthropicSse(textResponseEvents(['{"city": "Paris", ', '"population": 2102650}'])) });
		const model = claudeModel({ id: "claude-sonnet-4-5-20250929", baseUrl: wire.server.url });
		const result = await completeObject(model, context, { schema: City, apiKey: TEST_KEY });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		const body = wire.server.lastRequest?.json as Record<string, unknown>;
		expect(body.output_config).toEqual({
			format: { type: "json_schema", schema: { ...JSON.parse(JSON.stringify(City)), additionalProperties: false } },
		});
		expect(body.tools).toBeUndefined();
	});
});

describe("the result type", () => {
	it("is Static<typeof schema>", async () => {
		wire.server.enqueue({ body: chatAnswer(['{"city": "Paris", "population": 1}']) });
		const result = await completeObject(serverModel(wire.server.url), context, { schema: City, apiKey });
		const typed: Static<typeof City> = result.object;
		expect(typed.city.toUpperCase()).toBe("PARIS");
	});
});

describe("structured output through the other native formats", () => {
	const answer = '{"city": "Paris", "population": 2102650}';

	it("Responses: text.format on the wire, the object from the output text", async () => {
		wire.server.enqueue({
			body: responsesSse([created(), ...messageEvents(0, [answer.slice(0, 15), answer.slice(15)]), completed()]),
		});
		const model = responsesModel({ baseUrl: wire.server.url });
		const result = await completeObject(model, context, { schema: City, name: "city", apiKey });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		expect(lastRequestField("text")).toEqual({
			format: { type: "json_schema", name: "city", schema: JSON.parse(JSON.stringify(City)), strict: false },
		});
	});

	it("Gemini: responseJsonSchema on the wire, the object from the text", async () => {
		wire.server.enqueue({ body: textAnswer([answer.slice(0, 20), answer.slice(20)]) });
		const model = geminiModel({ baseUrl: `${wire.server.url}/v1beta` });
		const result = await completeObject(model, context, { schema: City, apiKey });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		expect(lastRequestField("generationConfig")).toMatchObject({
			responseMimeType: "application/json",
			responseJsonSchema: JSON.parse(JSON.stringify(City)),
		});
	});

	it("Mistral: response_format on the wire, the object from the text", async () => {
		wire.server.enqueue({ body: mistralTextStream(answer) });
		const model = mistralModel({ baseUrl: wire.server.url });
		const result = await completeObject(model, context, { schema: City, apiKey });
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		expect(lastRequestField("response_format")).toEqual({
			type: "json_schema",
			json_schema: { name: "response", schema: JSON.parse(JSON.stringify(City)), strict: false },
		});
	});
});
