// Resumable answers on the real Redis at 127.0.0.1:6379: a page that loses its connection or
// reloads mid-answer reads the rest from any proxy instance sharing Redis, with no second model call.
// Each test uses its own key prefix and deletes its keys afterwards.
import { spawn } from "node:child_process";
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import {
	type Api,
	AssistantMessageBuilder,
	type AssistantMessageEvent,
	type AssistantMessageEventStream,
	createAssistantMessageEventStream,
	type Model,
} from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { Redis } from "ioredis";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createFetchProxyHandler } from "../src/fetch-handler.js";
import { createProxyHandler } from "../src/node-handler.js";
import { createRedisStreamStore } from "../src/redis/redis-stream-store.js";
import type { ResumableStreamStore } from "../src/resumable-streams.js";
import { deferred } from "./proxy-test-server.js";

interface Instance {
	url: string;
	server: Server;
}

let faux: FauxProviderRegistration;
let model: Model<Api>;
let redis: Redis;
let keyPrefix: string;
const instances: Instance[] = [];
const extraClients: Redis[] = [];

beforeEach(async () => {
	faux = registerFauxProvider();
	model = faux.getModel();
	keyPrefix = `keel-test:${randomUUID()}:`;
	redis = new Redis({ host: "127.0.0.1", port: 6379, lazyConnect: true });
	await redis.connect();
});

afterEach(async () => {
	faux.unregister();
	for (const instance of instances.splice(0)) {
		instance.server.closeAllConnections();
		await new Promise<void>((resolve) => instance.server.close(() => resolve()));
	}
	for (const client of extraClients.splice(0)) client.disconnect();
	const keys = await redis.keys(`${keyPrefix}*`);
	if (keys.length > 0) await redis.del(...keys);
	await redis.quit();
});

/** An upstream that streams "one two ", waits for `release`, then "three four" and done; it counts its calls. */
function createPausingUpstream() {
	const release = deferred();
	const finished = deferred();
	let calls = 0;
	const streamFunction = (callModel: Model<Api>): AssistantMessageEventStream => {
		calls++;
		const stream = createAssistantMessageEventStream();
		const builder = new AssistantMessageBuilder(callModel, (event) => stream.push(event));
		void (async () => {
			builder.start();
			const index = builder.startText();
			builder.appendText(index, "one ");
			builder.appendText(index, "two ");
			await release.promise;
			builder.appendText(index, "three ");
			builder.appendText(index, "four");
			builder.endText(index);
			builder.finish("stop");
			stream.end();
			finished.resolve();
		})();
		return stream;
	};
	return { streamFunction, release: release.resolve, finished: finished.promise, calls: () => calls };
}

async function startInstance(
	store: ResumableStreamStore,
	streamFunction: (model: Model<Api>) => AssistantMessageEventStream,
) {
	const handler = createProxyHandler({
		authenticate: (token) => token === "good",
		models: [model],
		resumableStreams: store,
		streamFunction,
	});
	const server = createServer((request: IncomingMessage, response: ServerResponse) => void handler(request, response));
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const instance = { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
	instances.push(instance);
	return instance;
}

function store(options: { redis?: Redis } = {}) {
	return createRedisStreamStore({ redis: options.redis ?? redis, keyPrefix, blockMs: 200 });
}

/** A fetch that posts to the first instance and sends every resume (GET) to the second. */
function routingFetch(first: Instance, second: Instance): typeof fetch {
	return (input, init) => {
		const url = new URL(String(input));
		const target = init?.method === "GET" ? second : first;
		return fetch(`${target.url}${url.pathname}`, init);
	};
}

async function collect(
	stream: AssistantMessageEventStream,
	onEvent: (event: AssistantMessageEvent) => void = () => {},
) {
	const events: AssistantMessageEvent[] = [];
	for await (const event of stream) {
		events.push(event);
		onEvent(event);
	}
	return events;
}

const deltasOf = (events: AssistantMessageEvent[]) =>
	events.flatMap((event) => (event.type === "text_delta" ? [event.delta] : []));

describe("resumable proxy answers on Redis", () => {
	it("resumes a dropped connection on another instance: every event once, in order, one upstream call", async () => {
		const upstream = createPausingUpstream();
		const first = await startInstance(store(), upstream.streamFunction);
		const second = await startInstance(store(), () => {
			throw new Error("the second instance must not call the model");
		});
		let streamId: string | undefined;
		const stream = streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: first.url,
				authToken: "good",
				fetch: routingFetch(first, second),
				onStreamId: (id) => {
					streamId = id;
				},
			},
		);
		const events = await collect(stream, (event) => {
			// Mid-answer: the first instance's connection breaks, and only then does the answer go on.
			if (event.type === "text_delta" && event.delta === "two ") {
				first.server.closeAllConnections();
				upstream.release();
			}
		});
		expect(deltasOf(events)).toEqual(["one ", "two ", "three ", "four"]);
		expect(events.map((event) => event.type)).toEqual([
			"start",
			"text_start",
			"text_delta",
			"text_delta",
			"text_delta",
			"text_delta",
			"text_end",
			"done",
		]);
		const message = await stream.result();
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "one two three four" }]);
		expect(upstream.calls()).toBe(1);
		expect(streamId).toMatch(/^[0-9a-f-]{36}$/);
		// The stream is kept for its TTL, no longer.
		expect(await redis.ttl(`${keyPrefix}${streamId}`)).toBeGreaterThan(0);
	});

	it("reads a finished answer again after a reload, from any instance, without calling the model", async () => {
		const upstream = createPausingUpstream();
		upstream.release();
		const first = await startInstance(store(), upstream.streamFunction);
		const second = await startInstance(store(), () => {
			throw new Error("the second instance must not call the model");
		});
		let streamId = "";
		const original = await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: first.url,
				authToken: "good",
				onStreamId: (id) => {
					streamId = id;
				},
			},
		).result();
		const replay = streamProxy(
			model,
			{ messages: [] },
			{ proxyUrl: second.url, authToken: "good", resumeStreamId: streamId },
		);
		const events = await collect(replay);
		const replayed = await replay.result();
		expect(deltasOf(events)).toEqual(["one ", "two ", "three ", "four"]);
		expect(replayed.content).toEqual(original.content);
		expect(replayed.stopReason).toBe("stop");
		expect(upstream.calls()).toBe(1);
	});

	it("after a reload mid-answer, reads what was sent and then the rest as it comes", async () => {
		const upstream = createPausingUpstream();
		const first = await startInstance(store(), upstream.streamFunction);
		const second = await startInstance(store(), () => {
			throw new Error("the second instance must not call the model");
		});
		const gotStreamId = deferred<string>();
		const original = streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: first.url,
				authToken: "good",
				maxResumeAttempts: 0,
				onStreamId: gotStreamId.resolve,
			},
		);
		const seenTwo = deferred();
		const originalEvents = collect(original, (event) => {
			if (event.type === "text_delta" && event.delta === "two ") seenTwo.resolve();
		});
		await seenTwo.promise;
		// The page reloads: its first connection is gone, and it asks the other instance.
		first.server.closeAllConnections();
		const reloaded = streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: second.url,
				authToken: "good",
				resumeStreamId: await gotStreamId.promise,
			},
		);
		const seenReplayedTwo = deferred();
		const reloadedEvents = collect(reloaded, (event) => {
			if (event.type === "text_delta" && event.delta === "two ") seenReplayedTwo.resolve();
		});
		await seenReplayedTwo.promise;
		upstream.release();
		expect(deltasOf(await reloadedEvents)).toEqual(["one ", "two ", "three ", "four"]);
		expect((await reloaded.result()).stopReason).toBe("stop");
		// Without resuming, the first page's stream ends with the error and what it had.
		await originalEvents;
		const cut = await original.result();
		expect(cut.stopReason).toBe("error");
		expect(cut.content).toEqual([{ type: "text", text: "one two " }]);
		await upstream.finished;
		expect(upstream.calls()).toBe(1);
	});

	it("refuses an unknown stream id and an expired one with a clear error", async () => {
		const upstream = createPausingUpstream();
		upstream.release();
		const instance = await startInstance(store(), upstream.streamFunction);
		const unknown = await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: instance.url,
				authToken: "good",
				resumeStreamId: "no-such-stream",
			},
		).result();
		expect(unknown.stopReason).toBe("error");
		expect(unknown.errorMessage).toMatch(
			/^Proxy error: Unknown or expired stream id: no-such-stream \(the proxy at 127\.0\.0\.1:\d+\)$/,
		);

		let streamId = "";
		await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: instance.url,
				authToken: "good",
				onStreamId: (id) => {
					streamId = id;
				},
			},
		).result();
		// What EXPIRE does when the TTL runs out.
		await redis.del(`${keyPrefix}${streamId}`);
		const expired = await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: instance.url,
				authToken: "good",
				resumeStreamId: streamId,
			},
		).result();
		expect(expired.errorMessage).toContain(`Proxy error: Unknown or expired stream id: ${streamId}`);
	});

	it("refuses a malformed stream id or Last-Event-ID with 400, and a missing token with 401", async () => {
		const instance = await startInstance(store(), createPausingUpstream().streamFunction);
		const badId = await fetch(`${instance.url}/api/stream/${encodeURIComponent("a b")}`, {
			headers: { Authorization: "Bearer good" },
		});
		expect(badId.status).toBe(400);
		expect(await badId.json()).toEqual({ error: "Invalid stream id: expected the X-Keel-Stream-Id the proxy sent" });
		const badLastId = await fetch(`${instance.url}/api/stream/abc`, {
			headers: { Authorization: "Bearer good", "Last-Event-ID": "-3" },
		});
		expect(badLastId.status).toBe(400);
		expect((await badLastId.json()).error).toMatch(/^Invalid Last-Event-ID/);
		const noToken = await fetch(`${instance.url}/api/stream/abc`);
		expect(noToken.status).toBe(401);
	});

	it("streams the answer to the first connection when Redis is down, and says resuming is unavailable", async () => {
		const closedPort = await findClosedPort();
		const down = new Redis({
			host: "127.0.0.1",
			port: closedPort,
			lazyConnect: true,
			enableOfflineQueue: false,
			maxRetriesPerRequest: 0,
			retryStrategy: () => null,
		});
		down.on("error", () => {});
		extraClients.push(down);
		await down.connect().catch(() => {});
		const errors: unknown[] = [];
		const downStore = createRedisStreamStore({ redis: down, keyPrefix, onError: (error) => errors.push(error) });
		const upstream = createPausingUpstream();
		upstream.release();
		const instance = await startInstance(downStore, upstream.streamFunction);
		let streamId = "";
		const answer = await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: instance.url,
				authToken: "good",
				onStreamId: (id) => {
					streamId = id;
				},
			},
		).result();
		expect(answer.stopReason).toBe("stop");
		expect(answer.content).toEqual([{ type: "text", text: "one two three four" }]);
		expect(errors.length).toBeGreaterThan(0);
		const resumed = await streamProxy(
			model,
			{ messages: [] },
			{
				proxyUrl: instance.url,
				authToken: "good",
				resumeStreamId: streamId,
				maxRetries: 0,
			},
		).result();
		expect(resumed.stopReason).toBe("error");
		expect(resumed.errorMessage).toContain(
			"Proxy error: Resuming is unavailable: the proxy cannot reach its stream store (Redis)",
		);
	});
});

describe("resumable proxy answers when Redis stops mid-answer", () => {
	it("finishes the answer on its first connection, and resuming says it is unavailable", async () => {
		// A private redis-server of this test's own, on a free port (the shared one is never stopped).
		const port = await findClosedPort();
		const redisServer = spawn(
			"redis-server",
			["--port", String(port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
			{
				stdio: ["ignore", "pipe", "pipe"],
			},
		);
		const exited = new Promise((resolve) => redisServer.once("exit", resolve));
		try {
			const ready = new Promise<void>((resolve, reject) => {
				let output = "";
				redisServer.stdout!.setEncoding("utf8").on("data", (text: string) => {
					output += text;
					if (output.includes("Ready to accept connections")) resolve();
				});
				redisServer.once("exit", () => reject(new Error(`redis-server exited: ${output}`)));
			});
			await ready;
			const privateRedis = new Redis({ host: "127.0.0.1", port, lazyConnect: true, enableOfflineQueue: false });
			privateRedis.on("error", () => {});
			extraClients.push(privateRedis);
			await privateRedis.connect();
			const closed = new Promise<void>((resolve) => privateRedis.once("close", () => resolve()));
			const privateStore = createRedisStreamStore({ redis: privateRedis, keyPrefix, onError: () => {} });
			const upstream = createPausingUpstream();
			const instance = await startInstance(privateStore, upstream.streamFunction);
			let streamId = "";
			const stream = streamProxy(
				model,
				{ messages: [] },
				{
					proxyUrl: instance.url,
					authToken: "good",
					onStreamId: (id) => {
						streamId = id;
					},
				},
			);
			const events = collect(stream, (event) => {
				if (event.type === "text_delta" && event.delta === "two ") {
					redisServer.kill("SIGKILL");
					void closed.then(() => upstream.release());
				}
			});
			expect(deltasOf(await events)).toEqual(["one ", "two ", "three ", "four"]);
			expect((await stream.result()).stopReason).toBe("stop");
			const resumed = await streamProxy(
				model,
				{ messages: [] },
				{
					proxyUrl: instance.url,
					authToken: "good",
					resumeStreamId: streamId,
					maxRetries: 0,
				},
			).result();
			expect(resumed.errorMessage).toContain(
				"Proxy error: Resuming is unavailable: the proxy cannot reach its stream store (Redis)",
			);
		} finally {
			if (redisServer.exitCode === null && redisServer.signalCode === null) redisServer.kill("SIGKILL");
			await exited;
		}
	});
});

describe("resumable proxy answers with the fetch handler", () => {
	it("resumes a dropped response on another fetch handler without a second upstream call", async () => {
		const upstream = createPausingUpstream();
		const options = { authenticate: (token: string) => token === "good", models: [model] };
		const first = createFetchProxyHandler({
			...options,
			resumableStreams: store(),
			streamFunction: upstream.streamFunction,
		});
		const second = createFetchProxyHandler({
			...options,
			resumableStreams: store(),
			streamFunction: () => {
				throw new Error("the second handler must not call the model");
			},
		});
		let drop = () => {};
		const routed: typeof fetch = async (input, init) => {
			const request = new Request(String(input), init);
			if (request.method === "GET") return second(request);
			const response = await first(request);
			const reader = response.body!.getReader();
			let controller!: ReadableStreamDefaultController<Uint8Array>;
			const body = new ReadableStream<Uint8Array>({
				start(streamController) {
					controller = streamController;
				},
				async pull(streamController) {
					const { value, done } = await reader.read();
					try {
						if (done) streamController.close();
						else streamController.enqueue(value);
					} catch {
						// Dropped meanwhile.
					}
				},
			});
			// The network fails: the page's side errors, the server's side is cancelled.
			drop = () => {
				controller.error(new TypeError("network error"));
				void reader.cancel();
			};
			return new Response(body, { status: response.status, headers: response.headers });
		};
		const stream = streamProxy(
			model,
			{ messages: [] },
			{ proxyUrl: "http://proxy.test", authToken: "good", fetch: routed },
		);
		const events = await collect(stream, (event) => {
			if (event.type === "text_delta" && event.delta === "two ") {
				drop();
				upstream.release();
			}
		});
		expect(deltasOf(events)).toEqual(["one ", "two ", "three ", "four"]);
		expect((await stream.result()).content).toEqual([{ type: "text", text: "one two three four" }]);
		expect(upstream.calls()).toBe(1);
	});
});

async function findClosedPort(): Promise<number> {
	const server = createNetServer();
	await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
	const { port } = server.address() as AddressInfo;
	await new Promise<void>((resolve) => server.close(() => resolve()));
	return port;
}
