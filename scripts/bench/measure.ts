// Small helpers shared by the benchmark files.

/** Runs `task` `repeat` times after one warm-up run and returns the median time in ms. */
export async function medianMs(task: () => unknown | Promise<unknown>, repeat = 5): Promise<number> {
	await task();
	const times: number[] = [];
	for (let index = 0; index < repeat; index++) {
		const start = performance.now();
		await task();
		times.push(performance.now() - start);
	}
	times.sort((a, b) => a - b);
	return times[Math.floor(times.length / 2)];
}

/** Prints rows as an aligned table. */
export function printTable(rows: Record<string, string | number>[]): void {
	if (rows.length === 0) return;
	const headers = Object.keys(rows[0]);
	const cells = rows.map((row) => headers.map((header) => formatCell(row[header])));
	const widths = headers.map((header, column) => Math.max(header.length, ...cells.map((row) => row[column].length)));
	const line = (values: string[]) => `| ${values.map((value, column) => value.padEnd(widths[column])).join(" | ")} |`;
	console.log(line(headers));
	console.log(line(widths.map((width) => "-".repeat(width))));
	for (const row of cells) console.log(line(row));
}

function formatCell(value: string | number | undefined): string {
	if (typeof value === "number") return Number.isInteger(value) ? String(value) : value.toFixed(value < 10 ? 3 : 1);
	return value ?? "";
}

/**
 * The floor for a streaming provider: raw fetch of the same SSE body, split into events, each
 * `data:` line JSON.parse'd. A provider through its SDK is compared against this in the same run.
 */
export async function sseFloorMs(url: string, init: RequestInit): Promise<{ events: number }> {
	const response = await fetch(url, init);
	if (!response.body) throw new Error("floor: response has no body");
	const decoder = new TextDecoder();
	let buffer = "";
	let events = 0;
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
		buffer += decoder.decode(chunk, { stream: true });
		let boundary = buffer.indexOf("\n\n");
		while (boundary !== -1) {
			const block = buffer.slice(0, boundary);
			buffer = buffer.slice(boundary + 2);
			for (const line of block.split("\n")) {
				if (line.startsWith("data:")) {
					const data = line.slice(5).trim();
					if (data !== "[DONE]") JSON.parse(data);
					events++;
				}
			}
			boundary = buffer.indexOf("\n\n");
		}
	}
	return { events };
}
