// Gemini explicit caching: `cachedContent` names a cache the caller created. It goes in the
// request's `cachedContent`; the system instruction, tools and tool config live in the cache and are
// not sent beside it (Gemini refuses that). Tokens served from the cache come back as
// `usageMetadata.cachedContentTokenCount`, reported as cacheRead. On Vertex AI a short cache name
// is completed with the call's project and location.
// @see https://ai.google.dev/gemini-api/docs/caching
import { Type } from "@sinclair/typebox";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { encodeGeminiRequest } from "../../../src/providers/google-generative-ai/encode.js";
import { streamGoogle, streamSimpleGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import type { Context } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { finishChunk, geminiModel, geminiSse, partsChunk, textAnswer, vertexModel } from "./fixtures.js";

const wire = useWireTestServer();
const KEY = "gemini-test-key-0123456789";
const context: Context = {
	systemPrompt: "You answer from the cached handbook.",
	messages: [userMessage("What does chapter 3 say?")],
	tools: [{ name: "lookup", description: "Look up a page", parameters: Type.Object({ page: Type.Number() }) }],
};

describe("cachedContent in the request", () => {
	it("is sent as cachedContent, without the system instruction, tools or tool config", () => {
		const body = encodeGeminiRequest(geminiModel(), context, {
			cachedContent: "cachedContents/handbook-42",
			toolChoice: "any",
			maxTokens: 50,
		});
		expect(body).toEqual({
			contents: [{ role: "user", parts: [{ text: "What does chapter 3 say?" }] }],
			cachedContent: "cachedContents/handbook-42",
			generationConfig: { maxOutputTokens: 50 },
		});
	});

	it("completes a bare id to cachedContents/{id}, and keeps a full Vertex resource name", () => {
		expect(encodeGeminiRequest(geminiModel(), context, { cachedContent: "handbook-42" }).cachedContent).toBe(
			"cachedContents/handbook-42",
		);
		const vertexName = "projects/p/locations/us-central1/cachedContents/123";
		expect(encodeGeminiRequest(geminiModel(), context, { cachedContent: vertexName }).cachedContent).toBe(vertexName);
	});

	it.each([[""], ["cachedContents/"], ["a name with spaces"], [42]])(
		"rejects %j with an error naming the expected form, and sends nothing",
		async (cachedContent) => {
			const result = await streamGoogle(geminiModel({ baseUrl: wire.server.url }), context, {
				apiKey: KEY,
				cachedContent: cachedContent as string,
			}).result();
			expect(result.errorMessage).toBe(
				`cachedContent must be the name of a cache you created, such as "cachedContents/abc123" (or its id "abc123"), got ${JSON.stringify(cachedContent)}`,
			);
			expect(wire.server.requests).toHaveLength(0);
		},
	);

	it("without cachedContent, the system instruction and tools are sent as always", () => {
		const body = encodeGeminiRequest(geminiModel(), context, {});
		expect(body.cachedContent).toBeUndefined();
		expect(body.systemInstruction).toEqual({ parts: [{ text: "You answer from the cached handbook." }] });
		expect(body.tools?.[0].functionDeclarations.map((tool) => tool.name)).toEqual(["lookup"]);
	});
});

describe("google-generative-ai with a cache", () => {
	it("streamSimple sends cachedContent, and the cached tokens come back as cacheRead", async () => {
		wire.server.enqueue({
			body: geminiSse([
				partsChunk([{ text: "Chapter 3 covers caching." }]),
				finishChunk("STOP", {
					promptTokenCount: 10_250,
					cachedContentTokenCount: 10_000,
					candidatesTokenCount: 6,
					totalTokenCount: 10_256,
				}),
			]),
		});
		const result = await streamSimpleGoogle(geminiModel({ baseUrl: wire.server.url }), context, {
			apiKey: KEY,
			cachedContent: "cachedContents/handbook-42",
		}).result();
		expect(result.errorMessage).toBeUndefined();
		expect(wire.server.requests[0].json).toMatchObject({ cachedContent: "cachedContents/handbook-42" });
		expect(wire.server.requests[0].json).not.toHaveProperty("systemInstruction");
		expect(result.usage).toMatchObject({ input: 250, cacheRead: 10_000, output: 6, totalTokens: 10_256 });
	});
});

describe("google-vertex with a cache", () => {
	let savedHome: string | undefined;
	beforeEach(() => {
		savedHome = process.env.HOME;
		process.env.HOME = "/nonexistent-keel-test-home";
	});
	afterEach(() => {
		process.env.HOME = savedHome;
	});

	it.each([
		["cachedContents/123", "projects/proj/locations/us-central1/cachedContents/123"],
		["123", "projects/proj/locations/us-central1/cachedContents/123"],
		[
			"projects/other/locations/europe-west4/cachedContents/9",
			"projects/other/locations/europe-west4/cachedContents/9",
		],
	])("sends %s as the full resource name %s", async (given, sent) => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, {
			accessToken: "ya29.token-0123456789",
			project: "proj",
			location: "us-central1",
			cachedContent: given,
			maxRetries: 0,
		}).result();
		expect(result.errorMessage).toBeUndefined();
		expect(wire.server.requests[0].json).toMatchObject({ cachedContent: sent });
		expect(wire.server.requests[0].json).not.toHaveProperty("tools");
	});
});
