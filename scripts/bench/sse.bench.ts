// The shared SSE reader (wire/sse.ts) on its own, from an in-memory byte stream: many
// small events per chunk (a fast text stream), one long data line in 64-byte chunks (a large tool
// argument: a reader that rescans its pending line per chunk turns quadratic here), and CRLF ends.
import { readServerSentEvents } from "../../packages/ai/src/wire/framers.js";
import { medianMs, printTable } from "./measure.js";

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
	const chunks: Uint8Array[] = [];
	for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
	return chunks;
}

function bodyOf(chunks: Uint8Array[]): ReadableStream<Uint8Array> {
	let index = 0;
	return new ReadableStream({
		pull(controller) {
			if (index < chunks.length) controller.enqueue(chunks[index++]);
			else controller.close();
		},
	});
}

async function countEvents(chunks: Uint8Array[]): Promise<number> {
	let events = 0;
	for await (const batch of readServerSentEvents(bodyOf(chunks))) events += batch.length;
	return events;
}

export default async function (): Promise<void> {
	const encoder = new TextEncoder();
	const smallEvent = 'event: delta\ndata: {"type":"text_delta","text":"word "}\n\n';
	const cases = [
		{ name: "20k small events, 16 KB chunks", text: smallEvent.repeat(20_000), chunk: 16 * 1024, events: 20_000 },
		{ name: "1 MB data line, 64 B chunks", text: `data: ${"x".repeat(1024 * 1024)}\n\n`, chunk: 64, events: 1 },
		{ name: "4 MB data line, 64 B chunks", text: `data: ${"x".repeat(4 * 1024 * 1024)}\n\n`, chunk: 64, events: 1 },
		{
			name: "20k small events, CRLF, 16 KB chunks",
			text: smallEvent.replaceAll("\n", "\r\n").repeat(20_000),
			chunk: 16 * 1024,
			events: 20_000,
		},
	];
	const rows: Record<string, string | number>[] = [];
	for (const { name, text, chunk, events } of cases) {
		const chunks = chunked(encoder.encode(text), chunk);
		const ms = await medianMs(async () => {
			const seen = await countEvents(chunks);
			if (seen !== events) throw new Error(`${name}: read ${seen} events, expected ${events}`);
		});
		rows.push({
			case: name,
			"body KB": Math.round(text.length / 1024),
			chunks: chunks.length,
			ms,
			"MB/s": text.length / 1024 / 1024 / (ms / 1000),
		});
	}
	printTable(rows);
}
