// completeObject with Zod, Valibot and ArkType on the faux provider: the answer tool carries the
// library's JSON Schema, the result is the library's output, and an invalid answer is repaired
// once with the library's own messages shown to the model.
import { toStandardJsonSchema } from "@valibot/to-json-schema";
import { type } from "arktype";
import * as v from "valibot";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Context, completeObject, StructuredOutputError, toJsonSchema } from "../../src/index.js";
import {
	type FauxProviderRegistration,
	fauxAssistantMessage,
	fauxToolCall,
	registerFauxProvider,
} from "../../src/testing/faux-provider.js";
import { userMessage } from "../helpers/messages.js";

const context: Context = { messages: [userMessage("Plan a trip")] };

let faux: FauxProviderRegistration;
beforeEach(() => {
	faux = registerFauxProvider();
});
afterEach(() => faux.unregister());

function answer(args: Record<string, unknown>) {
	return fauxAssistantMessage(fauxToolCall("response", args));
}

/** The text of the tool result the repair round trip sent back to the model. */
function repairText(): string {
	const second = faux.state.requests[1];
	const result = second?.context.messages.find((message) => message.role === "toolResult");
	if (result?.role !== "toolResult") throw new Error("No repair request was sent");
	return result.content.map((block) => (block.type === "text" ? block.text : "")).join("");
}

describe("completeObject with Zod", () => {
	const Trip = z.object({
		city: z.string(),
		nights: z.number().int().positive(),
		budget: z.string().transform((text) => Number(text.replace(/[^0-9.]/g, ""))),
	});

	it("offers the answer tool with Zod's JSON Schema and returns Zod's output (transform applied)", async () => {
		faux.setResponses([answer({ city: "Rome", nights: 3, budget: "€1,200" })]);
		const result = await completeObject(faux.getModel(), context, { schema: Trip });
		expect(result.object).toEqual({ city: "Rome", nights: 3, budget: 1200 });
		expect(faux.state.requests[0].context.tools?.[0].parameters).toEqual(toJsonSchema(Trip));
	});

	it("an invalid answer is repaired once, the model shown Zod's messages", async () => {
		faux.setResponses([
			answer({ city: "Rome", nights: -1, budget: "100" }),
			answer({ city: "Rome", nights: 2, budget: "100" }),
		]);
		const result = await completeObject(faux.getModel(), context, { schema: Trip });
		expect(result.object.nights).toBe(2);
		expect(repairText()).toContain("- nights: Too small: expected number to be >0");
	});

	it("an answer still invalid after the repair fails with Zod's messages", async () => {
		faux.setResponses([answer({ city: 7 }), answer({ city: 8 })]);
		const failure = await completeObject(faux.getModel(), context, { schema: Trip }).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(StructuredOutputError);
		expect((failure as StructuredOutputError).message).toContain(
			"- city: Invalid input: expected string, received number",
		);
	});

	it("an asynchronous Zod refinement is awaited", async () => {
		const Checked = z.object({ city: z.string().refine(async (city) => city !== "Atlantis", "no such city") });
		faux.setResponses([answer({ city: "Atlantis" }), answer({ city: "Rome" })]);
		const result = await completeObject(faux.getModel(), context, { schema: Checked });
		expect(result.object).toEqual({ city: "Rome" });
		expect(repairText()).toContain("- city: no such city");
	});
});

describe("completeObject with Valibot", () => {
	const Trip = toStandardJsonSchema(v.object({ city: v.string(), nights: v.optional(v.number(), 1) }));

	it("returns Valibot's output (default filled in) and repairs with Valibot's messages", async () => {
		faux.setResponses([answer({ city: 1 }), answer({ city: "Oslo" })]);
		const result = await completeObject(faux.getModel(), context, { schema: Trip });
		expect(result.object).toEqual({ city: "Oslo", nights: 1 });
		expect(repairText()).toContain("- city: Invalid type: Expected string but received 1");
		expect(faux.state.requests[0].context.tools?.[0].parameters).toEqual(toJsonSchema(Trip));
	});
});

describe("completeObject with ArkType", () => {
	const Trip = type({ city: "string", nights: "number.integer > 0" });

	it("returns ArkType's output and repairs with ArkType's messages", async () => {
		faux.setResponses([answer({ city: "Oslo", nights: 0 }), answer({ city: "Oslo", nights: 4 })]);
		const result = await completeObject(faux.getModel(), context, { schema: Trip });
		expect(result.object).toEqual({ city: "Oslo", nights: 4 });
		expect(repairText()).toContain("- nights: nights must be positive (was 0)");
	});
});
