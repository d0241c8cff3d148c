// A separate process for the resume-request test (run with `node --import tsx`). Its stream function
// captures what each model call would send (model, system prompt, messages, tools, thinking level,
// session id) as one JSON line in the capture file.
// - "first": creates the session and runs one prompt with the first settings, then changes every
//   setting and prompts again; the stream function kills the process (SIGKILL) as that second
//   request goes out, after capturing it.
// - "resume": opens the session and resumes with only the session, the tool implementations and the
//   stream function, and continues: the request it sends is captured the same way.
import { appendFileSync } from "node:fs";
import { AssistantMessageBuilder, createAssistantMessageEventStream, type Model, Type } from "@keel/ai";
import { Agent, type AgentTool, type StreamFn } from "../src/index.js";
import { bindSession, resumeAgent, Session } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";

const [directory, sessionId, mode, captureFile] = process.argv.slice(2);
const store = createJsonlTranscriptStore({ directory });

function tool(name: string): AgentTool {
	return {
		name,
		label: name,
		description: `the ${name} tool`,
		parameters: Type.Object({ path: Type.String() }),
		execute: async () => ({ content: [{ type: "text", text: "ok" }], details: {} }),
	};
}
const tools = [tool("read"), tool("write"), tool("search")];

function model(id: string, contextWindow: number): Model {
	return {
		id,
		name: id,
		api: "openai-completions",
		provider: "capture",
		baseUrl: "http://127.0.0.1:9/v1",
		reasoning: true,
		input: ["text"],
		cost: { input: 1, output: 2, cacheRead: 0, cacheWrite: 0 },
		contextWindow,
		maxTokens: 1000,
		// Headers may carry credentials: they are never stored, so a resume cannot send them.
		headers: { "x-secret": "never-stored" },
	};
}

const streamFn: StreamFn = (requestModel, context, options) => {
	const { headers: _headers, ...storedModel } = requestModel;
	const request = {
		model: storedModel,
		systemPrompt: context.systemPrompt,
		messages: context.messages,
		tools: context.tools?.map((entry) => ({
			name: entry.name,
			description: entry.description,
			parameters: entry.parameters,
		})),
		reasoning: options?.reasoning,
		sessionId: options?.sessionId,
	};
	appendFileSync(captureFile, `${JSON.stringify(request)}\n`);
	if (mode === "first" && context.messages.length > 2) process.kill(process.pid, "SIGKILL");
	const stream = createAssistantMessageEventStream();
	const builder = new AssistantMessageBuilder(requestModel, (event) => stream.push(event));
	const index = builder.startText();
	builder.appendText(index, "answer");
	builder.endText(index);
	builder.finish("stop");
	return stream;
};

if (mode === "first") {
	const session = await Session.create(store, { sessionId });
	const agent = new Agent({
		store: bindSession(session),
		streamFn,
		initialState: { systemPrompt: "Be brief.", model: model("capture-1", 1000), thinkingLevel: "high", tools },
	});
	await agent.prompt("one");
	agent.state.systemPrompt = "Be briefer.";
	agent.state.model = model("capture-2", 2000);
	agent.state.thinkingLevel = "low";
	agent.state.tools = [tools[2], tools[0]];
	await agent.prompt("two");
	process.stdout.write("the process is still alive\n");
} else if (mode === "resume") {
	const session = await Session.open(store, sessionId);
	const agent = await resumeAgent(session, { tools, streamFn });
	await agent.continue();
	await session.close();
	process.stdout.write("resumed\n");
} else {
	throw new Error(`Unknown mode ${JSON.stringify(mode)}: "first" or "resume"`);
}
