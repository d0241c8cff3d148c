// The Anthropic models the README, the docs pages on models, validation and testing, the examples
// and the demo name are current: calling them makes the Anthropic SDK print no deprecation warning
// (it prints one per attempt for a model it lists as deprecated, which a newcomer copying the README
// would see on every call). Each model is called for real through the SDK, against a local server.
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { complete, getModelOrThrow } from "@keel/ai";
import { formatSse, WireTestServer } from "@keel/ai/testing";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));
const files = [
	"README.md",
	"docs/models.md",
	"docs/core-json-validation.md",
	"docs/testing-kit.md",
	"scripts/demo.mjs",
	...readdirSync(join(repositoryRoot, "examples")).map((name) => `examples/${name}`),
];

/** `getModel("anthropic", "<id>")`, `getModelOrThrow("anthropic", "<id>")` and `anthropic/<id>` specs. */
function anthropicModelIds(text: string): string[] {
	const calls = [...text.matchAll(/getModel(?:OrThrow)?\("anthropic",\s*"([^"]+)"\)/g)].map((match) => match[1]);
	const specs = [...text.matchAll(/\banthropic\/(claude-[a-z0-9.-]+)/g)].map((match) => match[1]);
	return [...calls, ...specs];
}

const modelIds = [
	...new Set(files.flatMap((file) => anthropicModelIds(readFileSync(join(repositoryRoot, file), "utf8")))),
].sort();

let server: WireTestServer;
beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});

function finishedAnswer(model: string): string {
	const event = (data: { type: string } & Record<string, unknown>) => ({ event: data.type, data });
	return formatSse([
		event({
			type: "message_start",
			message: { id: "msg_1", type: "message", role: "assistant", model, content: [], usage: { input_tokens: 3 } },
		}),
		event({ type: "content_block_start", index: 0, content_block: { type: "text", text: "" } }),
		event({ type: "content_block_delta", index: 0, delta: { type: "text_delta", text: "Hi" } }),
		event({ type: "content_block_stop", index: 0 }),
		event({ type: "message_delta", delta: { stop_reason: "end_turn" }, usage: { output_tokens: 1 } }),
		event({ type: "message_stop" }),
	]);
}

describe("the Anthropic models named in the README, docs and examples", () => {
	it("are found", () => {
		expect(modelIds.length).toBeGreaterThan(0);
	});

	for (const id of modelIds) {
		it(`${id} is in the catalogue and draws no deprecation warning from the SDK`, async () => {
			const model = { ...getModelOrThrow("anthropic", id), baseUrl: server.url };
			server.enqueue({ body: finishedAnswer(id) });
			const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
			try {
				const message = await complete(
					model,
					{ messages: [{ role: "user", content: "Hi", timestamp: 0 }] },
					{ apiKey: "test-key", maxRetries: 0 },
				);
				expect(message.stopReason, message.errorMessage).toBe("stop");
				expect(warn.mock.calls.map((call) => call.join(" "))).toEqual([]);
			} finally {
				warn.mockRestore();
			}
		});
	}
});
