import type { Message } from "@keel/ai";
import { describe, expect, it } from "vitest";
import { defaultConvertToLlm } from "../src/index.js";
import { getAgentMessageText } from "../src/session/message-content.js";
import type { AgentMessage } from "../src/types.js";

describe("system messages in an agent transcript", () => {
	const system: Message = { role: "system", content: "Answer in French from now on.", timestamp: 2 };

	it("reach the model through the default convertToLlm, in place, while application messages stay out", () => {
		const messages = [
			{ role: "user", content: "hi", timestamp: 1 },
			{ role: "notification", text: "saved", timestamp: 2 },
			system,
		] as unknown as AgentMessage[];
		expect(defaultConvertToLlm(messages).map((message) => message.role)).toEqual(["user", "system"]);
	});

	it("have readable text", () => {
		expect(getAgentMessageText(system)).toBe("Answer in French from now on.");
	});
});
