// One instance of a stateless agent server, for the deployment scenario tests: every request opens
// its session from the shared PostgreSQL store, runs the Agent bound to it, and closes it, so any
// instance can serve any session. The model is @keel/ai's faux provider: it echoes the user's text,
// calls `deploy` when asked, and hangs on "hang" (so a test can kill the process mid-run).
// Env: KEEL_PG_URL, KEEL_PG_SCHEMA, KEEL_DEPLOY_LOG (a file the deploy tool appends a line to),
// KEEL_LEASE_MS (optional: the store's writer lease).
import { appendFileSync } from "node:fs";
import { createServer } from "node:http";
import { Agent } from "@keel/agent-core";
import { bindSession, Session } from "@keel/agent-core/session";
import { Type } from "@keel/ai";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { createPostgresTranscriptStore } from "@keel/session-postgres";

const instance = process.env.KEEL_INSTANCE ?? "?";
const store = await createPostgresTranscriptStore({
	connectionString: process.env.KEEL_PG_URL,
	schema: process.env.KEEL_PG_SCHEMA,
	...(process.env.KEEL_LEASE_MS ? { leaseMs: Number(process.env.KEEL_LEASE_MS) } : {}),
});

const lastUserText = (context) => {
	for (let index = context.messages.length - 1; index >= 0; index--) {
		const message = context.messages[index];
		if (message.role === "toolResult") return { toolResult: message };
		if (message.role === "user") {
			const text =
				typeof message.content === "string"
					? message.content
					: message.content.map((block) => block.text ?? "").join("");
			return { text };
		}
	}
	return { text: "" };
};

const answer = (context) => {
	const last = lastUserText(context);
	if (last.toolResult) return fauxAssistantMessage([fauxText(`deployed by ${instance}`)]);
	if (last.text === "hang") {
		process.stdout.write("model-called\n");
		return new Promise(() => {});
	}
	if (last.text === "deploy")
		return fauxAssistantMessage([fauxToolCall("deploy", { target: "production" }, "call-deploy")]);
	return fauxAssistantMessage([fauxText(`echo: ${last.text}`)]);
};
const faux = registerFauxProvider();
const refill = () => faux.setResponses(Array.from({ length: 100 }, () => answer));

const deployTool = {
	name: "deploy",
	label: "deploy",
	description: "deploys (needs approval)",
	parameters: Type.Object({ target: Type.String() }),
	requiresApproval: true,
	async execute(toolCallId, params) {
		appendFileSync(process.env.KEEL_DEPLOY_LOG, `${instance} ${toolCallId} ${params.target}\n`);
		return { content: [{ type: "text", text: `deployed to ${params.target}` }], details: {} };
	},
};

async function openSession(sessionId) {
	return (await store.exists(sessionId)) ? Session.open(store, sessionId) : Session.create(store, { sessionId });
}

async function withAgent(sessionId, run) {
	refill();
	const session = await openSession(sessionId);
	try {
		const agent = new Agent({
			store: bindSession(session),
			initialState: { model: faux.getModel(), tools: [deployTool] },
		});
		await run(agent);
		// A run whose write failed (the database went away) does not throw: it ends with the error in
		// errorMessage, and the transcript lacks what could not be written. Answered as a failure.
		if (agent.state.errorMessage) throw new Error(agent.state.errorMessage);
		return {
			instance,
			messages: agent.state.messages.map((message) => ({
				role: message.role,
				text: Array.isArray(message.content)
					? message.content.map((block) => block.text ?? `[${block.type}]`).join("")
					: message.content,
			})),
			pendingApprovals: agent.pendingApprovals.map((request) => request.toolCallId),
		};
	} finally {
		await session.close();
	}
}

const server = createServer(async (request, response) => {
	try {
		const chunks = [];
		for await (const chunk of request) chunks.push(chunk);
		const body = chunks.length > 0 ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : {};
		let result;
		if (request.url === "/turn") result = await withAgent(body.sessionId, (agent) => agent.prompt(body.text));
		else if (request.url === "/approve")
			result = await withAgent(body.sessionId, (agent) => agent.approve(body.toolCallId));
		else if (request.url === "/messages") result = await withAgent(body.sessionId, async () => {});
		else {
			response.writeHead(404).end();
			return;
		}
		response.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(result));
	} catch (error) {
		response
			.writeHead(500, { "Content-Type": "application/json" })
			.end(JSON.stringify({ error: String(error?.message ?? error) }));
	}
});
server.listen(0, "127.0.0.1", () => process.stdout.write(`listening ${server.address().port}\n`));
