// The types a schema gives: tool arguments and structured answers typed from a TypeBox schema
// (Static), a Zod, Valibot or ArkType schema (its output type) or a plain JSON Schema object
// (an object of unknown shape).
import { type Static, Type } from "@sinclair/typebox";
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import {
	type Context,
	checkToolArguments,
	completeObject,
	type Model,
	type SchemaOutput,
	streamObject,
	type Tool,
	type ToolCall,
	validateJsonValue,
	validateToolArguments,
} from "../../src/index.js";

declare const model: Model;
declare const toolCall: ToolCall;
const context: Context = { messages: [] };

const zodSchema = z.object({
	city: z.string(),
	days: z.number().default(3),
	unit: z.enum(["c", "f"]).transform((u) => u.length),
});
const valibotSchema = toStandardJsonSchema(v.object({ city: v.string(), days: v.optional(v.number(), 3) }));
const arktypeSchema = type({ city: "string", "days?": "number" });
const jsonSchema = { type: "object", properties: { city: { type: "string" } } } as const;

describe("Zod", () => {
	it("tool arguments are Zod's output type (defaults filled, transforms applied)", () => {
		const tool: Tool<typeof zodSchema> = { name: "weather", description: "Weather", parameters: zodSchema };
		expectTypeOf(validateToolArguments(tool, toolCall)).toEqualTypeOf<{ city: string; days: number; unit: number }>();
		expectTypeOf(checkToolArguments(tool, toolCall)).toEqualTypeOf<
			{ city: string; days: number; unit: number } | Promise<{ city: string; days: number; unit: number }>
		>();
	});

	it("completeObject and streamObject give Zod's output type", async () => {
		const result = await completeObject(model, context, { schema: zodSchema });
		expectTypeOf(result.object).toEqualTypeOf<z.output<typeof zodSchema>>();
		for await (const event of streamObject(model, context, { schema: zodSchema })) {
			if (event.type === "done") expectTypeOf(event.object.unit).toEqualTypeOf<number>();
		}
	});

	it("a Zod tool goes into a context's tool list", () => {
		const tools: Tool[] = [{ name: "weather", description: "Weather", parameters: zodSchema }];
		expectTypeOf(tools).toEqualTypeOf<Tool[]>();
	});
});

describe("Valibot", () => {
	it("tool arguments and structured answers are Valibot's output type", async () => {
		const tool = { name: "weather", description: "Weather", parameters: valibotSchema };
		expectTypeOf(validateToolArguments(tool, toolCall)).toEqualTypeOf<{ city: string; days: number }>();
		const result = await completeObject(model, context, { schema: valibotSchema });
		expectTypeOf(result.object).toEqualTypeOf<{ city: string; days: number }>();
	});
});

describe("ArkType", () => {
	it("tool arguments and structured answers are ArkType's output type", async () => {
		const tool = { name: "weather", description: "Weather", parameters: arktypeSchema };
		expectTypeOf(validateToolArguments(tool, toolCall)).toEqualTypeOf<{ city: string; days?: number }>();
		const result = await completeObject(model, context, { schema: arktypeSchema });
		expectTypeOf(result.object).toEqualTypeOf<typeof arktypeSchema.infer>();
	});
});

describe("TypeBox and JSON Schema", () => {
	it("TypeBox stays Static<typeof schema>", () => {
		const schema = Type.Object({ city: Type.String() });
		expectTypeOf<SchemaOutput<typeof schema>>().toEqualTypeOf<Static<typeof schema>>();
		expectTypeOf(validateJsonValue(schema, {}, "city")).toEqualTypeOf<{ city: string }>();
	});

	it("a plain JSON Schema object gives Record<string, unknown>", async () => {
		const tool = { name: "weather", description: "Weather", parameters: jsonSchema };
		expectTypeOf(validateToolArguments(tool, toolCall)).toEqualTypeOf<Record<string, unknown>>();
		const result = await completeObject(model, context, { schema: jsonSchema });
		expectTypeOf(result.object).toEqualTypeOf<Record<string, unknown>>();
	});

	it("a value that is no schema is refused", () => {
		// @ts-expect-error: parameters must be a schema
		const tool: Tool = { name: "x", description: "x", parameters: "string" };
		expectTypeOf(tool).toEqualTypeOf<Tool>();
	});
});
