// The Keel demo: an Agent with two tools, streaming its events as they arrive.
//
// By default it runs on the faux provider from @keel/ai/testing (scripted, in memory, no key, no
// network), so `npm run quickstart` works anywhere and prints the same thing every time.
// With KEEL_DEMO_MODEL=<provider>/<model id> (for example anthropic/claude-sonnet-4-6) the same
// agent runs against that real model, with the key from the environment.
//
// The conversation is kept in a session (a JSONL file in a temporary directory); at the end a new
// Agent resumes it from the file, as after a restart, and continues it.
//
// It imports the BUILT packages: run `npx -y pnpm@10.34.9 run build` first (`npm run quickstart` does).
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";

const [{ Agent }, ai, testing, { Session, resumeAgent }, { createJsonlTranscriptStore }] = await Promise.all([
	import("@keel/agent-core"),
	import("@keel/ai"),
	import("@keel/ai/testing"),
	import("@keel/agent-core/session"),
	import("@keel/agent-core/session/jsonl"),
]).catch((error) => {
	// Before the first build, the packages' dist/ files do not exist: say what to run.
	if (error?.code === "ERR_MODULE_NOT_FOUND" && String(error.message).includes("dist"))
		fail("the packages are not built yet: run `npx -y pnpm@10.34.9 run build` (or `npm run quickstart`).");
	throw error;
});
// The Agent keeps its conversation in the session through this store (see docs/agent.md).
const { bindSession } = await import("@keel/agent-core/session");
const { Type } = ai;
const { fauxAssistantMessage, fauxText, fauxThinking, fauxToolCall, registerFauxProvider } = testing;

// --- two tools ------------------------------------------------------------------------------

const forecasts = {
	lisbon: { temperatureC: 22, sky: "sunny" },
	oslo: { temperatureC: 4, sky: "light snow" },
	tokyo: { temperatureC: 17, sky: "overcast" },
};

const weatherTool = {
	name: "get_weather",
	label: "Weather",
	description: "Current weather for a city (Lisbon, Oslo or Tokyo in this demo).",
	parameters: Type.Object({ city: Type.String({ description: "City name" }) }),
	async execute(_toolCallId, { city }) {
		const forecast = forecasts[city.toLowerCase()];
		// A throw becomes an error result the model can read and recover from.
		if (!forecast) throw new Error(`No forecast for "${city}". Known cities: Lisbon, Oslo, Tokyo.`);
		return {
			content: [{ type: "text", text: `${city}: ${forecast.temperatureC} °C, ${forecast.sky}` }],
			details: { city, ...forecast },
		};
	},
};

const calculatorTool = {
	name: "calculate",
	label: "Calculator",
	description: "Applies an arithmetic operation to two numbers.",
	parameters: Type.Object({
		operation: Type.Union([
			Type.Literal("add"),
			Type.Literal("subtract"),
			Type.Literal("multiply"),
			Type.Literal("divide"),
		]),
		a: Type.Number(),
		b: Type.Number(),
	}),
	async execute(_toolCallId, { operation, a, b }, _signal, onUpdate) {
		onUpdate?.({ content: [{ type: "text", text: `computing ${a} ${operation} ${b}…` }], details: {} });
		if (operation === "divide" && b === 0) throw new Error("Division by zero");
		const value = { add: a + b, subtract: a - b, multiply: a * b, divide: a / b }[operation];
		return { content: [{ type: "text", text: String(value) }], details: { value } };
	},
};

// --- the model: faux by default, a real one on request ---------------------------------------

const question = "What's the weather in Lisbon, and what is 21 multiplied by 2?";
const requested = process.env.KEEL_DEMO_MODEL;
let model;
let faux;

if (requested) {
	model = resolveRealModel(requested);
} else {
	faux = registerFauxProvider({ chunkCharacters: 6, tokensPerSecond: 600 });
	model = faux.getModel();
	faux.setResponses([
		fauxAssistantMessage([
			fauxThinking("Two independent lookups: the weather tool for Lisbon and the calculator for 21 × 2."),
			fauxText("Let me check both at once."),
			fauxToolCall("get_weather", { city: "Lisbon" }),
			fauxToolCall("calculate", { operation: "multiply", a: 21, b: 2 }),
		]),
		// The second answer reads the tool results from the request, like a real model would.
		(context) => {
			const results = context.messages.filter((message) => message.role === "toolResult");
			const [weather, product] = results.map((message) => message.content.map((block) => block.text).join(""));
			return fauxAssistantMessage(`In ${weather.replace(":", " it is")}. And 21 × 2 = ${product}.`);
		},
		// After the resume: the answer comes from the transcript the resumed agent sent.
		(context) => {
			const [first] = context.messages.filter((message) => message.role === "user");
			return fauxAssistantMessage(`You asked: "${textOf(first)}" (${context.messages.length} messages in context).`);
		},
		// Structured output: the answer is JSON text that completeObject validates against the schema.
		() => fauxAssistantMessage(JSON.stringify({ city: "Lisbon", temperatureC: 22, conditions: "sunny", product: 42 })),
	]);
}

// --- the agent (its conversation kept in a session on disk) and a readable event printer ---------

const sessionDirectory = await mkdtemp(join(tmpdir(), "keel-demo-sessions-"));
const store = createJsonlTranscriptStore({ directory: sessionDirectory });
const session = await Session.create(store, { title: "demo" });
const agentOptions = {
	initialState: {
		systemPrompt: "You are a concise assistant. Use the tools when they help.",
		model,
		tools: [weatherTool, calculatorTool],
	},
};
const agent = new Agent({ ...agentOptions, store: bindSession(session) });

const write = (text) => process.stdout.write(text);
const dim = (text) => (process.stdout.isTTY ? `\x1b[2m${text}\x1b[0m` : text);
let turn = 0;

const printEvent = (event) => {
	switch (event.type) {
		case "turn_start":
			turn++;
			write(dim(`\n── turn ${turn} ──\n`));
			break;
		case "message_start":
			if (event.message.role === "user") write(`you › ${textOf(event.message)}\n`);
			break;
		case "message_update": {
			const update = event.assistantMessageEvent;
			if (update.type === "thinking_start") write(dim("thinking › "));
			else if (update.type === "thinking_delta") write(dim(update.delta));
			else if (update.type === "thinking_end") write("\n");
			else if (update.type === "text_start") write("agent › ");
			else if (update.type === "text_delta") write(update.delta);
			else if (update.type === "text_end") write("\n");
			break;
		}
		case "message_end":
			if (event.message.role === "assistant" && event.message.errorMessage) {
				// A failed call (no key, HTTP error, timeout) is not thrown: it ends as this message.
				process.stderr.write(`agent ✗ ${event.message.stopReason}: ${event.message.errorMessage}\n`);
			}
			break;
		case "tool_execution_start":
			write(`tool  › ${event.toolName} ${JSON.stringify(event.args)}\n`);
			break;
		case "tool_execution_update":
			write(dim(`        ${textOf(event.partialResult)}\n`));
			break;
		case "tool_execution_end":
			write(`tool  ${event.isError ? "✗" : "✓"} ${event.toolName} → ${textOf(event.result)}\n`);
			break;
		case "agent_end": {
			const usage = event.messages
				.filter((message) => message.role === "assistant")
				.reduce((total, message) => total + message.usage.totalTokens, 0);
			write(dim(`\n── done: ${turn} turns, ${event.messages.length} new messages, ${usage} tokens ──\n`));
			break;
		}
	}
};
agent.subscribe(printEvent);

const started = performance.now();
await agent.prompt(question);
write(dim(`(${model.provider}/${model.id}, ${Math.round(performance.now() - started)} ms)\n`));

// --- resume: a new Agent from the session file, as after a restart -----------------------------

await session.close();
const reopened = await Session.open(store, session.id);
const resumed = await resumeAgent(reopened, agentOptions);
write(dim(`\n── resumed session ${session.id.slice(0, 8)} from disk: ${resumed.state.messages.length} messages ──\n`));
resumed.subscribe(printEvent);
turn = 0;
await resumed.prompt("What was my first question?");
await reopened.close();
await rm(sessionDirectory, { recursive: true, force: true });

// --- structured output: the conversation's facts as an object of a TypeBox schema ---------------

const Facts = Type.Object({
	city: Type.String(),
	temperatureC: Type.Number(),
	conditions: Type.String(),
	product: Type.Number(),
});
const conversation = resumed.state.messages.filter((message) =>
	["user", "assistant", "toolResult"].includes(message.role),
);
const extraction = await ai
	.completeObject(
		model,
		{
			messages: [
				...conversation,
				{ role: "user", content: "Give the facts of this conversation as JSON.", timestamp: Date.now() },
			],
		},
		{ schema: Facts, name: "facts" },
	)
	.then(
		({ object }) => object,
		(error) => {
			process.exitCode = 1;
			return `failed: ${error.message}`;
		},
	);
write(dim("\n── structured output (completeObject with a TypeBox schema) ──\n"));
write(`facts › ${typeof extraction === "string" ? extraction : JSON.stringify(extraction)}\n`);

if (!requested) printRealProviderHint();
faux?.unregister();
if (agent.state.errorMessage || resumed.state.errorMessage) process.exitCode = 1;

// --- helpers ---------------------------------------------------------------------------------

function textOf(message) {
	if (typeof message.content === "string") return message.content;
	return message.content
		.filter((block) => block.type === "text")
		.map((block) => block.text)
		.join("");
}

function resolveRealModel(spec) {
	const slash = spec.indexOf("/");
	if (slash <= 0) fail(`KEEL_DEMO_MODEL must look like <provider>/<model id>, got "${spec}"`);
	const provider = spec.slice(0, slash);
	const id = spec.slice(slash + 1);
	if (typeof ai.getModel !== "function") fail("This build of @keel/ai has no model catalogue (getModel) yet.");
	const found = ai.getModel(provider, id);
	if (!found) fail(`Unknown model "${id}" for provider "${provider}" in the catalogue.`);
	return found;
}

function printRealProviderHint() {
	const candidates = [
		["ANTHROPIC_API_KEY", "anthropic/claude-sonnet-4-6"],
		["OPENAI_API_KEY", "openai/gpt-4.1-mini"],
		["MISTRAL_API_KEY", "mistral/mistral-large-latest"],
		["GEMINI_API_KEY", "google/gemini-2.5-flash"],
	].filter(([variable]) => process.env[variable]);
	if (candidates.length === 0) return;
	write("\nA provider key is set. To run the same agent against a real model:\n");
	for (const [variable, spec] of candidates) write(`  KEEL_DEMO_MODEL=${spec} npm run demo   # uses ${variable}\n`);
}

function fail(message) {
	console.error(`demo: ${message}`);
	process.exit(1);
}
