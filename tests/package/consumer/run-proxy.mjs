// Run with plain `node` in a project that installed the packed tarballs with npm: serves the faux
// provider through @keel/proxy's Node handler on 127.0.0.1, streams one answer through it with
// streamProxy from the package root, and prints what happened as one JSON line for the test.
import { createServer } from "node:http";
import { registerFauxProvider } from "@keel/ai/testing";
import { streamProxy } from "@keel/proxy";
import { createProxyHandler, proxyServerTimeouts } from "@keel/proxy/node";
import { createFetchProxyHandler } from "@keel/proxy/server";

// Registered on the app's copy of @keel/ai: the proxy's server finds it only if @keel/proxy
// imports the same copy.
const faux = registerFauxProvider();
faux.setResponses(["Through the installed proxy."]);
const handler = createProxyHandler({ authenticate: (token) => token === "t", models: [faux.getModel()] });
const server = createServer(proxyServerTimeouts(), (request, response) => handler(request, response));
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const { port } = server.address();

const events = streamProxy(
	faux.getModel(),
	{ messages: [{ role: "user", content: "Hello", timestamp: Date.now() }] },
	{ proxyUrl: `http://127.0.0.1:${port}`, authToken: "t" },
);
let streamedText = "";
for await (const event of events) {
	if (event.type === "text_delta") streamedText += event.delta;
}
const message = await events.result();
server.close();
console.log(
	JSON.stringify({
		streamedText,
		stopReason: message.stopReason,
		errorMessage: message.errorMessage ?? null,
		fetchHandler: typeof createFetchProxyHandler,
	}),
);
