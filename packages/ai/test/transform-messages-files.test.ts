// Handoff rules for file and audio blocks: earlier turns keep what the target model can read and
// get a visible note for the rest; the current turn is left as it is (the call refuses it first).
import { describe, expect, it } from "vitest";
import { findInputProblem } from "../src/message/input-support.js";
import { transformMessages } from "../src/message/transform-messages.js";
import type { Api, Model, ModelInput, UserContent } from "../src/types.js";
import { assistantMessage, userMessage } from "./helpers/messages.js";

function model(api: Api, input: ModelInput[]): Model<Api> {
	return {
		id: "target",
		name: "target",
		api,
		provider: "test",
		baseUrl: "http://127.0.0.1:1",
		reasoning: false,
		input,
		cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0 },
		contextWindow: 100_000,
		maxTokens: 1_000,
	};
}

const pdf: UserContent = { type: "file", mimeType: "application/pdf", data: "JVBERg==", filename: "a.pdf" };
const text: UserContent = { type: "file", mimeType: "text/plain", data: "aGk=", filename: "b.txt" };
const audio: UserContent = { type: "audio", mimeType: "audio/wav", data: "UklGRg==" };
const origin = { api: "google-generative-ai", provider: "google", model: "gemini-2.5-flash" };

function conversation(current: UserContent[]) {
	return [
		userMessage([{ type: "text", text: "Look" }, pdf, text, audio]),
		assistantMessage(origin, [{ type: "text", text: "Seen." }]),
		userMessage(current, 3),
	];
}

describe("transformMessages with file and audio blocks", () => {
	it("replaces a PDF and audio of an earlier turn with notes for a text-only model, keeping text files", () => {
		const [earlier] = transformMessages(
			conversation([{ type: "text", text: "Again" }]),
			model("openai-completions", ["text"]),
		);
		expect(earlier.role === "user" && earlier.content).toEqual([
			{ type: "text", text: "Look" },
			{ type: "text", text: '(file "a.pdf" omitted: this model does not accept it)' },
			text,
			{ type: "text", text: "(audio omitted: this model does not accept it)" },
		]);
	});

	it("keeps every block of an earlier turn for a model that reads them all", () => {
		const messages = conversation([{ type: "text", text: "Again" }]);
		const [earlier] = transformMessages(messages, model("google-generative-ai", ["text", "image", "pdf", "audio"]));
		expect(earlier).toBe(messages[0]);
	});

	it("drops audio from an earlier turn on an API without audio, even when the model claims it", () => {
		const [earlier] = transformMessages(
			conversation([{ type: "text", text: "Again" }]),
			model("anthropic-messages", ["text", "image", "pdf", "audio"]),
		);
		expect(earlier.role === "user" && earlier.content).toContainEqual({
			type: "text",
			text: "(audio omitted: this model does not accept it)",
		});
		expect(earlier.role === "user" && earlier.content).toContainEqual(pdf);
	});

	it("leaves the current turn's blocks alone: the call refuses them before any request", () => {
		const messages = conversation([pdf]);
		const target = model("openai-completions", ["text"]);
		const output = transformMessages(messages, target);
		expect(output[2]).toBe(messages[2]);
		expect(findInputProblem(target, { messages })).toMatch(
			/^Cannot send file \(message 3, block 1\): test\/target does not read PDF files/,
		);
	});

	it("treats the prompt of a failed turn as current, so a retry still refuses the file", () => {
		const failed = assistantMessage(origin, [], { stopReason: "error", errorMessage: "overloaded" });
		const target = model("openai-completions", ["text"]);
		expect(findInputProblem(target, { messages: [userMessage([pdf]), failed] })).toContain("does not read PDF files");
	});
});

describe("findInputProblem with malformed blocks", () => {
	it("names the missing field of a hand-built file or audio block instead of failing obscurely", () => {
		const target = model("google-generative-ai", ["text", "image", "pdf", "audio"]);
		const noType = { type: "file", data: "aGk=" } as unknown as UserContent;
		const both = { type: "file", mimeType: "application/pdf", data: "aGk=", url: "https://x/a.pdf" } as UserContent;
		const noData = { type: "audio", mimeType: "audio/wav" } as unknown as UserContent;
		expect(findInputProblem(target, { messages: [userMessage([noType])] })).toContain("needs a mimeType");
		expect(findInputProblem(target, { messages: [userMessage([both])] })).toContain(
			"exactly one of data (base64) and url",
		);
		expect(findInputProblem(target, { messages: [userMessage([noData])] })).toContain("an audio block needs data");
	});
});
