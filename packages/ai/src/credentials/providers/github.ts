// GitHub's device flow, for an OAuth app the user registered (with "Enable Device Flow" ticked).
// The token it yields acts for the user on GitHub's APIs within the scopes asked for; it is the
// user's own app's token, not GitHub Copilot's. GitHub answers errors with status 200 and an
// `error` field, and sends `interval` with slow_down.
// @see https://docs.github.com/en/apps/oauth-apps/building-oauth-apps/authorizing-oauth-apps#device-flow
import {
	type DeviceAuthorization,
	pollDeviceAuthorization,
	startDeviceAuthorization,
} from "../oauth/device-authorization.js";
import type { TokenRequestOptions } from "../oauth/token-endpoint.js";
import type { OAuthCredential } from "../types.js";

export const GITHUB_DEVICE_CODE_URL = "https://github.com/login/device/code";
export const GITHUB_TOKEN_URL = "https://github.com/login/oauth/access_token";

export interface GitHubDeviceLogin extends Pick<TokenRequestOptions, "fetch" | "signal"> {
	/** The client id of the user's own GitHub OAuth app. */
	clientId: string;
	/** Space-separated scopes, e.g. "read:user"; GitHub's default is none. */
	scope?: string;
	/** Shows the user where to go and what to enter; the login waits for them after it returns. */
	onUserCode: (authorization: DeviceAuthorization) => void | Promise<void>;
	/** For tests: other endpoints and a recorded wait. */
	deviceCodeUrl?: string;
	tokenUrl?: string;
	wait?: (milliseconds: number, signal: AbortSignal | undefined) => Promise<void>;
}

/** Runs the whole device flow and returns the token as an OAuth credential. */
export async function loginWithGitHubDeviceFlow(login: GitHubDeviceLogin): Promise<OAuthCredential> {
	if (typeof login.clientId !== "string" || login.clientId === "") {
		throw new TypeError("GitHub's device flow needs the client id of your own GitHub OAuth app (clientId)");
	}
	const authorization = await startDeviceAuthorization({
		deviceAuthorizationUrl: login.deviceCodeUrl ?? GITHUB_DEVICE_CODE_URL,
		clientId: login.clientId,
		scope: login.scope,
		fetch: login.fetch,
		signal: login.signal,
	});
	await login.onUserCode(authorization);
	return pollDeviceAuthorization({
		tokenUrl: login.tokenUrl ?? GITHUB_TOKEN_URL,
		clientId: login.clientId,
		authorization,
		fetch: login.fetch,
		signal: login.signal,
		wait: login.wait,
	});
}
