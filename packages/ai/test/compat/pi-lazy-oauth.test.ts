// pi-ai 1.5's lazyOAuth: an OAuth method that loads its flow on first use.
import { describe, expect, it, vi } from "vitest";
import { lazyOAuth, type OAuthAuth } from "../../src/index.js";

const credential = { type: "oauth" as const, access: "a", refresh: "r", expires: 1 };

function flow(): OAuthAuth {
	return {
		name: "Acme",
		login: async () => credential,
		refresh: async (previous) => ({ ...previous, access: "fresh" }),
		toAuth: async (current) => ({ apiKey: current.access }),
	};
}

describe("lazyOAuth", () => {
	it("lists the method without loading the flow, then loads it once for every later call", async () => {
		const load = vi.fn(async () => flow());
		const auth = lazyOAuth({ name: "Acme (Pro)", isSubscription: true, loginLabel: "Sign in with Acme", load });
		expect(auth).toMatchObject({ name: "Acme (Pro)", isSubscription: true, loginLabel: "Sign in with Acme" });
		expect(load).not.toHaveBeenCalled();
		const [refreshed, requestAuth] = await Promise.all([
			auth.refresh(credential, new AbortController().signal),
			auth.toAuth(credential),
		]);
		expect(refreshed.access).toBe("fresh");
		expect(requestAuth).toEqual({ apiKey: "a" });
		expect(await auth.login({ signal: new AbortController().signal } as Parameters<OAuthAuth["login"]>[0])).toBe(
			credential,
		);
		expect(load).toHaveBeenCalledTimes(1);
	});

	it("a failed load reaches the caller and the next call loads again", async () => {
		const load = vi.fn().mockRejectedValueOnce(new Error("flow module missing")).mockResolvedValue(flow());
		const auth = lazyOAuth({ name: "Acme", load });
		await expect(auth.toAuth(credential)).rejects.toThrow("flow module missing");
		await expect(auth.toAuth(credential)).resolves.toEqual({ apiKey: "a" });
		expect(load).toHaveBeenCalledTimes(2);
	});
});
