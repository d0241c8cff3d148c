// The four HTTP + SSE APIs as table rows, so the transport behaviours every provider must share
// (request wire format, HTTP errors, body faults, abort) are pinned once for each of them.
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import { streamAzureOpenAIResponses } from "../../../src/providers/azure-openai-responses/index.js";
import { streamOpenAICompletions } from "../../../src/providers/openai-completions/index.js";
import { streamOpenAIResponses } from "../../../src/providers/openai-responses/index.js";
import type { StreamOptions } from "../../../src/types.js";
import type { AssistantMessageEventStream } from "../../../src/utils/event-stream.js";
import { userMessage } from "../../helpers/messages.js";
import {
	anthropicSse,
	claudeModel,
	messageStart,
	textDelta,
	textResponseEvents,
	textStart,
} from "../anthropic/fixtures.js";
import { chunk, serverModel, sse, textStream } from "../openai-completions/fixtures.js";
import {
	azureModel,
	completed,
	created,
	messageEvents,
	responsesModel,
	responsesSse,
} from "../openai-responses/fixtures.js";

export const TEST_KEY = "sk-test-transport-secret-0123456789";

export interface ApiCase {
	name: string;
	/** The path the request must go to, relative to the server's URL. */
	path: string;
	/** Starts one call against a server at `baseUrl`. */
	stream(baseUrl: string, options: StreamOptions): AssistantMessageEventStream;
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
		okBody: () => anthropicSse(textResponseEvents(["ok"])),
		partialBody: () => anthropicSse([messageStart(), textStart(0), textDelta(0, "partial")]),
	},
	{
		name: "openai-completions",
		path: "/chat/completions",
		stream: (baseUrl, options) => streamOpenAICompletions(serverModel(baseUrl), context, options),
		okBody: () => textStream("ok"),
		partialBody: () => sse([chunk({ role: "assistant", content: "partial" })], false),
	},
	{
		name: "openai-responses",
		path: "/responses",
		stream: (baseUrl, options) => streamOpenAIResponses(responsesModel({ baseUrl }), context, options),
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
];
