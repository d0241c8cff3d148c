// A conversation begun on one wire API and continued on another, end to end: the first API's turns
// are produced by its provider's transport and decoder from scripted SSE (so ids, signatures and
// thinking are exactly what that API yields), then the next API's provider sends the history to the
// wire-test server, and the recorded request body shows what the second API was given.

import { describe, expect, it } from "vitest";
import { stream } from "../src/index.js";
import { SKIP_THOUGHT_SIGNATURE } from "../src/providers/google-generative-ai/encode-messages.js";
import type { Api, AssistantMessage, Message, Model, ProviderStreamOptions } from "../src/types.js";
import { useWireTestServer } from "./helpers/wire-server.js";
import {
	anthropicSse,
	blockStop,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	signatureDelta,
	textDelta,
	textResponseEvents,
	textStart,
	thinkingDelta,
	thinkingStart,
	toolUseStart,
} from "./providers/anthropic/fixtures.js";
import { finishChunk, geminiSse, partsChunk, textAnswer } from "./providers/google-generative-ai/fixtures.js";
import { mistralChunk, mistralSse, mistralTextStream } from "./providers/mistral-conversations/fixtures.js";
import { chunk, sse, textStream, usageChunk } from "./providers/openai-completions/fixtures.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responsesSse,
} from "./providers/openai-responses/fixtures.js";

const THINKING = "The user wants files; I will call ls and read.";
const VISIBLE = "Let me look at the files.";
const PARTIAL = "Interrupted half sentence";
const KEY = "test-key-0123456789";

type ApiName =
	| "anthropic-messages"
	| "openai-completions"
	| "openai-responses"
	| "azure-openai-responses"
	| "openai-codex-responses"
	| "mistral-conversations"
	| "google-generative-ai"
	| "google-vertex";
const APIS: ApiName[] = [
	"anthropic-messages",
	"openai-completions",
	"openai-responses",
	"azure-openai-responses",
	"openai-codex-responses",
	"mistral-conversations",
	"google-generative-ai",
	"google-vertex",
];
/** A Gemini thought signature (base64, as Gemini sends them) that must never reach another model. */
const GEMINI_SIGNATURE = btoa("gemini-signature-SECRET");

const wire = useWireTestServer();

// --- one model and the wire bodies per API -------------------------------------------------------

function modelOf(api: ApiName): Model<Api> {
	const common = {
		reasoning: true,
		input: ["text" as const],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
	if (api === "anthropic-messages") {
		return {
			...common,
			id: "claude-sonnet-4-20250514",
			name: "Claude",
			api,
			provider: "anthropic",
			baseUrl: wire.server.url,
		};
	}
	if (api === "openai-completions") {
		return { ...common, id: "gpt-4.1-mini", name: "GPT chat", api, provider: "openai", baseUrl: wire.server.url };
	}
	if (api === "openai-responses") {
		return { ...common, id: "gpt-5-mini", name: "GPT", api, provider: "openai", baseUrl: wire.server.url };
	}
	if (api === "openai-codex-responses") {
		return {
			...common,
			id: "gpt-5.2-codex",
			name: "GPT Codex",
			api,
			provider: "openai-codex",
			baseUrl: wire.server.url,
		};
	}
	if (api === "mistral-conversations") {
		return {
			...common,
			id: "magistral-medium-latest",
			name: "Magistral",
			api,
			provider: "mistral",
			baseUrl: wire.server.url,
		};
	}
	if (api === "google-generative-ai") {
		return { ...common, id: "gemini-2.5-flash", name: "Gemini", api, provider: "google", baseUrl: wire.server.url };
	}
	if (api === "google-vertex") {
		// Gemini 3 on Vertex: calls from other models must carry the documented skip signature.
		const id = "gemini-3-flash-preview";
		return { ...common, id, name: "Gemini Vertex", api, provider: "google-vertex", baseUrl: wire.server.url };
	}
	return { ...common, id: "gpt-5-mini", name: "GPT Azure", api, provider: "azure-openai-responses", baseUrl: "" };
}

function optionsOf(api: ApiName): ProviderStreamOptions {
	const options: ProviderStreamOptions = { apiKey: KEY, maxRetries: 0 };
	if (api === "azure-openai-responses") options.azureBaseUrl = `${wire.server.url}/openai/v1`;
	// The test key is not a ChatGPT token (a JWT): the account id is given.
	if (api === "openai-codex-responses") options.accountId = "acct-handoff";
	return options;
}

/** Thinking, visible text and two tool calls (ls, read), with this API's own ids and signatures. */
function toolTurnBody(api: ApiName): string {
	if (api === "google-generative-ai" || api === "google-vertex") {
		return geminiSse([
			partsChunk([{ text: THINKING, thought: true, thoughtSignature: GEMINI_SIGNATURE }]),
			partsChunk([{ text: VISIBLE }]),
			partsChunk([
				{ functionCall: { name: "ls", args: { dir: "." } }, thoughtSignature: GEMINI_SIGNATURE },
				{ functionCall: { name: "read", args: { path: "a.txt" } } },
			]),
			finishChunk("STOP"),
		]);
	}
	if (api === "anthropic-messages") {
		return anthropicSse([
			messageStart(),
			thinkingStart(0),
			thinkingDelta(0, THINKING),
			signatureDelta(0, "anthropic-signature-SECRET"),
			blockStop(0),
			textStart(1),
			textDelta(1, VISIBLE),
			blockStop(1),
			toolUseStart(2, "toolu_01A09q90qw90lq917835lq9", "ls"),
			inputJsonDelta(2, '{"dir":"."}'),
			blockStop(2),
			toolUseStart(3, "toolu_01B55Xy3kL0pQrStUvWx21", "read"),
			inputJsonDelta(3, '{"path":"a.txt"}'),
			blockStop(3),
			messageDelta("tool_use"),
			messageStop,
		]);
	}
	if (api === "openai-completions") {
		return sse([
			chunk({ role: "assistant", content: null, reasoning_content: THINKING }),
			chunk({ content: VISIBLE }),
			chunk({
				tool_calls: [
					{ index: 0, id: "call_Ls7Qv9Zk2Xw8Yp3Rt5Nm1Bc0", type: "function", function: { name: "ls", arguments: "" } },
				],
			}),
			chunk({ tool_calls: [{ index: 0, function: { arguments: '{"dir":"."}' } }] }),
			chunk({
				tool_calls: [
					{
						index: 1,
						id: "call_Rd4Hj6Kl8Mn0Pq2Rs4Tu6Vw8",
						type: "function",
						function: { name: "read", arguments: '{"path":"a.txt"}' },
					},
				],
			}),
			chunk({}, { finish: "tool_calls" }),
			usageChunk({ prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 }),
		]);
	}
	if (api === "mistral-conversations") {
		return mistralSse([
			mistralChunk({
				role: "assistant",
				content: [{ type: "thinking", thinking: [{ type: "text", text: THINKING }] }],
			}),
			mistralChunk({ content: [{ type: "text", text: VISIBLE }] }),
			mistralChunk({
				tool_calls: [
					{ id: "Ls7Qv9Zk2", type: "function", index: 0, function: { name: "ls", arguments: '{"dir":"."}' } },
					{ id: "Rd4Hj6Kl8", type: "function", index: 1, function: { name: "read", arguments: '{"path":"a.txt"}' } },
				],
			}),
			mistralChunk({ content: "" }, { finish: "tool_calls", usage: { prompt_tokens: 10, completion_tokens: 5 } }),
		]);
	}
	return responsesSse([
		created(),
		...reasoningEvents(0, [[THINKING]], { id: "rs_0a1b2c", encrypted: "gAAAA-encrypted-SECRET" }),
		...messageEvents(1, [VISIBLE], { id: "msg_0a1b2c" }),
		...functionCallEvents(2, "ls", ['{"dir":"."}'], {
			callId: "call_LsQv9Zk2Xw8Yp3Rt5Nm1Bc0",
			id: "fc_68d1f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5",
		}),
		...functionCallEvents(3, "read", ['{"path":"a.txt"}'], {
			callId: "call_RdHj6Kl8Mn0Pq2Rs4Tu6Vw8",
			id: "fc_68d1f0a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e6",
		}),
		completed(),
	]);
}

/** The start of a text answer that never finishes (the connection stays open). */
function stalledTextBody(api: ApiName): string {
	if (api === "google-generative-ai" || api === "google-vertex") return geminiSse([partsChunk([{ text: PARTIAL }])]);
	if (api === "anthropic-messages") return anthropicSse([messageStart(), textStart(0), textDelta(0, PARTIAL)]);
	if (api === "openai-completions") return sse([chunk({ role: "assistant", content: PARTIAL })], false);
	if (api === "mistral-conversations")
		return mistralSse([mistralChunk({ role: "assistant", content: PARTIAL })], false);
	return responsesSse([created(), ...messageEvents(0, [PARTIAL], { id: "msg_partial" }).slice(0, 3)]);
}

/** A short complete answer, in the target API's format. */
function answerBody(api: ApiName): string {
	if (api === "google-generative-ai" || api === "google-vertex") return textAnswer(["Done."]);
	if (api === "anthropic-messages") return anthropicSse(textResponseEvents(["Done."]));
	if (api === "openai-completions") return textStream("Done.");
	if (api === "mistral-conversations") return mistralTextStream("Done.");
	return responsesSse([created(), ...messageEvents(0, ["Done."]), completed()]);
}

// --- reading what a target API was sent ----------------------------------------------------------

interface SentConversation {
	/** The text of every assistant turn, in order. */
	assistantTexts: string[];
	calls: { id: string; name: string }[];
	results: { id: string; text: string; isError: boolean }[];
	raw: string;
}

type Json = Record<string, unknown>;

function readSent(api: ApiName, body: Json): SentConversation {
	const sent: SentConversation = { assistantTexts: [], calls: [], results: [], raw: JSON.stringify(body) };
	if (api === "google-generative-ai" || api === "google-vertex") {
		// Gemini pairs a function response with its call by name and position, not by id: the
		// positions stand in for ids here.
		for (const content of body.contents as Json[]) {
			const parts = content.parts as Json[];
			if (content.role === "model") {
				sent.assistantTexts.push(textsOf(parts).join("\n"));
				parts.forEach((part) => {
					const call = part.functionCall as Json | undefined;
					if (call) sent.calls.push({ id: `${call.name}#${sent.calls.length}`, name: String(call.name) });
				});
			}
			for (const part of parts) {
				const response = part.functionResponse as { name: string; response: Json } | undefined;
				if (!response) continue;
				const isError = "error" in response.response;
				const text = String(isError ? response.response.error : response.response.output);
				sent.results.push({ id: `${response.name}#${sent.results.length}`, text, isError });
			}
		}
		return sent;
	}
	if (api === "anthropic-messages") {
		for (const message of body.messages as Json[]) {
			const blocks = (
				typeof message.content === "string" ? [{ type: "text", text: message.content }] : message.content
			) as Json[];
			if (message.role === "assistant") {
				sent.assistantTexts.push(textsOf(blocks).join("\n"));
				for (const block of blocks) {
					if (block.type === "tool_use") sent.calls.push({ id: String(block.id), name: String(block.name) });
				}
			}
			for (const block of blocks) {
				if (block.type !== "tool_result") continue;
				const content = block.content;
				const text = typeof content === "string" ? content : textsOf((content ?? []) as Json[]).join("\n");
				sent.results.push({ id: String(block.tool_use_id), text, isError: block.is_error === true });
			}
		}
		return sent;
	}
	if (api === "openai-completions" || api === "mistral-conversations") {
		for (const message of body.messages as Json[]) {
			if (message.role === "assistant") {
				const content = message.content;
				sent.assistantTexts.push(typeof content === "string" ? content : textsOf((content ?? []) as Json[]).join("\n"));
				for (const call of (message.tool_calls ?? []) as Json[]) {
					sent.calls.push({ id: String(call.id), name: String((call.function as Json).name) });
				}
			}
			if (message.role === "tool") {
				const content = message.content;
				const text = typeof content === "string" ? content : textsOf(content as Json[]).join("\n");
				// Chat Completions has no error flag on tool messages; the text carries it.
				sent.results.push({ id: String(message.tool_call_id), text, isError: false });
			}
		}
		return sent;
	}
	let currentTurn: string[] | undefined;
	for (const item of body.input as Json[]) {
		if (item.type === "message" && item.role === "assistant") {
			currentTurn ??= [];
			currentTurn.push(textsOf(item.content as Json[]).join("\n"));
			continue;
		}
		if (item.type === "function_call") {
			sent.calls.push({ id: String(item.call_id), name: String(item.name) });
			continue;
		}
		if (currentTurn) sent.assistantTexts.push(currentTurn.join("\n"));
		currentTurn = undefined;
		if (item.type === "function_call_output") {
			sent.results.push({ id: String(item.call_id), text: String(item.output), isError: false });
		}
	}
	if (currentTurn) sent.assistantTexts.push(currentTurn.join("\n"));
	return sent;
}

function textsOf(blocks: Json[]): string[] {
	return blocks.filter((block) => typeof block.text === "string").map((block) => block.text as string);
}

/** What each target accepts as a tool-call id. */
const ID_PATTERN: Record<ApiName, RegExp> = {
	"anthropic-messages": /^[A-Za-z0-9_-]{1,64}$/,
	"openai-completions": /^[A-Za-z0-9_-]{1,40}$/,
	"openai-responses": /^[A-Za-z0-9_-]{1,64}$/,
	"azure-openai-responses": /^[A-Za-z0-9_-]{1,64}$/,
	"openai-codex-responses": /^[A-Za-z0-9_-]{1,64}$/,
	"mistral-conversations": /^[a-zA-Z0-9]{9}$/,
	// Gemini takes no ids (see readSent).
	"google-generative-ai": /^\w+#\d$/,
	"google-vertex": /^\w+#\d$/,
};

// --- the conversation ----------------------------------------------------------------------------

/** Runs the first part of the conversation on `source`, through its real SDK and decoder. */
async function conversationOn(source: ApiName): Promise<{ messages: Message[]; toolTurn: AssistantMessage }> {
	const model = modelOf(source);
	const messages: Message[] = [{ role: "user", content: "List the files, then read a.txt", timestamp: 1 }];

	wire.server.enqueue({ body: toolTurnBody(source) });
	const toolTurn = await stream(model, { messages }, optionsOf(source)).result();
	expect(toolTurn.stopReason, toolTurn.errorMessage).toBe("toolUse");
	messages.push(toolTurn);

	// Only the first call gets a result: the second stays orphaned when the user speaks again.
	const [lsCall] = toolTurn.content.filter((block) => block.type === "toolCall");
	messages.push({
		role: "toolResult",
		toolCallId: lsCall.type === "toolCall" ? lsCall.id : "",
		toolName: "ls",
		content: [{ type: "text", text: "a.txt b.txt" }],
		isError: false,
		timestamp: 3,
	});
	messages.push({ role: "user", content: "Never mind reading. Summarise.", timestamp: 4 });

	// A turn the user aborts mid-sentence.
	wire.server.enqueue({ body: stalledTextBody(source), stall: true });
	const controller = new AbortController();
	const aborted = stream(model, { messages }, { ...optionsOf(source), signal: controller.signal });
	for await (const event of aborted) if (event.type === "text_delta") controller.abort();
	const abortedTurn = await aborted.result();
	expect(abortedTurn.stopReason).toBe("aborted");
	expect(abortedTurn.content).toEqual([expect.objectContaining({ type: "text", text: PARTIAL })]);
	messages.push(abortedTurn);
	messages.push({ role: "user", content: "Please go on.", timestamp: 6 });
	return { messages, toolTurn };
}

const pairs = APIS.flatMap((source) => APIS.filter((target) => target !== source).map((target) => [source, target]));

describe("cross-provider handoff", () => {
	it.each(pairs as [ApiName, ApiName][])("a conversation begun on %s continues on %s", async (source, target) => {
		const { messages, toolTurn } = await conversationOn(source);
		const sourceIds = toolTurn.content.flatMap((block) => (block.type === "toolCall" ? [block.id] : []));
		expect(toolTurn.content.map((block) => block.type)).toEqual(["thinking", "text", "toolCall", "toolCall"]);

		wire.server.reset();
		wire.server.enqueue({ body: answerBody(target) });
		const answer = await stream(modelOf(target), { messages }, optionsOf(target)).result();
		expect(answer.stopReason, answer.errorMessage).toBe("stop");
		expect(wire.server.requests).toHaveLength(1);
		const sent = readSent(target, wire.server.requests[0].json as Json);

		// The other API's thinking arrives as plain text in the assistant turn, without any signature.
		expect(sent.assistantTexts).toHaveLength(1);
		expect(sent.assistantTexts[0]).toContain(THINKING);
		expect(sent.assistantTexts[0]).toContain(VISIBLE);
		for (const secret of [
			"anthropic-signature-SECRET",
			"gAAAA-encrypted-SECRET",
			'reasoning_content":"The user',
			GEMINI_SIGNATURE,
		]) {
			expect(sent.raw).not.toContain(secret);
		}

		// Both calls are sent with ids the target accepts, each paired with exactly one result.
		expect(sent.calls.map((call) => call.name)).toEqual(["ls", "read"]);
		for (const call of sent.calls) expect(call.id).toMatch(ID_PATTERN[target]);
		expect(new Set(sent.calls.map((call) => call.id)).size).toBe(2);
		expect(sent.results.map((result) => result.id)).toEqual(sent.calls.map((call) => call.id));
		if (sourceIds.some((id) => id.includes("|"))) expect(sent.raw).not.toContain(sourceIds[0]);

		// The real result of ls, then the synthetic answer for the orphaned read.
		expect(sent.results[0].text).toBe("a.txt b.txt");
		expect(sent.results[1].text).toContain("No result provided");
		if (target === "anthropic-messages" || target.startsWith("google-")) expect(sent.results[1].isError).toBe(true);
		// Gemini 3 takes another model's calls with the signature Gemini documents for missing ones.
		if (target === "google-vertex") {
			const calls = (wire.server.requests[0].json as { contents: { parts: Json[] }[] }).contents
				.flatMap((content) => content.parts)
				.filter((part) => part.functionCall);
			expect(calls.map((part) => part.thoughtSignature)).toEqual([SKIP_THOUGHT_SIGNATURE, SKIP_THOUGHT_SIGNATURE]);
		}

		// The aborted turn is not replayed.
		expect(sent.raw).not.toContain(PARTIAL);
		expect(sent.raw).toContain("Please go on.");
	});
});
