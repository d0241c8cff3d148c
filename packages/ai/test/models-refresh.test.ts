// refreshModels(): new ids from models.dev, OpenRouter or a provider's /models endpoint join the
// catalogue at run time; a failing source changes nothing. Served by a local server.
import { mkdtempSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
	clearAddedModels,
	clearRefreshCache,
	findModel,
	getModel,
	getModelOrThrow,
	getModels,
	type RefreshOptions,
	refreshModels,
} from "../src/index.js";

let server: Server;
let baseUrl = "";
const routes = new Map<string, { status: number; body: string } | "hang">();
const hits = new Map<string, number>();
const authorizations: (string | undefined)[] = [];

beforeAll(async () => {
	server = createServer((request, response) => {
		const path = request.url ?? "";
		hits.set(path, (hits.get(path) ?? 0) + 1);
		authorizations.push(request.headers.authorization);
		const route = routes.get(path);
		if (route === "hang") return; // never answers: the timeout must end the wait
		response.writeHead(route?.status ?? 404, { "content-type": "application/json", connection: "close" });
		response.end(route?.body ?? "{}");
	});
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
	server.closeAllConnections();
	await new Promise((resolve) => server.close(resolve));
});

afterEach(() => {
	clearAddedModels();
	clearRefreshCache();
	routes.clear();
	hits.clear();
});

function options(extra: Partial<RefreshOptions> = {}): RefreshOptions {
	return { cacheDirectory: mkdtempSync(join(tmpdir(), "keel-refresh-")), timeoutMs: 2000, ...extra };
}

const modelsDevBody = {
	anthropic: {
		id: "anthropic",
		models: {
			"claude-next-1": {
				id: "claude-next-1",
				name: "Claude Next 1",
				tool_call: true,
				reasoning: true,
				modalities: { input: ["text", "image"], output: ["text"] },
				cost: { input: 4, output: 20, cache_read: 0.4, cache_write: 5 },
				limit: { context: 500_000, output: 64_000 },
			},
			// Already built in: must stay as the catalogue has it.
			"claude-sonnet-4-5": { id: "claude-sonnet-4-5", name: "Changed", tool_call: true, cost: { input: 99 } },
			"claude-no-tools": { id: "claude-no-tools", tool_call: false },
			// Retired by Anthropic: the catalogue left it out, and a refresh must not bring it back.
			"claude-3-sonnet-20240229": { id: "claude-3-sonnet-20240229", name: "Claude 3 Sonnet", tool_call: true },
		},
	},
	"unknown-vendor": { id: "unknown-vendor", models: { x: { id: "x", tool_call: true } } },
};

describe("refreshModels", () => {
	it("adds the ids a source lists that the built-in catalogue lacks, on the provider's wire settings", async () => {
		routes.set("/api.json", { status: 200, body: JSON.stringify(modelsDevBody) });
		const before = getModels("anthropic").length;
		const result = await refreshModels(options({ sources: [{ kind: "models.dev", url: `${baseUrl}/api.json` }] }));

		expect(result).toEqual({ added: 1, sources: [{ source: "models.dev", status: "fetched", added: 1 }] });
		expect(findModel("anthropic", "claude-next-1")).toMatchObject({
			api: "anthropic-messages",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 4, output: 20, cacheRead: 0.4, cacheWrite: 5 },
			contextWindow: 500_000,
			maxTokens: 64_000,
		});
		expect(getModelOrThrow("anthropic", "claude-next-1").id).toBe("claude-next-1");
		expect(getModels("anthropic")).toHaveLength(before + 1);
		expect(getModel("anthropic", "claude-sonnet-4-5").cost.input).toBe(3);
		expect(findModel("anthropic", "claude-no-tools")).toBeUndefined();
		expect(findModel("anthropic", "claude-3-sonnet-20240229")).toBeUndefined();
		expect(findModel("unknown-vendor", "x")).toBeUndefined();
	});

	it("adds OpenRouter's tool-capable models with its compat flags", async () => {
		routes.set("/models", {
			status: 200,
			body: JSON.stringify({
				data: [
					{
						id: "acme/rocket-9",
						name: "Acme: Rocket 9",
						context_length: 100_000,
						pricing: { prompt: "0.000001", completion: "0.000002" },
						supported_parameters: ["tools", "reasoning"],
					},
					{ id: "acme/no-tools", supported_parameters: [] },
				],
			}),
		});
		await refreshModels(options({ sources: [{ kind: "openrouter", url: `${baseUrl}/models` }] }));
		expect(findModel("openrouter", "acme/rocket-9")).toMatchObject({
			api: "openai-completions",
			reasoning: true,
			cost: { input: 1, output: 2 },
			contextWindow: 100_000,
			compat: { thinkingFormat: "openrouter" },
		});
		expect(findModel("openrouter", "acme/no-tools")).toBeUndefined();
	});

	it("reads a provider's /models list with its key, keeping the key out of the result", async () => {
		routes.set("/v1/models", { status: 200, body: JSON.stringify({ data: [{ id: "grok-9" }, { id: "" }, 7] }) });
		const result = await refreshModels(
			options({
				sources: [{ kind: "provider-models", provider: "xai", url: `${baseUrl}/v1/models`, apiKey: "sk-secret" }],
			}),
		);
		expect(result.added).toBe(1);
		expect(authorizations.at(-1)).toBe("Bearer sk-secret");
		expect(JSON.stringify(result)).not.toContain("sk-secret");
		expect(findModel("xai", "grok-9")).toMatchObject({ api: "openai-completions", baseUrl: "https://api.x.ai/v1" });
	});

	it("uses the cache within the TTL and fetches again after it", async () => {
		routes.set("/api.json", { status: 200, body: JSON.stringify(modelsDevBody) });
		const shared = options({ sources: [{ kind: "models.dev", url: `${baseUrl}/api.json` }] });
		await refreshModels(shared);
		clearAddedModels();
		clearRefreshCache(); // memory only: the second call reads the disk cache
		const second = await refreshModels(shared);
		expect(second.sources[0].status).toBe("cached");
		expect(findModel("anthropic", "claude-next-1")).toBeDefined();
		expect(hits.get("/api.json")).toBe(1);
		const third = await refreshModels({ ...shared, ttlMs: 0 });
		expect(third.sources[0].status).toBe("fetched");
		expect(hits.get("/api.json")).toBe(2);
	});

	it.each([
		["a 5xx answer", { status: 503, body: "{}" }, "HTTP 503"],
		["a wrong shape", { status: 200, body: JSON.stringify({ models: [] }) }, 'expected JSON with a "data" array'],
		["invalid JSON", { status: 200, body: "<html>" }, "the answer is not valid JSON"],
	] as const)("leaves the catalogue untouched on %s", async (_, route, message) => {
		routes.set("/models", route);
		const before = getModels("openrouter").length;
		const result = await refreshModels(options({ sources: [{ kind: "openrouter", url: `${baseUrl}/models` }] }));
		expect(result.added).toBe(0);
		expect(result.sources[0]).toEqual({
			source: "openrouter",
			status: "failed",
			added: 0,
			error: `${baseUrl}/models: ${message}`,
		});
		expect(getModels("openrouter")).toHaveLength(before);
	});

	it("gives up on a source that does not answer within the timeout", async () => {
		routes.set("/api.json", "hang");
		const result = await refreshModels(
			options({ timeoutMs: 100, sources: [{ kind: "models.dev", url: `${baseUrl}/api.json` }] }),
		);
		expect(result.sources[0].error).toBe(`${baseUrl}/api.json: no answer within 100 ms`);
	});

	it("keeps the rows it can read from partial data, and one failing source does not stop the others", async () => {
		routes.set("/api.json", {
			status: 200,
			body: JSON.stringify({
				anthropic: {
					models: {
						"claude-partial": { tool_call: true },
						broken: "not an object",
					},
				},
				google: "not a provider",
			}),
		});
		routes.set("/models", { status: 500, body: "{}" });
		const result = await refreshModels(
			options({
				sources: [
					{ kind: "openrouter", url: `${baseUrl}/models` },
					{ kind: "models.dev", url: `${baseUrl}/api.json` },
				],
			}),
		);
		expect(result.sources.map((source) => source.status)).toEqual(["failed", "fetched"]);
		// No limits or prices given: defaults that no listed model rejects, and price 0.
		expect(findModel("anthropic", "claude-partial")).toMatchObject({
			name: "claude-partial",
			contextWindow: 128_000,
			maxTokens: 4096,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		});
	});

	it("leaves a source URL's query string and user info out of its error", async () => {
		const withKey = `${baseUrl}/models?key=k-0123456789#part`;
		const withUser = `${baseUrl.replace("http://", "http://reader:pw-0123456789@")}/models`;
		const result = await refreshModels(
			options({
				sources: [
					{ kind: "openrouter", url: withKey },
					{ kind: "openrouter", url: withUser },
				],
			}),
		);
		expect(result.sources[0].error).toMatch(new RegExp(`^${baseUrl}/models: HTTP \\d{3}$`));
		expect(result.sources[1].error).toMatch(new RegExp(`^${baseUrl}/models: `));
		expect(JSON.stringify(result.sources)).not.toContain("0123456789");
	});

	it("reports an unreachable source without throwing", async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		const result = await refreshModels(
			options({ sources: [{ kind: "models.dev", url: `http://127.0.0.1:${port}/api.json` }] }),
		);
		expect(result.sources[0].status).toBe("failed");
		expect(result.sources[0].error).toMatch(new RegExp(`^http://127.0.0.1:${port}/api.json: `));
	});
});
