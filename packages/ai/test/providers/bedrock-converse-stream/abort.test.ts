import { describe, expect, it } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { messageStart, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };

describe("Bedrock abort", () => {
	it("aborted before the request: nothing is sent", async () => {
		const server = await wire.start(() => ({ frames: textFrames("never") }));
		const controller = new AbortController();
		controller.abort();
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			signal: controller.signal,
		}).result();
		expect(message.stopReason).toBe("aborted");
		expect(server.requests).toHaveLength(0);
	});

	it("aborted mid-body: the text so far is kept, stopReason aborted", async () => {
		const server = await wire.start(() => ({ frames: [messageStart(), textDelta(0, "Partial")], hold: true }));
		const controller = new AbortController();
		const stream = streamBedrock(bedrockModel({ baseUrl: server.url }), context, { signal: controller.signal });
		for await (const event of stream) if (event.type === "text_delta") controller.abort();
		const message = await stream.result();
		expect(message.stopReason).toBe("aborted");
		expect(message.errorMessage).toBe("Request was aborted");
		expect(message.content).toEqual([{ type: "text", text: "Partial" }]);
	});

	it("aborted after done: the result is unchanged", async () => {
		const server = await wire.start(() => ({ frames: textFrames("done") }));
		const controller = new AbortController();
		const stream = streamBedrock(bedrockModel({ baseUrl: server.url }), context, { signal: controller.signal });
		const message = await stream.result();
		controller.abort();
		expect(message.stopReason).toBe("stop");
		expect((await stream.result()).content).toEqual([{ type: "text", text: "done" }]);
	});

	it("ends at timeoutMs while waiting for a held stream", async () => {
		const server = await wire.start(() => ({ frames: [messageStart()], hold: true }));
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, { timeoutMs: 150 }).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toBe("Request timed out after 150 ms (timeoutMs)");
	});
});
