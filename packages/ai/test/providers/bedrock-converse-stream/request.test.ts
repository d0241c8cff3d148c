import { describe, expect, it, vi } from "vitest";
import { getModel, stream } from "../../../src/index.js";
import { streamBedrock, streamSimpleBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import {
	type BedrockFrame,
	encodeFrame,
	messageStart,
	messageStop,
	metadata,
	textDelta,
	textFrames,
} from "./bedrock-test-server.js";
import { bedrockModel, TEST_ACCESS_KEY_ID, TEST_SECRET_ACCESS_KEY } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";
import { verifySigV4 } from "./sigv4.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };
const BEDROCK_API_KEY = "bedrock-api-key-ABSKtest0123456789";

describe("Bedrock request", () => {
	it("signs with the region from the options over AWS_REGION", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		await streamBedrock(bedrockModel({ baseUrl: server.url }), context, { region: "ap-southeast-2" }).result();
		expect(server.requests[0].headers.authorization).toContain(`Credential=${TEST_ACCESS_KEY_ID}/`);
		expect(server.requests[0].headers.authorization).toContain("/ap-southeast-2/bedrock/aws4_request");
	});

	it("sends the model's and the caller's headers, signed by SigV4; the SDK's own headers win", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ baseUrl: server.url, headers: { "X-Team": "model", "X-Gateway-Route": "eu" } });
		const message = await streamBedrock(model, context, {
			headers: { "x-team": "caller", "X-Request-Tag": "run-7", authorization: "not this" },
		}).result();
		expect(message.stopReason, message.errorMessage).toBe("stop");
		const request = server.requests[0];
		expect(request.headers).toMatchObject({ "x-team": "caller", "x-gateway-route": "eu", "x-request-tag": "run-7" });
		expect(request.headers.authorization).toMatch(/^AWS4-HMAC-SHA256 .*SignedHeaders=[^,]*x-request-tag/);
		expect(verifySigV4(request, TEST_SECRET_ACCESS_KEY)).toBe(true);
	});

	it("sends the caller's headers with a bearer token too", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			bearerToken: BEDROCK_API_KEY,
			headers: { "x-request-tag": "run-8" },
		}).result();
		expect(server.requests[0].headers).toMatchObject({
			authorization: `Bearer ${BEDROCK_API_KEY}`,
			"x-request-tag": "run-8",
		});
	});

	it("sends a Bedrock API key from AWS_BEARER_TOKEN_BEDROCK as a bearer token instead of signing", async () => {
		vi.stubEnv("AWS_BEARER_TOKEN_BEDROCK", BEDROCK_API_KEY);
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context).result();
		expect(message.stopReason).toBe("stop");
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${BEDROCK_API_KEY}`);
	});

	it("sends options.apiKey as the bearer token, and never shows it in an error", async () => {
		const server = await wire.start(() => ({
			status: 403,
			errorType: "AccessDeniedException",
			message: `Invalid API key ${BEDROCK_API_KEY}`,
		}));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			apiKey: BEDROCK_API_KEY,
		}).result();
		expect(server.requests[0].headers.authorization).toBe(`Bearer ${BEDROCK_API_KEY}`);
		expect(message.errorMessage).not.toContain("ABSKtest");
	});

	it("passes the request to onPayload, sends its replacement, and reports the status to onResponse", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const statuses: number[] = [];
		await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			cacheRetention: "none",
			onPayload: (payload) => ({ ...(payload as object), inferenceConfig: { maxTokens: 7 } }),
			onResponse: (response) => {
				statuses.push(response.status);
			},
		}).result();
		expect(server.requests[0].body).toEqual({
			messages: [{ role: "user", content: [{ text: "Hi" }] }],
			inferenceConfig: { maxTokens: 7 },
		});
		expect(statuses).toEqual([200]);
	});

	it("sends to the model's id when onPayload returns a request without modelId", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			onPayload: (payload) => {
				const { modelId: _dropped, ...rest } = payload as { modelId: string };
				return rest;
			},
		}).result();
		expect(message.stopReason, message.errorMessage).toBe("stop");
		expect(decodeURIComponent(server.requests[0].path)).toBe(
			"/model/anthropic.claude-sonnet-4-20250514-v1:0/converse-stream",
		);
	});

	it("sends a cross-region inference profile id in the path unchanged", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const model = bedrockModel({ id: "us.anthropic.claude-sonnet-4-5-20250929-v1:0", baseUrl: server.url });
		await streamBedrock(model, context).result();
		expect(decodeURIComponent(server.requests[0].path)).toBe(
			"/model/us.anthropic.claude-sonnet-4-5-20250929-v1:0/converse-stream",
		);
	});

	it("is called through stream() for a catalogue row, with no API key required", async () => {
		const server = await wire.start(() => ({ frames: textFrames("catalogue") }));
		const row = getModel("amazon-bedrock", "amazon.nova-pro-v1:0");
		const message = await stream({ ...row, baseUrl: server.url }, context).result();
		expect(message.content).toEqual([{ type: "text", text: "catalogue" }]);
		expect(message.api).toBe("bedrock-converse-stream");
	});

	it("sends Claude's thinking fields for a streamSimple reasoning level", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		await streamSimpleBedrock(bedrockModel({ baseUrl: server.url }), context, {
			reasoning: "low",
			maxTokens: 1000,
		}).result();
		expect(server.requests[0].body).toMatchObject({
			additionalModelRequestFields: { thinking: { type: "enabled", budget_tokens: 2048 } },
			inferenceConfig: { maxTokens: 3048 },
		});
	});
});

describe("Bedrock frames split across network chunks", () => {
	it("decodes frames cut every 3 bytes, inside headers, payloads and multi-byte characters", async () => {
		const frames = [
			messageStart(),
			textDelta(0, "héllo "),
			textDelta(0, "wörld 🌍"),
			messageStop("end_turn"),
			metadata({ inputTokens: 1, outputTokens: 2, totalTokens: 3 }),
		].map(encodeFrame);
		const whole = new Uint8Array(frames.reduce((length, frame) => length + frame.length, 0));
		let offset = 0;
		for (const frame of frames) {
			whole.set(frame, offset);
			offset += frame.length;
		}
		const pieces: BedrockFrame[] = [];
		for (let start = 0; start < whole.length; start += 3) pieces.push({ bytes: whole.subarray(start, start + 3) });
		const server = await wire.start(() => ({ frames: pieces }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context).result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "héllo wörld 🌍" }]);
		expect(message.stopReason).toBe("stop");
	});
});

describe("Bedrock outside Node", () => {
	it("asks for explicit credentials where there is no Node process and no credential in the options", async () => {
		const { resolveSigningCredentials } = await import(
			"../../../src/providers/bedrock-converse-stream/signing-credentials.js"
		);
		vi.stubGlobal("process", undefined);
		const pending = resolveSigningCredentials({});
		vi.unstubAllGlobals();
		await expect(pending).rejects.toThrow(
			"No AWS credentials for bedrock-converse-stream: outside Node pass accessKeyId and secretAccessKey (or a credentials function, or a Bedrock API key as bearerToken) in the options",
		);
	});
});
