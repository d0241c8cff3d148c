// completeObject on Bedrock: the answer tool forced through toolChoice, its arguments the object.
import { Type } from "@sinclair/typebox";
import { describe, expect, it } from "vitest";
import { completeObject } from "../../src/index.js";
import { userMessage } from "../helpers/messages.js";
import {
	blockStop,
	messageStart,
	messageStop,
	metadata,
	toolUseDelta,
	toolUseStart,
} from "../providers/bedrock-converse-stream/bedrock-test-server.js";
import { bedrockModel } from "../providers/bedrock-converse-stream/fixtures.js";
import { useBedrockServer } from "../providers/bedrock-converse-stream/server-setup.js";

const wire = useBedrockServer();
const City = Type.Object({ city: Type.String(), population: Type.Number() });

describe("structured output through Bedrock", () => {
	it("forces the answer tool with toolChoice and returns its arguments, validated", async () => {
		const server = await wire.start(() => ({
			frames: [
				messageStart(),
				toolUseStart(0, "tooluse_1", "city"),
				toolUseDelta(0, '{"city": "Paris", '),
				toolUseDelta(0, '"population": "2102650"}'),
				blockStop(0),
				messageStop("tool_use"),
				metadata({ inputTokens: 50, outputTokens: 10, totalTokens: 60 }),
			],
		}));
		const result = await completeObject(
			bedrockModel({ baseUrl: server.url }),
			{ messages: [userMessage("Largest city of France?")] },
			{ schema: City, name: "city" },
		);
		expect(result.object).toEqual({ city: "Paris", population: 2102650 });
		const body = server.requests[0].body as {
			toolConfig: { tools: { toolSpec: { name: string } }[]; toolChoice: unknown };
		};
		expect(body.toolConfig.tools.map((tool) => tool.toolSpec.name)).toEqual(["city"]);
		expect(body.toolConfig.toolChoice).toEqual({ tool: { name: "city" } });
	});
});
