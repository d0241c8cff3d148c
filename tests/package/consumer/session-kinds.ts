// Type-checked (never run) with consumer.ts: importing @keel/agent-core/session makes its message
// kinds AgentMessage kinds in the installed package (declaration merging through dist/session.d.ts),
// and an application adds its own kinds the same way.
import type { AgentMessage } from "@keel/agent-core";
import {
	createMemoryTranscriptStore,
	createSessionConvertToLlm,
	type ProgressMessage,
	resumeAgent,
	Session,
	type SummaryMessage,
} from "@keel/agent-core/session";

declare module "@keel/agent-core" {
	interface CustomAgentMessages {
		ticket: { role: "ticket"; id: number; timestamp: number };
	}
}

export const progress: AgentMessage = {
	role: "progress",
	text: "indexing 40%",
	timestamp: 0,
} satisfies ProgressMessage;
export const summary: AgentMessage = {
	role: "summary",
	summary: "Earlier work",
	summarisedMessageCount: 3,
	timestamp: 0,
} satisfies SummaryMessage;
export const ticket: AgentMessage = { role: "ticket", id: 7, timestamp: 0 };
// @ts-expect-error a role no declaration adds
export const unknownKind: AgentMessage = { role: "no-such-kind", timestamp: 0 };

export async function resumeFromMemory(): Promise<number> {
	const session = await Session.create(createMemoryTranscriptStore());
	await session.append({ role: "notification", kind: "permission_decision", text: "allowed", timestamp: 0 });
	const convertToLlm = createSessionConvertToLlm({
		convertCustomMessage: (message) =>
			message.role === "ticket"
				? { role: "user", content: `Ticket #${message.id}`, timestamp: message.timestamp }
				: undefined,
	});
	const agent = await resumeAgent(session, { convertToLlm });
	return agent.state.messages.length;
}
