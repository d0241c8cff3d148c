// Browser logins against a local authorization server: the test's "browser" follows the
// authorization page's redirect to the loopback server, as a user's browser would after consent.
import { createHash } from "node:crypto";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createPkceChallenge, createPkcePair, OAuthError } from "../../src/credentials/index.js";
import { loginWithGoogle, loginWithOpenRouter } from "../../src/credentials/node/index.js";
import {
	type OAuthTestServer,
	type RecordedRequest,
	sendJson,
	startOAuthTestServer,
	visitInBrowser,
} from "./oauth-test-server.js";

let server: OAuthTestServer;
/** What the authorization page does once the user has decided. */
let decision: "approve" | "deny";
/** The code challenge each issued code was bound to, as an authorization server remembers it. */
let challenges: Map<string, string>;

function s256(verifier: string): string {
	return createHash("sha256").update(verifier).digest("base64url");
}

function redirectAfterConsent(
	request: RecordedRequest,
	response: import("node:http").ServerResponse,
	redirectParameter: string,
) {
	const target = new URL(request.query.get(redirectParameter) as string);
	if (decision === "deny") {
		target.searchParams.set("error", "access_denied");
	} else {
		const code = `code-${challenges.size + 1}-0123456789`;
		challenges.set(code, request.query.get("code_challenge") as string);
		target.searchParams.set("code", code);
	}
	const state = request.query.get("state");
	if (state) target.searchParams.set("state", state);
	response.writeHead(302, { location: target.toString() }).end();
}

beforeEach(async () => {
	server = await startOAuthTestServer();
	decision = "approve";
	challenges = new Map();
	server.route("/o/oauth2/v2/auth", (request, response) => redirectAfterConsent(request, response, "redirect_uri"));
	server.route("/auth", (request, response) => redirectAfterConsent(request, response, "callback_url"));
	server.route("/token", (request, response) => {
		const { code, code_verifier: verifier } = request.body;
		if (!challenges.has(code) || s256(verifier) !== challenges.get(code)) {
			return sendJson(response, 400, {
				error: "invalid_grant",
				error_description: `Code ${code} is expired or was used`,
			});
		}
		challenges.delete(code);
		sendJson(response, 200, {
			access_token: "ya29.issued-access",
			refresh_token: "1//issued-refresh",
			expires_in: 3599,
			token_type: "Bearer",
		});
	});
	server.route("/api/v1/auth/keys", (request, response) => {
		const { code, code_verifier: verifier } = request.body;
		if (!challenges.has(code) || s256(verifier) !== challenges.get(code)) {
			return sendJson(response, 403, { error: { code: 403, message: `Invalid code ${code} or code_verifier` } });
		}
		challenges.delete(code);
		sendJson(response, 200, { key: "sk-or-v1-issued-key", user_id: "user-1" });
	});
});
afterEach(async () => {
	await server.close();
});

function googleLogin(openUrl: (url: string) => Promise<void> = visitInBrowser) {
	return loginWithGoogle({
		clientId: "my-client.apps.googleusercontent.com",
		clientSecret: "my-client-secret",
		openUrl,
		authorizationUrl: `${server.url}/o/oauth2/v2/auth`,
		tokenUrl: `${server.url}/token`,
		timeoutMs: 10_000,
	});
}

describe("PKCE", () => {
	it("derives the S256 challenge of RFC 7636's example", async () => {
		expect(await createPkceChallenge("dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk")).toBe(
			"E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
		);
	});

	it("makes a 43-character URL-safe verifier, a different one each time", async () => {
		const [first, second] = await Promise.all([createPkcePair(), createPkcePair()]);
		expect(first.verifier).toMatch(/^[A-Za-z0-9_-]{43}$/);
		expect(first.verifier).not.toBe(second.verifier);
		expect(first.challenge).toBe(s256(first.verifier));
	});
});

describe("Google login with the user's own client", () => {
	it("returns a refreshable credential after consent, having proved the PKCE verifier", async () => {
		let openedUrl = "";
		const credential = await googleLogin(async (url) => {
			openedUrl = url;
			await visitInBrowser(url);
		});
		const authorization = new URL(openedUrl).searchParams;
		expect(Object.fromEntries(authorization)).toMatchObject({
			response_type: "code",
			client_id: "my-client.apps.googleusercontent.com",
			scope: "https://www.googleapis.com/auth/cloud-platform",
			code_challenge_method: "S256",
			access_type: "offline",
		});
		expect(authorization.get("redirect_uri")).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/callback$/);
		expect(credential).toMatchObject({
			type: "oauth",
			access: "ya29.issued-access",
			refresh: "1//issued-refresh",
			tokenUrl: `${server.url}/token`,
			clientId: "my-client.apps.googleusercontent.com",
			clientSecret: "my-client-secret",
		});
		expect(credential.expiresAt).toBeGreaterThan(Date.now() + 3_500_000);
		const tokenRequest = server.requests.find((request) => request.path === "/token");
		expect(tokenRequest?.body).toMatchObject({
			grant_type: "authorization_code",
			redirect_uri: authorization.get("redirect_uri"),
			client_secret: "my-client-secret",
		});
	});

	it("fails with access_denied when the user refuses, and sends no token request", async () => {
		decision = "deny";
		const failure = await googleLogin().catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(OAuthError);
		expect((failure as OAuthError).code).toBe("access_denied");
		expect((failure as OAuthError).message).toBe(
			"Authorization was denied: the login was cancelled or refused in the browser",
		);
		expect(server.requests.filter((request) => request.path === "/token")).toEqual([]);
	});

	it("fails an expired code with invalid_grant and a message without the code", async () => {
		// The authorization server forgets the code before the exchange, as after its 10-minute life.
		const failure = await googleLogin(async (url) => {
			await visitInBrowser(url);
			challenges.clear();
		}).catch((error: unknown) => error);
		expect((failure as OAuthError).code).toBe("invalid_grant");
		expect((failure as OAuthError).message).toMatch(
			/^OAuth authorization code exchange failed: http:\/\/127\.0\.0\.1:\d+\/token answered 400 invalid_grant: Code \[redacted\] is expired or was used$/,
		);
	});

	it("ignores a redirect that does not carry the login's state and keeps waiting for the right one", async () => {
		const credential = await googleLogin(async (url) => {
			const redirect = new URL(new URL(url).searchParams.get("redirect_uri") as string);
			redirect.searchParams.set("code", "forged-code");
			redirect.searchParams.set("state", "another-state");
			const forged = await fetch(redirect);
			expect(forged.status).toBe(400);
			await visitInBrowser(url);
		});
		expect(credential.access).toBe("ya29.issued-access");
	});

	it("says what is missing when no client id is given", async () => {
		await expect(loginWithGoogle({ clientId: "", openUrl: visitInBrowser })).rejects.toThrow(
			"Google login needs the client id of your own OAuth client (clientId), from the Google Cloud console",
		);
	});

	it("stops waiting when the login is aborted", async () => {
		const controller = new AbortController();
		const failure = await loginWithGoogle({
			clientId: "my-client",
			openUrl: () => controller.abort(),
			authorizationUrl: `${server.url}/o/oauth2/v2/auth`,
			signal: controller.signal,
		}).catch((error: unknown) => error);
		expect((failure as OAuthError).code).toBe("aborted");
	});
});

describe("OpenRouter login", () => {
	it("exchanges the code for the user's API key with the PKCE verifier, as JSON", async () => {
		let openedUrl = "";
		const credential = await loginWithOpenRouter({
			openUrl: async (url) => {
				openedUrl = url;
				// OpenRouter's documented callback host is localhost; the test's "browser" reaches the
				// same loopback server by address.
				await visitInBrowser(url.replace(/callback_url=http%3A%2F%2Flocalhost/, "callback_url=http%3A%2F%2F127.0.0.1"));
			},
			authorizationUrl: `${server.url}/auth`,
			keyExchangeUrl: `${server.url}/api/v1/auth/keys`,
			timeoutMs: 10_000,
		});
		expect(credential).toEqual({ type: "api-key", key: "sk-or-v1-issued-key" });
		expect(new URL(openedUrl).searchParams.get("callback_url")).toMatch(/^http:\/\/localhost:\d+\/callback$/);
		const exchange = server.requests.find((request) => request.path === "/api/v1/auth/keys");
		expect(exchange?.headers["content-type"]).toBe("application/json");
		expect(exchange?.body.code_challenge_method).toBe("S256");
	});

	it("fails a refused code with a message that holds neither the code nor the verifier", async () => {
		const failure = await loginWithOpenRouter({
			openUrl: async (url) => {
				await visitInBrowser(url.replace(/callback_url=http%3A%2F%2Flocalhost/, "callback_url=http%3A%2F%2F127.0.0.1"));
				challenges.clear();
			},
			authorizationUrl: `${server.url}/auth`,
			keyExchangeUrl: `${server.url}/api/v1/auth/keys`,
			timeoutMs: 10_000,
		}).catch((error: unknown) => error);
		const exchange = server.requests.find((request) => request.path === "/api/v1/auth/keys");
		expect((failure as OAuthError).code).toBe("invalid_grant");
		expect((failure as OAuthError).message).toContain(
			"answered 403 invalid_grant: Invalid code [redacted] or code_verifier",
		);
		expect((failure as OAuthError).message).not.toContain(exchange?.body.code_verifier);
	});
});
