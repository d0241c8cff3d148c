import { describe, expect, it } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { isContextOverflow } from "../../../src/utils/overflow.js";
import { userMessage } from "../../helpers/messages.js";
import { messageStart, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const fast = { maxRetryDelayMs: 1 };

describe("Bedrock errors", () => {
	it("reads an error answer as <status> <message> (<exception>), not retried for a ValidationException", async () => {
		const server = await wire.start(() => ({
			status: 400,
			errorType: "ValidationException",
			message: "Input is too long for requested model.",
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("400 Input is too long for requested model. (ValidationException)");
		expect(server.requests).toHaveLength(1);
		expect(isContextOverflow(message)).toBe(true);
	});

	it("retries a ThrottlingException and streams the next attempt", async () => {
		const server = await wire.start((_request, index) =>
			index === 0
				? {
						status: 429,
						errorType: "ThrottlingException",
						message: "Too many requests, please wait before trying again.",
					}
				: { frames: textFrames("ok") },
		);
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "ok" }]);
		expect(server.requests).toHaveLength(2);
	});

	it.each(["ServiceUnavailableException", "ModelNotReadyException", "InternalServerException"])(
		"retries %s",
		async (errorType) => {
			const server = await wire.start((_request, index) =>
				index === 0 ? { status: 503, errorType, message: "busy" } : { frames: textFrames("ok") },
			);
			const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
			expect(message.stopReason).toBe("stop");
			expect(server.requests).toHaveLength(2);
		},
	);

	it("does not retry an AccessDeniedException", async () => {
		const server = await wire.start(() => ({
			status: 403,
			errorType: "AccessDeniedException",
			message: "not allowed",
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.errorMessage).toContain("403 not allowed (AccessDeniedException)");
		expect(server.requests).toHaveLength(1);
	});

	it("retries an exception frame that arrives before any content", async () => {
		const server = await wire.start((_request, index) =>
			index === 0
				? { frames: [messageStart(), { exception: "throttlingException", body: { message: "slow down" } }] }
				: { frames: textFrames("second") },
		);
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.content).toEqual([{ type: "text", text: "second" }]);
		expect(server.requests).toHaveLength(2);
	});

	it("ends with the exception frame's message after content, keeping the content", async () => {
		const server = await wire.start(() => ({
			frames: [
				messageStart(),
				textDelta(0, "Partial"),
				{ exception: "modelStreamErrorException", body: { message: "The model stream broke" } },
			],
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain("The model stream broke");
		expect(message.errorMessage).toContain("ModelStreamErrorException");
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
		expect(server.requests).toHaveLength(1);
	});

	it("ends a stream without messageStop with an error naming it", async () => {
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Hi")] }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.errorMessage).toBe(
			"The Bedrock stream ended before the response was finished (no messageStop event)",
		);
		expect(message.content).toEqual([{ type: "text", text: "Hi" }]);
	});

	it("ends a stream cut mid-body with one error, keeping the content", async () => {
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Half")], hold: true }));
		const stream = streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast);
		for await (const event of stream) if (event.type === "text_delta") server.cutHeldStreams();
		const message = await stream.result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/^The connection to Bedrock closed before the response was finished: /);
		expect(message.content).toEqual([{ type: "text", text: "Half" }]);
		expect(server.requests).toHaveLength(1);
	});

	it("reads an error answer whose exception is named only in the body's __type", async () => {
		const server = await wire.start(() => ({
			status: 400,
			errorType: "",
			message: "",
			rawBody: JSON.stringify({ __type: "com.amazon.coral.validate#ValidationException", Message: "Bad field" }),
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, fast).result();
		expect(message.errorMessage).toContain("400 Bad field (ValidationException)");
		expect(server.requests).toHaveLength(1);
	});

	it("ends a stalled stream through the idle watchdog", async () => {
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Wait")], hold: true }));
		// Generous: the first bytes must arrive before the limit, also on a busy machine; the stall after them is what ends the call.
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			...fast,
			idleTimeoutMs: 2000,
			maxRetries: 0,
		}).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/idle|no data/i);
		expect(message.content).toEqual([{ type: "text", text: "Wait" }]);
	});

	it("names a refused connection", async () => {
		const server = await wire.start(() => ({ frames: textFrames("never") }));
		const url = server.url;
		await server.close();
		const message = await streamBedrock(bedrockModel({ baseUrl: url }), context, { ...fast, maxRetries: 0 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/ECONNREFUSED/);
	});
});
