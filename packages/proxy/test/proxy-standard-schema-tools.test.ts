// A tool whose parameters are a Standard Schema (Zod, Valibot, ArkType: objects of functions that
// JSON cannot carry) reaches the proxy server as its library's JSON Schema.
import type { Api, Model, StandardSchemaV1, Tool } from "@keel/ai";
import { type FauxProviderRegistration, registerFauxProvider } from "@keel/ai/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { streamProxy } from "../src/client.js";
import { createProxyHandler } from "../src/node-handler.js";
import { type RunningServer, startServer } from "./proxy-test-server.js";

let faux: FauxProviderRegistration;
let server: RunningServer | undefined;
let serverModel: Model<Api>;

beforeEach(() => {
	faux = registerFauxProvider({ models: [{ id: "faux-model" }] });
	serverModel = faux.getModel("faux-model");
});

afterEach(async () => {
	faux.unregister();
	await server?.close();
	server = undefined;
});

const cityJsonSchema = { type: "object", properties: { city: { type: "string" } }, required: ["city"] };

/** A minimal Standard Schema with Standard JSON Schema, as a schema library would make one. */
const citySchema: StandardSchemaV1<{ city: string }> = {
	"~standard": {
		version: 1,
		vendor: "mylib",
		validate: (value) => ({ value: value as { city: string } }),
		jsonSchema: {
			input: () => ({ $schema: "https://json-schema.org/draft/2020-12/schema", ...cityJsonSchema }),
			output: () => cityJsonSchema,
		},
	},
};

describe("streamProxy with Standard Schema tools", () => {
	it("sends the tool's parameters as the library's JSON Schema", async () => {
		faux.setResponses(["Fine."]);
		server = await startServer(
			createProxyHandler({ authenticate: (token) => token === "good-token", models: [serverModel] }),
		);
		const tool: Tool = { name: "weather", description: "Weather", parameters: citySchema };
		const context = { messages: [{ role: "user" as const, content: "Weather?", timestamp: 1 }], tools: [tool] };
		const message = await streamProxy(serverModel, context, { proxyUrl: server.url, authToken: "good-token" }).result();
		expect(message.stopReason).toBe("stop");
		expect(faux.state.requests[0].context.tools).toEqual([
			{ name: "weather", description: "Weather", parameters: cityJsonSchema },
		]);
	});

	it("a schema that cannot be converted ends the call with the reason, before any request", async () => {
		const noConversion: StandardSchemaV1 = {
			"~standard": { version: 1, vendor: "mylib", validate: (value) => ({ value }) },
		};
		const tool: Tool = { name: "weather", description: "Weather", parameters: noConversion };
		const message = await streamProxy(
			serverModel,
			{ messages: [{ role: "user", content: "Weather?", timestamp: 1 }], tools: [tool] },
			{ proxyUrl: "http://127.0.0.1:9", authToken: "good-token" },
		).result();
		expect(message.stopReason).toBe("error");
		expect(message.errorMessage).toContain('Tool "weather" has a mylib schema that cannot be converted to JSON Schema');
		expect(faux.state.callCount).toBe(0);
	});
});
