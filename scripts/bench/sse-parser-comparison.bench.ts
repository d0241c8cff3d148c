// Keel's SSE framer (wire/framers.ts sseFramer over wire/sse.ts) against the eventsource-parser
// package (3.x) on the same chunks of the same streams. Both decode the bytes with their own
// TextDecoder and count the events they deliver. The two run in alternation (A B A B …) inside one
// process, so machine load falls on both alike; the table gives each one's median.
import { createParser } from "eventsource-parser";
import { sseFramer } from "../../packages/ai/src/wire/framers.js";
import { printTable } from "./measure.js";

function chunked(bytes: Uint8Array, size: number): Uint8Array[] {
	const chunks: Uint8Array[] = [];
	for (let offset = 0; offset < bytes.length; offset += size) chunks.push(bytes.subarray(offset, offset + size));
	return chunks;
}

function keelEvents(chunks: Uint8Array[]): number {
	const framer = sseFramer();
	let events = 0;
	for (const chunk of chunks) events += framer.push(chunk).length;
	return events + (framer.end?.().length ?? 0);
}

function eventsourceParserEvents(chunks: Uint8Array[]): number {
	let events = 0;
	const parser = createParser({
		onEvent: () => {
			events++;
		},
	});
	const decoder = new TextDecoder();
	for (const chunk of chunks) parser.feed(decoder.decode(chunk, { stream: true }));
	parser.feed(decoder.decode());
	parser.reset({ consume: true });
	return events;
}

function median(times: number[]): number {
	const sorted = [...times].sort((a, b) => a - b);
	return sorted[Math.floor(sorted.length / 2)];
}

export default async function (): Promise<void> {
	const encoder = new TextEncoder();
	const smallEvent = 'event: delta\ndata: {"type":"text_delta","text":"word "}\n\n';
	const cases = [
		{ name: "20k small events, 16 KB chunks", text: smallEvent.repeat(20_000), chunk: 16 * 1024, events: 20_000 },
		{ name: "20k small events, 64 B chunks", text: smallEvent.repeat(20_000), chunk: 64, events: 20_000 },
		{
			name: "20k small events, CRLF, 16 KB chunks",
			text: smallEvent.replaceAll("\n", "\r\n").repeat(20_000),
			chunk: 16 * 1024,
			events: 20_000,
		},
		{ name: "1 MB data line, 64 B chunks", text: `data: ${"x".repeat(1024 * 1024)}\n\n`, chunk: 64, events: 1 },
		{ name: "4 MB data line, 64 B chunks", text: `data: ${"x".repeat(4 * 1024 * 1024)}\n\n`, chunk: 64, events: 1 },
	];
	const runs = Number(process.env.SSE_COMPARISON_RUNS ?? 9);
	const rows: Record<string, string | number>[] = [];
	for (const { name, text, chunk, events } of cases) {
		const chunks = chunked(encoder.encode(text), chunk);
		const readers = [
			{ label: "keel", read: keelEvents, times: [] as number[] },
			{ label: "eventsource-parser", read: eventsourceParserEvents, times: [] as number[] },
		];
		for (const reader of readers) reader.read(chunks); // warm-up
		for (let run = 0; run < runs; run++) {
			for (const reader of run % 2 === 0 ? readers : [...readers].reverse()) {
				const start = performance.now();
				const seen = reader.read(chunks);
				reader.times.push(performance.now() - start);
				if (seen !== events) throw new Error(`${name}, ${reader.label}: read ${seen} events, expected ${events}`);
			}
		}
		const [keel, other] = readers.map((reader) => median(reader.times));
		rows.push({
			case: name,
			"keel ms": keel,
			"eventsource-parser ms": other,
			"eventsource-parser / keel": other / keel,
		});
	}
	printTable(rows);
}
