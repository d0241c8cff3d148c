// The four HTTP + SSE APIs as table rows, so the transport behaviours every provider must share
// (request wire format, HTTP errors, body faults, abort) are pinned once for each of them.
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamGoogle } from "../../../src/providers/google-generative-ai/index.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import { streamMistral } from "../../../src/providers/mistral-conversations/index.js";
import { streamOpenAICodexResponses } from "../../../src/providers/openai-codex-responses/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { Context, StreamOptions } from "../../../src/types.js";
import type { AssistantMessageEventStream } from "../../../src/utils/event-stream.js";
import { userMessage } from "../../helpers/messages.js";
import {
	anthropicSse,
	blockStop,
	claudeModel,
	inputJsonDelta,
	messageDelta,
	messageStart,
	messageStop,
	textDelta,
	textResponseEvents,
	textStart,
	toolUseStart,
} from "../anthropic/fixtures.js";
import {
	geminiModel,
	geminiSse,
	partsChunk,
	rawFunctionCallAnswer,
	textAnswer,
	vertexModel,
} from "../google-generative-ai/fixtures.js";
import {
	mistralChunk,
	mistralModel,
	mistralSse,
	mistralTextStream,
	mistralToolCallStream,
} from "../mistral-conversations/fixtures.js";
import { codexModel } from "../openai-codex-responses/fixtures.js";
import { chunk, serverModel, sse, textStream } from "../openai-completions/fixtures.js";
import {
	azureModel,
	completed,
	created,
	functionCallEvents,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../openai-responses/fixtures.js";

export const TEST_KEY = "sk-test-transport-secret-0123456789";

export interface ApiCase {
	name: string;
	/** The path the request must go to, relative to the server's URL. */
	path: string;
	/** False for APIs that ask for a stream in the URL (Gemini's `:streamGenerateContent`), not with `stream: true`. */
	streamFlagInBody?: boolean;
	/** The Accept header sent; default application/json. */
	accept?: string;
	/** Starts one call against a server at `baseUrl`. */
	stream(baseUrl: string, options: StreamOptions): AssistantMessageEventStream;
	/** The same with a conversation of the test's own. */
	streamContext(baseUrl: string, context: Context, options: StreamOptions): AssistantMessageEventStream;
	/** An answer that is one tool call named "deep" whose argument text arrives in these pieces. */
	toolCallBody(argumentPieces: string[]): string;
	/** A whole successful answer whose text is "ok". */
	okBody(): string;
	/** An answer that stops after the text "partial" (no terminal event). */
	partialBody(): string;
}

const context = { messages: [userMessage("Hi")] };

export const API_CASES: ApiCase[] = [
	{
		name: "anthropic-messages",
		path: "/v1/messages",
		stream: (baseUrl, options) => streamAnthropic(claudeModel({ baseUrl }), context, options),
		streamContext: (baseUrl, conversation, options) => streamAnthropic(claudeModel({ baseUrl }), conversation, options),
		toolCallBody: (pieces) =>
			anthropicSse([
				messageStart(),
				toolUseStart(0, "toolu_1", "deep"),
				...pieces.map((piece) => inputJsonDelta(0, piece)),
				blockStop(0),
				messageDelta("tool_use"),
				messageStop,
			]),
		okBody: () => anthropicSse(textResponseEvents(["ok"])),
		partialBody: () => anthropicSse([messageStart(), textStart(0), textDelta(0, "partial")]),
	},
	{
		name: "openai-completions",
		path: "/chat/completions",
		stream: (baseUrl, options) => streamOpenAICompletions(serverModel(baseUrl), context, options),
		streamContext: (baseUrl, conversation, options) =>
			streamOpenAICompletions(serverModel(baseUrl), conversation, options),
		toolCallBody: (pieces) =>
			sse([
				chunk({
					role: "assistant",
					tool_calls: [{ index: 0, id: "call_1", type: "function", function: { name: "deep", arguments: "" } }],
				}),
				...pieces.map((piece) => chunk({ tool_calls: [{ index: 0, function: { arguments: piece } }] })),
				chunk({}, { finish: "tool_calls" }),
			]),
		okBody: () => textStream("ok"),
		partialBody: () => sse([chunk({ role: "assistant", content: "partial" })], false),
	},
	{
		name: "openai-responses",
		path: "/responses",
		stream: (baseUrl, options) => streamOpenAIResponses(responsesModel({ baseUrl }), context, options),
		streamContext: (baseUrl, conversation, options) =>
			streamOpenAIResponses(responsesModel({ baseUrl }), conversation, options),
		toolCallBody: (pieces) => responsesSse([created(), ...functionCallEvents(0, "deep", pieces), completed()]),
		okBody: () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		partialBody: () =>
			responsesSse([
				created(),
				{
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "message", id: "msg_0", role: "assistant", status: "in_progress", content: [] },
				},
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_0", content_index: 0, delta: "partial" },
			]),
	},
	{
		name: "azure-openai-responses",
		path: "/openai/v1/responses?api-version=v1",
		stream: (baseUrl, options) =>
			streamAzureOpenAIResponses(azureModel({ baseUrl: `${baseUrl}/openai/v1` }), context, options),
		streamContext: (baseUrl, conversation, options) =>
			streamAzureOpenAIResponses(azureModel({ baseUrl: `${baseUrl}/openai/v1` }), conversation, options),
		toolCallBody: (pieces) => responsesSse([created(), ...functionCallEvents(0, "deep", pieces), completed()]),
		okBody: () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		partialBody: () =>
			responsesSse([
				created(),
				{
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "message", id: "msg_0", role: "assistant", status: "in_progress", content: [] },
				},
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_0", content_index: 0, delta: "partial" },
			]),
	},
	{
		// The table's key is not a JWT: the account id is given instead of read from the token's claims.
		name: "openai-codex-responses",
		path: "/codex/responses",
		accept: "text/event-stream",
		stream: (baseUrl, options) =>
			streamOpenAICodexResponses(codexModel(baseUrl), context, { accountId: "acct-table", ...options }),
		streamContext: (baseUrl, conversation, options) =>
			streamOpenAICodexResponses(codexModel(baseUrl), conversation, { accountId: "acct-table", ...options }),
		toolCallBody: (pieces) => responsesSse([created(), ...functionCallEvents(0, "deep", pieces), completed()]),
		okBody: () => responsesSse([created(), ...messageEvents(0, ["ok"]), completed()]),
		partialBody: () =>
			responsesSse([
				created(),
				{
					type: "response.output_item.added",
					output_index: 0,
					item: { type: "message", id: "msg_0", role: "assistant", status: "in_progress", content: [] },
				},
				{ type: "response.output_text.delta", output_index: 0, item_id: "msg_0", content_index: 0, delta: "partial" },
			]),
	},
	{
		name: "mistral-conversations",
		path: "/v1/chat/completions",
		stream: (baseUrl, options) => streamMistral(mistralModel({ baseUrl }), context, options),
		streamContext: (baseUrl, conversation, options) => streamMistral(mistralModel({ baseUrl }), conversation, options),
		toolCallBody: (pieces) => mistralToolCallStream("D681PevKs", "deep", pieces),
		okBody: () => mistralTextStream("ok"),
		partialBody: () => mistralSse([mistralChunk({ role: "assistant", content: "partial" })], false),
	},
	{
		name: "google-generative-ai",
		path: "/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		stream: (baseUrl, options) => streamGoogle(geminiModel({ baseUrl: `${baseUrl}/v1beta` }), context, options),
		streamContext: (baseUrl, conversation, options) =>
			streamGoogle(geminiModel({ baseUrl: `${baseUrl}/v1beta` }), conversation, options),
		// Gemini sends a function call's arguments whole, as one JSON object.
		streamFlagInBody: false,
		accept: "*/*",
		toolCallBody: (pieces) => rawFunctionCallAnswer("deep", pieces.join("")),
		okBody: () => textAnswer(["ok"]),
		partialBody: () => geminiSse([partsChunk([{ text: "partial" }])]),
	},
	{
		name: "google-vertex",
		path: "/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		streamFlagInBody: false,
		accept: "*/*",
		stream: (baseUrl, options) => streamGoogleVertex(vertexModel({ baseUrl }), context, options),
		streamContext: (baseUrl, conversation, options) =>
			streamGoogleVertex(vertexModel({ baseUrl }), conversation, options),
		toolCallBody: (pieces) => rawFunctionCallAnswer("deep", pieces.join("")),
		okBody: () => textAnswer(["ok"]),
		partialBody: () => geminiSse([partsChunk([{ text: "partial" }])]),
	},
];
