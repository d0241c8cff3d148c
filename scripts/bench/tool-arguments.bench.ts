// Streaming tool-call arguments through StreamingJsonParser: total time should grow linearly with
// the argument size (constant µs per KB), whatever the delta size. The pi-style baseline parses
// the whole accumulated buffer again on every delta (JSON.parse, then a partial parse), which is
// quadratic: it is run only for 64-byte deltas and the small sizes.
import { parseStreamingJson, StreamingJsonParser } from "../../packages/ai/src/utils/streaming-json.js";
import { medianMs, printTable } from "./measure.js";

/** A write-file style argument: a long string with escapes and newlines, plus some structure. */
function argumentsOfSize(bytes: number): string {
	const line = 'export const value = "text with \\"quotes\\", a tab\t and unicode \u00e9 \u{1F600}";\n';
	const content = line.repeat(Math.ceil(bytes / line.length));
	const edits = Array.from({ length: 8 }, (_, index) => ({ line: index * 10, replace: `line ${index}`, flag: true }));
	const text = JSON.stringify({ path: "src/generated/file.ts", edits, content }, null, 1);
	// Providers often send non-ASCII as \u escapes (the emoji as a surrogate pair): include them.
	return text.replace(/[\u0080-\uffff]/g, (character) => `\\u${character.charCodeAt(0).toString(16).padStart(4, "0")}`);
}

function splitIntoDeltas(text: string, size: number): string[] {
	const deltas: string[] = [];
	for (let start = 0; start < text.length; start += size) deltas.push(text.slice(start, start + size));
	return deltas;
}

function streamThroughParser(deltas: string[]): unknown {
	const parser = new StreamingJsonParser();
	let partialValues = 0;
	for (const delta of deltas) {
		parser.push(delta);
		// A decoder reads the partial value after every delta (AssistantMessageBuilder does).
		if (parser.value !== undefined) partialValues++;
	}
	const result = parser.finish();
	if (!result.complete || partialValues === 0) throw new Error(`the parser did not complete: ${result.error}`);
	return result.value;
}

function streamWithReparse(deltas: string[]): void {
	let buffer = "";
	for (const delta of deltas) {
		buffer += delta;
		parseStreamingJson(buffer);
	}
}

export default async function (): Promise<void> {
	const rows: Record<string, string | number>[] = [];
	for (const kilobytes of [16, 64, 256]) {
		const text = argumentsOfSize(kilobytes * 1024);
		const actualKilobytes = text.length / 1024;
		for (const deltaSize of [1, 64]) {
			const deltas = splitIntoDeltas(text, deltaSize);
			if (JSON.stringify(streamThroughParser(deltas)) !== JSON.stringify(JSON.parse(text))) {
				throw new Error("StreamingJsonParser disagrees with JSON.parse on the fixture");
			}
			const incremental = await medianMs(() => streamThroughParser(deltas), 5);
			const reparse =
				deltaSize === 64 && kilobytes <= 64 ? await medianMs(() => streamWithReparse(deltas), 1) : undefined;
			rows.push({
				size: `${kilobytes} KB`,
				"delta bytes": deltaSize,
				deltas: deltas.length,
				"StreamingJsonParser ms": incremental,
				"µs per KB": (incremental * 1000) / actualKilobytes,
				"re-parse per delta ms": reparse ?? "-",
				"re-parse µs per KB": reparse === undefined ? "-" : (reparse * 1000) / actualKilobytes,
			});
		}
	}
	printTable(rows);
}
