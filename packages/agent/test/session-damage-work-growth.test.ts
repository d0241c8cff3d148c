// Mending a damaged transcript costs linear work: a transcript where every third line is unreadable
// and every fifth message reuses an id opens, with both load modes, in CPU time that grows about
// eightfold for eight times the messages (see work-growth.ts: ratios, not time budgets).
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { LINEAR_GROWTH_BOUND, workGrowth } from "../../ai/test/fuzz/work-growth.js";
import { Session } from "../src/session/index.js";
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";
import { header, userRecord } from "./session-fixtures.js";

// Runs are bounded by count, not time; the limit only catches a hang, generously on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

let directory: string;
beforeAll(() => {
	directory = mkdtempSync(join(tmpdir(), "keel-session-growth-"));
});
afterAll(() => rmSync(directory, { recursive: true, force: true }));

function writeDamagedTranscript(sessionId: string, messages: number): void {
	const lines = [JSON.stringify(header(sessionId))];
	for (let index = 0; index < messages; index++) {
		if (index % 3 === 2) {
			lines.push('{"v":1,"type":"message", cut short');
			continue;
		}
		const id = index % 5 === 4 ? `m${index - 1}` : `m${index}`;
		lines.push(JSON.stringify(userRecord(sessionId, id, index === 0 ? null : `m${index - 1}`, `message ${index}`)));
	}
	writeFileSync(join(directory, `${sessionId}.jsonl`), `${lines.join("\n")}\n`);
}

describe.each(["all", "context"] as const)('opening a damaged transcript (load: "%s")', (load) => {
	it("mends it with linear work", async () => {
		const store = createJsonlTranscriptStore({ directory });
		const ratio = await workGrowth((size) => {
			const sessionId = `growth-${load}-${size}`;
			writeDamagedTranscript(sessionId, size);
			return async () => {
				const session = await Session.open(store, sessionId, { load });
				const resumed = session.modelContext().length;
				await session.close();
				if (resumed < size / 2) throw new Error(`only ${resumed} of ${size} messages resumed`);
			};
		}, 600);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});
});
