// The "max" thinking level on the wire, per API: the vendor's top effort where the model's
// thinkingLevelMap declares max, else the nearest level the model has (xhigh, then high).
import { describe, expect, it } from "vitest";
import { streamSimpleAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamSimpleAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamSimpleBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { streamSimpleGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamSimpleMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamSimpleOpenAICodexResponses } from "../../../src/providers/openai-codex-responses/index.js";
import { streamSimpleOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamSimpleOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
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
	reasoningModel,
	responsesSse,
} from "../openai-responses/fixtures.js";

const wire = useWireTestServer();
const bedrock = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const KEY = "sk-test-max-level-0123456789";
const responsesBody = () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]);

async function sentBody(body: string, run: () => { result(): Promise<AssistantMessage> }): Promise<unknown> {
	wire.server.enqueue({ body });
	const result = await run().result();
	expect(result.errorMessage).toBeUndefined();
	return wire.server.lastRequest?.json;
}

describe("anthropic-messages with reasoning max", () => {
	const call = (model: ReturnType<typeof claudeModel>) =>
		sentBody(anthropicSse(textResponseEvents(["ok"])), () =>
			streamSimpleAnthropic({ ...model, baseUrl: wire.server.url }, context, { apiKey: KEY, reasoning: "max" }),
		);

	it("sends output_config.effort max where the map declares it (Opus 4.7)", async () => {
		const body = await call(claudeModel({ id: "claude-opus-4-7", thinkingLevelMap: { xhigh: "xhigh", max: "max" } }));
		expect(body).toMatchObject({ thinking: { type: "adaptive" }, output_config: { effort: "max" } });
	});

	it("sends effort max to an adaptive model without a map (Sonnet 4.6 by its id)", async () => {
		const body = await call(claudeModel({ id: "claude-sonnet-4-6" }));
		expect(body).toMatchObject({ output_config: { effort: "max" } });
	});

	it("moves down to xhigh when the map declares xhigh but not max", async () => {
		const body = await call(claudeModel({ id: "claude-opus-4-7", thinkingLevelMap: { xhigh: "xhigh" } }));
		expect(body).toMatchObject({ output_config: { effort: "xhigh" } });
	});

	it("gives a budget-thinking model (Sonnet 4) the high budget", async () => {
		const body = (await call(claudeModel({ id: "claude-sonnet-4-20250514" }))) as Record<string, unknown>;
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 16384 });
		expect(body.output_config).toBeUndefined();
	});
});

describe("openai-completions with reasoning max", () => {
	const call = (thinkingLevelMap: Record<string, string | null> | undefined) =>
		sentBody(textStream("ok"), () =>
			streamSimpleOpenAICompletions(serverModel(wire.server.url, { reasoning: true, thinkingLevelMap }), context, {
				apiKey: KEY,
				reasoning: "max",
			}),
		);

	it("sends reasoning_effort max where the map declares it", async () => {
		expect(await call({ max: "max" })).toMatchObject({ reasoning_effort: "max" });
	});

	it("sends xhigh where the model tops out at xhigh, and high where it declares neither", async () => {
		expect(await call({ xhigh: "xhigh" })).toMatchObject({ reasoning_effort: "xhigh" });
		expect(await call(undefined)).toMatchObject({ reasoning_effort: "high" });
	});
});

describe("openai-responses family with reasoning max", () => {
	it("sends reasoning.effort xhigh, OpenAI's highest, to a GPT-5.2-style model", async () => {
		const model = reasoningModel({
			baseUrl: wire.server.url,
			thinkingLevelMap: { off: "none", minimal: null, xhigh: "xhigh" },
		});
		const body = await sentBody(responsesBody(), () =>
			streamSimpleOpenAIResponses(model, context, { apiKey: KEY, reasoning: "max" }),
		);
		expect(body).toMatchObject({ reasoning: { effort: "xhigh" } });
	});

	it("sends reasoning.effort max where the map declares it", async () => {
		const model = reasoningModel({ baseUrl: wire.server.url, thinkingLevelMap: { xhigh: "xhigh", max: "max" } });
		const body = await sentBody(responsesBody(), () =>
			streamSimpleOpenAIResponses(model, context, { apiKey: KEY, reasoning: "max" }),
		);
		expect(body).toMatchObject({ reasoning: { effort: "max" } });
	});

	it("on Azure, moves max down to high for a model without xhigh or max", async () => {
		const model = azureModel({ reasoning: true, baseUrl: `${wire.server.url}/openai/v1` });
		const body = await sentBody(responsesBody(), () =>
			streamSimpleAzureOpenAIResponses(model, context, { apiKey: KEY, reasoning: "max", azureDeploymentName: "dep" }),
		);
		expect(body).toMatchObject({ reasoning: { effort: "high" } });
	});

	it("on Codex, sends xhigh for the codex model's top level", async () => {
		const body = await sentBody(responsesBody(), () =>
			streamSimpleOpenAICodexResponses(codexModel(wire.server.url), context, {
				apiKey: KEY,
				accountId: "acct-max",
				reasoning: "max",
			}),
		);
		expect(body).toMatchObject({ reasoning: { effort: "xhigh" } });
	});
});

describe("google-generative-ai with reasoning max", () => {
	it("gives Gemini 2.5 Flash its largest thinking budget", async () => {
		const model = geminiModel({ baseUrl: `${wire.server.url}/v1beta` });
		const body = await sentBody(textAnswer(["ok"]), () =>
			streamSimpleGoogle(model, context, { apiKey: KEY, reasoning: "max" }),
		);
		expect(body).toMatchObject({ generationConfig: { thinkingConfig: { thinkingBudget: 24576 } } });
	});

	it("gives Gemini 3 the HIGH thinking level", async () => {
		const model = geminiModel({ id: "gemini-3-flash-preview", baseUrl: `${wire.server.url}/v1beta` });
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		await streamSimpleGoogle(model, context, { apiKey: KEY, reasoning: "max" }).result();
		expect(wire.server.lastRequest?.json).toMatchObject({
			generationConfig: { thinkingConfig: { thinkingLevel: "HIGH" } },
		});
	});
});

describe("mistral-conversations with reasoning max", () => {
	it("sends reasoning_effort max where the map declares it, else high", async () => {
		const declared = await sentBody(mistralTextStream("ok"), () =>
			streamSimpleMistral(
				mistralModel({ baseUrl: wire.server.url, reasoning: true, thinkingLevelMap: { max: "max" } }),
				context,
				{ apiKey: KEY, reasoning: "max" },
			),
		);
		expect(declared).toMatchObject({ reasoning_effort: "max" });
		const undeclared = await sentBody(mistralTextStream("ok"), () =>
			streamSimpleMistral(mistralModel({ baseUrl: wire.server.url, reasoning: true }), context, {
				apiKey: KEY,
				reasoning: "max",
			}),
		);
		expect(undeclared).toMatchObject({ reasoning_effort: "high" });
	});
});

describe("bedrock-converse-stream with reasoning max", () => {
	it("sends Claude's effort max through additionalModelRequestFields", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({
			id: "us.anthropic.claude-opus-4-7",
			baseUrl: server.url,
			thinkingLevelMap: { xhigh: "xhigh", max: "max" },
		});
		const message = await streamSimpleBedrock(model, context, { reasoning: "max" }).result();
		expect(message.errorMessage).toBeUndefined();
		expect(server.requests[0].body).toMatchObject({
			additionalModelRequestFields: { thinking: { type: "adaptive" }, output_config: { effort: "max" } },
		});
	});
});
