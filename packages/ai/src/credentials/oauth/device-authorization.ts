// The device authorization grant (RFC 8628): the program shows a code, the user enters it on
// another device, and the program polls the token endpoint until the user has decided. The
// requests are sent and their answers checked by oauth4webapi (protocol-client.ts); the polling
// rhythm (interval, slow_down, the codes' lifetime) is here.

import * as oauth from "oauth4webapi";
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { authorizationServer, clientAuthentication, runProtocolCall } from "./protocol-client.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import type { TokenEndpointResponse, TokenRequestOptions } from "./token-endpoint.js";

export const DEVICE_CODE_GRANT_TYPE = "urn:ietf:params:oauth:grant-type:device_code";

/** RFC 8628 section 3.5: without an interval from the server, clients wait 5 seconds between polls. */
const DEFAULT_POLL_INTERVAL_SECONDS = 5;
/** ... and each `slow_down` adds 5 seconds to the interval for all later polls. */
const SLOW_DOWN_STEP_SECONDS = 5;

/** What the user is shown: the code to enter and where (section 3.2). */
export interface DeviceAuthorization {
	deviceCode: string;
	userCode: string;
	verificationUri: string;
	/** The verification URI with the code filled in, when the server offers one. */
	verificationUriComplete?: string;
	/** Seconds until the codes expire. */
	expiresIn: number;
	/** Seconds to wait between polls. */
	interval: number;
}

export interface DeviceAuthorizationRequest extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	deviceAuthorizationUrl: string;
	clientId: string;
	scope?: string;
}

/** Asks for a device code and a user code (section 3.1). */
export async function startDeviceAuthorization(request: DeviceAuthorizationRequest): Promise<DeviceAuthorization> {
	const server = authorizationServer({ deviceAuthorizationUrl: request.deviceAuthorizationUrl });
	const client: oauth.Client = { client_id: request.clientId };
	const parameters: Record<string, string> = request.scope ? { scope: request.scope } : {};
	const body = await runProtocolCall(
		{
			url: request.deviceAuthorizationUrl,
			step: "device authorization",
			secrets: [],
			fetch: request.fetch,
			signal: request.signal,
		},
		(requestOptions) => oauth.deviceAuthorizationRequest(server, client, oauth.None(), parameters, requestOptions),
		(response) => oauth.processDeviceAuthorizationResponse(server, client, response),
	);
	const authorization: DeviceAuthorization = {
		deviceCode: body.device_code,
		userCode: body.user_code,
		verificationUri: body.verification_uri,
		expiresIn: positiveNumber(body.expires_in) ?? 900,
		interval: positiveNumber(body.interval) ?? DEFAULT_POLL_INTERVAL_SECONDS,
	};
	if (typeof body.verification_uri_complete === "string")
		authorization.verificationUriComplete = body.verification_uri_complete;
	return authorization;
}

export interface DevicePolling extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	tokenUrl: string;
	clientId: string;
	clientSecret?: string;
	authorization: DeviceAuthorization;
	/** Waits between polls; defaults to a timer that the signal cancels. Tests pass one that records the delays. */
	wait?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
	now?: () => number;
}

/**
 * Polls until the user approves (section 3.4/3.5): `authorization_pending` polls again after the
 * interval, `slow_down` adds 5 seconds to the interval first, `access_denied` and `expired_token`
 * end the login with an OAuthError of that code, as does the codes' lifetime running out.
 */
export async function pollDeviceAuthorization(polling: DevicePolling): Promise<OAuthCredential> {
	const now = polling.now ?? Date.now;
	const wait = polling.wait ?? waitFor;
	const { authorization } = polling;
	const deadline = now() + authorization.expiresIn * 1000;
	let intervalSeconds = authorization.interval;
	const server = authorizationServer({ tokenUrl: polling.tokenUrl });
	const client: oauth.Client = { client_id: polling.clientId };
	const call = {
		url: polling.tokenUrl,
		step: "device login",
		secrets: [authorization.deviceCode, polling.clientSecret],
		fetch: polling.fetch,
		signal: polling.signal,
	};
	for (;;) {
		await wait(intervalSeconds * 1000, polling.signal);
		if (polling.signal?.aborted) throw new OAuthError("The device login was cancelled", "aborted");
		if (now() >= deadline) {
			throw new OAuthError("The device login expired before it was approved; start it again", "expired_token");
		}
		let answer: PollAnswer;
		try {
			answer = await runProtocolCall(
				call,
				(requestOptions) =>
					oauth.deviceCodeGrantRequest(
						server,
						client,
						clientAuthentication(polling.clientSecret),
						authorization.deviceCode,
						requestOptions,
					),
				readPollAnswer(server, client),
			);
		} catch (error) {
			if (error instanceof OAuthError && error.code === "access_denied") {
				throw new OAuthError(
					"The device login was denied: the user refused the request",
					"access_denied",
					error.status,
				);
			}
			if (error instanceof OAuthError && error.code === "expired_token") {
				throw new OAuthError(
					"The device login expired before it was approved; start it again",
					"expired_token",
					error.status,
				);
			}
			throw error;
		}
		if ("token" in answer) {
			return credentialFromTokenResponse(
				answer.token as TokenEndpointResponse,
				{ tokenUrl: polling.tokenUrl, clientId: polling.clientId, clientSecret: polling.clientSecret },
				"device login",
				now(),
			);
		}
		if (answer.wait === "slow_down") {
			// GitHub sends the interval to use from now on; RFC 8628 says add 5 seconds.
			intervalSeconds = Math.max(intervalSeconds + SLOW_DOWN_STEP_SECONDS, positiveNumber(answer.interval) ?? 0);
		}
	}
}

/** A poll's answer: the token, or "ask again" (`authorization_pending`, `slow_down` with GitHub's interval). */
type PollAnswer =
	| { token: oauth.TokenEndpointResponse }
	| { wait: "authorization_pending" | "slow_down"; interval?: unknown };

function readPollAnswer(server: oauth.AuthorizationServer, client: oauth.Client) {
	return async (response: Response): Promise<PollAnswer> => {
		try {
			return { token: await oauth.processDeviceCodeResponse(server, client, response) };
		} catch (error) {
			if (
				error instanceof oauth.ResponseBodyError &&
				(error.error === "authorization_pending" || error.error === "slow_down")
			) {
				return { wait: error.error, interval: error.cause.interval };
			}
			throw error;
		}
	};
}

function positiveNumber(value: unknown): number | undefined {
	const number = typeof value === "string" ? Number(value) : value;
	return typeof number === "number" && Number.isFinite(number) && number > 0 ? number : undefined;
}

function waitFor(milliseconds: number, signal: AbortSignal | undefined): Promise<void> {
	return new Promise((resolve) => {
		if (signal?.aborted) return resolve();
		const timer = setTimeout(done, milliseconds);
		function done() {
			clearTimeout(timer);
			signal?.removeEventListener("abort", done);
			resolve();
		}
		signal?.addEventListener("abort", done, { once: true });
	});
}
