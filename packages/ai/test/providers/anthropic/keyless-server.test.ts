// An Anthropic-compatible server of defineModel (provider "custom", which has no key variable) is
// called without a key, as the OpenAI-compatible providers call a local server; a catalogue
// provider still needs one.
import { afterEach, describe, expect, it, vi } from "vitest";
import { defineModel } from "../../../src/models/define-model.js";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { claudeModel, sseResponse, textResponseEvents } from "./fixtures.js";

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };

describe("an anthropic-messages call without a key", () => {
	afterEach(() => vi.unstubAllEnvs());

	it("reaches a defineModel server without a key and sends no credential header", async () => {
		wire.server.enqueue(sseResponse(textResponseEvents(["ok"])));
		const model = defineModel({ id: "local-claude", baseUrl: wire.server.url, api: "anthropic-messages" });
		const message = await streamAnthropic(model, context).result();
		expect(message.stopReason).toBe("stop");
		expect(wire.server.lastRequest?.headers["x-api-key"]).toBeUndefined();
		expect(wire.server.lastRequest?.headers.authorization).toBeUndefined();
	});

	it("still refuses a catalogue provider's model before sending anything", async () => {
		vi.stubEnv("ANTHROPIC_API_KEY", "");
		vi.stubEnv("ANTHROPIC_OAUTH_TOKEN", "");
		const message = await streamAnthropic(claudeModel({ baseUrl: wire.server.url }), context).result();
		expect(message.errorMessage).toContain('No API key for provider "anthropic"');
		expect(wire.server.requests).toHaveLength(0);
	});
});
