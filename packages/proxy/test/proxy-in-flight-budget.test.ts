// The proxy server's budget for request bytes held in flight: a burst of large requests gets 503
// with Retry-After instead of growing the process without bound, and the bytes come back when a
// response ends.
import {
	type Api,
	AssistantMessageBuilder,
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	type Model,
} from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createFetchProxyHandler } from "../src/fetch-handler.js";

let faux: FauxProviderRegistration;
let model: Model<Api>;
beforeEach(() => {
	faux = registerFauxProvider();
	model = faux.getModel();
});
afterEach(() => faux.unregister());

/** A stream function whose calls stay open until `finishAll()`. */
function createHeldStreamFunction() {
	const open: (() => void)[] = [];
	const streamFunction = (streamModel: Model<Api>) => {
		const stream: AssistantMessageEventStream = createAssistantMessageEventStream();
		const builder = new AssistantMessageBuilder(streamModel, (event) => stream.push(event));
		builder.start();
		open.push(() => {
			builder.finish("stop");
			stream.end();
		});
		return stream;
	};
	const finishAll = () => {
		for (const finish of open.splice(0)) finish();
	};
	return { streamFunction, finishAll };
}

/** A request body of about `bytes` bytes. */
function postOfSize(bytes: number): Request {
	const body = JSON.stringify({
		model: { provider: "faux", id: "faux-model" },
		context: { messages: [{ role: "user", content: "x".repeat(bytes - 120), timestamp: 0 }] },
		options: {},
	});
	return new Request("http://proxy.test/api/stream", {
		method: "POST",
		headers: { Authorization: "Bearer good", "Content-Type": "application/json" },
		body,
	});
}

describe("in-flight request bytes budget", () => {
	it("answers 503 with Retry-After beyond maxInFlightRequestBytes, and serves again once a response ended", async () => {
		const held = createHeldStreamFunction();
		const handler = createFetchProxyHandler({
			authenticate: () => true,
			models: [model],
			streamFunction: held.streamFunction,
			maxRequestBytes: 1_000,
			maxInFlightRequestBytes: 1_500,
		});
		const first = await handler(postOfSize(900));
		expect(first.status).toBe(200);
		const refused = await handler(postOfSize(900));
		expect(refused.status).toBe(503);
		expect(refused.headers.get("retry-after")).toBe("2");
		expect(await refused.json()).toEqual({
			error:
				"The proxy is busy: requests in flight hold its limit of 1500 bytes (maxInFlightRequestBytes); retry after 2 s",
		});
		// A small request still fits beside the first.
		const small = await handler(postOfSize(400));
		expect(small.status).toBe(200);

		held.finishAll();
		await first.text();
		await small.text();
		const again = await handler(postOfSize(900));
		expect(again.status).toBe(200);
		held.finishAll();
		await again.text();
	});

	it("gives the bytes of a refused request back at once", async () => {
		const handler = createFetchProxyHandler({
			authenticate: () => true,
			models: [],
			maxRequestBytes: 1_000,
			maxInFlightRequestBytes: 1_000,
		});
		for (let attempt = 0; attempt < 3; attempt++) {
			expect((await handler(postOfSize(900))).status).toBe(403);
		}
	});

	it("refuses a budget smaller than maxRequestBytes at creation", () => {
		expect(() =>
			createFetchProxyHandler({
				authenticate: () => true,
				models: [model],
				maxRequestBytes: 2_000,
				maxInFlightRequestBytes: 1_000,
			}),
		).toThrow(
			"Proxy handler: options.maxInFlightRequestBytes (1000) must be at least maxRequestBytes (2000), or no request of the largest size could ever be served",
		);
	});
});
