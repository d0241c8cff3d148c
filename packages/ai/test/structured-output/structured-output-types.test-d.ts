// The object of a structured call is typed by its schema.
import { type Static, Type } from "@sinclair/typebox";
import { describe, expectTypeOf, it } from "vitest";
import {
	type AssistantMessage,
	completeObject,
	type Model,
	type ObjectResult,
	type PartialObject,
	streamObject,
} from "../../src/index.js";

declare const model: Model;
const Person = Type.Object({
	name: Type.String(),
	age: Type.Optional(Type.Number()),
	tags: Type.Array(Type.Object({ label: Type.String() })),
});

describe("structured output types", () => {
	it("completeObject resolves to Static<typeof schema>", () => {
		const result = completeObject(model, { messages: [] }, { schema: Person });
		expectTypeOf(result).toEqualTypeOf<Promise<ObjectResult<Static<typeof Person>>>>();
		expectTypeOf<Awaited<typeof result>["object"]>().toEqualTypeOf<{
			name: string;
			age?: number;
			tags: { label: string }[];
		}>();
		expectTypeOf<Awaited<typeof result>["message"]>().toEqualTypeOf<AssistantMessage>();
	});

	it("streamObject's deltas carry a partial object and its result the full one", async () => {
		const objects = streamObject(model, { messages: [] }, { schema: Person, maxTokens: 100 });
		for await (const event of objects) {
			if (event.type === "object_delta") {
				expectTypeOf(event.object).toEqualTypeOf<PartialObject<Static<typeof Person>>>();
				expectTypeOf(event.object.tags).toEqualTypeOf<{ label?: string }[] | undefined>();
			}
			if (event.type === "done") expectTypeOf(event.object.name).toEqualTypeOf<string>();
		}
	});

	it("a schema is required", () => {
		// @ts-expect-error: the options must name a schema
		completeObject(model, { messages: [] }, { maxTokens: 100 });
	});
});
