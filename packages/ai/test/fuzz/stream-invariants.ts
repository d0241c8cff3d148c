// What every call must satisfy whatever its wire body held: the stream starts with `start`, ends
// with exactly one terminal event (done or error) and nothing after it, `result()` is that
// terminal's message, the text and thinking streamed so far are all in the final message, every
// tool call started is still there, and the key appears nowhere. Returns the first broken rule.
import type { AssistantMessage, AssistantMessageEvent } from "../../src/types.js";

export function streamInvariantViolation(
	events: readonly AssistantMessageEvent[],
	result: AssistantMessage,
	secret?: string,
): string | undefined {
	if (events.length === 0 || events[0].type !== "start")
		return `the first event is ${events[0]?.type ?? "missing"}, not start`;
	const terminals = events.filter((event) => event.type === "done" || event.type === "error");
	if (terminals.length !== 1) return `${terminals.length} terminal events`;
	const last = events[events.length - 1];
	if (last !== terminals[0]) return `${last.type} after the terminal event`;
	const message =
		last.type === "done" ? last.message : (last as Extract<AssistantMessageEvent, { type: "error" }>).error;
	if (message !== result) return "result() is not the terminal event's message";
	if (last.type === "done" && !["stop", "length", "toolUse"].includes(result.stopReason))
		return `done with stopReason ${result.stopReason}`;
	if (last.type === "error") {
		if (!["error", "aborted"].includes(result.stopReason)) return `error with stopReason ${result.stopReason}`;
		if (typeof result.errorMessage !== "string" || result.errorMessage === "") return "an error without a message";
	}
	const streamed = new Map<number, { type: string; text: string }>();
	for (const event of events) {
		if (event.type === "text_start" || event.type === "thinking_start" || event.type === "toolcall_start") {
			streamed.set(event.contentIndex, { type: event.type.split("_")[0], text: "" });
		} else if (event.type === "text_delta" || event.type === "thinking_delta") {
			const block = streamed.get(event.contentIndex);
			if (!block) return `${event.type} for block ${event.contentIndex}, which never started`;
			block.text += event.delta;
		}
	}
	for (const [contentIndex, block] of streamed) {
		const kept = result.content[contentIndex] as { type: string; text?: string; thinking?: string } | undefined;
		const type = block.type === "toolcall" ? "toolCall" : block.type;
		if (!kept || kept.type !== type) return `the ${type} block ${contentIndex} streamed is not in the final message`;
		const text = type === "text" ? kept.text : type === "thinking" ? kept.thinking : undefined;
		// Kept means the final text starts with what was streamed; a block may hold more than its
		// deltas (redacted thinking gets its placeholder at the end).
		if (text !== undefined && !text.startsWith(block.text))
			return `the final ${type} block ${contentIndex} lost text streamed (${JSON.stringify(text).slice(0, 80)} vs ${JSON.stringify(block.text).slice(0, 80)})`;
	}
	if (secret && JSON.stringify(events).includes(secret)) return "the key appears in an event";
	return undefined;
}
