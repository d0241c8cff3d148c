import { describe, expect, it } from "vitest";
import { streamAnthropic, streamSimpleAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context, ResponseInfo, ThinkingLevel } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { claudeModel, sseResponse, TEST_KEY, textResponseEvents } from "./fixtures.js";

const wire = useWireTestServer();

const context: Context = {
	systemPrompt: "You are terse.",
	messages: [{ role: "user", content: "Hello", timestamp: 1 }],
	tools: [
		{
			name: "read",
			description: "Read",
			parameters: { type: "object", properties: { path: { type: "string" } }, required: ["path"] } as never,
		},
	],
};
const model = (overrides = {}) => claudeModel({ baseUrl: wire.server.url, ...overrides });

async function send(run: () => { result(): Promise<unknown> }) {
	wire.server.enqueue(sseResponse(textResponseEvents(["ok"])));
	await run().result();
	const request = wire.server.lastRequest;
	if (!request) throw new Error("no request recorded");
	return { headers: request.headers, body: request.json as Record<string, unknown> };
}

describe("what the anthropic provider sends", () => {
	it("authenticates a plain key and adds the fine-grained tool streaming beta", async () => {
		const { headers, body } = await send(() => streamAnthropic(model(), context, { apiKey: TEST_KEY }));
		// An API key goes in x-api-key, as Anthropic documents; Bearer is for OAuth and Copilot tokens.
		expect(headers["x-api-key"]).toBe(TEST_KEY);
		expect(headers.authorization).toBeUndefined();
		expect(headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
		expect(headers["anthropic-version"]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
		expect(headers["anthropic-dangerous-direct-browser-access"]).toBe("true");
		expect(body.system).toEqual([{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
		expect(body.stream).toBe(true);
	});

	it("sends an OAuth token as Bearer with the oauth beta, no borrowed identity", async () => {
		const token = "sk-ant-oat01-test-token";
		const { headers, body } = await send(() => streamAnthropic(model(), context, { apiKey: token }));
		expect(headers.authorization).toBe(`Bearer ${token}`);
		expect(headers["anthropic-beta"]).toBe("oauth-2025-04-20,fine-grained-tool-streaming-2025-05-14");
		expect(String(headers["user-agent"])).not.toMatch(/claude-cli/);
		expect(headers["x-app"]).toBeUndefined();
		expect(body.system).toEqual([{ type: "text", text: "You are terse.", cache_control: { type: "ephemeral" } }]);
		expect((body.tools as { name: string }[])[0].name).toBe("read");
	});

	it("reads ANTHROPIC_OAUTH_TOKEN before ANTHROPIC_API_KEY and sends it as an OAuth token", async () => {
		const saved = { oauth: process.env.ANTHROPIC_OAUTH_TOKEN, key: process.env.ANTHROPIC_API_KEY };
		process.env.ANTHROPIC_OAUTH_TOKEN = "sk-ant-oat01-from-env";
		process.env.ANTHROPIC_API_KEY = TEST_KEY;
		try {
			const { headers } = await send(() => streamAnthropic(model(), { messages: context.messages }));
			expect(headers.authorization).toBe("Bearer sk-ant-oat01-from-env");
			expect(headers["anthropic-beta"]).toBe("oauth-2025-04-20");
		} finally {
			for (const [name, value] of [
				["ANTHROPIC_OAUTH_TOKEN", saved.oauth],
				["ANTHROPIC_API_KEY", saved.key],
			] as const) {
				if (value === undefined) delete process.env[name];
				else process.env[name] = value;
			}
		}
	});

	it("adds the interleaved-thinking beta for budget-thinking models only", async () => {
		const budget = await send(() =>
			streamAnthropic(model(), context, { apiKey: TEST_KEY, thinkingEnabled: true, maxTokens: 4096 }),
		);
		expect(budget.headers["anthropic-beta"]).toBe(
			"fine-grained-tool-streaming-2025-05-14,interleaved-thinking-2025-05-14",
		);
		const off = await send(() =>
			streamAnthropic(model(), context, {
				apiKey: TEST_KEY,
				thinkingEnabled: true,
				maxTokens: 4096,
				interleavedThinking: false,
			}),
		);
		expect(off.headers["anthropic-beta"]).toBe("fine-grained-tool-streaming-2025-05-14");
		const adaptive = await send(() =>
			streamAnthropic(
				model({ id: "claude-opus-4-6" }),
				{ messages: context.messages },
				{
					apiKey: TEST_KEY,
					thinkingEnabled: true,
				},
			),
		);
		expect(adaptive.headers["anthropic-beta"]).toBeUndefined();
	});

	it("merges headers in order: defaults, then model.headers, then options.headers", async () => {
		const { headers } = await send(() =>
			streamAnthropic(
				model({ headers: { "x-team": "model", "x-model-only": "m", "anthropic-beta": "from-model" } }),
				context,
				{
					apiKey: TEST_KEY,
					headers: { "X-Team": "options" },
				},
			),
		);
		expect(headers["x-team"]).toBe("options");
		expect(headers["x-model-only"]).toBe("m");
		expect(headers["anthropic-beta"]).toBe("from-model");
	});

	it("sends GitHub Copilot's initiator and intent headers, without the fine-grained beta, below option headers", async () => {
		const copilot = model({ provider: "github-copilot" });
		const { headers } = await send(() =>
			streamAnthropic(copilot, context, { apiKey: TEST_KEY, headers: { "Openai-Intent": "mine" } }),
		);
		expect(headers["x-initiator"]).toBe("user");
		expect(headers["openai-intent"]).toBe("mine");
		expect(headers["copilot-vision-request"]).toBeUndefined();
		expect(headers["anthropic-beta"]).toBeUndefined();
		const plain = await send(() => streamAnthropic(model(), context, { apiKey: TEST_KEY }));
		expect(plain.headers["x-initiator"]).toBeUndefined();
	});

	it("lets onPayload replace the body and reports the response through onResponse", async () => {
		const seen: unknown[] = [];
		let response: ResponseInfo | undefined;
		const { body } = await send(() =>
			streamAnthropic(model(), context, {
				apiKey: TEST_KEY,
				onPayload: (payload) => {
					seen.push(payload);
					return { ...(payload as object), max_tokens: 7, metadata: { user_id: "replaced" } };
				},
				onResponse: (info) => {
					response = info;
				},
			}),
		);
		expect((seen[0] as { model: string }).model).toBe("claude-sonnet-4-20250514");
		expect(body.max_tokens).toBe(7);
		expect(body.metadata).toEqual({ user_id: "replaced" });
		expect(response?.status).toBe(200);
		expect(response?.headers["request-id"]).toBe("req_test");
	});

	it("reports the status of a failed response through onResponse", async () => {
		wire.server.enqueue({
			status: 401,
			body: { type: "error", error: { type: "authentication_error", message: "bad" } },
		});
		const statuses: number[] = [];
		await streamAnthropic(model(), context, {
			apiKey: TEST_KEY,
			onResponse: (info) => {
				statuses.push(info.status);
			},
		}).result();
		expect(statuses).toEqual([401]);
	});
});

describe("streamSimpleAnthropic reasoning mapping", () => {
	const levels: ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];

	it("turns thinking off (type disabled) without a reasoning level", async () => {
		const { body } = await send(() => streamSimpleAnthropic(model(), context, { apiKey: TEST_KEY }));
		expect(body.thinking).toEqual({ type: "disabled" });
		expect(body.max_tokens).toBe(32000);
	});

	it("maps each level to a budget on top of maxTokens for budget-thinking models", async () => {
		const sent: unknown[] = [];
		for (const reasoning of levels) {
			const { body } = await send(() =>
				streamSimpleAnthropic(model(), context, { apiKey: TEST_KEY, reasoning, maxTokens: 4000 }),
			);
			sent.push([body.thinking, body.max_tokens]);
		}
		expect(sent).toEqual([
			[{ type: "enabled", budget_tokens: 1024 }, 5024],
			[{ type: "enabled", budget_tokens: 2048 }, 6048],
			[{ type: "enabled", budget_tokens: 8192 }, 12192],
			[{ type: "enabled", budget_tokens: 16384 }, 20384],
			[{ type: "enabled", budget_tokens: 16384 }, 20384],
		]);
	});

	it("honours custom thinkingBudgets", async () => {
		const { body } = await send(() =>
			streamSimpleAnthropic(model(), context, {
				apiKey: TEST_KEY,
				reasoning: "low",
				maxTokens: 1000,
				thinkingBudgets: { low: 3000 },
			}),
		);
		expect(body.thinking).toEqual({ type: "enabled", budget_tokens: 3000 });
		expect(body.max_tokens).toBe(4000);
	});

	it("maps each level to adaptive thinking with an effort on Opus 4.6, keeping maxTokens", async () => {
		const sent: unknown[] = [];
		for (const reasoning of levels) {
			const { body } = await send(() =>
				streamSimpleAnthropic(model({ id: "claude-opus-4-6" }), context, { apiKey: TEST_KEY, reasoning }),
			);
			sent.push([body.thinking, body.output_config, body.max_tokens]);
		}
		expect(sent).toEqual([
			[{ type: "adaptive" }, { effort: "low" }, 32000],
			[{ type: "adaptive" }, { effort: "low" }, 32000],
			[{ type: "adaptive" }, { effort: "medium" }, 32000],
			[{ type: "adaptive" }, { effort: "high" }, 32000],
			[{ type: "adaptive" }, { effort: "max" }, 32000],
		]);
	});

	it("ignores reasoning for a model that does not reason", async () => {
		const { body } = await send(() =>
			streamSimpleAnthropic(model({ reasoning: false }), context, { apiKey: TEST_KEY, reasoning: "high" }),
		);
		expect(body.thinking).toBeUndefined();
	});
});
