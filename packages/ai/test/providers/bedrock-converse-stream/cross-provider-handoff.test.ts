// A conversation begun on Bedrock and continued on each other implemented API, and the reverse, end
// to end: each source turn comes from that API's provider decoding its real wire format (event-stream
// frames for Bedrock, SSE for the others), and the target's request body shows what it was given.
import { describe, expect, it } from "vitest";
import { stream, Type } from "../../../src/index.js";
import type { Api, AssistantMessage, Message, Model, ProviderStreamOptions } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	blockStop as anthropicBlockStop,
	messageStart as anthropicMessageStart,
	messageStop as anthropicMessageStop,
	anthropicSse,
	textDelta as anthropicTextDelta,
	toolUseStart as anthropicToolUseStart,
	inputJsonDelta,
	messageDelta,
	signatureDelta,
	textResponseEvents,
	textStart,
	thinkingDelta,
	thinkingStart,
} from "../anthropic/fixtures.js";
import { chunk, sse, textStream, usageChunk } from "../openai-completions/fixtures.js";
import {
	completed,
	created,
	functionCallEvents,
	messageEvents,
	reasoningEvents,
	responsesSse,
} from "../openai-responses/fixtures.js";
import {
	type BedrockAnswer,
	blockStop,
	messageStart,
	messageStop,
	metadata,
	reasoningDelta,
	textDelta,
	textFrames,
	toolUseDelta,
	toolUseStart,
} from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

// The tools the conversation uses; Converse takes earlier tool calls only in a request that declares tools.
const TOOLS = [
	{ name: "ls", description: "List files", parameters: Type.Object({ dir: Type.String() }) },
	{ name: "read", description: "Read a file", parameters: Type.Object({ path: Type.String() }) },
];
const THINKING = "The user wants files; I will call ls and read.";
const VISIBLE = "Let me look at the files.";
const PARTIAL = "Interrupted half sentence";
const KEY = "test-key-0123456789";

type OtherApi = "anthropic-messages" | "openai-completions" | "openai-responses" | "azure-openai-responses";
type ApiName = OtherApi | "bedrock-converse-stream";
const OTHERS: OtherApi[] = ["anthropic-messages", "openai-completions", "openai-responses", "azure-openai-responses"];

const wire = useWireTestServer();
const bedrock = useBedrockServer();
/** Answers the Bedrock server gives, in order. */
let bedrockAnswers: BedrockAnswer[] = [];
let bedrockUrl = "";
const bedrockRequests: { body: unknown }[] = [];

async function startBedrock(): Promise<void> {
	bedrockAnswers = [];
	bedrockRequests.length = 0;
	const server = await bedrock.start((request) => {
		bedrockRequests.push({ body: request.body });
		return bedrockAnswers.shift() ?? { status: 500, errorType: "InternalServerException", message: "nothing queued" };
	});
	bedrockUrl = server.url;
}

function modelOf(api: ApiName): Model<Api> {
	const common = {
		reasoning: true,
		input: ["text" as const],
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 200_000,
		maxTokens: 8192,
	};
	if (api === "bedrock-converse-stream") return bedrockModel({ baseUrl: bedrockUrl, input: ["text"] });
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
	return { ...common, id: "gpt-5-mini", name: "GPT Azure", api, provider: "azure-openai-responses", baseUrl: "" };
}

function optionsOf(api: ApiName): ProviderStreamOptions {
	if (api === "bedrock-converse-stream") return { maxRetries: 0, cacheRetention: "none" };
	const options: ProviderStreamOptions = { apiKey: KEY, maxRetries: 0 };
	if (api === "azure-openai-responses") options.azureBaseUrl = `${wire.server.url}/openai/v1`;
	return options;
}

/** Thinking, visible text and two tool calls (ls, read), as the source API streams them. */
function enqueueToolTurn(api: ApiName): void {
	if (api === "bedrock-converse-stream") {
		bedrockAnswers.push({
			frames: [
				messageStart(),
				reasoningDelta(0, { text: THINKING }),
				reasoningDelta(0, { signature: "bedrock-signature-SECRET" }),
				blockStop(0),
				textDelta(1, VISIBLE),
				blockStop(1),
				toolUseStart(2, "tooluse_Ls7Qv9Zk2Xw8Yp3Rt5Nm1", "ls"),
				toolUseDelta(2, '{"dir":"."}'),
				blockStop(2),
				toolUseStart(3, "tooluse_Rd4Hj6Kl8Mn0Pq2Rs4Tu6", "read"),
				toolUseDelta(3, '{"path":"a.txt"}'),
				blockStop(3),
				messageStop("tool_use"),
				metadata({ inputTokens: 10, outputTokens: 5, totalTokens: 15 }),
			],
		});
		return;
	}
	if (api === "anthropic-messages") {
		wire.server.enqueue({
			body: anthropicSse([
				anthropicMessageStart(),
				thinkingStart(0),
				thinkingDelta(0, THINKING),
				signatureDelta(0, "anthropic-signature-SECRET"),
				anthropicBlockStop(0),
				textStart(1),
				anthropicTextDelta(1, VISIBLE),
				anthropicBlockStop(1),
				anthropicToolUseStart(2, "toolu_01A09q90qw90lq917835lq9", "ls"),
				inputJsonDelta(2, '{"dir":"."}'),
				anthropicBlockStop(2),
				anthropicToolUseStart(3, "toolu_01B55Xy3kL0pQrStUvWx21", "read"),
				inputJsonDelta(3, '{"path":"a.txt"}'),
				anthropicBlockStop(3),
				messageDelta("tool_use"),
				anthropicMessageStop,
			]),
		});
		return;
	}
	if (api === "openai-completions") {
		wire.server.enqueue({
			body: sse([
				chunk({ role: "assistant", content: null, reasoning_content: THINKING }),
				chunk({ content: VISIBLE }),
				chunk({
					tool_calls: [
						{
							index: 0,
							id: "call_Ls7Qv9Zk2Xw8Yp3Rt5Nm1Bc0",
							type: "function",
							function: { name: "ls", arguments: '{"dir":"."}' },
						},
					],
				}),
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
			]),
		});
		return;
	}
	wire.server.enqueue({
		body: responsesSse([
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
		]),
	});
}

/** The start of a text answer that never finishes. */
function enqueueStalledText(api: ApiName): void {
	if (api === "bedrock-converse-stream") {
		bedrockAnswers.push({ frames: [messageStart(), textDelta(0, PARTIAL)], hold: true });
	} else if (api === "anthropic-messages") {
		wire.server.enqueue({
			body: anthropicSse([anthropicMessageStart(), textStart(0), anthropicTextDelta(0, PARTIAL)]),
			stall: true,
		});
	} else if (api === "openai-completions") {
		wire.server.enqueue({ body: sse([chunk({ role: "assistant", content: PARTIAL })], false), stall: true });
	} else {
		wire.server.enqueue({
			body: responsesSse([created(), ...messageEvents(0, [PARTIAL], { id: "msg_partial" }).slice(0, 3)]),
			stall: true,
		});
	}
}

function enqueueAnswer(api: ApiName): void {
	if (api === "bedrock-converse-stream") bedrockAnswers.push({ frames: textFrames("Done.") });
	else if (api === "anthropic-messages") wire.server.enqueue({ body: anthropicSse(textResponseEvents(["Done."])) });
	else if (api === "openai-completions") wire.server.enqueue({ body: textStream("Done.") });
	else wire.server.enqueue({ body: responsesSse([created(), ...messageEvents(0, ["Done."]), completed()]) });
}

async function conversationOn(source: ApiName): Promise<{ messages: Message[]; toolTurn: AssistantMessage }> {
	const model = modelOf(source);
	const messages: Message[] = [{ role: "user", content: "List the files, then read a.txt", timestamp: 1 }];
	enqueueToolTurn(source);
	const toolTurn = await stream(model, { messages, tools: TOOLS }, optionsOf(source)).result();
	expect(toolTurn.stopReason, toolTurn.errorMessage).toBe("toolUse");
	messages.push(toolTurn);
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
	enqueueStalledText(source);
	const controller = new AbortController();
	const aborted = stream(model, { messages, tools: TOOLS }, { ...optionsOf(source), signal: controller.signal });
	for await (const event of aborted) if (event.type === "text_delta") controller.abort();
	const abortedTurn = await aborted.result();
	expect(abortedTurn.stopReason).toBe("aborted");
	messages.push(abortedTurn);
	messages.push({ role: "user", content: "Please go on.", timestamp: 6 });
	return { messages, toolTurn };
}

type Json = Record<string, unknown>;

/** Tool-call ids, results and the raw body a target was sent. */
function sentTo(target: ApiName): { callIds: string[]; resultIds: string[]; raw: string } {
	if (target === "bedrock-converse-stream") {
		const body = bedrockRequests[bedrockRequests.length - 1].body as { messages: { content: Json[] }[] };
		const blocks = body.messages.flatMap((message) => message.content);
		return {
			callIds: blocks.flatMap((block) => (block.toolUse ? [String((block.toolUse as Json).toolUseId)] : [])),
			resultIds: blocks.flatMap((block) => (block.toolResult ? [String((block.toolResult as Json).toolUseId)] : [])),
			raw: JSON.stringify(body),
		};
	}
	const body = wire.server.requests[wire.server.requests.length - 1].json as Json;
	const raw = JSON.stringify(body);
	if (target === "anthropic-messages") {
		const blocks = (body.messages as Json[]).flatMap((message) =>
			Array.isArray(message.content) ? (message.content as Json[]) : [],
		);
		return {
			callIds: blocks.filter((block) => block.type === "tool_use").map((block) => String(block.id)),
			resultIds: blocks.filter((block) => block.type === "tool_result").map((block) => String(block.tool_use_id)),
			raw,
		};
	}
	if (target === "openai-completions") {
		const messages = body.messages as Json[];
		return {
			callIds: messages.flatMap((message) => ((message.tool_calls ?? []) as Json[]).map((call) => String(call.id))),
			resultIds: messages.filter((message) => message.role === "tool").map((message) => String(message.tool_call_id)),
			raw,
		};
	}
	const items = body.input as Json[];
	return {
		callIds: items.filter((item) => item.type === "function_call").map((item) => String(item.call_id)),
		resultIds: items.filter((item) => item.type === "function_call_output").map((item) => String(item.call_id)),
		raw,
	};
}

const pairs: [ApiName, ApiName][] = OTHERS.flatMap((other): [ApiName, ApiName][] => [
	["bedrock-converse-stream", other],
	[other, "bedrock-converse-stream"],
]);

describe("cross-provider handoff with Bedrock", () => {
	it.each(pairs)("a conversation begun on %s continues on %s", async (source, target) => {
		await startBedrock();
		const { messages } = await conversationOn(source);
		enqueueAnswer(target);
		const answer = await stream(modelOf(target), { messages, tools: TOOLS }, optionsOf(target)).result();
		expect(answer.stopReason, answer.errorMessage).toBe("stop");
		const sent = sentTo(target);

		// Foreign thinking arrives as text, with no signature of the source API.
		expect(sent.raw).toContain(THINKING);
		expect(sent.raw).toContain(VISIBLE);
		for (const secret of ["bedrock-signature-SECRET", "anthropic-signature-SECRET", "gAAAA-encrypted-SECRET"]) {
			expect(sent.raw).not.toContain(secret);
		}
		if (target === "bedrock-converse-stream") expect(sent.raw).not.toContain("reasoningContent");

		// Two calls with ids the target accepts, each answered once (the orphaned read synthetically).
		expect(sent.callIds).toHaveLength(2);
		for (const id of sent.callIds) expect(id).toMatch(/^[A-Za-z0-9_-]{1,64}$/);
		expect(sent.resultIds).toEqual(sent.callIds);
		expect(sent.raw).toContain("a.txt b.txt");
		expect(sent.raw).toContain("No result provided");

		// The aborted turn is not replayed.
		expect(sent.raw).not.toContain(PARTIAL);
		expect(sent.raw).toContain("Please go on.");
	});
});
