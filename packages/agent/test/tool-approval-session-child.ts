// A separate process for the session approval tests (run with `node --import tsx`). It uses nothing
// but a Session and `new Agent({ store: bindSession(session) })`, as an application would.
// - "pause": creates the session, prompts an agent whose answer calls read(a), write(b), read(c),
//   write(d) at once, prints "paused" once the run waits for the two writes, and exits.
// - "approve-then-crash": opens the session, approves write(b) and dies (SIGKILL) as the write starts,
//   after its decision was stored and before the tool did anything.
// - "approve-all-then-crash": the same, approving both writes at once: no call is left undecided.
import { fauxAssistantMessage, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { Agent } from "../src/index.js";
import { bindSession, Session } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { answeringTool } from "./tool-approval-fixtures.js";

const [directory, sessionId, mode] = process.argv.slice(2);
const faux = registerFauxProvider();
const store = createJsonlTranscriptStore({ directory });
const read = answeringTool("read");
const write = answeringTool("write", true);

if (mode === "pause") {
	faux.setResponses([
		fauxAssistantMessage([
			fauxToolCall("read", { value: "a" }, "call-a"),
			fauxToolCall("write", { value: "b" }, "call-b"),
			fauxToolCall("read", { value: "c" }, "call-c"),
			fauxToolCall("write", { value: "d" }, "call-d"),
		]),
	]);
	const session = await Session.create(store, { sessionId });
	const agent = new Agent({
		store: bindSession(session),
		initialState: { model: faux.getModel(), tools: [read, write] },
	});
	await agent.prompt("go");
	await session.close();
	process.stdout.write(`paused ${JSON.stringify({ pending: agent.pendingApprovals, readRuns: read.runs })}\n`);
} else if (mode === "approve-then-crash" || mode === "approve-all-then-crash") {
	const session = await Session.open(store, sessionId);
	write.execute = async () => {
		process.kill(process.pid, "SIGKILL");
		return new Promise(() => {});
	};
	const agent = new Agent({
		store: bindSession(session),
		initialState: { model: faux.getModel(), tools: [read, write] },
	});
	process.stdout.write(`waiting ${JSON.stringify(agent.pendingApprovals.map((request) => request.toolCallId))}\n`);
	if (mode === "approve-then-crash") await agent.approve("call-b");
	else
		await agent.decide([
			{ toolCallId: "call-b", approved: true },
			{ toolCallId: "call-d", approved: true },
		]);
	process.stdout.write("the write ran and the process is still alive\n");
} else {
	throw new Error(`Unknown mode ${JSON.stringify(mode)}: "pause", "approve-then-crash" or "approve-all-then-crash"`);
}
