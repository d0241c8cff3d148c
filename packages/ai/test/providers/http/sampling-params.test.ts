// samplingParams on the wire, per API: the model's defaults, then its thinking level's, then the
// request's, each key over the one before; encoded where each API takes them and left out where
// the model takes none (Claude Opus 4.7 and later) or the endpoint rejects them (Codex).
import { describe, expect, it } from "vitest";
import { checkSamplingParams, resolveSamplingParams, samplingParamKeys } from "../../../src/index.js";
import { streamAnthropic, streamSimpleAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamSimpleAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamOpenAICodexResponses } from "../../../src/providers/openai-codex-responses/index.js";
import {
	streamOpenAICompletions,
	streamSimpleOpenAICompletions,
} from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { AssistantMessage } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { anthropicSse, claudeModel, textResponseEvents } from "../anthropic/fixtures.js";
import { textFrames } from "../bedrock-converse-stream/bedrock-test-server.js";
import { bedrockModel } from "../bedrock-converse-stream/fixtures.js";
import { useBedrockServer } from "../bedrock-converse-stream/server-setup.js";
import { geminiModel, textAnswer } from "../google-generative-ai/fixtures.js";
import { mistralModel, mistralTextStream } from "../mistral-conversations/fixtures.js";
import { codexModel } from "../openai-codex-responses/fixtures.js";
import { serverModel, textStream } from "../openai-completions/fixtures.js";
import {
	azureModel,
	completed,
	created,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../openai-responses/fixtures.js";

const wire = useWireTestServer();
const bedrock = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const KEY = "sk-test-sampling-0123456789";
const responsesBody = () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]);

async function sentBody(body: string, run: () => { result(): Promise<AssistantMessage> }) {
	wire.server.enqueue({ body });
	const result = await run().result();
	expect(result.errorMessage).toBeUndefined();
	return wire.server.lastRequest?.json as Record<string, unknown>;
}

describe("resolveSamplingParams", () => {
	const model = {
		reasoning: true,
		thinkingLevelMap: { xhigh: null },
		samplingParams: { top_p: 0.8, top_k: 20 },
		samplingParamsByThinkingLevel: { off: { temperature: 0.7 }, high: { temperature: 0.6, top_k: 30 } },
	};

	it("merges the model's, then the level's, then the request's, key by key", () => {
		expect(resolveSamplingParams(model, "high", { top_k: 40 })).toEqual({ top_p: 0.8, top_k: 40, temperature: 0.6 });
		expect(resolveSamplingParams(model, "off")).toEqual({ top_p: 0.8, top_k: 20, temperature: 0.7 });
	});

	it("picks the level the model really gets: xhigh where it has none is high", () => {
		expect(resolveSamplingParams(model, "xhigh")).toEqual({ top_p: 0.8, top_k: 30, temperature: 0.6 });
	});

	it("is undefined when nobody set any", () => {
		expect(resolveSamplingParams({ reasoning: false }, "off")).toBeUndefined();
	});
});

describe("openai-completions with samplingParams", () => {
	it("sends the model's, its level's and the request's keys as given in the body", async () => {
		const model = serverModel(wire.server.url, {
			reasoning: true,
			samplingParams: { top_p: 0.8, min_p: 0.05 },
			samplingParamsByThinkingLevel: { high: { temperature: 0.6 } },
		});
		const body = await sentBody(textStream("ok"), () =>
			streamSimpleOpenAICompletions(model, context, { apiKey: KEY, reasoning: "high", samplingParams: { top_k: 40 } }),
		);
		expect(body).toMatchObject({ top_p: 0.8, min_p: 0.05, temperature: 0.6, top_k: 40, reasoning_effort: "high" });
	});

	it("lets a sampling key override the named field, as pi does", async () => {
		const body = await sentBody(textStream("ok"), () =>
			streamOpenAICompletions(serverModel(wire.server.url), context, {
				apiKey: KEY,
				temperature: 0.2,
				samplingParams: { temperature: 0.9, repetition_penalty: 1.1 },
			}),
		);
		expect(body).toMatchObject({ temperature: 0.9, repetition_penalty: 1.1 });
	});

	it("sends a model's defaults on a direct stream() call too", async () => {
		const model = serverModel(wire.server.url, { samplingParams: { top_p: 0.5 } });
		const body = await sentBody(textStream("ok"), () => streamOpenAICompletions(model, context, { apiKey: KEY }));
		expect(body.top_p).toBe(0.5);
	});
});

describe("openai-responses family with samplingParams", () => {
	it("puts top_p in the Responses body", async () => {
		const body = await sentBody(responsesBody(), () =>
			streamOpenAIResponses(responsesModel({ baseUrl: wire.server.url }), context, {
				apiKey: KEY,
				samplingParams: { top_p: 0.9 },
			}),
		);
		expect(body.top_p).toBe(0.9);
	});

	it("puts top_p in the Azure body", async () => {
		const body = await sentBody(responsesBody(), () =>
			streamSimpleAzureOpenAIResponses(azureModel({ baseUrl: `${wire.server.url}/openai/v1` }), context, {
				apiKey: KEY,
				azureDeploymentName: "dep",
				samplingParams: { top_p: 0.9 },
			}),
		);
		expect(body.top_p).toBe(0.9);
	});

	it("sends none to the Codex endpoint, which rejects them", async () => {
		const model = codexModel(wire.server.url, { samplingParams: { top_p: 0.5 } });
		const body = await sentBody(responsesBody(), () =>
			streamOpenAICodexResponses(model, context, {
				apiKey: KEY,
				accountId: "acct-sampling",
				samplingParams: { top_p: 0.9 },
			}),
		);
		expect(body.top_p).toBeUndefined();
	});
});

describe("mistral-conversations with samplingParams", () => {
	it("sends Mistral's names as given", async () => {
		const body = await sentBody(mistralTextStream("ok"), () =>
			streamMistral(mistralModel({ baseUrl: wire.server.url }), context, {
				apiKey: KEY,
				samplingParams: { top_p: 0.7, random_seed: 7 },
			}),
		);
		expect(body).toMatchObject({ top_p: 0.7, random_seed: 7 });
	});
});

describe("anthropic-messages with samplingParams", () => {
	const okBody = () => anthropicSse(textResponseEvents(["ok"]));

	it("sends temperature, top_p and top_k at the top level, and leaves out keys Claude does not take", async () => {
		const body = await sentBody(okBody(), () =>
			streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context, {
				apiKey: KEY,
				samplingParams: { temperature: 0.3, top_p: 0.9, top_k: 50, min_p: 0.1 },
			}),
		);
		expect(body).toMatchObject({ temperature: 0.3, top_p: 0.9, top_k: 50 });
		expect(body.min_p).toBeUndefined();
	});

	it("keeps only top_p while thinking (Claude refuses temperature and top_k with thinking)", async () => {
		const body = await sentBody(okBody(), () =>
			streamSimpleAnthropic(claudeModel({ baseUrl: wire.server.url }), context, {
				apiKey: KEY,
				reasoning: "low",
				samplingParams: { temperature: 0.3, top_p: 0.95, top_k: 50 },
			}),
		);
		expect(body.top_p).toBe(0.95);
		expect(body.temperature).toBeUndefined();
		expect(body.top_k).toBeUndefined();
	});

	it("sends none to Claude Opus 4.7, which takes no sampling parameters", async () => {
		const model = claudeModel({ id: "claude-opus-4-7", baseUrl: wire.server.url, samplingParams: { top_k: 5 } });
		const body = await sentBody(okBody(), () =>
			streamAnthropic(model, context, { apiKey: KEY, temperature: 0.5, samplingParams: { top_p: 0.9 } }),
		);
		expect(body.temperature).toBeUndefined();
		expect(body.top_p).toBeUndefined();
		expect(body.top_k).toBeUndefined();
	});
});

describe("google-generative-ai with samplingParams", () => {
	it("puts them in generationConfig under Gemini's camelCase names", async () => {
		const body = await sentBody(textAnswer(["ok"]), () =>
			streamGoogle(geminiModel({ baseUrl: `${wire.server.url}/v1beta` }), context, {
				apiKey: KEY,
				samplingParams: { top_p: 0.9, top_k: 32, seed: 3, repetition_penalty: 1.2 },
			}),
		);
		expect(body.generationConfig).toMatchObject({ topP: 0.9, topK: 32, seed: 3 });
		expect(body.generationConfig).not.toHaveProperty("repetitionPenalty");
	});
});

describe("bedrock-converse-stream with samplingParams", () => {
	it("sends temperature and top_p in inferenceConfig and Claude's top_k in additionalModelRequestFields", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			samplingParams: { temperature: 0.4, top_p: 0.9, top_k: 25 },
		}).result();
		expect(server.requests[0].body).toMatchObject({
			inferenceConfig: { temperature: 0.4, topP: 0.9 },
			additionalModelRequestFields: { top_k: 25 },
		});
	});

	it("sends none to Claude Opus 4.7", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		await streamBedrock(bedrockModel({ id: "us.anthropic.claude-opus-4-7", baseUrl: server.url }), context, {
			samplingParams: { temperature: 0.4, top_p: 0.9, top_k: 25 },
		}).result();
		const body = server.requests[0].body as {
			inferenceConfig: Record<string, unknown>;
			additionalModelRequestFields?: unknown;
		};
		expect(body.inferenceConfig.temperature).toBeUndefined();
		expect(body.inferenceConfig.topP).toBeUndefined();
		expect(body.additionalModelRequestFields).toBeUndefined();
	});
});

describe("checkSamplingParams", () => {
	it("accepts the keys a model takes and names the ones it does not", () => {
		expect(checkSamplingParams(serverModel("http://127.0.0.1:1"), { top_p: 0.9, min_p: 0.1 })).toBeUndefined();
		expect(checkSamplingParams(responsesModel(), { top_k: 4 })).toBe(
			'openai/gpt-test (openai-responses) does not take "top_k"; it takes temperature, top_p',
		);
		expect(checkSamplingParams(claudeModel({ id: "claude-opus-4-7" }), { top_p: 0.9 })).toContain(
			"takes no sampling parameters",
		);
		expect(checkSamplingParams(serverModel("http://127.0.0.1:1"), { top_p: "high" })).toBe(
			'"top_p" must be a number, got "high"',
		);
		expect(samplingParamKeys(claudeModel())).toEqual(["temperature", "top_p", "top_k"]);
	});
});
