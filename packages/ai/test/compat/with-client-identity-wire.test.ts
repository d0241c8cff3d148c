// withClientIdentity end to end: the identity's User-Agent and attribution headers reach the HTTP
// request a real provider sends, and the call's own headers still win.
import { describe, expect, it } from "vitest";
import { complete, withClientIdentity } from "../../src/index.js";
import { userMessage } from "../helpers/messages.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { serverModel, textStream } from "../providers/openai-completions/fixtures.js";

const wire = useWireTestServer();

describe("withClientIdentity on the wire", () => {
	it("sends the identity's headers to an OpenRouter model, under the call's own User-Agent", async () => {
		const models = withClientIdentity(
			{ complete },
			{ version: "2.0.0", attribution: { name: "acme", url: "https://acme.example", categories: ["cli-agent"] } },
		);
		const model = serverModel(wire.server.url, { provider: "openrouter" });

		wire.server.enqueue({ body: textStream("ok") });
		const first = await models.complete(model, { messages: [userMessage("Hi")] }, { apiKey: "test-key" });
		expect(first.errorMessage).toBeUndefined();
		const sent = wire.server.lastRequest?.headers ?? {};
		expect(sent["user-agent"]).toMatch(/^keel\/2\.0\.0 \(/);
		expect(sent["http-referer"]).toBe("https://acme.example");
		expect(sent["x-openrouter-title"]).toBe("acme");
		expect(sent["x-openrouter-categories"]).toBe("cli-agent");

		wire.server.enqueue({ body: textStream("ok") });
		await models.complete(
			model,
			{ messages: [userMessage("Hi")] },
			{ apiKey: "test-key", headers: { "User-Agent": "mine/1" } },
		);
		expect(wire.server.lastRequest?.headers["user-agent"]).toBe("mine/1");
	});
});
