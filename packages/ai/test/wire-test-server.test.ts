import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { formatSse, splitBytes, splitText, WireTestServer } from "../src/testing/index.js";

let server: WireTestServer;

beforeAll(async () => {
	server = await WireTestServer.start();
});
afterAll(async () => {
	await server.close();
});
beforeEach(() => {
	server.reset();
});

async function readChunks(response: Response): Promise<Uint8Array[]> {
	const chunks: Uint8Array[] = [];
	for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) chunks.push(chunk);
	return chunks;
}

function concat(chunks: Uint8Array[]): Uint8Array {
	const bytes = new Uint8Array(chunks.reduce((total, chunk) => total + chunk.length, 0));
	let offset = 0;
	for (const chunk of chunks) {
		bytes.set(chunk, offset);
		offset += chunk.length;
	}
	return bytes;
}

describe("WireTestServer", () => {
	it("listens on 127.0.0.1 with a free port", () => {
		expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
	});

	it("records every request: method, path with query, headers, raw body and parsed JSON", async () => {
		server.enqueue({ body: "data: {}\n\n" });
		await fetch(`${server.url}/v1/messages?beta=true`, {
			method: "POST",
			headers: { "x-api-key": "k", "content-type": "application/json" },
			body: JSON.stringify({ model: "m", stream: true }),
		}).then((response) => response.text());
		expect(server.requests).toHaveLength(1);
		const request = server.lastRequest;
		expect(request?.method).toBe("POST");
		expect(request?.url).toBe("/v1/messages?beta=true");
		expect(request?.headers["x-api-key"]).toBe("k");
		expect(request?.json).toEqual({ model: "m", stream: true });
		expect(request?.body).toBe('{"model":"m","stream":true}');
	});

	it("plays responses in order and defaults a 200 to text/event-stream", async () => {
		server.enqueue({ body: "first" }, { body: "second" });
		const first = await fetch(server.url, { method: "POST" });
		expect(first.headers.get("content-type")).toBe("text/event-stream");
		expect(await first.text()).toBe("first");
		expect(await (await fetch(server.url, { method: "POST" })).text()).toBe("second");
		expect(server.pending).toBe(0);
	});

	it("answers with a scripted HTTP error and a JSON body", async () => {
		server.enqueue({ status: 429, headers: { "retry-after-ms": "5" }, body: { error: { message: "slow down" } } });
		const response = await fetch(server.url, { method: "POST" });
		expect(response.status).toBe(429);
		expect(response.headers.get("retry-after-ms")).toBe("5");
		expect(response.headers.get("content-type")).toBe("application/json");
		expect(await response.json()).toEqual({ error: { message: "slow down" } });
	});

	it("answers a request with no scripted response left with a 500 naming it", async () => {
		const response = await fetch(`${server.url}/chat/completions`, { method: "POST" });
		expect(response.status).toBe(500);
		expect(await response.text()).toContain("no scripted response left for POST /chat/completions");
	});

	it("sends pieces split inside a multi-byte character that decode back to the original", async () => {
		const text = formatSse([{ event: "delta", data: { text: "héllo 🌍 wörld" } }]);
		const pieces = splitBytes(text, 3);
		expect(pieces.length).toBeGreaterThan(5);
		server.enqueue({ body: pieces, chunkDelayMs: 1 });
		const chunks = await readChunks(await fetch(server.url, { method: "POST" }));
		// With a pause between writes the client sees several chunks, not one buffered body.
		expect(chunks.length).toBeGreaterThan(1);
		expect(new TextDecoder().decode(concat(chunks))).toBe(text);
	});

	it("cuts the connection mid-stream", async () => {
		server.enqueue({ body: ["data: {}\n\n", "data: {"], cut: true });
		const response = await fetch(server.url, { method: "POST" });
		await expect(response.text()).rejects.toThrow();
	});

	it("stalls after the body without ending it", async () => {
		server.enqueue({ body: ["data: {}\n\n"], stall: true });
		const controller = new AbortController();
		const response = await fetch(server.url, { method: "POST", signal: controller.signal });
		const reader = (response.body as ReadableStream<Uint8Array>).getReader();
		expect(new TextDecoder().decode((await reader.read()).value)).toBe("data: {}\n\n");
		const next = reader.read();
		controller.abort();
		await expect(next).rejects.toThrow();
	});

	it("stalls before the headers", async () => {
		server.enqueue({ stallBeforeHeaders: true });
		const controller = new AbortController();
		const pending = fetch(server.url, { method: "POST", signal: controller.signal });
		// The request arrives and is recorded, but no response starts.
		while (server.requests.length === 0) await new Promise((resolve) => setImmediate(resolve));
		controller.abort();
		await expect(pending).rejects.toThrow();
	});
});

describe("wire format helpers", () => {
	it("formats SSE with event names where given", () => {
		expect(formatSse([{ event: "ping", data: { type: "ping" } }, { data: "[DONE]" }])).toBe(
			'event: ping\ndata: {"type":"ping"}\n\ndata: [DONE]\n\n',
		);
	});

	it("splits text by characters and bytes, and rejects a size below 1", () => {
		expect(splitText("abcde", 2)).toEqual(["ab", "cd", "e"]);
		expect(splitBytes("é", 1).map((piece) => piece.length)).toEqual([1, 1]);
		expect(() => splitText("a", 0)).toThrow("splitText: size must be positive, got 0");
		expect(() => splitBytes("a", -1)).toThrow("splitBytes: size must be positive, got -1");
	});
});

describe("WireTestServer with cors: true", () => {
	let corsServer: WireTestServer;
	const origin = "http://127.0.0.1:1";

	beforeAll(async () => {
		corsServer = await WireTestServer.start({ cors: true });
	});
	afterAll(async () => {
		await corsServer.close();
	});
	beforeEach(() => {
		corsServer.reset();
	});

	it("answers a preflight itself, allowing the requested method and headers, without using the queue", async () => {
		corsServer.enqueue({ body: "data: {}\n\n" });
		const response = await fetch(`${corsServer.url}/v1/messages`, {
			method: "OPTIONS",
			headers: {
				origin,
				"access-control-request-method": "POST",
				"access-control-request-headers": "authorization,content-type,anthropic-dangerous-direct-browser-access",
			},
		});
		expect(response.status).toBe(204);
		expect(response.headers.get("access-control-allow-origin")).toBe(origin);
		expect(response.headers.get("access-control-allow-methods")).toBe("POST");
		expect(response.headers.get("access-control-allow-headers")).toBe(
			"authorization,content-type,anthropic-dangerous-direct-browser-access",
		);
		expect(corsServer.pending).toBe(1);
		expect(corsServer.requests).toHaveLength(0);
		expect(corsServer.preflightRequests.map((request) => request.url)).toEqual(["/v1/messages"]);
	});

	it("allows the origin on scripted responses and exposes their headers", async () => {
		corsServer.enqueue({ headers: { "request-id": "req_1" }, body: "data: {}\n\n" });
		const response = await fetch(corsServer.url, { method: "POST", headers: { origin } });
		expect(response.headers.get("access-control-allow-origin")).toBe(origin);
		expect(response.headers.get("access-control-expose-headers")?.split(", ")).toEqual(
			expect.arrayContaining(["content-type", "request-id"]),
		);
		expect(await response.text()).toBe("data: {}\n\n");
	});

	it("allows the origin on the 500 for a request with no scripted response, so a page can read why", async () => {
		const response = await fetch(corsServer.url, { method: "POST", headers: { origin } });
		expect(response.status).toBe(500);
		expect(response.headers.get("access-control-allow-origin")).toBe(origin);
	});

	it("sends no CORS headers and treats OPTIONS as a scripted request without the option", async () => {
		server.enqueue({ status: 404, body: { error: "none" } });
		const response = await fetch(server.url, {
			method: "OPTIONS",
			headers: { origin, "access-control-request-method": "POST" },
		});
		expect(response.status).toBe(404);
		expect(response.headers.get("access-control-allow-origin")).toBeNull();
		expect(server.requests.map((request) => request.method)).toEqual(["OPTIONS"]);
	});
});
