// google-vertex: the Gemini wire format at Vertex AI's URLs, with an API key (express mode), a
// caller's OAuth token, or Application Default Credentials (see oauth-credentials.test.ts).
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
	resolveVertexTarget,
	streamGoogleVertex,
	streamSimpleGoogleVertex,
} from "../../../src/providers/google-vertex/index.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { textAnswer, vertexModel } from "../google-generative-ai/fixtures.js";

const wire = useWireTestServer();
const context = { messages: [userMessage("Hi")] };
const VARIABLES = [
	"GOOGLE_CLOUD_PROJECT",
	"GCLOUD_PROJECT",
	"GOOGLE_CLOUD_LOCATION",
	"GOOGLE_CLOUD_API_KEY",
	"GOOGLE_APPLICATION_CREDENTIALS",
	"HOME",
	"GCE_METADATA_HOST",
];
let saved: Record<string, string | undefined> = {};

beforeEach(() => {
	saved = Object.fromEntries(VARIABLES.map((name) => [name, process.env[name]]));
	for (const name of VARIABLES) delete process.env[name];
	// No gcloud credentials file can be found under a home that does not exist, and no metadata
	// server answers on a closed local port (the last step of Application Default Credentials).
	process.env.HOME = "/nonexistent-keel-test-home";
	process.env.GCE_METADATA_HOST = "127.0.0.1:1";
});
afterEach(() => {
	for (const [name, value] of Object.entries(saved)) {
		if (value === undefined) delete process.env[name];
		else process.env[name] = value;
	}
});

function model() {
	return vertexModel({ baseUrl: wire.server.url });
}

describe("google-vertex URL", () => {
	it("fills the catalogue's {location} host, and uses aiplatform.googleapis.com for the global location", () => {
		const regional = resolveVertexTarget(vertexModel(), { project: "proj", location: "us-central1" }, false);
		expect(regional.url).toBe(
			"https://us-central1-aiplatform.googleapis.com/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		);
		const global = resolveVertexTarget(vertexModel(), { project: "proj", location: "global" }, false);
		expect(global.url).toBe(
			"https://aiplatform.googleapis.com/v1/projects/proj/locations/global/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		);
	});

	it("reads the project and location from GOOGLE_CLOUD_PROJECT and GOOGLE_CLOUD_LOCATION", () => {
		process.env.GOOGLE_CLOUD_PROJECT = "env-proj";
		process.env.GOOGLE_CLOUD_LOCATION = "europe-west4";
		expect(resolveVertexTarget(vertexModel(), {}, false).url).toBe(
			"https://europe-west4-aiplatform.googleapis.com/v1/projects/env-proj/locations/europe-west4/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		);
	});

	it("rejects a location that is not a region name", () => {
		expect(() => resolveVertexTarget(vertexModel(), { project: "p", location: "evil.example/x" }, false)).toThrow(
			'Vertex AI location "evil.example/x" is not a region name',
		);
	});
});

describe("google-vertex credentials", () => {
	it("express mode: an API key goes in x-goog-api-key to the publisher path, no project needed", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await streamGoogleVertex(model(), context, {
			apiKey: "vertex-key-0123456789",
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("stop");
		expect(result.api).toBe("google-vertex");
		const request = wire.server.requests[0];
		expect(request.url).toBe("/v1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse");
		expect(request.headers["x-goog-api-key"]).toBe("vertex-key-0123456789");
		expect(request.headers.authorization).toBeUndefined();
	});

	it("takes the key from GOOGLE_CLOUD_API_KEY", async () => {
		process.env.GOOGLE_CLOUD_API_KEY = "env-vertex-key-0123456789";
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		await streamGoogleVertex(model(), context, { maxRetries: 0 }).result();
		expect(wire.server.requests[0].headers["x-goog-api-key"]).toBe("env-vertex-key-0123456789");
	});

	it("an access token goes as a bearer token to the project's path", async () => {
		wire.server.enqueue({ body: textAnswer(["ok"]) });
		const result = await streamSimpleGoogleVertex(model(), context, {
			accessToken: async () => "ya29.token-0123456789",
			project: "proj",
			location: "us-central1",
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("stop");
		const request = wire.server.requests[0];
		expect(request.url).toBe(
			"/v1/projects/proj/locations/us-central1/publishers/google/models/gemini-2.5-flash:streamGenerateContent?alt=sse",
		);
		expect(request.headers.authorization).toBe("Bearer ya29.token-0123456789");
		expect(request.headers["x-goog-api-key"]).toBeUndefined();
	});

	it("without a project says what to set, and sends nothing", async () => {
		const result = await streamGoogleVertex(model(), context, { accessToken: "t", maxRetries: 0 }).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain("Vertex AI needs a project (options.project or GOOGLE_CLOUD_PROJECT)");
		expect(result.errorMessage).toContain("a location (options.location or GOOGLE_CLOUD_LOCATION");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("the ambient-credentials marker from the environment is not sent as a key: ADC is used instead", async () => {
		const result = await streamGoogleVertex(model(), context, {
			apiKey: "<authenticated>",
			project: "p",
			location: "global",
			maxRetries: 0,
		}).result();
		expect(result.errorMessage).toContain("Vertex AI found no credentials");
		expect(wire.server.requests).toHaveLength(0);
	});

	it("without any credential says what to set", async () => {
		const result = await streamGoogleVertex(model(), context, {
			project: "p",
			location: "global",
			maxRetries: 0,
		}).result();
		expect(result.stopReason).toBe("error");
		expect(result.errorMessage).toContain(
			"Vertex AI found no credentials: pass options.accessToken, options.credentials (a service-account key) or an API key",
		);
		expect(result.errorMessage).toContain("GOOGLE_APPLICATION_CREDENTIALS");
		expect(wire.server.requests).toHaveLength(0);
	});
});
