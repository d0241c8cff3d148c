// Bedrock clients are kept per configuration (credentials resolved once), in a bounded cache. A
// client the cache lets go is destroyed only when no call is still reading a stream through it:
// here a stream stays open while more configurations than the cache holds are used, then ends
// normally with all its text.
import { BedrockRuntimeClient } from "@aws-sdk/client-bedrock-runtime";
import { describe, expect, it, vi } from "vitest";
import { ClientCache, MAX_KEPT_CLIENTS } from "../../../src/providers/bedrock-converse-stream/client-cache.js";
import { streamBedrock } from "../../../src/providers/bedrock-converse-stream/index.js";
import { userMessage } from "../../helpers/messages.js";
import { blockStop, messageStart, messageStop, metadata, textDelta, textFrames } from "./bedrock-test-server.js";
import { bedrockModel } from "./fixtures.js";
import { useBedrockServer } from "./server-setup.js";

const wire = useBedrockServer();
const context = { messages: [userMessage("Hi")] };

class FakeClient {
	destroyed = false;
	destroy(): void {
		this.destroyed = true;
	}
}

describe("the Bedrock client cache", () => {
	it("destroys an evicted client at once when no call uses it, and after the last user otherwise", () => {
		const cache = new ClientCache<FakeClient>(1);
		const idle = cache.acquire("idle", () => new FakeClient());
		idle.release();
		const busy = cache.acquire("busy", () => new FakeClient());
		expect(idle.client.destroyed).toBe(true);
		const other = cache.acquire("other", () => new FakeClient());
		expect(cache.size).toBe(1);
		expect(busy.client.destroyed).toBe(false);
		busy.release();
		busy.release();
		expect(busy.client.destroyed).toBe(true);
		other.release();
		expect(other.client.destroyed).toBe(false);
	});

	it("reuses a kept client and evicts the least recently used one", () => {
		const cache = new ClientCache<FakeClient>(2);
		const first = cache.acquire("a", () => new FakeClient());
		first.release();
		cache.acquire("b", () => new FakeClient()).release();
		const again = cache.acquire("a", () => new FakeClient());
		again.release();
		expect(again.client).toBe(first.client);
		const third = cache.acquire("c", () => new FakeClient());
		third.release();
		// "b" was used least recently, so it went; "a" is still kept.
		expect(first.client.destroyed).toBe(false);
		expect(cache.acquire("a", () => new FakeClient()).client).toBe(first.client);
	});

	it("never destroys a client a stream is still reading: the stream ends with all its text", async () => {
		const server = await wire.start((_request, index) =>
			index === 0 ? { frames: [messageStart(), textDelta(0, "Hello")], hold: true } : { frames: textFrames("ok") },
		);
		const model = bedrockModel({ baseUrl: server.url });
		const held = streamBedrock(model, context, { region: "eu-north-1" });
		const iterator = held[Symbol.asyncIterator]();
		for (;;) {
			const next = await iterator.next();
			if (next.done || next.value.type === "text_delta") break;
		}
		const destroy = vi.spyOn(BedrockRuntimeClient.prototype, "destroy");
		// More configurations than the cache keeps: the held stream's client is let go meanwhile.
		for (let region = 0; region < MAX_KEPT_CLIENTS + 1; region++) {
			const message = await streamBedrock(model, context, { region: `us-test-${region}` }).result();
			expect(message.stopReason, message.errorMessage).toBe("stop");
		}
		const destroyedBeforeTheEnd = destroy.mock.contexts.slice();
		server.finishHeldStreams([
			textDelta(0, " world"),
			blockStop(0),
			messageStop("end_turn"),
			metadata({ inputTokens: 1, outputTokens: 2, totalTokens: 3 }),
		]);
		const message = await held.result();
		expect(message.errorMessage).toBeUndefined();
		expect(message.content).toEqual([{ type: "text", text: "Hello world" }]);
		// The held call's client is destroyed once its call is done with it (just after the terminal
		// event, when the transport returns), and not before.
		await vi.waitFor(() => expect(destroy.mock.contexts).toHaveLength(destroyedBeforeTheEnd.length + 1), {
			timeout: 2000,
		});
		expect(destroyedBeforeTheEnd).not.toContain(destroy.mock.contexts.at(-1));
		destroy.mockRestore();
	});
});
