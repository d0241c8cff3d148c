// A session holds everything a resume needs: an Agent resumed in a new process, given only the
// session, the tool implementations (which cannot be stored) and its stream function, sends exactly
// the request the process that died would have sent — system prompt, model, thinking level, tools,
// messages — with the settings as they were last changed.
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../src/index.js";
import { bindSession, createMemoryTranscriptStore, Session } from "../src/session/index.js";

let directory: string;
beforeEach(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-resume-request-"));
});
afterEach(() => {
	rmSync(directory, { recursive: true, force: true });
});

function runChild(
	mode: "first" | "resume",
	capture: string,
): Promise<{ output: string; signal: string | null; code: number | null }> {
	const script = fileURLToPath(new URL("./resume-request-child.ts", import.meta.url));
	const child = spawn(process.execPath, ["--import", "tsx", script, directory, "resume-1", mode, capture], {
		stdio: ["ignore", "pipe", "inherit"],
	});
	let output = "";
	child.stdout.setEncoding("utf8");
	child.stdout.on("data", (chunk: string) => {
		output += chunk;
	});
	return new Promise((resolve) => child.on("exit", (code, signal) => resolve({ output, code, signal })));
}

function capturedRequests(file: string): Record<string, unknown>[] {
	return readFileSync(file, "utf8")
		.split("\n")
		.filter(Boolean)
		.map((line) => JSON.parse(line) as Record<string, unknown>);
}

describe("resuming a session in a new process", () => {
	it("sends the request the killed process was sending: prompt, model, thinking level and tools as last changed", async () => {
		const firstCapture = join(directory, "first.jsonl");
		const first = await runChild("first", firstCapture);
		expect(first.signal).toBe("SIGKILL");
		expect(first.output).not.toContain("still alive");
		const [, interrupted] = capturedRequests(firstCapture);
		expect(interrupted).toMatchObject({
			systemPrompt: "Be briefer.",
			model: { id: "capture-2", contextWindow: 2000 },
			reasoning: "low",
			tools: [{ name: "search" }, { name: "read" }],
		});

		const resumedCapture = join(directory, "resumed.jsonl");
		const resumed = await runChild("resume", resumedCapture);
		expect([resumed.code, resumed.output]).toEqual([0, "resumed\n"]);
		const [request] = capturedRequests(resumedCapture);
		expect(request).toEqual(interrupted);
	}, 60_000);
});

describe("stored agent settings", () => {
	it("a session without stored settings (an older file) resumes with the settings given", async () => {
		const session = await Session.create(createMemoryTranscriptStore());
		await session.append({ role: "user", content: "hi", timestamp: 1 });
		const agent = new Agent({ store: bindSession(session), initialState: { systemPrompt: "given" } });
		expect([agent.state.systemPrompt, agent.state.tools, agent.state.messages.length]).toEqual(["given", [], 1]);
	});

	it("malformed stored settings are refused with the field named; a tool name without an implementation too", async () => {
		const session = await Session.create(createMemoryTranscriptStore());
		await session.updateState({ agent: { systemPrompt: 7 } as never });
		expect(() => new Agent({ store: bindSession(session) })).toThrow(
			`Session ${session.id} stores invalid agent settings: state.agent.systemPrompt must be a string`,
		);
		const model = { id: "m", provider: "p", api: "a" };
		await session.updateState({
			agent: { systemPrompt: "s", model, thinkingLevel: "off", toolNames: ["shell"] } as never,
		});
		expect(() => new Agent({ store: bindSession(session, { tools: [] }) })).toThrow(
			`Session ${session.id} was run with tools "shell" that are not among the tools given to resume it: pass their implementations too`,
		);
	});
});
