// pi-ai 1.5's client identity, cache warming and session-resource helpers, pinned to pi's documented behaviour.
import { readFileSync } from "node:fs";
import { describe, expect, it, vi } from "vitest";
import {
	CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY,
	CACHE_WARMING_MAX_AGE_MS,
	CACHE_WARMING_MAX_IDLE_AGE_MS,
	CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS,
	cleanupSessionResources,
	evaluateCacheWarming,
	formatUserAgent,
	getAttributionHeaders,
	getCacheWarmingDelayMs,
	getCacheWarmingRequestOptions,
	getClientVersion,
	getIdentityHeaders,
	getPromptCacheTtlMs,
	isCacheWarmingReplayable,
	mergeClientIdentity,
	registerSessionResourceCleanup,
	withClientIdentity,
} from "../../src/index.js";

const app = { name: "acme", url: "https://acme.example", categories: ["cli-agent", "coding"] };

describe("client identity", () => {
	it("mergeClientIdentity lets later sources win field by field and skips undefined ones", () => {
		expect(mergeClientIdentity()).toBeUndefined();
		expect(mergeClientIdentity(undefined, undefined)).toBeUndefined();
		expect(
			mergeClientIdentity({ userAgent: "short", version: "1.0.0" }, undefined, {
				version: undefined,
				attribution: app,
			}),
		).toEqual({ userAgent: "short", version: "1.0.0", attribution: app });
		expect(mergeClientIdentity({ version: "1" }, { version: "2" })).toEqual({ version: "2" });
	});

	it("formatUserAgent is detailed by default, short on request, or the custom text", () => {
		expect(formatUserAgent({ version: "9.9.9" })).toBe(
			`keel/9.9.9 (${process.platform}; node/${process.version}; ${process.arch})`,
		);
		expect(formatUserAgent({ userAgent: "short" })).toBe("keel");
		expect(formatUserAgent({ userAgent: { custom: "acme/2" } })).toBe("acme/2");
		expect(getClientVersion({ version: "3.1.0" })).toBe("3.1.0");
		// The constant in client-identity.ts must follow @keel/ai's package.json when it is bumped.
		const manifest = JSON.parse(readFileSync(new URL("../../package.json", import.meta.url), "utf8")) as {
			version: string;
		};
		expect(getClientVersion()).toBe(manifest.version);
	});

	it("getAttributionHeaders credits the app on OpenRouter, NVIDIA NIM and OpenCode, and nowhere else", () => {
		const identity = { attribution: app };
		expect(
			getAttributionHeaders({ provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1" }, identity),
		).toEqual({
			"HTTP-Referer": "https://acme.example",
			"X-OpenRouter-Title": "acme",
			"X-OpenRouter-Categories": "cli-agent,coding",
		});
		expect(
			getAttributionHeaders(
				{ provider: "custom", baseUrl: "https://openrouter.ai/api/v1" },
				{
					attribution: { ...app, categories: [] },
				},
			),
		).toEqual({ "HTTP-Referer": "https://acme.example", "X-OpenRouter-Title": "acme" });
		expect(
			getAttributionHeaders({ provider: "custom", baseUrl: "https://integrate.api.nvidia.com/v1" }, identity),
		).toEqual({ "X-BILLING-INVOKE-ORIGIN": "Acme" });
		expect(getAttributionHeaders({ provider: "opencode-go", baseUrl: "" }, identity)).toEqual({
			"x-opencode-client": "acme",
		});
		expect(getAttributionHeaders({ provider: "openai", baseUrl: "https://api.openai.com/v1" }, identity)).toEqual({});
		expect(getAttributionHeaders({ provider: "openrouter", baseUrl: "" }, {})).toEqual({});
	});

	it("getIdentityHeaders is the User-Agent plus the attribution headers", () => {
		expect(getIdentityHeaders({ provider: "opencode", baseUrl: "" }, { userAgent: "short", attribution: app })).toEqual(
			{ "User-Agent": "keel", "x-opencode-client": "acme" },
		);
	});

	it("withClientIdentity adds the identity's headers under the call's own and leaves other members alone", async () => {
		const stream = vi.fn((_model: unknown, _context: unknown, options?: unknown) => options);
		const models = { stream, getProviders: () => ["openrouter"] };
		const wrapped = withClientIdentity(models, { userAgent: "short", attribution: app });
		const model = { provider: "openrouter", baseUrl: "https://openrouter.ai/api/v1" };
		const options = wrapped.stream(
			model,
			{ messages: [] },
			{
				headers: { "User-Agent": "mine" },
				identity: { attribution: { name: "beta", url: "https://beta.example" } },
			},
		) as { headers: Record<string, string> };
		expect(options.headers).toEqual({
			"User-Agent": "mine",
			"HTTP-Referer": "https://beta.example",
			"X-OpenRouter-Title": "beta",
		});
		expect(wrapped.getProviders()).toEqual(["openrouter"]);
		expect((wrapped.stream(model, { messages: [] }) as { headers: Record<string, string> }).headers["User-Agent"]).toBe(
			"keel",
		);
	});
});

const sonnet = { cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 } };

describe("cache warming", () => {
	it("has pi's constants", () => {
		expect(CACHE_WARMING_MAX_AGE_MS).toBe(3_600_000);
		expect(CACHE_WARMING_MAX_IDLE_AGE_MS).toBe(1_800_000);
		expect(CACHE_WARMING_MINIMUM_EXPECTED_SAVINGS).toBe(0.05);
		expect(CACHE_WARMING_IDLE_CONTINUATION_PROBABILITY).toBe(0.15);
	});

	it("refreshes at 90% of the lifetime keeping ten seconds spare, never for ten seconds or less", () => {
		expect(getCacheWarmingDelayMs(300_000)).toBe(270_000);
		expect(getCacheWarmingDelayMs(60_000)).toBe(50_000);
		expect(getCacheWarmingDelayMs(10_000)).toBeUndefined();
		expect(getCacheWarmingDelayMs(10_001)).toBe(1);
	});

	it("getPromptCacheTtlMs reads the model's lifetime for the retention, from options then PI_CACHE_RETENTION", () => {
		const model = { promptCache: { short: 300, long: 3600 } };
		expect(getPromptCacheTtlMs(model, { env: {} })).toBe(300_000);
		expect(getPromptCacheTtlMs(model, { env: { PI_CACHE_RETENTION: "long" } })).toBe(3_600_000);
		expect(getPromptCacheTtlMs(model, { cacheRetention: "short", env: { PI_CACHE_RETENTION: "long" } })).toBe(300_000);
		expect(getPromptCacheTtlMs(model, { cacheRetention: "none" })).toBeUndefined();
		expect(getPromptCacheTtlMs({}, { cacheRetention: "long" })).toBeUndefined();
	});

	it("a one-token replay keeps the cache except for Anthropic budget thinking", () => {
		expect(isCacheWarmingReplayable({ api: "anthropic-messages" })).toBe(true);
		expect(isCacheWarmingReplayable({ api: "anthropic-messages" }, { reasoning: "high" })).toBe(false);
		expect(
			isCacheWarmingReplayable(
				{ api: "anthropic-messages", compat: { forceAdaptiveThinking: true } },
				{ reasoning: "high" },
			),
		).toBe(true);
		expect(isCacheWarmingReplayable({ api: "openai-responses" }, { reasoning: "high" })).toBe(true);
	});

	it("the refresh keeps the request's options, capped at one token with no retries or continuation", () => {
		const signal = new AbortController().signal;
		expect(getCacheWarmingRequestOptions({ temperature: 0.2, maxTokens: 4000, maxRetries: 3 }, signal)).toEqual({
			temperature: 0.2,
			maxTokens: 1,
			maxRetries: 0,
			disableContinuation: true,
			signal,
		});
	});

	it("warms a large streaming prompt, stops for a small one, and discounts idle time", () => {
		const streaming = evaluateCacheWarming(sonnet, 100_000, "streaming");
		expect(streaming.warmCost).toBeCloseTo(0.030015, 9);
		expect(streaming.missCost).toBeCloseTo(0.345, 9);
		expect(streaming.expectedSavings).toBeCloseTo(0.314985, 9);
		expect(streaming).toMatchObject({
			phase: "streaming",
			continuationProbability: 1,
			economicsAvailable: true,
			action: "warm",
		});
		const idle = evaluateCacheWarming(sonnet, 100_000, "idle");
		expect(idle.continuationProbability).toBe(0.15);
		expect(idle.expectedSavings).toBeCloseTo(0.15 * 0.345 - 0.030015, 9);
		expect(idle.action).toBe("stop");
		expect(evaluateCacheWarming(sonnet, 1000, "streaming").action).toBe("stop");
		const free = evaluateCacheWarming(
			{ cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 } },
			100_000,
			"streaming",
		);
		expect(free).toMatchObject({ economicsAvailable: false, action: "stop" });
		// Without a cache-write price, a miss costs plain input.
		const noWrite = evaluateCacheWarming(
			{ cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 0 } },
			100_000,
			"streaming",
		);
		expect(noWrite.missCost).toBeCloseTo(0.27, 9);
	});
});

describe("session resources", () => {
	it("runs every registered cleanup with the session id, reports failures together, and unregisters", () => {
		const seen: string[] = [];
		const unregisterFirst = registerSessionResourceCleanup((id) => seen.push(`first:${id}`));
		const unregisterBroken = registerSessionResourceCleanup(() => {
			throw new Error("socket already closed");
		});
		const unregisterLast = registerSessionResourceCleanup((id) => seen.push(`last:${id}`));
		let thrown: unknown;
		try {
			cleanupSessionResources("s1");
		} catch (error) {
			thrown = error;
		}
		expect(seen).toEqual(["first:s1", "last:s1"]);
		expect(thrown).toBeInstanceOf(AggregateError);
		expect((thrown as AggregateError).errors.map((error: Error) => error.message)).toEqual(["socket already closed"]);
		unregisterBroken();
		unregisterFirst();
		cleanupSessionResources("s2");
		expect(seen).toEqual(["first:s1", "last:s1", "last:s2"]);
		unregisterLast();
	});
});
