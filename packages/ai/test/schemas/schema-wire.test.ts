// What the provider receives for a Zod, Valibot or ArkType schema: the JSON Schema the library
// itself produces, in the API's own place for it (Chat Completions `tools[].function.parameters`
// and `response_format.json_schema.schema`, Anthropic `tools[].input_schema`). A schema the API
// cannot take fails before any request is sent.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type Context, complete, completeObject, type Tool, toJsonSchema } from "../../src/index.js";
import { userMessage } from "../helpers/messages.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { claudeModel, sseResponse, TEST_KEY, textResponseEvents } from "../providers/anthropic/fixtures.js";
import { chunk, serverModel, sse, textStream } from "../providers/openai-completions/fixtures.js";
import {
	completed,
	created,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../providers/openai-responses/fixtures.js";

const wire = useWireTestServer();
const apiKey = "sk-test-wire-0123456789";

const libraries = {
	zod: z.object({ city: z.string().describe("The city"), days: z.number().int().optional() }),
	valibot: toStandardJsonSchema(
		v.object({ city: v.pipe(v.string(), v.description("The city")), days: v.optional(v.number()) }),
	),
	arktype: type({ city: "string", "days?": "number" }),
};

function contextWith(tool: Tool): Context {
	return { messages: [userMessage("Weather in Paris?")], tools: [tool] };
}

/** The `tools` field of the last request's JSON body. */
function sentTools(): unknown {
	return (wire.server.lastRequest?.json as { tools?: unknown } | undefined)?.tools;
}

function library(name: string) {
	return libraries[name as keyof typeof libraries];
}

describe.each(Object.keys(libraries))("%s tools on the wire", (name) => {
	it("Chat Completions receives the library's JSON Schema as the function's parameters", async () => {
		const schema = library(name);
		wire.server.enqueue({ body: textStream("Sunny.") });
		const tool: Tool = { name: "weather", description: "Weather", parameters: schema };
		const message = await complete(serverModel(wire.server.url), contextWith(tool), { apiKey });
		expect(message.stopReason).toBe("stop");
		const tools = sentTools();
		expect(tools).toEqual([
			{
				type: "function",
				function: { name: "weather", description: "Weather", parameters: toJsonSchema(schema), strict: false },
			},
		]);
		// The library's own conversion, with its property descriptions, and no `$schema`.
		expect(JSON.stringify(tools)).toContain('"city"');
		expect(JSON.stringify(tools)).not.toContain("$schema");
	});

	it("Anthropic receives the library's properties and required list as input_schema", async () => {
		const schema = library(name);
		wire.server.enqueue(sseResponse(textResponseEvents(["Sunny."])));
		const tool: Tool = { name: "weather", description: "Weather", parameters: schema };
		const model = claudeModel({ baseUrl: wire.server.url });
		const message = await complete(model, contextWith(tool), { apiKey: TEST_KEY });
		expect(message.stopReason).toBe("stop");
		const converted = toJsonSchema(schema);
		expect(sentTools()).toEqual([
			{
				name: "weather",
				description: "Weather",
				input_schema: {
					type: "object",
					properties: converted.properties,
					required: converted.required,
					...(converted.additionalProperties === undefined
						? {}
						: { additionalProperties: converted.additionalProperties }),
				},
			},
		]);
	});

	it("OpenAI Responses receives the library's JSON Schema as the function tool's parameters", async () => {
		const schema = library(name);
		wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["Sunny."]), completed()]) });
		const tool: Tool = { name: "weather", description: "Weather", parameters: schema };
		const message = await complete(responsesModel({ baseUrl: wire.server.url }), contextWith(tool), { apiKey });
		expect(message.stopReason).toBe("stop");
		expect(sentTools()).toEqual([
			{ type: "function", name: "weather", description: "Weather", parameters: toJsonSchema(schema), strict: false },
		]);
	});

	it("completeObject sends the library's JSON Schema as response_format and returns the library's output", async () => {
		const schema = library(name);
		wire.server.enqueue({
			body: sse([
				chunk({ role: "assistant", content: "" }),
				chunk({ content: '{"city": "Paris", "days": 2}' }),
				chunk({}, { finish: "stop" }),
			]),
		});
		const result = await completeObject(
			serverModel(wire.server.url),
			{ messages: [userMessage("Plan")] },
			{
				schema,
				name: "plan",
				apiKey,
			},
		);
		expect(result.object).toEqual({ city: "Paris", days: 2 });
		expect(wire.server.lastRequest?.json).toMatchObject({
			response_format: {
				type: "json_schema",
				json_schema: { name: "plan", schema: toJsonSchema(schema), strict: false },
			},
		});
	});
});

describe("schemas the API cannot take fail before the call", () => {
	it("a strict Zod tool whose object is not closed: an error event naming the rule, and no request", async () => {
		const tool: Tool = {
			name: "weather",
			description: "Weather",
			parameters: z.object({ city: z.string() }),
			strict: true,
		};
		const message = await complete(serverModel(wire.server.url), contextWith(tool), { apiKey });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(
			'Tool "weather" asks for strict mode, but its schema breaks the strict-mode rules of Chat Completions',
		);
		expect(message.errorMessage).toContain("root: the object needs additionalProperties: false");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("a strict tool with z.strictObject and every property required is sent with strict: true", async () => {
		wire.server.enqueue({ body: textStream("Sunny.") });
		const tool: Tool = {
			name: "weather",
			description: "Weather",
			parameters: z.strictObject({ city: z.string(), days: z.number().nullable() }),
			strict: true,
		};
		await complete(serverModel(wire.server.url), contextWith(tool), { apiKey });
		expect(sentTools()).toMatchObject([
			{ function: { strict: true, parameters: { additionalProperties: false, required: ["city", "days"] } } },
		]);
	});

	it("a tool whose schema is not an object at the root: an error event, and no request", async () => {
		const tool: Tool = { name: "echo", description: "Echo", parameters: z.string() };
		const message = await complete(claudeModel({ baseUrl: wire.server.url }), contextWith(tool), {
			apiKey: TEST_KEY,
		});
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain(
			'Tool "echo": Anthropic needs an object schema for tool parameters, got type "string"',
		);
		expect(wire.server.requests).toHaveLength(0);
	});

	it("a Valibot schema without Standard JSON Schema: an error event that says how to convert it, and no request", async () => {
		const tool: Tool = { name: "weather", description: "Weather", parameters: v.object({ city: v.string() }) };
		const message = await complete(serverModel(wire.server.url), contextWith(tool), { apiKey });
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("wrap it with toStandardJsonSchema() from @valibot/to-json-schema");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("completeObject with strict: true and an open Zod object: a request_failed error, and no request", async () => {
		const failure = await completeObject(
			serverModel(wire.server.url),
			{ messages: [userMessage("Plan")] },
			{
				schema: z.object({ city: z.string() }),
				strict: true,
				apiKey,
			},
		).catch((error: unknown) => error as Error);
		expect(failure).toBeInstanceOf(Error);
		expect((failure as Error).message).toContain(
			'Structured output "response" asks for strict mode, but its schema breaks the strict-mode rules',
		);
		expect(wire.server.requests).toHaveLength(0);
	});
});
