// The device authorization grant (RFC 8628): the program shows a code, the user enters it on
// another device, and the program polls the token endpoint until the user has decided.

import { urlForMessages } from "../../utils/url-for-messages.js";
import type { OAuthCredential } from "../types.js";
import { OAuthError } from "./oauth-error.js";
import { credentialFromTokenResponse } from "./token-credential.js";
import {
	isErrorResponse,
	postTokenRequest,
	type TokenRequestOptions,
	tokenErrorFromResponse,
} from "./token-endpoint.js";

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
	const parameters: Record<string, string> = { client_id: request.clientId };
	if (request.scope) parameters.scope = request.scope;
	const step = "device authorization";
	const { status, body } = await postTokenRequest(request.deviceAuthorizationUrl, parameters, step, request);
	if (isErrorResponse(status, body))
		throw tokenErrorFromResponse(request.deviceAuthorizationUrl, status, body, step, []);
	const deviceCode = body.device_code;
	const userCode = body.user_code;
	// RFC 8628 names it verification_uri; some servers (Google) send verification_url.
	const verificationUri = body.verification_uri ?? body.verification_url;
	if (typeof deviceCode !== "string" || typeof userCode !== "string" || typeof verificationUri !== "string") {
		throw new OAuthError(
			`OAuth ${step} failed: ${urlForMessages(request.deviceAuthorizationUrl)} answered without device_code, user_code and verification_uri`,
			"invalid_response",
			status,
		);
	}
	const authorization: DeviceAuthorization = {
		deviceCode,
		userCode,
		verificationUri,
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
	const parameters: Record<string, string> = {
		grant_type: DEVICE_CODE_GRANT_TYPE,
		device_code: authorization.deviceCode,
		client_id: polling.clientId,
	};
	if (polling.clientSecret) parameters.client_secret = polling.clientSecret;
	const step = "device login";
	const secrets = [authorization.deviceCode, polling.clientSecret];
	for (;;) {
		await wait(intervalSeconds * 1000, polling.signal);
		if (polling.signal?.aborted) throw new OAuthError("The device login was cancelled", "aborted");
		if (now() >= deadline) {
			throw new OAuthError("The device login expired before it was approved; start it again", "expired_token");
		}
		const { status, body } = await postTokenRequest(polling.tokenUrl, parameters, step, polling);
		if (!isErrorResponse(status, body)) {
			return credentialFromTokenResponse(
				body,
				{ tokenUrl: polling.tokenUrl, clientId: polling.clientId, clientSecret: polling.clientSecret },
				step,
				now(),
			);
		}
		if (body.error === "authorization_pending") continue;
		if (body.error === "slow_down") {
			// GitHub sends the interval to use from now on; RFC 8628 says add 5 seconds.
			intervalSeconds = Math.max(intervalSeconds + SLOW_DOWN_STEP_SECONDS, positiveNumber(body.interval) ?? 0);
			continue;
		}
		if (body.error === "access_denied") {
			throw new OAuthError("The device login was denied: the user refused the request", "access_denied", status);
		}
		if (body.error === "expired_token") {
			throw new OAuthError("The device login expired before it was approved; start it again", "expired_token", status);
		}
		throw tokenErrorFromResponse(polling.tokenUrl, status, body, step, secrets);
	}
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
