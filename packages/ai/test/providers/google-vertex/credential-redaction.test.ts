// Vertex AI's OAuth credentials are kept out of every event and the result like an API key: the
// access token (given, or obtained from a service-account key or an authorized-user file), the
// service account's private key, the refresh token and client secret, and the signed assertion.
// Here the Vertex endpoint echoes the Authorization header it received in its error body, and the
// token endpoint echoes the form it was posted.
import { generateKeyPairSync } from "node:crypto";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearGoogleAccessTokens } from "../../../src/providers/google-vertex/google-access-token.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import type { GoogleVertexOptions } from "../../../src/providers/google-vertex/options.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { vertexModel } from "../google-generative-ai/fixtures.js";

const context = { messages: [userMessage("Hi")] };
const ACCESS_TOKEN = "ya29.a0AfB_byEchoedAccessToken0123456789abcdefghijklmnopqrstuvwxyz";
const REFRESH_TOKEN = "1//0gRefreshTokenQRSTUVW-9876543210zyxwvutsrq";
const CLIENT_SECRET = "GOCSPX-ClientSecretMNOPQ-5432";

/** How the token endpoint answers: a token, or a refusal quoting the whole form it was posted. */
let tokenEndpointEchoes = false;
/** Extra text the Vertex endpoint appends to its echo of the Authorization header. */
let vertexEchoExtra = "";
let server: Server;
let baseUrl: string;
let privateKeyPem: string;

beforeAll(async () => {
	privateKeyPem = generateKeyPairSync("rsa", { modulusLength: 2048 })
		.privateKey.export({ type: "pkcs8", format: "pem" })
		.toString();
	server = createServer((request, response) => {
		let text = "";
		request.on("data", (chunk) => {
			text += chunk;
		});
		request.on("end", () => {
			response.setHeader("content-type", "application/json");
			if (request.url === "/token") {
				if (tokenEndpointEchoes) {
					response.writeHead(400);
					response.end(JSON.stringify({ error: "invalid_grant", error_description: `bad request: ${text}` }));
				} else {
					response.end(JSON.stringify({ access_token: ACCESS_TOKEN, expires_in: 3599, token_type: "Bearer" }));
				}
				return;
			}
			response.writeHead(401);
			response.end(
				JSON.stringify({
					error: {
						code: 401,
						message: `Request had invalid credentials: ${request.headers.authorization}${vertexEchoExtra}`,
						status: "UNAUTHENTICATED",
					},
				}),
			);
		});
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
beforeEach(() => {
	tokenEndpointEchoes = false;
	vertexEchoExtra = "";
	clearGoogleAccessTokens();
});

function serviceAccount() {
	return {
		type: "service_account" as const,
		client_email: "keel-test@proj.iam.gserviceaccount.com",
		private_key: privateKeyPem,
		token_uri: `${baseUrl}/token`,
	};
}

function authorizedUser() {
	return {
		type: "authorized_user" as const,
		client_id: "client-1.apps.googleusercontent.com",
		client_secret: CLIENT_SECRET,
		refresh_token: REFRESH_TOKEN,
		token_uri: `${baseUrl}/token`,
	};
}

async function run(options: GoogleVertexOptions) {
	const events: AssistantMessageEvent[] = [];
	const response = streamGoogleVertex(vertexModel({ baseUrl }), context, {
		project: "proj",
		location: "us-central1",
		maxRetries: 0,
		...options,
	});
	for await (const event of response) events.push(event);
	return { events: JSON.stringify(events), message: await response.result() };
}

/** Every 7-character piece of `secret` found in `text`. */
function leakedPieces(text: string, secret: string): string[] {
	const found: string[] = [];
	for (let start = 0; start + 7 <= secret.length; start++) {
		if (text.includes(secret.slice(start, start + 7))) found.push(secret.slice(start, start + 7));
	}
	return found;
}

describe("a Vertex access token echoed by the server", () => {
	it.each([
		["options.accessToken (a string)", () => ({ accessToken: ACCESS_TOKEN })],
		["options.accessToken (a function)", () => ({ accessToken: async () => ACCESS_TOKEN })],
		["a token obtained for options.credentials (service account)", () => ({ credentials: serviceAccount() })],
		["a token obtained for options.credentials (authorized user)", () => ({ credentials: authorizedUser() })],
	] as [string, () => GoogleVertexOptions][])(
		"from %s, never appears in an event or the result",
		async (_way, options) => {
			const { events, message } = await run(options());
			expect(message.errorMessage).toContain(
				"401 Request had invalid credentials: Bearer [redacted] (UNAUTHENTICATED)",
			);
			expect(leakedPieces(events, ACCESS_TOKEN)).toEqual([]);
		},
	);

	it("nor does a line of the service account's private key", async () => {
		const keyLine = privateKeyPem.split("\n")[5];
		vertexEchoExtra = `; key line ${keyLine}`;
		const { events, message } = await run({ credentials: serviceAccount() });
		expect(message.errorMessage).toContain("key line [redacted]");
		expect(leakedPieces(events, keyLine)).toEqual([]);
	});
});

describe("a token endpoint that echoes the form it was posted", () => {
	it("never gets the refresh token or the client secret into the result", async () => {
		tokenEndpointEchoes = true;
		const { events, message } = await run({ credentials: authorizedUser() });
		expect(message.errorMessage).toContain("refused the token request (HTTP 400 invalid_grant: bad request:");
		expect(leakedPieces(events, REFRESH_TOKEN)).toEqual([]);
		expect(leakedPieces(events, CLIENT_SECRET)).toEqual([]);
	});

	it("never gets the signed assertion into the result", async () => {
		tokenEndpointEchoes = true;
		const { events, message } = await run({ credentials: serviceAccount() });
		expect(message.errorMessage).toContain("assertion=[redacted]");
		// The assertion's signature is its secret part: none of it is left.
		expect(events).not.toMatch(/assertion=[A-Za-z0-9_-]{7}/);
	});
});
