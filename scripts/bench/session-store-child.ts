// One measurement of the JSONL store in a fresh process, so its peak memory is the operation's own
// (plus Node's baseline, measured by the "baseline" mode). Prints one JSON line.
// Usage: node --import tsx session-store-child.ts <mode> <directory> <sessionId>
import { open } from "node:fs/promises";
import { join } from "node:path";
import { resumeAgent, Session } from "../../packages/agent/src/session/index.js";
import { createJsonlTranscriptStore } from "../../packages/agent/src/session/jsonl/index.js";

const [mode, directory, sessionId] = process.argv.slice(2);
const store = createJsonlTranscriptStore({ directory });
let peakHeap = process.memoryUsage().heapUsed;
const sampler = setInterval(() => {
	peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
}, 5);

const start = performance.now();
let records = 0;
let problems = 0;
/** Records kept in memory at the end. */
let loaded = 0;
if (mode === "read") {
	const result = await store.read(sessionId);
	records = result.records.length;
	loaded = records;
	problems = result.problems.length;
} else if (mode === "scan") {
	problems = (await store.scan(sessionId, () => records++)).length;
} else if (mode === "scan-index") {
	// What choosing the branch to resume needs: every message's parent, not its content.
	const parents = new Map<string, string | null>();
	problems = (
		await store.scan(sessionId, (record) => {
			records++;
			if (record.type === "message") parents.set(record.id as string, record.parentId as string | null);
		})
	).length;
} else if (mode === "resume") {
	// Open and resume with bounded memory: scan once keeping each message's parent and byte offset
	// (not its content), walk the current branch back from its leaf to the last compact boundary and
	// the messages it kept, then load only those records.
	const index = new Map<string, { parentId: string | null; offset: number; boundary: boolean; keptFrom?: string }>();
	let leaf: string | null = null;
	problems = (
		await store.scan(sessionId, (record, _line, byteOffset) => {
			records++;
			if (record.type !== "message") return;
			const message = record.message as { role: string; firstKeptMessageId?: string };
			index.set(record.id as string, {
				parentId: record.parentId as string | null,
				offset: byteOffset,
				boundary: message.role === "compact_boundary",
				keptFrom: message.firstKeptMessageId,
			});
			if (message.role !== "progress") leaf = record.id as string;
		})
	).length;
	// Back from the leaf to the boundary, then on through the summary to the first kept message.
	const offsets: number[] = [];
	let stopAt: string | undefined;
	for (let id: string | null = leaf as string | null; id !== null; ) {
		const entry = index.get(id);
		if (!entry) break;
		offsets.push(entry.offset);
		if (id === stopAt) break;
		if (entry.boundary) {
			if (entry.keptFrom === undefined) break;
			stopAt = entry.keptFrom;
		}
		id = entry.parentId;
	}
	const branch = await store.readAt(sessionId, offsets.reverse());
	loaded = branch.length;
} else if (mode === "session-resume") {
	// The public path: Session.open with load "context" (an outline of the history, full records for
	// the model context only), then an Agent rebuilt from it.
	const session = await Session.open(store, sessionId, { load: "context" });
	const agent = await resumeAgent(session);
	loaded = agent.state.messages.length;
	records = loaded;
	await session.close();
} else if (mode === "floor") {
	// The floor: read the file in 1 MiB chunks, split lines, JSON.parse each, no validation, nothing kept.
	const handle = await open(join(directory, `${sessionId}.jsonl`), "r");
	const chunk = Buffer.allocUnsafe(1024 * 1024);
	let position = 0;
	let carry: Buffer | undefined;
	for (;;) {
		const { bytesRead } = await handle.read(chunk, 0, chunk.length, position);
		if (bytesRead === 0) break;
		position += bytesRead;
		let from = 0;
		let newline = chunk.indexOf(10, from);
		while (newline !== -1 && newline < bytesRead) {
			const text = carry
				? Buffer.concat([carry, chunk.subarray(from, newline)]).toString()
				: chunk.toString("utf8", from, newline);
			carry = undefined;
			JSON.parse(text);
			records++;
			from = newline + 1;
			newline = chunk.indexOf(10, from);
		}
		carry = from < bytesRead ? Buffer.from(chunk.subarray(from, bytesRead)) : undefined;
	}
	await handle.close();
} else if (mode !== "baseline") {
	throw new Error(`unknown mode ${mode}`);
}
const ms = performance.now() - start;
clearInterval(sampler);
peakHeap = Math.max(peakHeap, process.memoryUsage().heapUsed);
process.stdout.write(
	`${JSON.stringify({ ms, records, loaded, problems, maxRssMiB: process.resourceUsage().maxRSS / 1024, peakHeapMiB: peakHeap / 1024 / 1024 })}\n`,
);
