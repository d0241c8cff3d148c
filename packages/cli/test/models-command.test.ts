// `keel models`: the catalogue as a table for people and as JSON for scripts.
import { getModels } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { runKeel } from "./helpers/run-keel.js";

describe("keel models", () => {
	it("prints every model of a provider as JSON, with the fields a script needs", async () => {
		const result = await runKeel(["models", "anthropic", "--json"]);
		expect(result.exitCode).toBe(0);
		const models = JSON.parse(result.stdout) as { id: string; provider: string; cost: { input: number } }[];
		expect(models.map((model) => model.id)).toEqual(getModels("anthropic").map((model) => model.id));
		expect(models.every((model) => model.provider === "anthropic" && typeof model.cost.input === "number")).toBe(true);
	});

	it("keeps the models whose provider, id or name hold every search word", async () => {
		const result = await runKeel(["models", "--search", "claude", "--search", "SONNET", "--json"]);
		const models = JSON.parse(result.stdout) as { id: string; name: string; provider: string }[];
		expect(models.length).toBeGreaterThan(1);
		for (const model of models) {
			const text = `${model.provider}/${model.id} ${model.name}`.toLowerCase();
			expect(text).toContain("claude");
			expect(text).toContain("sonnet");
		}
	});

	it("prints a table with limits and prices per million tokens when not --json (every column with --wide)", async () => {
		const result = await runKeel(["models", "anthropic", "--search", "claude-sonnet-4-5", "--wide"]);
		expect(result.exitCode).toBe(0);
		const [header, ...rows] = result.stdout.trimEnd().split("\n");
		expect(header.split(/\s{2,}/)).toEqual([
			"provider",
			"id",
			"api",
			"context",
			"max out",
			"$ in/M",
			"$ out/M",
			"$ cache r/M",
			"$ cache w/M",
			"reasoning",
			"images",
			"pdf",
			"audio",
		]);
		const model = getModels("anthropic").find((candidate) => candidate.id === "claude-sonnet-4-5")!;
		const row = rows.find((line) => line.split(/\s+/)[1] === "claude-sonnet-4-5")!.split(/\s+/);
		expect(row).toEqual([
			"anthropic",
			"claude-sonnet-4-5",
			"anthropic-messages",
			"200k",
			"64k",
			String(model.cost.input),
			String(model.cost.output),
			String(model.cost.cacheRead),
			String(model.cost.cacheWrite),
			"yes",
			"yes",
			"yes",
			"no",
		]);
		// Piped: no escape codes, no hint line.
		expect(result.stdout).not.toContain("\u001b[");
		expect(result.stderr).toBe("");
	});

	it("exits 2 and lists the providers for an unknown one", async () => {
		const result = await runKeel(["models", "nonexistent"]);
		expect(result.exitCode).toBe(2);
		expect(result.stderr).toContain('unknown provider "nonexistent". Known providers: ');
		expect(result.stderr).toContain("anthropic");
	});
});
