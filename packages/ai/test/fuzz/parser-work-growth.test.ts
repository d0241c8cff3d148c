// No quadratic blow-up in the readers or the decoders: for input shapes that make a naive reader
// quadratic (one long line arriving a character at a time, a tool argument in thousands of tiny
// deltas, a long run of escapes), the CPU time at eight times the size must stay within a generous
// multiple of eight (see work-growth.ts: ratios, not time budgets).
import { describe, expect, it, vi } from "vitest";
import { repairJson, ServerSentEventParser, StreamingJsonParser } from "../../src/index.js";
import { EventStreamFrameReader } from "../../src/providers/bedrock-converse-stream/event-stream-frames.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { encodeFrame } from "../providers/bedrock-converse-stream/bedrock-test-server.js";
import { API_CASES, TEST_KEY } from "../providers/http/api-cases.js";
import { LINEAR_GROWTH_BOUND, workGrowth } from "./work-growth.js";

// Runs are bounded by count, not time; the limit only catches a hang, generously on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const wire = useWireTestServer();

describe("the growth check", () => {
	it("tells quadratic work (a buffer searched again on every delta) from linear work", async () => {
		const quadratic = await workGrowth((size) => {
			return () => {
				let buffer = "";
				for (let index = 0; index < size; index++) {
					buffer += "x";
					if (buffer.indexOf("\n") !== -1) throw new Error("unreachable");
				}
			};
		}, 1_500);
		expect(quadratic).toBeGreaterThan(LINEAR_GROWTH_BOUND);
	});
});

describe("readers do linear work", () => {
	it("the SSE parser: one long data line pushed a character at a time", async () => {
		const ratio = await workGrowth((size) => {
			const text = `data: ${"x".repeat(size)}\n\n`;
			return () => {
				const parser = new ServerSentEventParser(() => {});
				for (let index = 0; index < text.length; index++) parser.push(text[index]);
				parser.end();
			};
		}, 20_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});

	it("the SSE parser: many events with \\r\\n line ends split between pushes", async () => {
		const ratio = await workGrowth((size) => {
			const text = 'data: {"a":1}\r\n\r\n'.repeat(size);
			return () => {
				const parser = new ServerSentEventParser(() => {});
				for (let index = 0; index < text.length; index += 7) parser.push(text.slice(index, index + 7));
				parser.end();
			};
		}, 4_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});

	it("the streaming JSON parser: a string argument in one-character deltas, the value read after each", async () => {
		const ratio = await workGrowth((size) => {
			const text = `{"content":"${"a\\n".repeat(size)}"}`;
			return () => {
				const parser = new StreamingJsonParser();
				for (let index = 0; index < text.length; index++) {
					parser.push(text[index]);
					void parser.value;
				}
				parser.finish();
			};
		}, 5_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});

	it("the streaming JSON parser: a long array and a long number in small deltas", async () => {
		const ratio = await workGrowth((size) => {
			const text = `{"list":[${"1,".repeat(size)}2],"n":${"7".repeat(size)}}`;
			return () => {
				const parser = new StreamingJsonParser();
				for (let index = 0; index < text.length; index += 3) {
					parser.push(text.slice(index, index + 3));
					void parser.value;
				}
				parser.finish();
			};
		}, 5_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});

	it("repairJson: a long run of invalid escapes and raw control characters", async () => {
		const ratio = await workGrowth((size) => {
			const text = `{"path":"${"C:\\Users\\d\t".repeat(size)}"}`;
			return () => repairJson(text);
		}, 5_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});

	it("the event-stream frame reader: a large frame in one-byte chunks, and many small frames", async () => {
		const ratio = await workGrowth((size) => {
			const large = encodeFrame({ event: "contentBlockDelta", body: { text: "x".repeat(size) } });
			const small = encodeFrame({ event: "contentBlockDelta", body: { text: "y" } });
			const many = new Uint8Array(small.length * (size / 10));
			for (let index = 0; index < size / 10; index++) many.set(small, index * small.length);
			return () => {
				const reader = new EventStreamFrameReader();
				for (let index = 0; index < large.length; index++) reader.push(large.subarray(index, index + 1));
				new EventStreamFrameReader().push(many);
			};
		}, 10_000);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});
});

describe.each(API_CASES)("$name stream() does linear work per delta", (api) => {
	it("a tool call whose arguments arrive in many small deltas", async () => {
		const ratio = await workGrowth(
			(size) => {
				const body = api.toolCallBody(['{"content":"', ...Array.from({ length: size }, () => "ab\\n"), '"}']);
				return async () => {
					wire.server.enqueue({ body });
					const message = await api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 0 }).result();
					if (message.stopReason !== "toolUse") throw new Error(`${message.stopReason}: ${message.errorMessage}`);
				};
			},
			300,
			3,
		);
		expect(ratio).toBeLessThan(LINEAR_GROWTH_BOUND);
	});
});
