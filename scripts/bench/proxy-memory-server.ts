// The server half of proxy-memory.bench.ts, run in its own process so its RSS is the proxy's alone:
// the Node proxy handler on 127.0.0.1 with a stream function that, like a provider, encodes the
// context into a request payload and holds it for the length of an upstream call. It prints
// `READY <url>`, samples its RSS every 5 ms, and answers GET /stats with the figures.
import { createServer } from "node:http";
import { register } from "node:module";
import type { AddressInfo } from "node:net";
import { pathToFileURL } from "node:url";

// The proxy sources import "@keel/ai"; map it to the sources so no build is needed.
const source = (path: string) => pathToFileURL(new URL(`../../packages/ai/src/${path}`, import.meta.url).pathname).href;
register(
	`data:text/javascript,${encodeURIComponent(`
const targets = { "@keel/ai": ${JSON.stringify(source("index.ts"))} };
export async function resolve(specifier, context, next) {
	if (specifier in targets) return { url: targets[specifier], shortCircuit: true };
	return next(specifier, context);
}`)}`,
);

const ai = await import("../../packages/ai/src/index.js");
const { createProxyHandler } = await import("../../packages/proxy/src/node.js");

/** How long the simulated upstream call holds its payload, in ms. */
const HOLD_MS = Number(process.env.BENCH_HOLD_MS ?? 300);
const maxInFlight = process.env.BENCH_MAX_IN_FLIGHT ? Number(process.env.BENCH_MAX_IN_FLIGHT) : undefined;

const model = {
	id: "bench-model",
	name: "Bench",
	api: "bench",
	provider: "bench",
	baseUrl: "http://127.0.0.1:1",
	reasoning: false,
	input: ["text" as const],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 1_000_000,
	maxTokens: 1000,
};

const streamFunction = (streamModel: typeof model, context: { messages: unknown[] }) => {
	const stream = ai.createAssistantMessageEventStream();
	const builder = new ai.AssistantMessageBuilder(streamModel, (event) => stream.push(event));
	builder.start();
	// What a provider does with the context: encode it into its own request body.
	const payload = JSON.stringify({ model: streamModel.id, messages: context.messages });
	setTimeout(() => {
		const index = builder.startText();
		builder.appendText(index, `sent ${payload.length} characters`);
		builder.endText(index);
		builder.finish("stop");
		stream.end();
	}, HOLD_MS);
	return stream;
};

const handler = createProxyHandler({
	authenticate: () => true,
	models: [model],
	streamFunction: streamFunction as never,
	heartbeatMs: 0,
	maxInFlightRequestBytes: maxInFlight,
});

const baseline = process.memoryUsage().rss;
let peak = baseline;
setInterval(() => {
	peak = Math.max(peak, process.memoryUsage().rss);
}, 5).unref();

const server = createServer((request, response) => {
	if (request.url === "/stats") {
		peak = Math.max(peak, process.memoryUsage().rss);
		response.end(JSON.stringify({ baseline, peak, now: process.memoryUsage().rss }));
		return;
	}
	void handler(request, response);
});
server.listen(0, "127.0.0.1", () => {
	console.log(`READY http://127.0.0.1:${(server.address() as AddressInfo).port}`);
});
