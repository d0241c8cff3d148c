// The messages the transcript store bench writes: realistic turns of ~2 KB messages.
import type { SessionMessageRecord, SessionRecord } from "../../packages/agent/src/session/index.js";

/** Where the big session was compacted: a resume loads the 2,000 messages after it and the 1,000 it kept. */
const COMPACT_AT = 98_000;
const KEPT_FROM = 97_000;

function padded(prefix: string, bytes: number): string {
	return `${prefix} `.padEnd(bytes, "the quick brown fox jumps over the lazy dog ");
}

/**
 * A realistic turn, four messages of ~2 KB on average: a user request, an assistant tool call with
 * a file's content as its argument, the tool's output, the assistant's answer. `compacted: false`
 * writes a session that was never compacted (its whole chain is the model context).
 */
export function benchMessage(sessionId: string, index: number, compacted = true): SessionMessageRecord {
	const timestamp = 1_700_000_000_000 + index;
	const base = { v: 1 as const, type: "message" as const, sessionId, id: `m${index}`, timestamp };
	const parentId = index === 0 ? null : `m${index - 1}`;
	if (compacted && index === COMPACT_AT - 1) {
		const summary = padded(`summary of ${KEPT_FROM} messages`, 2_000);
		return { ...base, parentId, message: { role: "summary", summary, summarisedMessageCount: KEPT_FROM, timestamp } };
	}
	if (compacted && index === COMPACT_AT) {
		return {
			...base,
			parentId,
			message: {
				role: "compact_boundary",
				trigger: "auto",
				summaryId: `m${index - 1}`,
				firstKeptMessageId: `m${KEPT_FROM}`,
				timestamp,
			},
		};
	}
	const usage = {
		input: 1200,
		output: 300,
		cacheRead: 0,
		cacheWrite: 0,
		totalTokens: 1500,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
	};
	const assistant = { api: "anthropic-messages", provider: "anthropic", model: "claude-sonnet-4-5", usage };
	switch (index % 4) {
		case 0:
			return {
				...base,
				parentId,
				message: { role: "user", content: [{ type: "text", text: padded(`request ${index}`, 700) }], timestamp },
			};
		case 1:
			return {
				...base,
				parentId,
				message: {
					role: "assistant",
					content: [
						{ type: "text", text: padded("I will write the file.", 200) },
						{
							type: "toolCall",
							id: `call-${index}`,
							name: "write_file",
							arguments: { path: `src/module-${index}.ts`, content: padded(`// module ${index}`, 1_700) },
						},
					],
					...assistant,
					stopReason: "toolUse",
					timestamp,
				},
			};
		case 2:
			return {
				...base,
				parentId,
				message: {
					role: "toolResult",
					toolCallId: `call-${index - 1}`,
					toolName: "write_file",
					content: [{ type: "text", text: padded(`wrote src/module-${index - 1}.ts; tsc output:`, 2_400) }],
					isError: false,
					timestamp,
				},
			};
		default:
			return {
				...base,
				parentId,
				message: {
					role: "assistant",
					content: [{ type: "text", text: padded(`Done with step ${index}.`, 1_300) }],
					...assistant,
					stopReason: "stop",
					timestamp,
				},
			};
	}
}

export function benchHeader(sessionId: string): SessionRecord {
	return { v: 1, type: "session", sessionId, timestamp: 1_700_000_000_000, title: `bench ${sessionId}` };
}
