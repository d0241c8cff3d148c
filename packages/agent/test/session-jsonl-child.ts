// A separate process for the JSONL store tests (run with `node --import tsx`): it appends in a loop
// until killed, holds a session's lock until told to stop, or tries to open a locked session.
import { createJsonlTranscriptStore } from "../src/session/jsonl/index.js";

const [mode, directory, sessionId] = process.argv.slice(2);
const store = createJsonlTranscriptStore({ directory });

function say(line: string): void {
	process.stdout.write(`${line}\n`);
}

if (mode === "append-forever") {
	const writer = await store.openWriter(sessionId, {
		create: { v: 1, type: "session", sessionId, timestamp: Date.now() },
	});
	for (const problem of writer.problems) say(`problem ${problem.kind}`);
	// Large records make it likely that the kill lands inside a write.
	const body = "x".repeat(Number(process.env.RECORD_BYTES ?? 256 * 1024));
	const start = Number(process.env.START ?? 0);
	let parentId: string | null = process.env.PARENT ?? null;
	for (let index = start; ; index++) {
		const id = `m${index}`;
		await writer.append({
			v: 1,
			type: "message",
			sessionId,
			id,
			parentId,
			timestamp: Date.now(),
			message: { role: "user", content: [{ type: "text", text: `${index}:${body}` }], timestamp: Date.now() },
		});
		parentId = id;
		say(`appended ${index}`);
	}
} else if (mode === "hold") {
	const writer = await store.openWriter(sessionId, {
		create: { v: 1, type: "session", sessionId, timestamp: Date.now() },
	});
	say("locked");
	process.stdin.resume();
	process.stdin.on("end", async () => {
		await writer.close();
		say("released");
		process.exit(0);
	});
} else if (mode === "try-open") {
	try {
		const writer = await store.openWriter(sessionId);
		say("opened");
		await writer.close();
	} catch (error) {
		say(`${(error as Error).name}: ${(error as Error).message}`);
	}
} else {
	throw new Error(`unknown mode ${mode}`);
}
