// One wire-test server per API, so that a runtime where one API fails before sending its request
// cannot shift the answers of the others. CORS is on: the Chromium page calls them cross-origin.
import { WireTestServer } from "@keel/ai/testing";
import { expect } from "vitest";
import { verifySigV4 } from "../../packages/ai/test/providers/bedrock-converse-stream/sigv4.js";
import { RUNTIME_APIS, RUNTIME_AWS_SECRET_ACCESS_KEY, type RuntimeApi, type ServerUrls } from "./stream-cases.js";
import { REQUEST_PATHS, wireAnswer } from "./wire-answers.js";

export class WireServers {
	private constructor(private readonly servers: Record<RuntimeApi, WireTestServer>) {}

	static async start(): Promise<WireServers> {
		const started = await Promise.all(RUNTIME_APIS.map(() => WireTestServer.start({ cors: true })));
		return new WireServers(
			Object.fromEntries(RUNTIME_APIS.map((api, index) => [api, started[index]])) as Record<RuntimeApi, WireTestServer>,
		);
	}

	get urls(): ServerUrls {
		return Object.fromEntries(RUNTIME_APIS.map((api) => [api, this.servers[api].url])) as ServerUrls;
	}

	/** Forgets earlier requests and queues each API's answer once. */
	prepare(): void {
		for (const api of RUNTIME_APIS) this.servers[api].reset();
		for (const api of RUNTIME_APIS) this.servers[api].enqueue(wireAnswer(api));
	}

	/** The API's server got exactly one streaming request, on the API's path. */
	expectOneStreamingRequest(api: RuntimeApi): void {
		const requests = this.servers[api].requests;
		expect(
			requests.map((request) => `${request.method} ${request.url}`),
			`${api}: requests`,
		).toEqual([`POST ${REQUEST_PATHS[api]}`]);
		if (api === "bedrock-converse-stream") {
			// Bedrock streams by its path; the request is signed with SigV4, and the signature verifies.
			expect(requests[0]?.json, `${api}: request body`).toMatchObject({ messages: expect.any(Array) });
			const request = requests[0];
			const headers = Object.fromEntries(
				Object.entries(request.headers).map(([name, value]) => [
					name,
					Array.isArray(value) ? value.join(",") : (value ?? ""),
				]),
			);
			const signed = { method: request.method, path: request.url, headers, rawBody: Buffer.from(request.body, "utf8") };
			expect(verifySigV4(signed, RUNTIME_AWS_SECRET_ACCESS_KEY), `${api}: SigV4 signature`).toBe(true);
			return;
		}
		// Gemini asks for a stream in the URL (`:streamGenerateContent?alt=sse`), the others in the body.
		const streamRequest = api.startsWith("google-") ? { contents: expect.any(Array) } : { stream: true };
		expect(requests[0]?.json, `${api}: request body`).toMatchObject(streamRequest);
	}

	/** The preflights the browser sent to the API's server. */
	preflights(api: RuntimeApi) {
		return this.servers[api].preflightRequests;
	}

	async close(): Promise<void> {
		await Promise.all(RUNTIME_APIS.map((api) => this.servers[api].close()));
	}
}
