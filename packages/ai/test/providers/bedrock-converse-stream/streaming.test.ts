import { describe, expect, it } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { blockStop, messageStart, messageStop, metadata, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel, TEST_ACCESS_KEY_ID, TEST_SECRET_ACCESS_KEY } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";
import { verifySigV4 } from "./sigv4.js";

const wire = useBedrockServer();

describe("Bedrock ConverseStream over fetch", () => {
	it("streams text from event-stream frames and signs the request with SigV4", async () => {
		const server = await wire.start(() => ({
			frames: [
				messageStart(),
				textDelta(0, "Hello"),
				textDelta(0, " world"),
				blockStop(0),
				messageStop("end_turn"),
				metadata({ inputTokens: 10, outputTokens: 3, totalTokens: 13 }),
			],
		}));
		const stream = streamBedrock(bedrockModel({ baseUrl: server.url }), { messages: [userMessage("Hi")] });
		const events: string[] = [];
		for await (const event of stream) events.push(event.type);
		const message = await stream.result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "Hello world" }]);
		expect(events).toEqual(["start", "text_start", "text_delta", "text_delta", "text_end", "done"]);
		const request = server.requests[0];
		expect(request.path).toBe(
			`/model/${encodeURIComponent("anthropic.claude-sonnet-4-20250514-v1:0")}/converse-stream`,
		);
		expect(request.headers.authorization).toMatch(
			new RegExp(
				`^AWS4-HMAC-SHA256 Credential=${TEST_ACCESS_KEY_ID}/\\d{8}/eu-west-1/bedrock/aws4_request, SignedHeaders=[a-z0-9:;-]+, Signature=[0-9a-f]{64}$`,
			),
		);
		expect(verifySigV4(request, TEST_SECRET_ACCESS_KEY)).toBe(true);
		expect(verifySigV4(request, "another-secret")).toBe(false);
		expect(request.body).toEqual({
			messages: [{ role: "user", content: [{ text: "Hi" }, { cachePoint: { type: "default" } }] }],
			inferenceConfig: { maxTokens: 21333 },
		});
	});

	it("reads usage from the metadata event", async () => {
		const server = await wire.start(() => ({ frames: textFrames("ok") }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), {
			messages: [userMessage("Hi")],
		}).result();
		expect(message.usage).toMatchObject({ input: 10, output: 3, totalTokens: 13 });
	});
});
