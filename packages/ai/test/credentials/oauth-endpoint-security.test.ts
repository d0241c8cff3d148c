// OAuth requests carry codes, verifiers, refresh tokens and client secrets: oauth4webapi sends them
// over https only, and Keel lets plain http through for loopback addresses alone (local servers).
import { describe, expect, it, vi } from "vitest";
import { OAuthError, refreshOAuthCredential } from "../../src/credentials/index.js";

describe("OAuth endpoints over plain http", () => {
	it("refuses a refresh to a non-loopback http token endpoint, sending nothing", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>();
		const refreshing = refreshOAuthCredential(
			{
				type: "oauth",
				access: "ya29.old-access",
				refresh: "1//0gRefreshToken0123456789",
				clientId: "client-id-1",
				tokenUrl: "http://auth.example.com/token",
			},
			{ fetch },
		);
		await expect(refreshing).rejects.toBeInstanceOf(OAuthError);
		await expect(refreshing).rejects.toThrow(
			/^OAuth token refresh failed: http:\/\/auth\.example\.com\/token: .*HTTPS/,
		);
		await expect(refreshing).rejects.not.toThrow(/RefreshToken0123456789/);
		expect(fetch).not.toHaveBeenCalled();
	});

	it("sends a refresh to a loopback http token endpoint", async () => {
		const fetch = vi.fn<typeof globalThis.fetch>(
			async () =>
				new Response(JSON.stringify({ access_token: "new", token_type: "Bearer", expires_in: 60 }), {
					headers: { "content-type": "application/json" },
				}),
		);
		const refreshed = await refreshOAuthCredential(
			{
				type: "oauth",
				access: "ya29.old-access",
				refresh: "1//0gRefreshToken0123456789",
				clientId: "client-id-1",
				tokenUrl: "http://127.0.0.1:9/token",
			},
			{ fetch, now: () => 0 },
		);
		expect(refreshed).toMatchObject({ access: "new", expiresAt: 60_000, refresh: "1//0gRefreshToken0123456789" });
		expect(fetch).toHaveBeenCalledTimes(1);
	});
});
