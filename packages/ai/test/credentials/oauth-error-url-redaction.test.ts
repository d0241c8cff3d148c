// A token URL can carry a key (`http://user:PASSWORD@host/token?key=…`). No OAuth error quotes it:
// every path shows the endpoint as scheme, host and path, and the URL's credentials are redacted
// wherever else they appear (a fetch error, a server echoing the request).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	CredentialError,
	createMemoryCredentialStore,
	exchangeAuthorizationCode,
	exchangeOpenRouterCode,
	OAuthError,
	pollDeviceAuthorization,
	refreshOAuthCredential,
	resolveApiKey,
	startDeviceAuthorization,
} from "../../src/credentials/index.js";
import { type OAuthTestServer, sendJson, startOAuthTestServer } from "./oauth-test-server.js";

const PASSWORD = "hunter2-url-password";
const QUERY_KEY = "QUERYKEY-0123456789abcdef";

let server: OAuthTestServer;
beforeEach(async () => {
	server = await startOAuthTestServer();
});
afterEach(async () => {
	await server.close();
});

/** The local server's URL for `path`, with a user, a password and a key in its query string. */
function urlWithCredentials(path: string): string {
	const url = new URL(path, server.url);
	url.username = "client-user";
	url.password = PASSWORD;
	url.searchParams.set("key", QUERY_KEY);
	return url.toString();
}

/**
 * fetch as a runtime that accepts user info in a URL would run it (Node's refuses such URLs, which is
 * the network-failure path tested below): the request reaches the local server.
 */
const lenientFetch: typeof fetch = (input, init) => {
	const url = new URL(String(input));
	url.username = "";
	url.password = "";
	return fetch(url, init);
};

async function failure(promise: Promise<unknown>): Promise<Error> {
	try {
		await promise;
	} catch (error) {
		return error as Error;
	}
	throw new Error("expected a failure");
}

function expectNoUrlCredentials(error: Error, path: string): void {
	expect(error.message).not.toContain(PASSWORD);
	expect(error.message).not.toContain(QUERY_KEY);
	expect(error.message).not.toContain("client-user");
	expect(error.message).toContain(`${server.url}${path}`);
}

const refreshable = (tokenUrl: string) => ({
	type: "oauth" as const,
	access: "old-access-token",
	refresh: "refresh-token-0123456789",
	expiresAt: 0,
	tokenUrl,
	clientId: "client-id",
});

describe("OAuth errors never quote the credentials of a token URL", () => {
	it("a token endpoint's error answer (authorization code exchange)", async () => {
		server.route("/token", (_request, response) =>
			sendJson(response, 400, { error: "invalid_grant", error_description: "bad code" }),
		);
		const error = await failure(
			exchangeAuthorizationCode({
				tokenUrl: urlWithCredentials("/token"),
				clientId: "client-id",
				code: "the-code-0123456789",
				codeVerifier: "verifier-0123456789",
				redirectUri: "http://127.0.0.1/callback",
				fetch: lenientFetch,
			}),
		);
		expect(error).toBeInstanceOf(OAuthError);
		expect((error as OAuthError).code).toBe("invalid_grant");
		expectNoUrlCredentials(error, "/token");
	});

	it("an error answer that echoes the request URL", async () => {
		server.route("/token", (_request, response) =>
			sendJson(response, 401, {
				error: "invalid_client",
				error_description: `no client at ${urlWithCredentials("/token")}`,
			}),
		);
		const error = await failure(
			refreshOAuthCredential(refreshable(urlWithCredentials("/token")), { fetch: lenientFetch }),
		);
		expectNoUrlCredentials(error, "/token");
	});

	it("a body that is not JSON", async () => {
		server.route("/token", (_request, response) => {
			response.writeHead(502, { "content-type": "text/html" }).end("<html>bad gateway</html>");
		});
		const error = await failure(
			refreshOAuthCredential(refreshable(urlWithCredentials("/token")), { fetch: lenientFetch }),
		);
		expect((error as OAuthError).code).toBe("http_502");
		expectNoUrlCredentials(error, "/token");
	});

	it("an answer without an access token", async () => {
		server.route("/token", (_request, response) => sendJson(response, 200, { token_type: "bearer" }));
		const error = await failure(
			refreshOAuthCredential(refreshable(urlWithCredentials("/token")), { fetch: lenientFetch }),
		);
		expect((error as OAuthError).code).toBe("invalid_response");
		expectNoUrlCredentials(error, "/token");
	});

	it("a network failure: fetch refuses the URL and quotes it", async () => {
		// Node's fetch refuses URLs with user info, naming the URL in its message.
		const error = await failure(refreshOAuthCredential(refreshable(urlWithCredentials("/token"))));
		expect((error as OAuthError).code).toBe("network_error");
		expectNoUrlCredentials(error, "/token");
	});

	it("a network failure: nothing listens", async () => {
		const tokenUrl = urlWithCredentials("/token");
		await server.close();
		const error = await failure(refreshOAuthCredential(refreshable(tokenUrl), { fetch: lenientFetch }));
		expect((error as OAuthError).code).toBe("network_error");
		expectNoUrlCredentials(error, "/token");
		server = await startOAuthTestServer();
	});

	it("the device flow: the device authorization endpoint fails or answers without codes", async () => {
		server.route("/device", (_request, response) => sendJson(response, 400, { error: "invalid_client" }));
		const refused = await failure(
			startDeviceAuthorization({
				deviceAuthorizationUrl: urlWithCredentials("/device"),
				clientId: "c",
				fetch: lenientFetch,
			}),
		);
		expectNoUrlCredentials(refused, "/device");
		server.route("/device", (_request, response) => sendJson(response, 200, { user_code: "ABCD" }));
		const incomplete = await failure(
			startDeviceAuthorization({
				deviceAuthorizationUrl: urlWithCredentials("/device"),
				clientId: "c",
				fetch: lenientFetch,
			}),
		);
		expect((incomplete as OAuthError).code).toBe("invalid_response");
		expectNoUrlCredentials(incomplete, "/device");
	});

	it("the device flow: polling the token endpoint fails", async () => {
		server.route("/token", (_request, response) => sendJson(response, 400, { error: "unsupported_grant_type" }));
		const error = await failure(
			pollDeviceAuthorization({
				tokenUrl: urlWithCredentials("/token"),
				clientId: "c",
				authorization: {
					deviceCode: "device-code-0123456789",
					userCode: "ABCD",
					verificationUri: "https://example.com/device",
					expiresIn: 900,
					interval: 1,
				},
				wait: async () => {},
				fetch: lenientFetch,
			}),
		);
		expect((error as OAuthError).code).toBe("unsupported_grant_type");
		expectNoUrlCredentials(error, "/token");
	});

	it("a refresh during key resolution: the CredentialError carries the redacted reason", async () => {
		server.route("/token", (_request, response) => sendJson(response, 400, { error: "invalid_grant" }));
		const store = createMemoryCredentialStore();
		await store.set("example", refreshable(urlWithCredentials("/token")));
		const error = await failure(resolveApiKey("example", { store, fetch: lenientFetch }));
		expect(error).toBeInstanceOf(CredentialError);
		expectNoUrlCredentials(error, "/token");
	});

	it("OpenRouter's key exchange answering without a key", async () => {
		server.route("/keys", (_request, response) => sendJson(response, 200, {}));
		const error = await failure(
			exchangeOpenRouterCode({
				code: "code-0123456789",
				codeVerifier: "verifier-0123456789",
				keyExchangeUrl: urlWithCredentials("/keys"),
				fetch: lenientFetch,
			}),
		);
		expect((error as OAuthError).code).toBe("invalid_response");
		expectNoUrlCredentials(error, "/keys");
	});
});
