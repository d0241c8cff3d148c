// google-vertex OAuth: Keel turns a service-account key (signed JWT, jwt-bearer grant) or an
// authorized-user file (refresh_token grant) into a bearer token at the credentials' token_uri —
// here a local token endpoint that checks the JWT's RS256 signature and claims.
import { createVerify, generateKeyPairSync, type KeyObject } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clearGoogleAccessTokens } from "../../../src/providers/google-vertex/google-access-token.js";
import { streamGoogleVertex } from "../../../src/providers/google-vertex/index.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { textAnswer, vertexModel } from "../google-generative-ai/fixtures.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };
const CLIENT_EMAIL = "keel-test@proj.iam.gserviceaccount.com";
const VARIABLES = ["GOOGLE_APPLICATION_CREDENTIALS", "GOOGLE_CLOUD_API_KEY", "HOME"];

interface TokenRequest {
	form: URLSearchParams;
	contentType: string | undefined;
}

/** What the local token endpoint answers next; by default a valid token. */
let nextAnswer: { status: number; body: unknown } | undefined;
let tokenRequests: TokenRequest[] = [];
let tokenServer: Server;
let tokenUri: string;
let directory: string;
let publicKey: KeyObject;
let privateKeyPem: string;
let saved: Record<string, string | undefined> = {};

function decodeSegment(segment: string): Record<string, unknown> {
	return JSON.parse(Buffer.from(segment, "base64url").toString("utf8"));
}

/** Checks a service account's JWT like Google's endpoint would: RS256 signature, issuer, scope, audience, lifetime. */
function verifyAssertion(assertion: string): string | undefined {
	const [header, claims, signature] = assertion.split(".");
	const verifier = createVerify("RSA-SHA256");
	verifier.update(`${header}.${claims}`);
	if (!verifier.verify(publicKey, Buffer.from(signature, "base64url"))) return "Invalid JWT Signature.";
	if (decodeSegment(header).alg !== "RS256") return "bad alg";
	const body = decodeSegment(claims);
	const now = Math.floor(Date.now() / 1000);
	if (body.iss !== CLIENT_EMAIL) return "bad iss";
	if (body.scope !== "https://www.googleapis.com/auth/cloud-platform") return "bad scope";
	if (body.aud !== tokenUri) return "bad aud";
	if (typeof body.iat !== "number" || Math.abs(body.iat - now) > 60) return "bad iat";
	if (body.exp !== body.iat + 3600) return "bad exp";
	return undefined;
}

beforeAll(async () => {
	const pair = generateKeyPairSync("rsa", { modulusLength: 2048 });
	publicKey = pair.publicKey;
	privateKeyPem = pair.privateKey.export({ type: "pkcs8", format: "pem" }).toString();
	directory = mkdtempSync(join(tmpdir(), "keel-vertex-oauth-"));
	tokenServer = createServer((request, response) => {
		let text = "";
		request.on("data", (chunk) => {
			text += chunk;
		});
		request.on("end", () => {
			const form = new URLSearchParams(text);
			tokenRequests.push({ form, contentType: request.headers["content-type"] });
			let answer = nextAnswer;
			if (!answer) {
				const grant = form.get("grant_type");
				const problem =
					grant === "urn:ietf:params:oauth:grant-type:jwt-bearer"
						? verifyAssertion(form.get("assertion") ?? "")
						: grant === "refresh_token" && form.get("refresh_token") === "refresh-secret-1"
							? undefined
							: "unexpected grant";
				answer = problem
					? { status: 400, body: { error: "invalid_grant", error_description: problem } }
					: {
							status: 200,
							body: { access_token: `ya29.token-${tokenRequests.length}`, expires_in: 3599, token_type: "Bearer" },
						};
			}
			response.writeHead(answer.status, { "content-type": "application/json" });
			response.end(JSON.stringify(answer.body));
		});
	});
	await new Promise<void>((resolve) => tokenServer.listen(0, "127.0.0.1", resolve));
	tokenUri = `http://127.0.0.1:${(tokenServer.address() as AddressInfo).port}/token`;
});

afterAll(async () => {
	await new Promise((resolve) => tokenServer.close(resolve));
	rmSync(directory, { recursive: true, force: true });
});

beforeEach(() => {
	saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of VARIABLES) delete process.env[name];
	process.env.HOME = directory;
	tokenRequests = [];
	nextAnswer = undefined;
	clearGoogleAccessTokens();
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

function serviceAccount(): Record<string, unknown> {
	return {
		type: "service_account",
		project_id: "proj",
		private_key_id: "key-1",
		private_key: privateKeyPem,
		client_email: CLIENT_EMAIL,
		token_uri: tokenUri,
	};
}

function writeCredentials(name: string, content: unknown): string {
	const path = join(directory, name);
	writeFileSync(path, typeof content === "string" ? content : JSON.stringify(content));
	return path;
}

function call(options: Record<string, unknown> = {}) {
	return streamGoogleVertex(vertexModel({ baseUrl: wire.server.url }), context, {
		project: "proj",
		location: "us-central1",
		maxRetries: 0,
		...options,
	}).result();
}

describe("google-vertex service-account credentials", () => {
	it("GOOGLE_APPLICATION_CREDENTIALS: a signed JWT is exchanged at token_uri and the token sent as a bearer", async () => {
		process.env.GOOGLE_APPLICATION_CREDENTIALS = writeCredentials("service-account.json", serviceAccount());
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await call();
		expect(result.stopReason, result.errorMessage).toBe("stop");
		expect(tokenRequests).toHaveLength(1);
		expect(tokenRequests[0].contentType).toBe("application/x-www-form-urlencoded");
		expect(tokenRequests[0].form.get("grant_type")).toBe("urn:ietf:params:oauth:grant-type:jwt-bearer");
		expect(wire.server.requests[0].headers.authorization).toBe("Bearer ya29.token-1");
	});

	it("reuses the token across calls: two calls, one token request", async () => {
		process.env.GOOGLE_APPLICATION_CREDENTIALS = writeCredentials("service-account.json", serviceAccount());
		wire.server.enqueue({ body: textAnswer(["one"]) });
		wire.server.enqueue({ body: textAnswer(["two"]) });
		await call();
		await call();
		expect(tokenRequests).toHaveLength(1);
		expect(wire.server.requests.map((request) => request.headers.authorization)).toEqual([
			"Bearer ya29.token-1",
			"Bearer ya29.token-1",
		]);
	});

	it("concurrent calls share one token request", async () => {
		wire.server.enqueue({ body: textAnswer(["one"]) });
		wire.server.enqueue({ body: textAnswer(["two"]) });
		const credentials = serviceAccount();
		const results = await Promise.all([call({ credentials }), call({ credentials })]);
		expect(results.map((result) => result.stopReason)).toEqual(["stop", "stop"]);
		expect(tokenRequests).toHaveLength(1);
	});

	it("options.credentials takes a key object and wins over an API key", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await call({ credentials: serviceAccount(), apiKey: "vertex-key-0123456789" });
		expect(result.stopReason, result.errorMessage).toBe("stop");
		expect(wire.server.requests[0].headers.authorization).toBe("Bearer ya29.token-1");
		expect(wire.server.requests[0].headers["x-goog-api-key"]).toBeUndefined();
	});

	it("a token endpoint 400 ends the call with its error and error_description, and sends nothing to Vertex", async () => {
		nextAnswer = { status: 400, body: { error: "invalid_grant", error_description: "Invalid JWT Signature." } };
		const result = await call({ credentials: serviceAccount() });
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("refused the token request (HTTP 400 invalid_grant: Invalid JWT Signature.)");
		expect(result.errorMessage).toContain(tokenUri);
		expect(result.errorMessage).not.toContain("PRIVATE KEY");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("a key signed by another key is refused by the endpoint's signature check", async () => {
		const other = generateKeyPairSync("rsa", { modulusLength: 2048 })
			.privateKey.export({ type: "pkcs8", format: "pem" })
			.toString();
		const result = await call({ credentials: { ...serviceAccount(), private_key: other } });
		expect(result.errorMessage).toContain("invalid_grant: Invalid JWT Signature.");
	});
});

describe("google-vertex authorized-user credentials", () => {
	it("gcloud's application_default_credentials.json: refresh_token grant, bearer token sent", async () => {
		const gcloud = join(directory, ".config", "gcloud");
		const { mkdirSync } = await import("node:fs");
		mkdirSync(gcloud, { recursive: true });
		writeFileSync(
			join(gcloud, "application_default_credentials.json"),
			JSON.stringify({
				type: "authorized_user",
				client_id: "client-1.apps.googleusercontent.com",
				client_secret: "client-secret-1",
				refresh_token: "refresh-secret-1",
				token_uri: tokenUri,
			}),
		);
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await call();
		rmSync(join(directory, ".config"), { recursive: true, force: true });
		expect(result.stopReason, result.errorMessage).toBe("stop");
		const form = tokenRequests[0].form;
		expect(form.get("grant_type")).toBe("refresh_token");
		expect(form.get("client_id")).toBe("client-1.apps.googleusercontent.com");
		expect(form.get("client_secret")).toBe("client-secret-1");
		expect(wire.server.requests[0].headers.authorization).toBe("Bearer ya29.token-1");
	});
});

describe("google-vertex malformed credentials", () => {
	it("a file without private_key names the file and the field, and never quotes a value", async () => {
		const { private_key: _removed, ...rest } = serviceAccount();
		const path = writeCredentials("no-key.json", { ...rest, client_email: "secret-looking@x" });
		process.env.GOOGLE_APPLICATION_CREDENTIALS = path;
		const result = await call();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain(`Google credentials in file ${path}: field "private_key" is missing`);
		expect(result.errorMessage).not.toContain("secret-looking");
		expect(tokenRequests).toHaveLength(0);
	});

	it("a file that is not JSON names the file", async () => {
		const path = writeCredentials("broken.json", "{ not json");
		process.env.GOOGLE_APPLICATION_CREDENTIALS = path;
		const result = await call();
		expect(result.errorMessage).toContain(`Google credentials file ${path} is not valid JSON`);
	});

	it("a private_key that is not PKCS#8 PEM is named, its content is not", async () => {
		const result = await call({ credentials: { ...serviceAccount(), private_key: "not-a-key-material" } });
		expect(result.errorMessage).toContain('Google credentials in options.credentials: field "private_key"');
		expect(result.errorMessage).not.toContain("not-a-key-material");
	});

	it("an unsupported credentials type is named", async () => {
		const path = writeCredentials("external.json", { type: "external_account" });
		process.env.GOOGLE_APPLICATION_CREDENTIALS = path;
		const result = await call();
		expect(result.errorMessage).toContain(`field "type" is "external_account"`);
	});
});
