// A Cloudflare Worker: POST the ServerUrls as JSON, get the summaries back as JSON.
import { runStreamCases, type ServerUrls } from "../stream-cases.js";

export default {
	async fetch(request: Request): Promise<Response> {
		if (request.method !== "POST") return new Response("POST the wire-test server URLs as JSON", { status: 405 });
		const urls = (await request.json()) as ServerUrls;
		return Response.json(await runStreamCases(urls));
	},
};
