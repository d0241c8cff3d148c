// Review: the Node adapter stops reading a refused request's body.
import { connect } from "node:net";
import type { Api, Model } from "@keel/ai";
import { afterEach, describe, expect, it } from "vitest";
import { createProxyHandler } from "../src/proxy/server.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

let server: RunningServer | undefined;
afterEach(async () => {
	await server?.close();
	server = undefined;
});

const model = { provider: "faux", id: "faux-model" } as Model<Api>;

/** Sends the headers and a first slice of a body announced as 10 MB; resolves when the server closes. */
function sendPartialBody(url: string, authorization: string, path = "/api/stream"): Promise<string> {
	const { port } = new URL(url);
	return new Promise((resolve, reject) => {
		let received = "";
		const socket = connect(Number(port), "127.0.0.1", () => {
			socket.write(
				`POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n` +
					`Authorization: ${authorization}\r\nContent-Length: 10000000\r\n\r\n{"model":`,
			);
		});
		socket.on("data", (chunk) => {
			received += chunk.toString("utf8");
		});
		socket.on("close", () => resolve(received));
		socket.on("error", reject);
	});
}

describe("review: refused requests (Node adapter)", () => {
	it("closes the connection after a 401 instead of draining a body it never reads", async () => {
		let authenticated = 0;
		const handler = createProxyHandler({
			authenticate: () => {
				authenticated++;
				return false;
			},
			models: [model],
		});
		server = await startServer(handler);
		const response = await sendPartialBody(server.url, "Bearer wrong");
		expect(response.startsWith("HTTP/1.1 401")).toBe(true);
		expect(authenticated).toBe(1);
	});

	it("closes the connection after a 404 for another path, before any token check", async () => {
		server = await startServer(createProxyHandler({ authenticate: () => true, models: [model] }));
		const response = await sendPartialBody(server.url, "Bearer any", "/elsewhere");
		expect(response.startsWith("HTTP/1.1 404")).toBe(true);
	});
});
