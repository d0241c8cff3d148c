// A Bedrock answer that sends some content, then one byte at a time of an event-stream frame that
// never completes: the bytes are no progress, so the idle watchdog ends the call (keep-alive
// traffic counts for a bounded time only, pinned in call-lifetime.test.ts) and the content is kept.
import { describe, expect, it } from "vitest";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { encodeFrame, messageStart, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };

describe("Bedrock, a server that only trickles", () => {
	it("one byte at a time of a frame that never completes: ended by the idle watchdog, content kept", async () => {
		// A valid prelude (total length and its checksum) of a large frame, so the reader waits for the rest.
		const prelude = encodeFrame(textDelta(0, "y".repeat(100_000))).slice(0, 16);
		const server = await wire.start((_request, index) =>
			index === 0
				? { frames: textFrames("warm") }
				: {
						frames: [messageStart(), textDelta(0, "partial"), { bytes: prelude }],
						trickle: { bytes: new Uint8Array([0x79]), everyMs: 20 },
					},
		);
		// A first call warms up the connection and the modules, which the short idle limit below would otherwise cover.
		await streamBedrock(bedrockModel({ baseUrl: server.url }), context).result();
		const message = await streamBedrock(bedrockModel({ baseUrl: server.url }), context, {
			idleTimeoutMs: 500,
			maxRetries: 0,
		}).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toMatch(/\(idleTimeoutMs/);
		expect(message.content).toEqual([{ type: "text", text: "partial" }]);
	});
});
