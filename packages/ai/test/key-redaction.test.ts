// The caller's API key never reaches an event, whichever way a call fails: a thrown error, an error
// the decoder reports from the stream, a retry diagnostic, a provider module that failed to load,
// a registered provider that threw synchronously.
import { afterEach, describe, expect, it } from "vitest";
import { registerApiProvider, unregisterApiProviders } from "../src/api-registry.js";
import { apiProviderFromDefinition } from "../src/call/provider-definition.js";
import { createProviderStream } from "../src/call/provider-stream.js";
import { MAX_SERVER_TEXT_LENGTH, redactSecret, redactSecrets } from "../src/call/secret-redaction.js";
import { stream, streamSimple } from "../src/stream.js";
import type { AssistantMessageEvent } from "../src/types.js";
import { testModel } from "./helpers/models.js";

const KEY = "sk-live-7f3a9c2e4b1d8f6a0c5e9b2d";
const SOURCE = "key-redaction-test";

const model = testModel({
	api: "key-redaction-api",
	id: "m",
	name: "M",
	provider: "key-redaction-provider",
	baseUrl: "http://127.0.0.1:1",
});

async function collect(events: AsyncIterable<AssistantMessageEvent>) {
	const list: AssistantMessageEvent[] = [];
	for await (const event of events) list.push(event);
	return list;
}

afterEach(() => unregisterApiProviders(SOURCE));

describe("API key redaction", () => {
	it("leaves the ambient-credentials marker alone: it is no key, and its pieces are ordinary words", async () => {
		// With AWS credentials in the environment, the key for "amazon-bedrock" is only a marker.
		const saved = { id: process.env.AWS_ACCESS_KEY_ID, secret: process.env.AWS_SECRET_ACCESS_KEY };
		process.env.AWS_ACCESS_KEY_ID = "AKIDEXAMPLE";
		process.env.AWS_SECRET_ACCESS_KEY = "secret-example";
		try {
			const model = testModel({
				id: "m",
				name: "M",
				api: "test-api",
				provider: "amazon-bedrock",
				baseUrl: "http://127.0.0.1:9",
			});
			const result = await createProviderStream(model, { maxRetries: 0 }, async () => {
				throw Object.assign(new Error("Request had invalid authentication credentials: not authenticated"), {
					status: 401,
				});
			}).result();
			expect(result.errorMessage).toContain("401 Request had invalid authentication credentials: not authenticated");
		} finally {
			if (saved.id === undefined) delete process.env.AWS_ACCESS_KEY_ID;
			else process.env.AWS_ACCESS_KEY_ID = saved.id;
			if (saved.secret === undefined) delete process.env.AWS_SECRET_ACCESS_KEY;
			else process.env.AWS_SECRET_ACCESS_KEY = saved.secret;
		}
	});

	it("from a thrown error's message", async () => {
		const result = await createProviderStream(model, { apiKey: KEY, maxRetries: 0 }, async () => {
			throw Object.assign(new Error(`401 invalid key ${KEY}`), { status: 401 });
		}).result();
		expect(result.errorMessage).toContain("401 invalid key [redacted]");
	});

	it("from an error the decoder reports from the stream itself, keeping the content", async () => {
		const response = createProviderStream(model, { apiKey: KEY }, async ({ builder }) => {
			builder.appendText(builder.startText(), "partial");
			builder.fail("error", `Incorrect API key provided: ${KEY}`);
		});
		const events = await collect(response);
		expect(events.at(-1)?.type).toBe("error");
		expect(JSON.stringify(events)).not.toContain(KEY);
		const result = await response.result();
		expect(result.errorMessage).toBe("Incorrect API key provided: [redacted]");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});

	it("from the diagnostics of a retried attempt", async () => {
		let attempts = 0;
		const result = await createProviderStream(model, { apiKey: KEY, maxRetries: 1 }, async ({ builder }) => {
			attempts++;
			if (attempts === 1) {
				throw Object.assign(new Error(`503 busy for ${KEY}`), { status: 503, headers: { "retry-after-ms": "1" } });
			}
			builder.finish("stop");
		}).result();
		expect(result.diagnostics?.[0]?.error?.message).toBe("503 busy for [redacted]");
	});

	it("from a provider module that failed to load", async () => {
		const load = () => Promise.reject(new Error(`module init failed with ${KEY}`));
		registerApiProvider(apiProviderFromDefinition(model.api, load), SOURCE);
		const events = await collect(stream(model, { messages: [] }, { apiKey: KEY }));
		expect(JSON.stringify(events)).not.toContain(KEY);
		expect(events.at(-1)).toMatchObject({
			type: "error",
			error: {
				errorMessage: `Failed to load the provider for api "key-redaction-api": module init failed with [redacted]`,
			},
		});
	});

	for (const [name, call] of [
		["stream", stream],
		["streamSimple", streamSimple],
	] as const) {
		it(`from a registered provider that throws synchronously (${name})`, async () => {
			const throwWithKey = (): never => {
				throw new Error(`Invalid API key: ${KEY}`);
			};
			registerApiProvider({ api: model.api, stream: throwWithKey, streamSimple: throwWithKey }, SOURCE);
			const response = call(model, { messages: [] }, { apiKey: KEY });
			const events = await collect(response);
			const message = await response.result();
			expect(message.stopReason).toBe("error");
			expect(message.errorMessage).toBe("Invalid API key: [redacted]");
			expect(JSON.stringify(events)).not.toContain(KEY);
		});
	}

	it("of every piece of 7 or more characters: a key cut by a quote, or split across two quotes", () => {
		const cut = `quoted: ${KEY.slice(0, 20)}… and later ${KEY.slice(25)}`;
		expect(redactSecret(cut, KEY)).toBe("quoted: [redacted]… and later [redacted]");
		const split = `first "${KEY.slice(0, 12)}" then "${KEY.slice(12)}"`;
		expect(redactSecret(split, KEY)).toBe('first "[redacted]" then "[redacted]"');
		// Six characters or fewer of a key say nothing about it and are left.
		expect(redactSecret(`ends with ${KEY.slice(0, 6)}`, KEY)).toBe(`ends with ${KEY.slice(0, 6)}`);
	});

	it("before a long server text is cut, whose original length is noted", async () => {
		const message = `${"x".repeat(MAX_SERVER_TEXT_LENGTH - 10)}${KEY}${"y".repeat(20_000_000)}`;
		const result = await createProviderStream(model, { apiKey: KEY }, async ({ builder }) => {
			builder.fail("error", message, `${"z".repeat(MAX_SERVER_TEXT_LENGTH - 3)}${KEY}`);
		}).result();
		expect(result.errorMessage).toBe(
			`${"x".repeat(MAX_SERVER_TEXT_LENGTH - 10)}[redacted]… (cut at ${MAX_SERVER_TEXT_LENGTH} of ${message.length} characters)`,
		);
		expect(result.rawStopReason).not.toContain(KEY.slice(0, 7));
	});

	it("from the stop reason, the response id and model, and every diagnostic", async () => {
		const result = await createProviderStream(model, { apiKey: KEY }, async ({ builder }) => {
			builder.setResponseIdentity({ responseId: `resp_${KEY}`, responseModel: `model-${KEY}` });
			builder.addDiagnostic("note", `saw ${KEY}`, { received: `got ${KEY}`, count: 1 });
			builder.finish("stop", `stop:${KEY}`);
		}).result();
		expect(result).toMatchObject({
			responseId: "resp_[redacted]",
			responseModel: "model-[redacted]",
			rawStopReason: "stop:[redacted]",
			diagnostics: [
				{ type: "note", error: { message: "saw [redacted]" }, details: { received: "got [redacted]", count: 1 } },
			],
		});
	});
	it("of a credential the transport registers with addSecret, alongside the key", async () => {
		const token = "ya29.access-token-from-an-oauth-exchange";
		const result = await createProviderStream(model, { apiKey: KEY, maxRetries: 0 }, async ({ builder }) => {
			builder.addSecret(token);
			throw Object.assign(new Error(`401 sent ${token} with ${KEY}`), { status: 401 });
		}).result();
		expect(result.errorMessage).toContain("401 sent [redacted] with [redacted]");
	});
});

describe("redactSecrets", () => {
	it("redacts each secret of a list and skips the ones a flow does not have (undefined)", () => {
		const text = "token at-0123456789 and refresh rt-9876543210";
		expect(redactSecrets(text, [undefined, "at-0123456789", "rt-9876543210"])).toBe(
			"token [redacted] and refresh [redacted]",
		);
	});
});
