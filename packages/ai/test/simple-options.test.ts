import { describe, expect, it } from "vitest";
import {
	adjustMaxTokensForThinking,
	buildBaseOptions,
	clampReasoning,
	DEFAULT_THINKING_BUDGETS,
	defaultMaxTokens,
	isValidMaxTokens,
	resolveCacheRetention,
	thinkingBudgetFor,
} from "../src/message/simple-options.js";
import { streamSimple } from "../src/stream.js";
import { registerFauxProvider } from "../src/testing/faux-provider.js";
import type { Model } from "../src/types.js";

const model: Model<"faux"> = {
	id: "m",
	name: "m",
	api: "faux",
	provider: "faux",
	baseUrl: "faux://local",
	reasoning: true,
	input: ["text"],
	cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
	contextWindow: 200_000,
	maxTokens: 64_000,
};

describe("adjustMaxTokensForThinking", () => {
	it.each([
		[32000, 64000, "high", undefined, { maxTokens: 48384, thinkingBudget: 16384 }],
		[4096, 8192, "high", undefined, { maxTokens: 8192, thinkingBudget: 7168 }],
		[1000, 1500, "medium", undefined, { maxTokens: 1500, thinkingBudget: 476 }],
		[32000, 64000, "low", { low: 5000 }, { maxTokens: 37000, thinkingBudget: 5000 }],
		[32000, 64000, "xhigh", undefined, { maxTokens: 48384, thinkingBudget: 16384 }],
		[100, 1000, "high", undefined, { maxTokens: 1000, thinkingBudget: 0 }],
	] as const)("(%i, %i, %s, %o) → %o", (base, modelMax, level, custom, expected) => {
		expect(adjustMaxTokensForThinking(base, modelMax, level, custom)).toEqual(expected);
	});

	it("treats a base of 0 as no room for the answer beyond the budget", () => {
		expect(adjustMaxTokensForThinking(0, 64000, "high")).toEqual({ maxTokens: 16384, thinkingBudget: 15360 });
	});

	it("returns an invalid base unchanged (never throws), so the harness can report it", () => {
		expect(adjustMaxTokensForThinking(-1, 64000, "high")).toEqual({ maxTokens: -1, thinkingBudget: 0 });
		expect(adjustMaxTokensForThinking(1.5, 64000, "high")).toEqual({ maxTokens: 1.5, thinkingBudget: 0 });
		expect(isValidMaxTokens(0)).toBe(true);
		expect(isValidMaxTokens(Number.NaN)).toBe(false);
	});
});

describe("buildBaseOptions", () => {
	it("defaults maxTokens to the model limit capped at 32000", () => {
		expect(buildBaseOptions(model, undefined).maxTokens).toBe(32000);
		expect(buildBaseOptions({ ...model, maxTokens: 8192 }, {}).maxTokens).toBe(8192);
		expect(defaultMaxTokens({ ...model, maxTokens: 100_000 })).toBe(32000);
	});

	it("keeps maxTokens 0 as 0 instead of treating it as unset", () => {
		expect(buildBaseOptions(model, { maxTokens: 0 }).maxTokens).toBe(0);
	});

	it("a negative maxTokens ends the call with one clear error event, not a throw", async () => {
		const faux = registerFauxProvider({ api: "faux-simple-options", responses: ["never sent"] });
		try {
			const response = streamSimple(faux.getModel(), { messages: [] }, { maxTokens: -5, reasoning: "high" });
			const message = await response.result();
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe("maxTokens must be a non-negative integer, got -5");
			expect(message.content).toEqual([]);
		} finally {
			faux.unregister();
		}
	});

	it("forwards every shared option, including transport, timeouts and retries", () => {
		const signal = new AbortController().signal;
		const onPayload = () => undefined;
		const onResponse = () => {};
		const options = buildBaseOptions(model, {
			temperature: 0.5,
			maxTokens: 10,
			signal,
			apiKey: "k",
			transport: "websocket",
			cacheRetention: "long",
			sessionId: "s",
			headers: { a: "b" },
			onPayload,
			onResponse,
			timeoutMs: 1,
			idleTimeoutMs: 2,
			maxRetries: 3,
			maxRetryDelayMs: 4,
			metadata: { user: "u" },
			reasoning: "high",
		});
		expect(options).toEqual({
			temperature: 0.5,
			maxTokens: 10,
			signal,
			apiKey: "k",
			transport: "websocket",
			cacheRetention: "long",
			sessionId: "s",
			headers: { a: "b" },
			onPayload,
			onResponse,
			timeoutMs: 1,
			idleTimeoutMs: 2,
			maxRetries: 3,
			maxRetryDelayMs: 4,
			metadata: { user: "u" },
		});
	});
});

describe("thinking levels", () => {
	it("clamps xhigh to high and uses custom budgets first", () => {
		expect(clampReasoning("xhigh")).toBe("high");
		expect(clampReasoning("minimal")).toBe("minimal");
		expect(thinkingBudgetFor("medium")).toBe(DEFAULT_THINKING_BUDGETS.medium);
		expect(thinkingBudgetFor("xhigh", { high: 20000 })).toBe(20000);
		expect(DEFAULT_THINKING_BUDGETS).toEqual({ minimal: 1024, low: 2048, medium: 8192, high: 16384 });
	});
});

describe("resolveCacheRetention", () => {
	it("prefers the option, then KEEL_CACHE_RETENTION, then PI_CACHE_RETENTION, else short", () => {
		const saved = { keel: process.env.KEEL_CACHE_RETENTION, pi: process.env.PI_CACHE_RETENTION };
		try {
			delete process.env.KEEL_CACHE_RETENTION;
			delete process.env.PI_CACHE_RETENTION;
			expect(resolveCacheRetention(undefined)).toBe("short");
			process.env.PI_CACHE_RETENTION = "long";
			expect(resolveCacheRetention(undefined)).toBe("long");
			process.env.KEEL_CACHE_RETENTION = "none";
			expect(resolveCacheRetention(undefined)).toBe("none");
			expect(resolveCacheRetention("short")).toBe("short");
			process.env.KEEL_CACHE_RETENTION = "bogus";
			expect(resolveCacheRetention(undefined)).toBe("short");
		} finally {
			restore("KEEL_CACHE_RETENTION", saved.keel);
			restore("PI_CACHE_RETENTION", saved.pi);
		}
	});
});

function restore(name: string, value: string | undefined): void {
	if (value === undefined) delete process.env[name];
	else process.env[name] = value;
}
