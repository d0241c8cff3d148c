import { describe, expect, it } from "vitest";
import {
	parseDeploymentNameMap,
	resolveAzureTarget,
} from "../../../src/providers/azure-openai-responses/resolve-azure-target.js";
import { azureModel } from "../openai-responses/fixtures.js";

const model = azureModel({ id: "gpt-5", baseUrl: "https://from-model.openai.azure.com/openai/v1/" });

describe("resolveAzureTarget: base URL", () => {
	it("prefers options.azureBaseUrl over everything, without trailing slashes", () => {
		const target = resolveAzureTarget(
			model,
			{ azureBaseUrl: "https://option.example/openai/v1//", azureResourceName: "res" },
			{ AZURE_OPENAI_BASE_URL: "https://env.example/openai/v1", AZURE_OPENAI_RESOURCE_NAME: "envres" },
		);
		expect(target.baseUrl).toBe("https://option.example/openai/v1");
	});

	it("uses AZURE_OPENAI_BASE_URL next, before any resource name", () => {
		const target = resolveAzureTarget(
			model,
			{ azureResourceName: "res" },
			{ AZURE_OPENAI_BASE_URL: "https://env.example/v1/" },
		);
		expect(target.baseUrl).toBe("https://env.example/v1");
	});

	it("builds the URL from azureResourceName, then AZURE_OPENAI_RESOURCE_NAME", () => {
		expect(
			resolveAzureTarget(model, { azureResourceName: "optres" }, { AZURE_OPENAI_RESOURCE_NAME: "envres" }).baseUrl,
		).toBe("https://optres.openai.azure.com/openai/v1");
		expect(resolveAzureTarget(model, {}, { AZURE_OPENAI_RESOURCE_NAME: "envres" }).baseUrl).toBe(
			"https://envres.openai.azure.com/openai/v1",
		);
	});

	it("falls back to model.baseUrl", () => {
		expect(resolveAzureTarget(model, {}, {}).baseUrl).toBe("https://from-model.openai.azure.com/openai/v1");
	});

	it("fails with a clear error when nothing gives a URL", () => {
		expect(() => resolveAzureTarget(azureModel({ baseUrl: "" }), {}, {})).toThrow(
			'No Azure OpenAI endpoint for model "gpt-test": set AZURE_OPENAI_BASE_URL or AZURE_OPENAI_RESOURCE_NAME, or pass options.azureBaseUrl or options.azureResourceName',
		);
	});

	it("rejects a resource name that is not a host label", () => {
		expect(() => resolveAzureTarget(model, { azureResourceName: "evil.com/x" }, {})).toThrow(
			/Azure resource name "evil.com\/x" is not valid/,
		);
	});
});

describe("resolveAzureTarget: API version and deployment", () => {
	it("takes the API version from the option, then AZURE_OPENAI_API_VERSION, default v1", () => {
		expect(
			resolveAzureTarget(model, { azureApiVersion: "2025-04-01-preview" }, { AZURE_OPENAI_API_VERSION: "env" })
				.apiVersion,
		).toBe("2025-04-01-preview");
		expect(resolveAzureTarget(model, {}, { AZURE_OPENAI_API_VERSION: "preview" }).apiVersion).toBe("preview");
		expect(resolveAzureTarget(model, {}, {}).apiVersion).toBe("v1");
	});

	it("takes the deployment from the option, then the map, then the model id", () => {
		const environment = { AZURE_OPENAI_DEPLOYMENT_NAME_MAP: "gpt-4o=prod-4o, gpt-5 = my-gpt5" };
		expect(resolveAzureTarget(model, { azureDeploymentName: "explicit" }, environment).deploymentName).toBe("explicit");
		expect(resolveAzureTarget(model, {}, environment).deploymentName).toBe("my-gpt5");
		expect(
			resolveAzureTarget(azureModel({ id: "o4-mini", baseUrl: "https://x" }), {}, environment).deploymentName,
		).toBe("o4-mini");
	});

	it("parses the deployment map and names a malformed entry", () => {
		expect([...parseDeploymentNameMap("a=b,,c=d,")]).toEqual([
			["a", "b"],
			["c", "d"],
		]);
		expect(() => parseDeploymentNameMap("a=b,broken")).toThrow(
			'AZURE_OPENAI_DEPLOYMENT_NAME_MAP entry "broken" is not "modelId=deploymentName"',
		);
	});
});
