// A Bedrock API key sent as a bearer token is kept out of every event and the result like an API
// key, whichever way it was given (options.bearerToken, AWS_BEARER_TOKEN_BEDROCK, options.apiKey):
// here a server echoes the Authorization header it received in its error body, on a retried error
// (the retry diagnostic) and on the final one. With tracing on, the spans' status text is redacted
// the same way.
import { describe, expect, it, vi } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import type { BedrockOptions } from "../../../src/providers/bedrock-converse-stream/options.js";
import type { AssistantMessageEvent } from "../../../src/types.js";
import { userMessage } from "../../helpers/messages.js";
import { recordTelemetry } from "../../helpers/tracing.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const TOKEN = "ABSKQmVkcm9ja0FQSUtleS1lY2hvZWQtYmVhcmVyLXRva2VuLTAxMjM0NTY3ODk=";

const WAYS: [string, () => BedrockOptions][] = [
	["options.bearerToken", () => ({ bearerToken: TOKEN })],
	[
		"AWS_BEARER_TOKEN_BEDROCK",
		() => {
			vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", TOKEN);
			return {};
		},
	],
	["options.apiKey", () => ({ apiKey: TOKEN })],
];

describe("a Bedrock bearer token echoed by the server", () => {
	it.each(WAYS)("given as %s, never appears in an event or the result", async (_way, options) => {
		const server = await wire.start((request, index) =>
			index === 0
				? {
						status: 503,
						errorType: "ServiceUnavailableException",
						message: `busy; you sent ${request.headers.authorization}`,
						headers: { "retry-after": "0" },
					}
				: { status: 403, errorType: "AccessDeniedException", message: `denied: ${request.headers.authorization}` },
		);
		const events: AssistantMessageEvent[] = [];
		const response = streamBedrock(bedrockModel({ baseUrl: server.url }), context, { ...options(), maxRetries: 1 });
		for await (const event of response) events.push(event);
		const message = await response.result();
		// The token was sent, and the server's text around it was kept.
		expect(server.requests.map((request) => request.headers.authorization)).toEqual([
			`Bearer ${TOKEN}`,
			`Bearer ${TOKEN}`,
		]);
		expect(message.errorMessage).toContain("403 denied: Bearer [redacted] (AccessDeniedException)");
		expect(message.diagnostics?.[0]?.error?.message).toBe(
			"503 busy; you sent Bearer [redacted] (ServiceUnavailableException)",
		);
		expect(JSON.stringify(events)).not.toContain(TOKEN.slice(0, 7));
		expect(JSON.stringify(events)).not.toContain(TOKEN.slice(-7));
	});
});

describe("a Bedrock bearer token echoed by the server, with tracing on", () => {
	it("never appears in a span's status", async () => {
		const telemetry = recordTelemetry();
		const server = await wire.start(() => ({
			status: 403,
			errorType: "AccessDeniedException",
			message: `denied: Bearer ${TOKEN}`,
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			bearerToken: TOKEN,
			maxRetries: 0,
		}).result();
		expect(message.errorMessage).toContain("403 denied: Bearer [redacted] (AccessDeniedException)");
		const statuses = telemetry.spans().map((span) => span.status.message ?? "");
		expect(statuses).toContain("403 denied: Bearer [redacted] (AccessDeniedException)");
		expect(JSON.stringify(statuses)).not.toContain(TOKEN.slice(0, 7));
		expect(JSON.stringify(statuses)).not.toContain(TOKEN.slice(-7));
	});
});
