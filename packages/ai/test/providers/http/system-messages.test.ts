// System messages inside the transcript, as each API receives them: the request body the
// wire-test server (and, for Bedrock, the Bedrock test server) captured, with the instructions
// asserted where the API takes them.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import type { AssistantMessage, Context, SystemMessage, Tool } from "../../../src/types.js";
import { assistantMessage, userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { anthropicSse, claudeModel, textResponseEvents } from "../anthropic/fixtures.js";
import { textFrames } from "../bedrock-converse-stream/bedrock-test-server.js";
import { bedrockModel } from "../bedrock-converse-stream/fixtures.js";
import { useBedrockServer } from "../bedrock-converse-stream/server-setup.js";
import { geminiModel } from "../google-generative-ai/fixtures.js";
import { localModel, serverModel, textStream } from "../openai-completions/fixtures.js";
import { API_CASES, TEST_KEY } from "./api-cases.js";

const wire = useWireTestServer();
const bedrock = useBedrockServer();

const readTool: Tool = { name: "read", description: "Reads a file", parameters: Type.Object({ path: Type.String() }) };
const grepTool: Tool = {
	name: "grep",
	description: "Searches files",
	parameters: Type.Object({ pattern: Type.String() }),
};

const leading: SystemMessage = {
	role: "system",
	content: "Leading rule.",
	sections: { style: "<style>Be brief.</style>" },
	timestamp: 1,
};
const later: SystemMessage = {
	role: "system",
	content: "Answer in French from now on.",
	sections: { style: "<style>Be thorough.</style>" },
	toolsAdded: [grepTool],
	toolsRemoved: [{ name: "read" }],
	timestamp: 4,
};
const answer: AssistantMessage = assistantMessage(
	{ api: "faux", provider: "faux", model: "faux-1" },
	[{ type: "text", text: "4" }],
	{ timestamp: 3 },
);

/** Base prompt, a leading system message, a question and its answer, a later system message, a question. */
const conversation: Context = {
	systemPrompt: "Base prompt.",
	tools: [readTool],
	messages: [leading, userMessage("What is 2+2?", 2), answer, later, userMessage("And 3+3?", 5)],
};

/** The prompt the leading system message makes: base, its instructions, then its sections. */
const LEADING_PROMPT = "Base prompt.\n\nLeading rule.\n\n<style>Be brief.</style>";
/** The whole replay, for APIs with only a top-level prompt: instructions in order, then current sections. */
const FOLDED_PROMPT = "Base prompt.\n\nLeading rule.\n\nAnswer in French from now on.\n\n<style>Be thorough.</style>";
/** The later system message as sent where it stands. */
const UPDATE_TEXT = [
	"Answer in French from now on.",
	'The prompt section "style" now reads:\n<style>Be thorough.</style>',
	"Tools now available: grep.",
	"Tools no longer available: read.",
].join("\n\n");

type Body = Record<string, unknown>;

function sentBody(): Body {
	const request = wire.server.lastRequest;
	if (!request) throw new Error("no request recorded");
	return request.json as Body;
}

function roleAndText(message: { role?: unknown; content?: unknown }): [unknown, unknown] {
	const content = message.content;
	if (typeof content === "string") return [message.role, content];
	if (Array.isArray(content)) {
		return [message.role, content.map((part) => (part as { text?: unknown }).text ?? "").join("")];
	}
	return [message.role, content];
}

const toolNames = (tools: unknown): string[] =>
	(tools as { name?: string; function?: { name: string } }[]).map((tool) => tool.name ?? tool.function?.name ?? "");

/** Per API: the body's system placement and its tools, as [role, text] pairs in order. */
const EXPECTED: Record<string, (body: Body) => void> = {
	"anthropic-messages": (body) => {
		expect(body.system).toEqual([expect.objectContaining({ type: "text", text: LEADING_PROMPT })]);
		const messages = body.messages as { role: string; content: { type: string; text: string }[] }[];
		expect(messages.map((message) => message.role)).toEqual(["user", "assistant", "user"]);
		// No system role in messages for this model: marked text opening the next user turn.
		expect(messages[2].content.map((block) => block.text)).toEqual([
			`<system-instructions>\n${UPDATE_TEXT}\n</system-instructions>`,
			"And 3+3?",
		]);
		expect(toolNames(body.tools)).toEqual(["grep"]);
	},
	"openai-completions": (body) => {
		expect((body.messages as Body[]).map(roleAndText)).toEqual([
			["system", LEADING_PROMPT],
			["user", "What is 2+2?"],
			["assistant", "4"],
			["system", UPDATE_TEXT],
			["user", "And 3+3?"],
		]);
		expect(toolNames(body.tools)).toEqual(["grep"]);
	},
	"openai-responses": (body) => responsesInput(body, "system"),
	"azure-openai-responses": (body) => responsesInput(body, "system"),
	"openai-codex-responses": (body) => {
		expect(body.instructions).toBe(LEADING_PROMPT);
		const input = (body.input as Body[]).filter((item) => item.role !== undefined).map(roleAndText);
		expect(input).toEqual([
			["user", "What is 2+2?"],
			["assistant", "4"],
			["developer", UPDATE_TEXT],
			["user", "And 3+3?"],
		]);
		expect(toolNames(body.tools)).toEqual(["grep"]);
	},
	"mistral-conversations": (body) => {
		// Mistral answers a system message after an assistant turn with 400: all of them lead.
		expect((body.messages as Body[]).map(roleAndText)).toEqual([
			["system", FOLDED_PROMPT],
			["user", "What is 2+2?"],
			["assistant", "4"],
			["user", "And 3+3?"],
		]);
		expect(toolNames(body.tools)).toEqual(["grep"]);
	},
	"google-generative-ai": (body) => geminiSystemInstruction(body),
	"google-vertex": (body) => geminiSystemInstruction(body),
};

function responsesInput(body: Body, role: string): void {
	const input = (body.input as Body[]).filter((item) => item.role !== undefined).map(roleAndText);
	expect(input).toEqual([
		[role, LEADING_PROMPT],
		["user", "What is 2+2?"],
		["assistant", "4"],
		[role, UPDATE_TEXT],
		["user", "And 3+3?"],
	]);
	expect(toolNames(body.tools)).toEqual(["grep"]);
}

function geminiSystemInstruction(body: Body): void {
	expect(body.systemInstruction).toEqual({ parts: [{ text: FOLDED_PROMPT }] });
	const contents = body.contents as { role: string; parts: { text: string }[] }[];
	expect(contents.map((content) => [content.role, content.parts.map((part) => part.text).join("")])).toEqual([
		["user", "What is 2+2?"],
		["model", "4"],
		["user", "And 3+3?"],
	]);
	const declarations = (body.tools as { functionDeclarations: { name: string }[] }[])[0].functionDeclarations;
	expect(declarations.map((declaration) => declaration.name)).toEqual(["grep"]);
}

describe.each(API_CASES)("$name: system messages in the transcript", (api) => {
	it("sends the leading system message with the prompt and the later one where the API takes it", async () => {
		wire.server.enqueue({ body: api.okBody() });
		const result = await api.streamContext(wire.server.url, conversation, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		const body = sentBody();
		EXPECTED[api.name](body);
	});

	it("ends the call before any request when a system message carries an image", async () => {
		const bad = {
			messages: [
				userMessage("hi"),
				{ role: "system", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 2 },
			],
		} as unknown as Context;
		const result = await api.streamContext(wire.server.url, bad, { apiKey: TEST_KEY }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("context.messages[1] (system) has content");
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("anthropic-messages: Claude Opus 4.8 takes system entries in messages", () => {
	it("sends the later system message as a system entry right after the question it preceded", async () => {
		wire.server.enqueue({ body: anthropicSse(textResponseEvents(["ok"])) });
		const model = claudeModel({
			id: "claude-opus-4-8",
			baseUrl: wire.server.url,
			compat: {
				supportsMidConversationSystemMessages: true,
			},
		});
		const result = await streamAnthropic(model, conversation, { apiKey: TEST_KEY }).result();
		expect(result.errorMessage).toBeUndefined();
		const body = sentBody();
		expect((body.messages as Body[]).map(roleAndText)).toEqual([
			["user", "What is 2+2?"],
			["assistant", "4"],
			["user", "And 3+3?"],
			["system", UPDATE_TEXT],
		]);
	});
});

describe("openai-completions: servers that take a system message only at the start", () => {
	it("folds every system message into the first one for a self-hosted server", async () => {
		wire.server.enqueue({ body: textStream("ok") });
		const result = await streamOpenAICompletions(localModel(wire.server.url), conversation, {
			apiKey: TEST_KEY,
		}).result();
		expect(result.errorMessage).toBeUndefined();
		const messages = sentBody().messages as Body[];
		expect(messages.map(roleAndText)).toEqual([
			["system", FOLDED_PROMPT],
			["user", "What is 2+2?"],
			["assistant", "4"],
			["user", "And 3+3?"],
		]);
	});

	it("sends developer messages in place to a reasoning model that takes the developer role", async () => {
		wire.server.enqueue({ body: textStream("ok") });
		const model = serverModel(wire.server.url, { id: "o4-mini", reasoning: true });
		await streamOpenAICompletions(model, conversation, { apiKey: TEST_KEY }).result();
		const messages = sentBody().messages as Body[];
		expect(messages.map(roleAndText)).toContainEqual(["developer", UPDATE_TEXT]);
	});
});

describe("google-generative-ai: cached content", () => {
	it("refuses system messages beside cachedContent, which already holds the system instruction", async () => {
		const result = await streamGoogle(geminiModel({ baseUrl: `${wire.server.url}/v1beta` }), conversation, {
			apiKey: TEST_KEY,
			cachedContent: "cachedContents/abc",
		}).result();
		expect(result.errorMessage).toContain("cannot be sent with cachedContent");
		expect(wire.server.requests).toHaveLength(0);
	});
});

describe("bedrock-converse-stream: system messages in the transcript", () => {
	it("replays every system message into the system blocks and the tool changes into toolConfig", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		const result = await streamBedrock(bedrockModel({ baseUrl: server.url }), conversation, {
			cacheRetention: "none",
		}).result();
		expect(result.errorMessage).toBeUndefined();
		const body = server.requests[0].body as {
			system: { text: string }[];
			messages: { role: string; content: { text?: string }[] }[];
			toolConfig: { tools: { toolSpec: { name: string } }[] };
		};
		expect(body.system).toEqual([{ text: FOLDED_PROMPT }]);
		expect(body.messages.map((message) => [message.role, message.content.map((block) => block.text).join("")])).toEqual(
			[
				["user", "What is 2+2?"],
				["assistant", "4"],
				["user", "And 3+3?"],
			],
		);
		expect(body.toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual(["grep"]);
	});

	it("ends the call before any request when a system message carries an image", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		const bad = {
			messages: [
				userMessage("hi"),
				{ role: "system", content: [{ type: "image", data: "AAAA", mimeType: "image/png" }], timestamp: 2 },
			],
		} as unknown as Context;
		const result = await streamBedrock(bedrockModel({ baseUrl: server.url }), bad).result();
		expect(result.errorMessage).toContain("context.messages[1] (system) has content");
		expect(server.requests).toHaveLength(0);
	});

	it("opens the first user message with the replayed prompt for a model without system blocks", async () => {
		const server = await bedrock.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ baseUrl: server.url, compat: { supportsSystemPrompt: false } });
		await streamBedrock(model, conversation, { cacheRetention: "none" }).result();
		const body = server.requests[0].body as { system?: unknown; messages: { content: { text?: string }[] }[] };
		expect(body.system).toBeUndefined();
		expect(body.messages[0].content[0].text).toBe(FOLDED_PROMPT);
	});
});
