// How each API's encoder sends a JSON-schema answer format and strict tools. Pure: encoders only.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { encodeAnthropicRequest } from "../../src/providers/anthropic/encode.js";
import { anthropicOutputSchema } from "../../src/providers/anthropic/structured-outputs.js";
import { encodeBedrockRequest } from "../../src/providers/bedrock-converse-stream/encode.js";
import { encodeGeminiRequest } from "../../src/providers/google-generative-ai/encode.js";
import { encodeMistralRequest } from "../../src/providers/mistral-conversations/encode.js";
import { encodeOpenAICompletionsRequest } from "../../src/providers/openai-completions/encode.js";
import { encodeOpenAIResponsesRequest } from "../../src/providers/openai-responses/encode.js";
import { buildStructuredRequest, chooseOutputStrategy } from "../../src/structured-output/output-strategy.js";
import { buildResponseFormat, meetsStrictModeRules } from "../../src/structured-output/response-format.js";
import type { Context, ResponseFormat, Tool } from "../../src/types.js";
import { userMessage } from "../helpers/messages.js";
import { claudeModel, opus46 } from "../providers/anthropic/fixtures.js";
import { bedrockModel } from "../providers/bedrock-converse-stream/fixtures.js";
import { geminiModel } from "../providers/google-generative-ai/fixtures.js";
import { mistralModel } from "../providers/mistral-conversations/fixtures.js";
import { completionsModel } from "../providers/openai-completions/fixtures.js";
import { responsesModel } from "../providers/openai-responses/fixtures.js";

const schema = Type.Object({ city: Type.String(), population: Type.Number() });
const format: ResponseFormat = { type: "json_schema", name: "city", schema, strict: true, description: "A city" };
const context: Context = { messages: [userMessage("Largest city of France?")] };
const strictSchema = Type.Object({ city: Type.String(), population: Type.Number() }, { additionalProperties: false });
const strictTool: Tool = { name: "lookup", description: "Look up", parameters: strictSchema, strict: true };
const looseTool: Tool = { name: "search", description: "Search", parameters: schema };
const withTools: Context = { ...context, tools: [strictTool, looseTool] };
const sonnet45 = claudeModel({ id: "claude-sonnet-4-5-20250929" });
/** The schema as Anthropic's JSON outputs take it: objects closed. */
const closedSchema = { ...JSON.parse(JSON.stringify(schema)), additionalProperties: false };

describe("native JSON-schema output, per API", () => {
	it("Chat Completions: response_format json_schema with strict", () => {
		const body = encodeOpenAICompletionsRequest(completionsModel(), context, { responseFormat: format });
		expect(body.response_format).toEqual({
			type: "json_schema",
			json_schema: { name: "city", description: "A city", schema, strict: true },
		});
	});

	it("Chat Completions: no strict field for a vendor without strict mode", () => {
		const model = completionsModel({ compat: { supportsStrictMode: false } });
		const body = encodeOpenAICompletionsRequest(model, context, { responseFormat: format });
		expect(body.response_format?.json_schema).toEqual({ name: "city", description: "A city", schema });
	});

	it("Responses: text.format json_schema", () => {
		const body = encodeOpenAIResponsesRequest(responsesModel(), context, { responseFormat: format });
		expect(body.text).toEqual({
			format: { type: "json_schema", name: "city", schema, strict: true, description: "A city" },
		});
	});

	it("Mistral: response_format json_schema", () => {
		const body = encodeMistralRequest(mistralModel(), context, { responseFormat: { ...format, strict: false } });
		expect(body.response_format).toEqual({
			type: "json_schema",
			json_schema: { name: "city", schema, strict: false, description: "A city" },
		});
	});

	it("Gemini: responseMimeType application/json and responseJsonSchema", () => {
		const body = encodeGeminiRequest(geminiModel(), context, { responseFormat: format, maxTokens: 100 });
		expect(body.generationConfig).toEqual({
			maxOutputTokens: 100,
			responseMimeType: "application/json",
			responseJsonSchema: schema,
		});
	});

	it("Anthropic: output_config.format for a model with structured outputs", () => {
		const body = encodeAnthropicRequest(sonnet45, context, { responseFormat: format });
		expect(body.output_config).toEqual({ format: { type: "json_schema", schema: closedSchema } });
	});

	it("Anthropic: the format sits beside the effort of adaptive thinking", () => {
		const body = encodeAnthropicRequest(opus46, context, {
			responseFormat: format,
			thinkingEnabled: true,
			effort: "low",
		});
		expect(body.output_config).toEqual({ effort: "low", format: { type: "json_schema", schema: closedSchema } });
	});

	it("Anthropic: a model without structured outputs is refused with what to do", () => {
		expect(() => encodeAnthropicRequest(claudeModel(), context, { responseFormat: format })).toThrow(
			'Model "claude-sonnet-4-20250514" does not take structured outputs (output_config.format); set model.compat.supportsStructuredOutputs if it does, or use completeObject, which falls back to a forced tool call',
		);
	});

	it("nothing is added without a responseFormat", () => {
		expect(encodeOpenAICompletionsRequest(completionsModel(), context, {}).response_format).toBeUndefined();
		expect(encodeOpenAIResponsesRequest(responsesModel(), context, {}).text).toBeUndefined();
		expect(encodeGeminiRequest(geminiModel(), context, {}).generationConfig).toBeUndefined();
		expect(encodeAnthropicRequest(sonnet45, context, {}).output_config).toBeUndefined();
	});
});

describe("the schema Anthropic's JSON outputs are sent", () => {
	it("closes every object and leaves out the bounds it does not take, keeping property names", () => {
		const bounded = Type.Object({
			minimum: Type.Number({ minimum: 0, maximum: 10 }),
			tags: Type.Array(Type.String({ minLength: 2, pattern: "^[a-z]+$" }), { minItems: 2, maxItems: 5 }),
			nested: Type.Object({ kind: Type.Union([Type.Literal("a"), Type.Literal("b")]) }),
		});
		expect(anthropicOutputSchema(JSON.parse(JSON.stringify(bounded)))).toEqual({
			type: "object",
			additionalProperties: false,
			required: ["minimum", "tags", "nested"],
			properties: {
				minimum: { type: "number" },
				tags: { type: "array", items: { type: "string", pattern: "^[a-z]+$" } },
				nested: {
					type: "object",
					additionalProperties: false,
					required: ["kind"],
					properties: {
						kind: {
							anyOf: [
								{ const: "a", type: "string" },
								{ const: "b", type: "string" },
							],
						},
					},
				},
			},
		});
	});
});

describe("the strategy per model", () => {
	it("native where the API has JSON-schema output, a forced tool call elsewhere", () => {
		expect(chooseOutputStrategy(completionsModel())).toBe("native");
		expect(chooseOutputStrategy(responsesModel())).toBe("native");
		expect(chooseOutputStrategy(mistralModel())).toBe("native");
		expect(chooseOutputStrategy(geminiModel())).toBe("native");
		expect(chooseOutputStrategy(sonnet45)).toBe("native");
		expect(chooseOutputStrategy(claudeModel())).toBe("tool");
		expect(chooseOutputStrategy(claudeModel({ compat: { supportsStructuredOutputs: true } }))).toBe("native");
		expect(chooseOutputStrategy(bedrockModel())).toBe("tool");
	});

	it("Anthropic without structured outputs: the answer tool, forced with tool_choice", () => {
		const request = buildStructuredRequest(claudeModel(), context, {}, format);
		const body = encodeAnthropicRequest(claudeModel(), request.context, request.options);
		expect(body.tool_choice).toEqual({ type: "tool", name: "city" });
		expect(body.tools?.map((tool) => (tool as { name: string }).name)).toEqual(["city"]);
		expect(body.output_config).toBeUndefined();
	});

	it("Anthropic while thinking: not forced (Claude refuses a forced tool with thinking), asked for in the system prompt", () => {
		const model = claudeModel();
		const request = buildStructuredRequest(model, context, { thinkingEnabled: true }, format);
		const body = encodeAnthropicRequest(model, request.context, request.options);
		expect(body.tool_choice).toBeUndefined();
		expect(body.system).toMatchObject([
			{ type: "text", text: 'Answer by calling the tool "city" once, with your answer as its arguments.' },
		]);
	});

	it("Bedrock: the answer tool, forced with toolChoice.tool, after the caller's tools", () => {
		const request = buildStructuredRequest(bedrockModel(), withTools, {}, format);
		const body = encodeBedrockRequest(bedrockModel(), request.context, request.options as never);
		expect(body.toolConfig?.tools?.map((tool) => tool.toolSpec?.name)).toEqual(["lookup", "search", "city"]);
		expect(body.toolConfig?.toolChoice).toEqual({ tool: { name: "city" } });
	});
});

describe("strict tools, per API", () => {
	it("Chat Completions: strict where the tool asks, false otherwise", () => {
		const body = encodeOpenAICompletionsRequest(completionsModel(), withTools, {});
		expect(body.tools?.map((tool) => tool.function.strict)).toEqual([true, false]);
	});

	it("Responses: strict where the tool asks, false otherwise", () => {
		const body = encodeOpenAIResponsesRequest(responsesModel(), withTools, {});
		expect(body.tools?.map((tool) => (tool as { strict?: boolean }).strict)).toEqual([true, false]);
	});

	it("Mistral: strict where the tool asks, false otherwise", () => {
		const body = encodeMistralRequest(mistralModel(), withTools, {});
		expect(body.tools?.map((tool) => tool.function.strict)).toEqual([true, false]);
	});

	it("a strict tool whose schema breaks the strict-mode rules fails before the call, naming the tool and the place", () => {
		const openTool: Tool = { name: "open", description: "Open", parameters: schema, strict: true };
		const tools: Context = { ...context, tools: [openTool] };
		const rule =
			/Tool "open" asks for strict mode, but its schema breaks .* root: the object needs additionalProperties: false/;
		expect(() => encodeOpenAICompletionsRequest(completionsModel(), tools, {})).toThrow(rule);
		expect(() => encodeOpenAIResponsesRequest(responsesModel(), tools, {})).toThrow(rule);
		expect(() => encodeMistralRequest(mistralModel(), tools, {})).toThrow(rule);
		expect(() => encodeAnthropicRequest(sonnet45, tools, {})).toThrow(rule);
	});

	it("Anthropic: strict on the tools that ask, only for models with structured outputs", () => {
		const supported = encodeAnthropicRequest(sonnet45, withTools, {});
		expect(supported.tools?.map((tool) => (tool as { strict?: boolean }).strict)).toEqual([true, undefined]);
		const older = encodeAnthropicRequest(claudeModel(), withTools, {});
		expect(older.tools?.map((tool) => (tool as { strict?: boolean }).strict)).toEqual([undefined, undefined]);
	});
});

describe("buildResponseFormat", () => {
	it("defaults the name to response and strict to whether the schema meets strict-mode rules", () => {
		expect(buildResponseFormat({ schema })).toMatchObject({ name: "response", strict: false });
		const closed = Type.Object({ city: Type.String() }, { additionalProperties: false });
		expect(buildResponseFormat({ schema: closed }).strict).toBe(true);
		expect(buildResponseFormat({ schema: closed, strict: false }).strict).toBe(false);
	});

	it("strict-mode rules: every object closed, every property required, at any depth", () => {
		const nested = (inner: ReturnType<typeof Type.Object>) =>
			Type.Object({ items: Type.Array(inner) }, { additionalProperties: false });
		expect(meetsStrictModeRules(nested(Type.Object({ a: Type.String() }, { additionalProperties: false })))).toBe(true);
		expect(meetsStrictModeRules(nested(Type.Object({ a: Type.String() })))).toBe(false);
		expect(
			meetsStrictModeRules(nested(Type.Object({ a: Type.Optional(Type.String()) }, { additionalProperties: false }))),
		).toBe(false);
	});

	it("refuses a name the APIs reject and a schema whose root is not an object", () => {
		expect(() => buildResponseFormat({ schema, name: "my answer" })).toThrow(
			'Structured output name "my answer" is not accepted by the APIs: use 1 to 64 letters, digits, "_" or "-"',
		);
		expect(() => buildResponseFormat({ schema: Type.Array(Type.String()) })).toThrow(
			'Structured output "response" needs an object schema at the root, got type "array": wrap the value in Type.Object({...})',
		);
	});
});
