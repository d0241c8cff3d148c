// A separate process for the approval restart test (run with `node --import tsx`): it prompts an agent
// whose answer calls read(a), write(b), read(c) at once, keeps the session in a JSONL store, prints
// "paused" once the run waits for the write's approval, and exits — the "before the restart" half.
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { Agent } from "../src/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { answeringTool, persistAgent } from "./tool-approval-fixtures.js";

const [directory, sessionId] = process.argv.slice(2);
const faux = registerFauxProvider();
faux.setResponses([
	fauxAssistantMessage([
		fauxToolCall("read", { value: "a" }, "call-a"),
		fauxToolCall("write", { value: "b" }, "call-b"),
		fauxToolCall("read", { value: "c" }, "call-c"),
	]),
]);
const read = answeringTool("read");
const write = answeringTool("write", true);
const store = createJsonlTranscriptStore({ directory });
const writer = await store.openWriter(sessionId, {
	create: { v: 1, type: "session", sessionId, timestamp: Date.now() },
});
const agent = new Agent({ initialState: { model: faux.getModel(), tools: [read, write] } });
persistAgent(agent, writer, null);
await agent.prompt("go");
await writer.close();
process.stdout.write(
	`paused ${JSON.stringify({ pending: agent.pendingApprovals, readRuns: read.runs, writeRuns: write.runs })}\n`,
);
