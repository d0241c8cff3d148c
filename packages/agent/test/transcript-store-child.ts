// A separate process for the store conformance suite (run with `node --import tsx`). It opens a
// store through a module the suite names (`openStore(spec)`), then:
// - "append-forever": appends batches of messages, chained, printing "appended <index>" after each
//   batch, until killed;
// - "hold": opens a writer, prints "locked", then for every line "append <id>" on stdin appends one
//   message and prints "appended <id>" or "refused <error name>"; closes at the end of stdin.
import { pathToFileURL } from "node:url";
import type { SessionMessageRecord, TranscriptStore } from "../src/session/index.js";

const [storeModule, spec, mode, sessionId] = process.argv.slice(2);
const { openStore } = (await import(pathToFileURL(storeModule).href)) as {
	openStore(spec: string): Promise<TranscriptStore>;
};
const store = await openStore(spec);

function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

function message(id: string, parentId: string | null, text: string): SessionMessageRecord {
	const timestamp = Date.now();
	return {
		v: 1,
		type: "message",
		sessionId,
		id,
		parentId,
		timestamp,
		message: { role: "user", content: [{ type: "text", text }], timestamp },
	};
}

const header = { v: 1, type: "session" as const, sessionId, timestamp: Date.now() };

if (mode === "append-forever") {
	const writer = await store.openWriter(sessionId, { create: header });
	const body = "x".repeat(Number(process.env.RECORD_BYTES ?? 64 * 1024));
	const batchSize = Number(process.env.BATCH ?? 3);
	let parentId: string | null = null;
	for (let index = 0; ; index += batchSize) {
		const batch: SessionMessageRecord[] = [];
		for (let offset = 0; offset < batchSize; offset++) {
			const id = `m${index + offset}`;
			batch.push(message(id, parentId, `${index + offset}:${body}`));
			parentId = id;
		}
		await writer.append(batch);
		say(`appended ${index + batchSize - 1}`);
	}
} else if (mode === "hold") {
	const writer = await store.openWriter(sessionId, { create: header });
	say(`locked ${process.pid}`);
	let parentId: string | null = process.env.PARENT ?? null;
	let pending = "";
	let queue = Promise.resolve();
	process.stdin.setEncoding("utf8");
	process.stdin.on("data", (chunk: string) => {
		pending += chunk;
		let newline = pending.indexOf("\n");
		while (newline !== -1) {
			const line = pending.slice(0, newline);
			pending = pending.slice(newline + 1);
			const [command, id] = line.split(" ");
			if (command === "append") {
				queue = queue.then(async () => {
					try {
						await writer.append(message(id, parentId, `from process ${process.pid}`));
						parentId = id;
						say(`appended ${id}`);
					} catch (error) {
						say(`refused ${(error as Error).name}`);
					}
				});
			} else if (command === "parent") {
				parentId = id;
			}
			newline = pending.indexOf("\n");
		}
	});
	process.stdin.on("end", async () => {
		await queue;
		await writer.close().catch(() => {});
		say("closed");
		process.exit(0);
	});
} else {
	throw new Error(`unknown mode ${mode}`);
}
