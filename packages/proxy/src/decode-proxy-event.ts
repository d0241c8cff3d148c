// Decodes the proxy's slim SSE events into @keel/ai's AssistantMessageBuilder, which rebuilds the
// message and emits the full events, exactly as a provider's decoder does with its wire events.
import type { AssistantMessageBuilder, Usage } from "@keel/ai";
import type { ProxyAssistantMessageEvent, ProxyMessageSummary } from "./protocol.js";

/** A malformed proxy stream: the call ends with this error, keeping the content received so far. */
export class ProxyStreamError extends Error {
	override name = "ProxyStreamError";
}

/** Applies one proxy event. Throws a ProxyStreamError when the event does not fit the message so far. */
export function decodeProxyEvent(builder: AssistantMessageBuilder, event: ProxyAssistantMessageEvent): void {
	switch (event.type) {
		case "start":
			builder.start();
			return;
		case "text_start":
			expectNextIndex(builder, event.contentIndex);
			builder.startText(event.textSignature);
			return;
		case "text_delta":
			expectBlock(builder, event, "text");
			builder.appendText(event.contentIndex, event.delta);
			return;
		case "text_end":
			expectBlock(builder, event, "text");
			builder.endText(event.contentIndex, event.textSignature ?? event.contentSignature);
			return;
		case "thinking_start":
			expectNextIndex(builder, event.contentIndex);
			builder.startThinking({ signature: event.thinkingSignature, redacted: event.redacted });
			return;
		case "thinking_delta":
			expectBlock(builder, event, "thinking");
			builder.appendThinking(event.contentIndex, event.delta);
			return;
		case "thinking_end":
			expectBlock(builder, event, "thinking");
			builder.endThinking(event.contentIndex, event.thinkingSignature ?? event.contentSignature);
			return;
		case "toolcall_start":
			expectNextIndex(builder, event.contentIndex);
			builder.startToolCall(event.id, event.toolName, event.thoughtSignature);
			return;
		case "toolcall_delta":
			expectBlock(builder, event, "toolCall");
			builder.appendToolCallArguments(event.contentIndex, event.delta);
			return;
		case "toolcall_end": {
			expectBlock(builder, event, "toolCall");
			const final = event.toolCall;
			const patch: { id?: string; name?: string; thoughtSignature?: string } = {};
			if (typeof final?.id === "string") patch.id = final.id;
			if (typeof final?.name === "string") patch.name = final.name;
			if (final?.thoughtSignature !== undefined) patch.thoughtSignature = final.thoughtSignature;
			builder.endToolCall(event.contentIndex, patch);
			// The server parsed the complete arguments: its tool call is authoritative. The toolcall_end
			// event just emitted carries this same block, and the stream hands it to its reader later.
			if (final?.arguments && typeof final.arguments === "object") {
				builder.toolCall(event.contentIndex).arguments = final.arguments;
			}
			return;
		}
		case "done":
			expectReason(event, DONE_REASONS);
			applySummary(builder, event.message, event.usage);
			builder.finish(event.reason, event.message?.rawStopReason);
			return;
		case "error":
			expectReason(event, ERROR_REASONS);
			applySummary(builder, event.message, event.usage);
			builder.fail(
				event.reason,
				typeof event.errorMessage === "string" && event.errorMessage !== ""
					? event.errorMessage
					: "The proxy reported an error without a message",
				event.message?.rawStopReason,
			);
			return;
		default:
			throw new ProxyStreamError(
				`Proxy stream error: unknown event type ${JSON.stringify((event as { type?: unknown }).type)}`,
			);
	}
}

/**
 * The server's usage (and its cost, from the server's model) replaces the client's. The pi proxy
 * protocol carries it as the event's `usage`, with no summary; Keel's server sends both.
 */
function applySummary(
	builder: AssistantMessageBuilder,
	summary: ProxyMessageSummary | undefined,
	usage: Usage | undefined,
): void {
	const message = builder.message;
	const serverUsage = usage ?? summary?.usage;
	if (isObject(serverUsage)) message.usage = serverUsage;
	if (!isObject(summary)) return;
	if (summary.responseId !== undefined) message.responseId = summary.responseId;
	if (summary.responseModel !== undefined) message.responseModel = summary.responseModel;
	if (summary.diagnostics !== undefined) message.diagnostics = summary.diagnostics;
}

const DONE_REASONS: readonly unknown[] = ["stop", "length", "toolUse"];
const ERROR_REASONS: readonly unknown[] = ["error", "aborted"];

/** A terminal event's reason decides the message's stopReason: anything else is a corrupt stream. */
function expectReason(event: { type: string; reason: unknown }, reasons: readonly unknown[]): void {
	if (reasons.includes(event.reason)) return;
	throw new ProxyStreamError(
		`Proxy stream error: ${event.type === "error" ? "an" : "a"} ${event.type} event with reason ${JSON.stringify(event.reason) ?? "undefined"}, expected ${reasons.map((reason) => JSON.stringify(reason)).join(" or ")}`,
	);
}

function isObject<T>(value: T | undefined): value is T {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Blocks arrive in index order; a gap or an overwrite means the stream is corrupt. */
function expectNextIndex(builder: AssistantMessageBuilder, index: number): void {
	const expected = builder.message.content.length;
	if (index !== expected)
		throw new ProxyStreamError(`Proxy stream error: block ${index} started, expected index ${expected}`);
}

function expectBlock(
	builder: AssistantMessageBuilder,
	event: { type: string; contentIndex: number },
	type: "text" | "thinking" | "toolCall",
): void {
	const block = builder.message.content[event.contentIndex];
	if (block?.type === type) return;
	const found = block ? `a ${block.type} block` : "no block";
	throw new ProxyStreamError(
		`Proxy stream error: received ${event.type} for content ${event.contentIndex}, which is ${found}`,
	);
}
