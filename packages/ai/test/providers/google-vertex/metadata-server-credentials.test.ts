// The last step of Application Default Credentials: without a key file, Vertex AI calls take the
// token of the service account attached to the Google Cloud machine from its metadata server
// (GET …/instance/service-accounts/default/token with Metadata-Flavor: Google). GCE_METADATA_HOST
// points it at a local metadata server here. Off Google Cloud the call fails fast and says so.
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearGoogleAccessTokens } from "../../../src/providers/google-vertex/google-access-token.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import { METADATA_TIMEOUT_MS } from "../../../src/providers/google-vertex/metadata-server-token.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { textAnswer, vertexModel } from "../google-generative-ai/fixtures.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };
const VARIABLES = ["GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_API_KEY", "HOME", "GCE_METADATA_HOST"];
const TOKEN_PATH = "/computeMetadata/v1/instance/service-accounts/default/token";

/** How the metadata server answers the next token request. */
let answer: "token" | "no-service-account" | "server-error" | "hang" = "token";
let tokenRequests: IncomingMessage[] = [];
let server: Server;
let host: string;
const sockets = new Set<Socket>();
let saved: Record<string, string | undefined> = {};

beforeAll(async () => {
	server = createServer((request, response) => {
		tokenRequests.push(request);
		// The metadata server refuses requests without the header, so that a page cannot make one.
		if (request.headers["metadata-flavor"] !== "Google" || request.url !== TOKEN_PATH) {
			response.writeHead(403, { "content-type": "text/plain" }).end("Missing Metadata-Flavor:Google header.");
			return;
		}
		if (answer === "hang") return;
		if (answer === "no-service-account") {
			response.writeHead(404, { "content-type": "text/plain" }).end("Not Found");
			return;
		}
		if (answer === "server-error") {
			response.writeHead(503, { "content-type": "text/plain" }).end("Service Unavailable");
			return;
		}
		response.writeHead(200, { "content-type": "application/json", "metadata-flavor": "Google" });
		response.end(
			JSON.stringify({
				access_token: `ya29.metadata-token-${tokenRequests.length}`,
				expires_in: 3599,
				token_type: "Bearer",
			}),
		);
	});
	server.on("connection", (socket) => {
		sockets.add(socket);
		socket.on("close", () => sockets.delete(socket));
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	host = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
	for (const socket of sockets) socket.destroy();
	await new Promise((resolve) => server.close(resolve));
});
beforeEach(() => {
	saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of VARIABLES) delete process.env[name];
	process.env.HOME = "/nonexistent-keel-test-home";
	process.env.GCE_METADATA_HOST = host;
	answer = "token";
	tokenRequests = [];
	clearGoogleAccessTokens();
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

/** A local host:port where nothing listens: a server's port, after the server closed. */
async function closedLocalPort(): Promise<string> {
	const probe = createServer();
	await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
	const { port } = probe.address() as AddressInfo;
	await new Promise((resolve) => probe.close(resolve));
	return `127.0.0.1:${port}`;
}

function call(maxRetries = 0) {
	return streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, {
		project: "proj",
		location: "us-central1",
		maxRetries,
	}).result();
}

describe("Vertex AI credentials from the metadata server", () => {
	it("sends the attached service account's token, asked for with Metadata-Flavor: Google, and reuses it", async () => {
		wire.server.enqueue({ body: textAnswer(["one"]) }, { body: textAnswer(["two"]) });
		const first = await call();
		const second = await call();
		expect([first.errorMessage, second.errorMessage]).toEqual([undefined, undefined]);
		expect(tokenRequests).toHaveLength(1);
		expect(tokenRequests[0].method).toBe("GET");
		expect(wire.server.requests.map((request) => request.headers.authorization)).toEqual([
			"Bearer ya29.metadata-token-1",
			"Bearer ya29.metadata-token-1",
		]);
	});

	it("a key file comes first: the metadata server is not asked", async () => {
		process.env.GOOGLE_APPLICATION_CREDENTIALS = "/nonexistent-keel-test-home/key.json";
		const result = await call();
		expect(result.errorMessage).toContain(
			"Google credentials file /nonexistent-keel-test-home/key.json could not be read",
		);
		expect(tokenRequests).toHaveLength(0);
	});

	it("off Google Cloud (nothing listens) fails at once, saying what to set, without retries", async () => {
		process.env.GCE_METADATA_HOST = await closedLocalPort();
		const result = await call(2);
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toMatch(
			/^Vertex AI found no credentials: .*GOOGLE_APPLICATION_CREDENTIALS.*, or run on Google Cloud with a service account attached \(the Google Cloud metadata server at 127\.0\.0\.1:\d+ was tried: .*ECONNREFUSED.*\)$/,
		);
		expect(result.diagnostics ?? []).toEqual([]);
		// The refused connection ended the wait, not the metadata server's time limit.
		expect(result.errorMessage).not.toContain(`no answer within ${METADATA_TIMEOUT_MS} ms`);
		expect(wire.server.requests).toHaveLength(0);
	});

	it(
		"a metadata host that accepts the connection but never answers fails after the short limit",
		async () => {
			answer = "hang";
			const result = await call();
			expect(result.errorMessage).toContain(
				`(the Google Cloud metadata server at ${host} was tried: no answer within ${METADATA_TIMEOUT_MS} ms)`,
			);
		},
		METADATA_TIMEOUT_MS + 5000,
	);

	it("a machine without a service account gets the server's 404 and a hint, without retries", async () => {
		answer = "no-service-account";
		const result = await call(2);
		expect(result.errorMessage).toBe(
			`The Google Cloud metadata server at ${host} refused the token request (HTTP 404: Not Found); is a service account attached to this machine?`,
		);
		expect(tokenRequests).toHaveLength(1);
	});

	it("a metadata server error is retried like a provider's", async () => {
		answer = "server-error";
		const result = await call(1);
		expect(result.errorMessage).toContain(
			`503 The Google Cloud metadata server at ${host} failed (Service Unavailable)`,
		);
		expect(tokenRequests).toHaveLength(2);
	});
});
