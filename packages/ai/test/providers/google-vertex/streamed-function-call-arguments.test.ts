// Vertex AI's streamFunctionCallArguments: a function call arrives as a first part with its name
// (willContinue: true), parts holding partialArgs, and a last part that does not continue. Keel
// sends the option only when asked and only with tools, and reads the pieces as toolcall_delta
// events while the model writes them.
// @see https://cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/Tool#FunctionCallingConfig
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { streamGoogleVertex, streamSimpleGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import type { AssistantMessageEvent, Context } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { finishChunk, geminiSse, partsChunk, textAnswer, vertexModel } from "../google-generative-ai/fixtures.js";

const wire = useWireTestServer();
const context: Context = {
	messages: [userMessage("Dim the lights in Boston")],
	tools: [
		{
			name: "set_light",
			description: "Set a light",
			parameters: Type.Object({ location: Type.String(), brightness: Type.Number() }),
		},
	],
};
const where = { accessToken: "ya29.token-0123456789", project: "proj", location: "us-central1", maxRetries: 0 };

function streamedCall(): string {
	return geminiSse([
		partsChunk([{ text: "Dimming." }]),
		partsChunk([{ functionCall: { name: "set_light", willContinue: true }, thoughtSignature: "c2lnLTE=" }]),
		partsChunk([
			{
				functionCall: {
					partialArgs: [{ jsonPath: "$.location", stringValue: "Bos", willContinue: true }],
					willContinue: true,
				},
			},
		]),
		partsChunk([
			{
				functionCall: {
					partialArgs: [
						{ jsonPath: "$.location", stringValue: "ton" },
						{ jsonPath: "$.brightness", numberValue: 30 },
					],
					willContinue: true,
				},
			},
		]),
		partsChunk([{ functionCall: {} }]),
		finishChunk("STOP"),
	]);
}

describe("Vertex AI streamed function-call arguments", () => {
	it("reads partialArgs as toolcall_delta events and ends with the whole arguments", async () => {
		wire.server.enqueue({ body: streamedCall() });
		const events: AssistantMessageEvent[] = [];
		const stream = streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, {
			...where,
			streamFunctionCallArguments: true,
		});
		for await (const event of stream) events.push(event);
		const result = await stream.result();
		expect(result.errorMessage).toBeUndefined();
		expect(result.stopReason).toBe("toolUse");
		expect(events.filter((event) => event.type.startsWith("toolcall")).map((event) => event.type)).toEqual([
			"toolcall_start",
			"toolcall_delta",
			"toolcall_delta",
			"toolcall_delta",
			"toolcall_end",
		]);
		const deltas = events.flatMap((event) => (event.type === "toolcall_delta" ? [event.delta] : []));
		expect(deltas[0]).toBe('{"location":"Bos');
		expect(result.content[1]).toMatchObject({
			type: "toolCall",
			name: "set_light",
			arguments: { location: "Boston", brightness: 30 },
			thoughtSignature: "c2lnLTE=",
		});
		expect(wire.server.requests[0].json).toMatchObject({
			toolConfig: { functionCallingConfig: { streamFunctionCallArguments: true } },
		});
	});

	it("a streamed call the answer finishes inside is closed with the arguments received", async () => {
		wire.server.enqueue({
			body: geminiSse([
				partsChunk([{ functionCall: { name: "set_light", willContinue: true } }]),
				partsChunk([
					{
						functionCall: {
							partialArgs: [{ jsonPath: "$.location", stringValue: "Bos", willContinue: true }],
							willContinue: true,
						},
					},
				]),
				finishChunk("STOP"),
			]),
		});
		const result = await streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, where).result();
		expect(result.content).toMatchObject([{ type: "toolCall", arguments: { location: "Bos" } }]);
	});

	it("is not asked for by default, nor without tools; streamSimple passes the option", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) }, { body: textAnswer(["ok"]) }, { body: textAnswer(["ok"]) });
		const model = vertexModel({ baseUrl: wire.server.url });
		await streamGoogleVertex(model, context, where).result();
		await streamGoogleVertex(
			model,
			{ messages: context.messages },
			{ ...where, streamFunctionCallArguments: true },
		).result();
		await streamSimpleGoogleVertex(model, context, { ...where, streamFunctionCallArguments: true }).result();
		const sent = wire.server.requests.map((request) => (request.json as { toolConfig?: unknown }).toolConfig);
		expect(sent).toEqual([undefined, undefined, { functionCallingConfig: { streamFunctionCallArguments: true } }]);
	});

	it("a continuation part without a call to continue ends the call with a clear error", async () => {
		wire.server.enqueue({
			body: geminiSse([partsChunk([{ functionCall: { partialArgs: [{ jsonPath: "$.a", numberValue: 1 }] } }])]),
		});
		const result = await streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, where).result();
		expect(result.errorMessage).toContain("Malformed Vertex AI stream chunk (a functionCall without a name)");
	});

	it("a malformed jsonPath ends the call with an error naming it", async () => {
		wire.server.enqueue({
			body: geminiSse([
				partsChunk([
					{
						functionCall: {
							name: "set_light",
							partialArgs: [{ jsonPath: "location", stringValue: "x" }],
							willContinue: true,
						},
					},
				]),
			]),
		});
		const result = await streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, where).result();
		expect(result.errorMessage).toContain(
			'Malformed Vertex AI stream chunk (a jsonPath must start with "$", got "location")',
		);
	});
});
