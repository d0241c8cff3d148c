// streamObject over the faux provider: the partial object is kept up to date by one streaming
// parser, so its cost per KB stays flat as the answer grows (linear), and the call costs little
// more than streaming the same text with `stream` and reading nothing.
import { Type } from "../../packages/ai/src/index.js";
import { stream } from "../../packages/ai/src/stream.js";
import { streamObject } from "../../packages/ai/src/structured-output/stream-object.js";
import { registerFauxProvider } from "../../packages/ai/src/testing/faux-provider.js";
import { medianMs, printTable } from "./measure.js";

const Answer = Type.Object({
	title: Type.String(),
	items: Type.Array(Type.Object({ name: Type.String(), count: Type.Number() })),
});

function answerOfSize(bytes: number): string {
	const items = [];
	for (let index = 0; JSON.stringify(items).length < bytes; index++) {
		items.push({ name: `item ${index} with a \\"quoted\\" name and some text`, count: index });
	}
	return JSON.stringify({ title: "A long answer", items });
}

export default async function (): Promise<void> {
	const faux = registerFauxProvider({ api: "bench-structured", chunkCharacters: 64 });
	const model = faux.getModel();
	const context = { messages: [{ role: "user" as const, content: "Go", timestamp: 0 }] };
	const rows: Record<string, string | number>[] = [];
	try {
		for (const kilobytes of [16, 64, 256]) {
			const text = answerOfSize(kilobytes * 1024);
			const plain = await medianMs(async () => {
				faux.setResponses([text]);
				for await (const _event of stream(model, context)) {
					// read every event, as a caller would
				}
			}, 3);
			const objects = await medianMs(async () => {
				faux.setResponses([text]);
				let deltas = 0;
				for await (const event of streamObject(model, context, { schema: Answer })) {
					if (event.type === "object_delta") deltas++;
					if (event.type === "error") throw event.error;
				}
				if (deltas === 0) throw new Error("no partial objects");
			}, 3);
			rows.push({
				size: `${kilobytes} KB`,
				deltas: Math.ceil(text.length / 64),
				"stream ms": plain,
				"streamObject ms": objects,
				"streamObject µs per KB": (objects * 1000) / (text.length / 1024),
				ratio: objects / plain,
			});
		}
	} finally {
		faux.unregister();
	}
	printTable(rows);
}
