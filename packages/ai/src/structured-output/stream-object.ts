// Structured output: a call whose answer is an object of a schema (TypeBox, a Standard Schema such
// as Zod, Valibot or ArkType, or JSON Schema). One request through the API's JSON-schema output (or
// a forced tool call), the answer validated (AJV, or the schema library's own validator), and at
// most one repair round trip that shows the model what was wrong.
import type { SchemaOutput, ToolParameters } from "../schema/tool-parameters.js";
import { stream } from "../stream.js";
import type {
	Api,
	AssistantMessage,
	Context,
	Message,
	Model,
	ProviderStreamOptions,
	ResponseFormat,
} from "../types.js";
import { createErrorMessage, formatThrownValue } from "../utils/error-message.js";
import { linkAbort } from "../utils/linked-abort.js";
import { addUsage, emptyUsage } from "../utils/usage.js";
import { checkJsonValue } from "../utils/validation.js";
import { AnswerTextTracker } from "./answer-text-tracker.js";
import { type ObjectResult, ObjectStream, type PartialObject } from "./object-stream.js";
import { buildStructuredRequest, type StructuredRequest } from "./output-strategy.js";
import { readAnswer } from "./read-answer.js";
import { buildResponseFormat } from "./response-format.js";
import { StructuredOutputError } from "./structured-output-error.js";

/** The stream options of the call (provider options included), plus what the answer must be. */
export type ObjectOptions<TObjectSchema extends ToolParameters> = ProviderStreamOptions & {
	/**
	 * The answer's schema; its root is an object. A TypeBox schema (the result is `Static<typeof
	 * schema>`), a Standard Schema (the result is its output type) or a JSON Schema object.
	 */
	schema: TObjectSchema;
	/** Names the schema (or the answer tool) for the API: letters, digits, `_`, `-`. Default "response". */
	name?: string;
	/** Tells the model what the object is for. */
	description?: string;
	/** Constrained decoding where the API has it. Default: true when the schema meets strict-mode rules. */
	strict?: boolean;
	/** One repair round trip when the answer does not validate. Default true. */
	repair?: boolean;
};

/**
 * Streams a structured answer: `object_delta` events with the object parsed so far (linear in the
 * answer's length: one streaming parser fed each delta), then `done` with the validated object, or
 * `error` with a `StructuredOutputError`. Never throws: bad options end the stream with an error.
 */
export function streamObject<TObjectSchema extends ToolParameters>(
	model: Model<Api>,
	context: Context,
	options: ObjectOptions<TObjectSchema>,
): ObjectStream<SchemaOutput<TObjectSchema>> {
	const output = new ObjectStream<SchemaOutput<TObjectSchema>>();
	// The model calls run on a signal of their own: the caller's abort reaches them, and a call still
	// running when this one ends (an exception while reading it) is aborted rather than left open.
	const abort = linkAbort((options as { signal?: unknown } | undefined)?.signal);
	const linkedOptions = options && typeof options === "object" ? { ...options, signal: abort.signal } : options;
	runStructuredCall(output, model, context, linkedOptions)
		.catch((error: unknown) => {
			abort.release();
			const text = `Structured output failed: ${formatThrownValue(error)}`;
			const from =
				typeof model === "object" && model !== null ? model : { api: "unknown", provider: "unknown", id: "unknown" };
			const message = createErrorMessage(from, "error", text);
			output.push({ type: "error", error: new StructuredOutputError(text, "request_failed", "", message) });
		})
		.finally(() => abort.release());
	return output;
}

/** The validated object of a structured answer; rejects with a `StructuredOutputError`. */
export function completeObject<TObjectSchema extends ToolParameters>(
	model: Model<Api>,
	context: Context,
	options: ObjectOptions<TObjectSchema>,
): Promise<ObjectResult<SchemaOutput<TObjectSchema>>> {
	return streamObject(model, context, options).result();
}

async function runStructuredCall<TObjectSchema extends ToolParameters>(
	output: ObjectStream<SchemaOutput<TObjectSchema>>,
	model: Model<Api>,
	context: Context,
	options: ObjectOptions<TObjectSchema>,
): Promise<void> {
	const { schema, name, description, strict, repair, ...streamOptions } = options ?? ({} as typeof options);
	const format = buildResponseFormat({ schema, name, description, strict });
	const attempts = repair === false ? 1 : 2;
	const usage = emptyUsage();
	let conversation = context;
	let validationErrors: string | undefined;

	for (let attempt = 1; attempt <= attempts; attempt++) {
		output.push({ type: "object_start", attempt, ...(validationErrors ? { validationErrors } : {}) });
		const request = buildStructuredRequest(model, conversation, streamOptions, format);
		const message = await streamAnswer(output, model, request, format);
		addUsage(usage, message.usage);

		if (message.stopReason === "error" || message.stopReason === "aborted") {
			const text = `Structured output from "${model.id}" failed: ${message.errorMessage ?? message.stopReason}`;
			output.push({ type: "error", error: new StructuredOutputError(text, "request_failed", "", message) });
			return;
		}
		const toolName = request.strategy === "tool" ? format.name : undefined;
		const answer = readAnswer(message, toolName);
		let problem: string;
		if (answer.ok) {
			try {
				const object = (await checkJsonValue(schema, answer.value, format.name)) as SchemaOutput<TObjectSchema>;
				output.push({ type: "done", object, message, usage });
				return;
			} catch (error) {
				problem = formatThrownValue(error);
			}
		} else {
			problem = answer.problem;
		}
		if (attempt === attempts) {
			const after = attempts > 1 ? " after one repair round trip" : "";
			const text = `The answer of "${model.id}" does not match the schema "${format.name}"${after}: ${problem}\n\nRaw answer:\n${quoteRawText(answer.rawText)}`;
			output.push({
				type: "error",
				error: new StructuredOutputError(text, "invalid_output", answer.rawText, message, problem),
			});
			return;
		}
		validationErrors = problem;
		conversation = { ...context, messages: [...context.messages, message, repairRequest(message, problem, toolName)] };
	}
}

/** Streams one answer, emitting the object as it grows; returns the final message. */
async function streamAnswer<T>(
	output: ObjectStream<T>,
	model: Model<Api>,
	request: StructuredRequest,
	format: ResponseFormat,
): Promise<AssistantMessage> {
	const events = stream(model, request.context, request.options);
	// The answer as text (native JSON output, or a model that wrote JSON instead of calling the tool)
	// goes through one streaming parser that skips prose around it; a tool call's arguments are
	// already parsed incrementally by the message builder. Once the answer tool is called, the text
	// is no longer the answer.
	const answerText = new AnswerTextTracker();
	let toolAnswerStarted = false;
	for await (const event of events) {
		if (event.type === "text_delta" && !toolAnswerStarted) {
			if (!answerText.push(event.contentIndex, event.delta)) continue;
			const value = answerText.value;
			if (value !== undefined)
				output.push({ type: "object_delta", object: value as PartialObject<T>, partial: event.partial });
		} else if (event.type === "toolcall_delta" && request.strategy === "tool") {
			const block = event.partial.content[event.contentIndex];
			if (block?.type === "toolCall" && block.name === format.name) {
				toolAnswerStarted = true;
				output.push({ type: "object_delta", object: block.arguments as PartialObject<T>, partial: event.partial });
			}
		}
	}
	return events.result();
}

/** What the model is told after an invalid answer: a tool result for a tool answer, else a user message. */
function repairRequest(message: AssistantMessage, problem: string, toolName: string | undefined): Message {
	const call = message.content.find((block) => block.type === "toolCall" && block.name === toolName);
	if (call?.type === "toolCall") {
		return {
			role: "toolResult",
			toolCallId: call.id,
			toolName: call.name,
			content: [
				{ type: "text", text: `${problem}\n\nCall "${call.name}" again with arguments that match its schema.` },
			],
			isError: true,
			timestamp: Date.now(),
		};
	}
	const ask = toolName
		? `Call the tool "${toolName}" with arguments that match its schema.`
		: "Answer again with only the corrected JSON.";
	return {
		role: "user",
		content: `Your answer does not match the required JSON schema.\n\n${problem}\n\n${ask}`,
		timestamp: Date.now(),
	};
}

/** Raw text longer than this is cut in the error's message (the error's `rawText` keeps all of it). */
const RAW_TEXT_IN_MESSAGE = 2000;

function quoteRawText(rawText: string): string {
	if (rawText === "") return "(none)";
	if (rawText.length <= RAW_TEXT_IN_MESSAGE) return rawText;
	return `${rawText.slice(0, RAW_TEXT_IN_MESSAGE)}… (${rawText.length} characters; the error's rawText has all of them)`;
}
