// GitHub's device flow against a local server that answers the way GitHub does: errors with
// status 200 and an `error` field, `interval` sent with slow_down. Waits are recorded, not slept.
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { type DeviceAuthorization, loginWithGitHubDeviceFlow, OAuthError } from "../../src/credentials/index.js";
import { type OAuthTestServer, sendJson, startOAuthTestServer } from "./oauth-test-server.js";

let server: OAuthTestServer;
let waits: number[];
/** The token endpoint's answers, one per poll, in order. */
let pollAnswers: Record<string, unknown>[];

beforeEach(async () => {
	server = await startOAuthTestServer();
	waits = [];
	pollAnswers = [];
	server.route("/login/device/code", (_request, response) =>
		sendJson(response, 200, {
			device_code: "device-code-0123456789abcdef",
			user_code: "WDJB-MJHT",
			verification_uri: "https://github.com/login/device",
			expires_in: 900,
			interval: 5,
		}),
	);
	server.route("/login/oauth/access_token", (_request, response) =>
		sendJson(response, 200, pollAnswers.shift() ?? { error: "authorization_pending" }),
	);
});
afterEach(async () => {
	await server.close();
});

function login(onUserCode: (authorization: DeviceAuthorization) => void = () => {}) {
	return loginWithGitHubDeviceFlow({
		clientId: "Iv1.my-own-app",
		scope: "read:user",
		onUserCode,
		deviceCodeUrl: `${server.url}/login/device/code`,
		tokenUrl: `${server.url}/login/oauth/access_token`,
		wait: async (milliseconds) => {
			waits.push(milliseconds);
		},
	});
}

function polls() {
	return server.requests.filter((request) => request.path === "/login/oauth/access_token");
}

describe("GitHub's device flow", () => {
	it("shows the user code, polls while authorization is pending, slows down by 5 s when told, then returns the token", async () => {
		pollAnswers = [
			{ error: "authorization_pending" },
			{ error: "slow_down", error_description: "Too many requests", interval: 10 },
			{ error: "authorization_pending" },
			{ access_token: "gho_device-token-value", token_type: "bearer", scope: "read:user" },
		];
		let shown: DeviceAuthorization | undefined;
		const credential = await login((authorization) => {
			shown = authorization;
		});
		expect(shown).toMatchObject({
			userCode: "WDJB-MJHT",
			verificationUri: "https://github.com/login/device",
			interval: 5,
		});
		expect(waits).toEqual([5000, 5000, 10_000, 10_000]);
		expect(polls().map((request) => request.body)).toEqual(
			Array(4).fill({
				grant_type: "urn:ietf:params:oauth:grant-type:device_code",
				device_code: "device-code-0123456789abcdef",
				client_id: "Iv1.my-own-app",
			}),
		);
		expect(polls()[0].headers.accept).toBe("application/json");
		expect(credential).toEqual({
			type: "oauth",
			access: "gho_device-token-value",
			tokenUrl: `${server.url}/login/oauth/access_token`,
			clientId: "Iv1.my-own-app",
			scope: "read:user",
		});
	});

	it("adds 5 s to the interval on slow_down when the server names no interval (RFC 8628)", async () => {
		pollAnswers = [{ error: "slow_down" }, { error: "slow_down" }, { access_token: "gho_token", token_type: "bearer" }];
		await login();
		expect(waits).toEqual([5000, 10_000, 15_000]);
	});

	it("ends with access_denied when the user refuses", async () => {
		pollAnswers = [{ error: "authorization_pending" }, { error: "access_denied" }];
		const failure = await login().catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(OAuthError);
		expect((failure as OAuthError).code).toBe("access_denied");
		expect((failure as OAuthError).message).toBe("The device login was denied: the user refused the request");
	});

	it("ends with expired_token when the codes expire before approval", async () => {
		pollAnswers = [{ error: "expired_token" }];
		await expect(login()).rejects.toMatchObject({
			code: "expired_token",
			message: "The device login expired before it was approved; start it again",
		});
	});

	it("keeps a refresh token and expiry when the app issues expiring tokens", async () => {
		pollAnswers = [
			{ access_token: "ghu_expiring", expires_in: 28_800, refresh_token: "ghr_refresh", token_type: "bearer" },
		];
		const before = Date.now();
		const credential = await login();
		expect(credential.refresh).toBe("ghr_refresh");
		expect(credential.expiresAt).toBeGreaterThanOrEqual(before + 28_800_000);
	});

	it("reports another error with GitHub's description and without the device code", async () => {
		pollAnswers = [
			{
				error: "device_flow_disabled",
				error_description: "Device flow must be enabled for device-code-0123456789abcdef",
			},
		];
		const failure = (await login().catch((error: unknown) => error)) as OAuthError;
		expect(failure.code).toBe("device_flow_disabled");
		expect(failure.message).toMatch(
			/^OAuth device login failed: http:\/\/127\.0\.0\.1:\d+\/login\/oauth\/access_token answered 200 device_flow_disabled: Device flow must be enabled for \[redacted\]$/,
		);
	});

	it("asks for the client id of the user's own app", async () => {
		await expect(loginWithGitHubDeviceFlow({ clientId: "", onUserCode: () => {} })).rejects.toThrow(
			"GitHub's device flow needs the client id of your own GitHub OAuth app (clientId)",
		);
	});
});
