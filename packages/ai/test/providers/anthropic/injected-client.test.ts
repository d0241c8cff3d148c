// A caller's own Anthropic SDK client (`options.client`) still sends the request: its base URL and
// credentials apply, Keel's headers and signal ride along, and Keel reads the body and the errors.
import Anthropic from "@anthropic-ai/sdk";
import { describe, expect, it } from "vitest";
import { streamAnthropic } from "../../../src/providers/anthropic/index.js";
import type { Context, ResponseInfo } from "../../../src/types.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import {
	anthropicSse,
	claudeModel,
	errorBody,
	messageStart,
	sseResponse,
	textDelta,
	textResponseEvents,
	textStart,
} from "./fixtures.js";

const wire = useWireTestServer();
const context: Context = { messages: [{ role: "user", content: "Hello", timestamp: 1 }] };
// The model's base URL is never used: the client has its own.
const model = claudeModel({ baseUrl: "http://unused.invalid" });
const client = () => new Anthropic({ apiKey: "injected-key", baseURL: wire.server.url, maxRetries: 0 });

describe("an injected Anthropic SDK client", () => {
	it("sends with its own credentials and base URL, with Keel's headers, and needs no key", async () => {
		wire.server.enqueue(sseResponse(textResponseEvents(["from the client"])));
		const result = await streamAnthropic(model, context, { client: client(), headers: { "x-caller": "yes" } }).result();
		expect(result.content).toEqual([{ type: "text", text: "from the client" }]);
		const request = wire.server.lastRequest;
		expect(request?.url).toBe("/v1/messages");
		expect(request?.headers.authorization).toBe("Bearer injected-key");
		expect(request?.headers["x-api-key"]).toBeUndefined();
		expect(request?.headers["x-caller"]).toBe("yes");
		expect(request?.headers["anthropic-version"]).toBe("2023-06-01");
	});

	it("reports its HTTP errors like Keel's own: status and message, onResponse, Keel's retry", async () => {
		wire.server.enqueue(
			{ status: 529, headers: { "retry-after-ms": "1" }, body: errorBody("overloaded_error", "Overloaded") },
			{ status: 400, body: errorBody("invalid_request_error", "max_tokens: too large") },
		);
		const statuses: number[] = [];
		const result = await streamAnthropic(model, context, {
			client: client(),
			maxRetries: 1,
			onResponse: (info: ResponseInfo) => {
				statuses.push(info.status);
			},
		}).result();
		expect(result.errorMessage).toContain("400 max_tokens: too large (invalid_request_error)");
		expect(result.diagnostics?.[0]?.error?.message).toBe("529 Overloaded (overloaded_error)");
		expect(statuses).toEqual([529, 400]);
	});

	it("is stopped by Keel's abort mid-body, keeping the partial text", async () => {
		wire.server.enqueue({ body: [anthropicSse([messageStart(), textStart(0), textDelta(0, "partial")])], stall: true });
		const controller = new AbortController();
		const stream = streamAnthropic(model, context, { client: client(), signal: controller.signal });
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const result = await stream.result();
		expect(result.stopReason).toBe("aborted");
		expect(result.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
