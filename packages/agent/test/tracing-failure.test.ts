// A tracer that throws never changes an agent run: every hook failure is swallowed, the stream
// function is called exactly once per turn, and the run ends with the model's answer.
import { registerFauxProvider } from "@keel/ai/testing";
import { afterEach, describe, expect, it } from "vitest";
import { defaultConvertToLlm, runAgentLoop, type StreamFn } from "../src/index.js";
import { textOf, user } from "./helpers.js";

const HOOKS_KEY = Symbol.for("keel.tracing.hooks");
const slot = globalThis as { [HOOKS_KEY]?: unknown };
const fail = () => {
	throw new Error("tracer broke");
};

afterEach(() => {
	delete slot[HOOKS_KEY];
});

describe("agent tracing failures", () => {
	it("calls the stream function once per turn and ends with the answer when every hook throws", async () => {
		const faux = registerFauxProvider({ api: "agent-tracing-failure-faux" });
		faux.setResponses(["the answer"]);
		// Agent-side hooks whose every method throws, and whose turn's activate throws before calling.
		const turn = { activate: fail, startTool: fail, end: fail };
		slot[HOOKS_KEY] = {
			startModelCall: fail,
			startFallback: fail,
			startAgentRun: () => ({ startTurn: () => turn, end: fail }),
		};
		let calls = 0;
		const { streamSimple } = await import("@keel/ai");
		const counting: StreamFn = (model, context, options) => {
			calls++;
			return streamSimple(model, context, options);
		};
		try {
			const messages = await runAgentLoop(
				[user("go")],
				{ systemPrompt: "", messages: [] },
				{ model: faux.getModel(), convertToLlm: defaultConvertToLlm },
				() => {},
				undefined,
				counting,
			);
			expect(calls).toBe(1);
			const answer = messages.at(-1);
			expect(answer?.role).toBe("assistant");
			expect(textOf(answer as never)).toBe("the answer");
		} finally {
			faux.unregister();
		}
	});
});
