// Every catalogue row on Mistral's API can be called: each one streams a whole answer through the
// provider, with the reasoning switch its compat data names.
import { describe, expect, it } from "vitest";
import { completeSimple, getModels, type Model } from "../../../src/index.js";
import { userMessage } from "../../helpers/messages.js";
import { useWireTestServer } from "../../helpers/wire-server.js";
import { mistralTextStream } from "./fixtures.js";

const wire = useWireTestServer();
const rows = getModels("mistral") as Model<"mistral-conversations">[];

describe("Mistral catalogue rows", () => {
	it("are all on the mistral-conversations API", () => {
		expect(rows.length).toBeGreaterThan(0);
		for (const model of rows) expect(model.api, model.id).toBe("mistral-conversations");
	});

	it.each(rows.map((model) => [model.id, model] as const))("%s streams an answer", async (_id, model) => {
		wire.server.enqueue({ body: mistralTextStream("ok") });
		const result = await completeSimple(
			{ ...model, baseUrl: wire.server.url },
			{ messages: [userMessage("Hi")] },
			{ apiKey: "mistral-test-key-0123", reasoning: model.reasoning ? "high" : undefined },
		);
		expect(result.stopReason, result.errorMessage).toBe("stop");
		expect(result.content).toEqual([{ type: "text", text: "ok" }]);
		const body = wire.server.lastRequest?.json as Record<string, unknown>;
		expect(body.model).toBe(model.id);
		if (model.id.startsWith("magistral")) expect(body.prompt_mode).toBe("reasoning");
		else expect(body).not.toHaveProperty("prompt_mode");
	});
});
