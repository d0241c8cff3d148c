// Runs the example with the faux provider (no key needed):
//   node --import tsx packages/proxy/examples/web/main.ts
// then open the printed URL. With a real provider, pass its Model in `models` and let the server
// read its key from the environment (for example ANTHROPIC_API_KEY).
import { mkdtemp } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fauxAssistantMessage, fauxText, fauxToolCall, registerFauxProvider } from "@keel/ai/testing";
import { bundleExample } from "./build.js";
import { startExampleServer } from "./server.js";

const faux = registerFauxProvider({ tokensPerSecond: 40 });
// Answers every prompt the same way: a tool call, then a sentence that uses its result.
const answer = (_context: unknown, _options: unknown, callIndex: number) =>
	callIndex % 2 === 0
		? fauxAssistantMessage([fauxText("Let me add those."), fauxToolCall("add_numbers", { a: 2, b: 3 })])
		: fauxAssistantMessage("The sum of 2 and 3 is 5.");
faux.setResponses(Array.from({ length: 100 }, () => answer));

const directory = await mkdtemp(join(tmpdir(), "keel-proxy-example-"));
await bundleExample(directory);
const server = await startExampleServer({
	directory,
	port: Number(process.env.PORT ?? 0),
	proxy: { authenticate: (token) => token === "demo-token", models: [faux.getModel()] },
});
console.log(`Example running at ${server.url}/?token=demo-token (Ctrl+C to stop)`);
