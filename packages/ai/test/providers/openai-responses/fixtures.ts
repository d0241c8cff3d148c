// Literal models and Responses wire events for the openai-responses and Azure tests.
import type { Api, AssistantMessageEvent, Model } from "../../../src/types.js";
import { testModel } from "../../helpers/models.js";

const RESPONSES_MODEL_FIELDS = { id: "gpt-test", name: "GPT Test", contextWindow: 400_000, maxTokens: 128_000 };

export function responsesModel(overrides: Partial<Model<"openai-responses">> = {}): Model<"openai-responses"> {
	return testModel(
		{ ...RESPONSES_MODEL_FIELDS, api: "openai-responses", provider: "openai", baseUrl: "https://api.openai.com/v1" },
		overrides,
	);
}

export function reasoningModel(overrides: Partial<Model<"openai-responses">> = {}): Model<"openai-responses"> {
	return responsesModel({ id: "gpt-reasoner", name: "GPT Reasoner", reasoning: true, ...overrides });
}

export function azureModel(overrides: Partial<Model<"azure-openai-responses">> = {}): Model<"azure-openai-responses"> {
	return testModel(
		{
			...RESPONSES_MODEL_FIELDS,
			name: "GPT Test (Azure)",
			api: "azure-openai-responses",
			provider: "azure-openai-responses",
			baseUrl: "",
		},
		overrides,
	);
}

type WireEvent = Record<string, unknown> & { type: string };

/** The SSE body the Responses API sends: `event: <type>` and the JSON with a sequence number. */
export function responsesSse(events: WireEvent[]): string {
	return events
		.map((event, index) => `event: ${event.type}\ndata: ${JSON.stringify({ ...event, sequence_number: index })}\n\n`)
		.join("");
}

export interface UsageFixture {
	input_tokens: number;
	cached?: number;
	output_tokens: number;
	reasoning?: number;
}

export function responseObject(
	status: string,
	options: {
		usage?: UsageFixture;
		service_tier?: string;
		incomplete?: string;
		error?: { code: string; message: string };
	} = {},
): Record<string, unknown> {
	const usage = options.usage;
	return {
		id: "resp_1",
		object: "response",
		created_at: 1_700_000_000,
		model: "gpt-test-2026-01-01",
		status,
		output: [],
		error: options.error ?? null,
		incomplete_details: options.incomplete ? { reason: options.incomplete } : null,
		service_tier: options.service_tier ?? "default",
		usage: usage
			? {
					input_tokens: usage.input_tokens,
					input_tokens_details: { cached_tokens: usage.cached ?? 0 },
					output_tokens: usage.output_tokens,
					output_tokens_details: { reasoning_tokens: usage.reasoning ?? 0 },
					total_tokens: usage.input_tokens + usage.output_tokens,
				}
			: null,
	};
}

export const created = (): WireEvent => ({ type: "response.created", response: responseObject("in_progress") });

export function completed(
	usage: UsageFixture = { input_tokens: 10, output_tokens: 5 },
	service_tier?: string,
): WireEvent {
	return { type: "response.completed", response: responseObject("completed", { usage, service_tier }) };
}

/** A complete output message streamed as the given text deltas. */
export function messageEvents(
	outputIndex: number,
	deltas: string[],
	options: { id?: string; phase?: "commentary" | "final_answer" } = {},
): WireEvent[] {
	const id = options.id ?? `msg_${outputIndex}`;
	const text = deltas.join("");
	const phase = options.phase ? { phase: options.phase } : {};
	const part = { type: "output_text", text, annotations: [] };
	return [
		{
			type: "response.output_item.added",
			output_index: outputIndex,
			item: { type: "message", id, role: "assistant", status: "in_progress", content: [], ...phase },
		},
		{
			type: "response.content_part.added",
			output_index: outputIndex,
			item_id: id,
			content_index: 0,
			part: { ...part, text: "" },
		},
		...deltas.map((delta) => ({
			type: "response.output_text.delta",
			output_index: outputIndex,
			item_id: id,
			content_index: 0,
			delta,
			logprobs: [],
		})),
		{ type: "response.output_text.done", output_index: outputIndex, item_id: id, content_index: 0, text, logprobs: [] },
		{ type: "response.content_part.done", output_index: outputIndex, item_id: id, content_index: 0, part },
		{
			type: "response.output_item.done",
			output_index: outputIndex,
			item: { type: "message", id, role: "assistant", status: "completed", content: [part], ...phase },
		},
	];
}

/** A reasoning item with summary parts (each a list of deltas) and encrypted content. */
export function reasoningEvents(
	outputIndex: number,
	parts: string[][],
	options: { id?: string; encrypted?: string } = {},
): WireEvent[] {
	const id = options.id ?? `rs_${outputIndex}`;
	const events: WireEvent[] = [
		{ type: "response.output_item.added", output_index: outputIndex, item: { type: "reasoning", id, summary: [] } },
	];
	parts.forEach((deltas, summaryIndex) => {
		const text = deltas.join("");
		const base = { output_index: outputIndex, item_id: id, summary_index: summaryIndex };
		events.push({ type: "response.reasoning_summary_part.added", ...base, part: { type: "summary_text", text: "" } });
		for (const delta of deltas) events.push({ type: "response.reasoning_summary_text.delta", ...base, delta });
		events.push({ type: "response.reasoning_summary_text.done", ...base, text });
		events.push({ type: "response.reasoning_summary_part.done", ...base, part: { type: "summary_text", text } });
	});
	events.push({
		type: "response.output_item.done",
		output_index: outputIndex,
		item: {
			type: "reasoning",
			id,
			summary: parts.map((deltas) => ({ type: "summary_text", text: deltas.join("") })),
			encrypted_content: options.encrypted ?? "gAAAA-encrypted",
		},
	});
	return events;
}

/** A function call whose arguments arrive as the given deltas. */
export function functionCallEvents(
	outputIndex: number,
	name: string,
	argumentDeltas: string[],
	options: { callId?: string; id?: string } = {},
): WireEvent[] {
	const callId = options.callId ?? `call_${outputIndex}`;
	const id = options.id ?? `fc_${outputIndex}`;
	const args = argumentDeltas.join("");
	const item = { type: "function_call", id, call_id: callId, name, arguments: "", status: "in_progress" };
	return [
		{ type: "response.output_item.added", output_index: outputIndex, item },
		...argumentDeltas.map((delta) => ({
			type: "response.function_call_arguments.delta",
			output_index: outputIndex,
			item_id: id,
			delta,
		})),
		{ type: "response.function_call_arguments.done", output_index: outputIndex, item_id: id, name, arguments: args },
		{
			type: "response.output_item.done",
			output_index: outputIndex,
			item: { ...item, arguments: args, status: "completed" },
		},
	];
}

export function eventTypes(events: AssistantMessageEvent[]): string[] {
	return events.map((event) => event.type);
}

export type AnyModel = Model<Api>;
