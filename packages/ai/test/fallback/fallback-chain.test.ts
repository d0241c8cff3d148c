// createFallbackStream: which failures move the chain on, at every position, and what the caller sees.
import { afterEach, describe, expect, it } from "vitest";
import {
	createFallbackStream,
	FALLBACK_ATTEMPT_DIAGNOSTIC,
	type FallbackAttemptDetails,
	type FallbackOptions,
} from "../../src/fallback/create-fallback-stream.js";
import type { AssistantMessage, AssistantMessageEvent, Context } from "../../src/types.js";
import { assistantMessage, collectEvents, userMessage } from "../helpers/messages.js";
import {
	INPUT_TOKENS_PER_CALL,
	registerScriptedApi,
	type ScriptedApi,
	type ScriptedOutcome,
} from "./scripted-provider.js";

const context: Context = { messages: [userMessage("Hi")] };
const registered: ScriptedApi[] = [];

afterEach(() => {
	for (const api of registered.splice(0)) api.unregister();
});

function scripted(api: string, outcomes: ScriptedOutcome[]): ScriptedApi {
	const handle = registerScriptedApi(api, outcomes);
	registered.push(handle);
	return handle;
}

function attempts(message: AssistantMessage): FallbackAttemptDetails[] {
	return (message.diagnostics ?? [])
		.filter((diagnostic) => diagnostic.type === FALLBACK_ATTEMPT_DIAGNOSTIC)
		.map((diagnostic) => diagnostic.details as unknown as FallbackAttemptDetails);
}

function terminalMessage(events: AssistantMessageEvent[]): AssistantMessage {
	const last = events[events.length - 1];
	if (last.type === "done") return last.message;
	if (last.type === "error") return last.error;
	throw new Error(`The stream ended with ${last.type}`);
}

/** The outcome that makes a model fail with this kind. */
const FAILURES = {
	error: { kind: "fail", message: "503 Service Unavailable (overloaded)" },
	context_overflow: { kind: "fail", message: "prompt is too long: 250000 tokens > 200000 maximum" },
	refusal: { kind: "fail", message: "The model refused to answer", rawStopReason: "refusal" },
} as const satisfies Record<string, ScriptedOutcome>;

const ENABLED: FallbackOptions = { onContextOverflow: true, onRefusal: true };

describe("createFallbackStream moves on", () => {
	for (const kind of ["error", "context_overflow", "refusal"] as const) {
		for (const failing of [1, 2]) {
			it(`after ${failing} model(s) fail with ${kind}: the next answers, one start and one done`, async () => {
				const models = ["chain-a", "chain-b", "chain-c"].map((api, index) =>
					scripted(api, [index < failing ? FAILURES[kind] : { kind: "answer", text: `answer from ${api}` }]),
				);
				// Growing windows, so an overflow may move on to every next model.
				const chain = models.map((api, index) => api.model({ contextWindow: 100_000 * (index + 1) }));
				const fallback = createFallbackStream(chain, ENABLED);
				const events = await collectEvents(fallback(chain[0], context, {}));

				// The caller sees one answer: one start, the answering model's content, one done.
				expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "done"]);
				const message = terminalMessage(events);
				expect(message.stopReason).toBe("stop");
				expect(message.model).toBe(chain[failing].id);
				expect(message.content).toEqual([{ type: "text", text: `answer from chain-${"abc"[failing]}` }]);
				const recorded = attempts(message);
				expect(recorded.map((attempt) => [attempt.model, attempt.outcome, attempt.failure])).toEqual([
					...chain.slice(0, failing).map((model) => [model.id, "failed", kind]),
					[chain[failing].id, "answered", undefined],
				]);
				// Every attempt's usage and cost is kept: 1000 input tokens at $2 per million each.
				for (const attempt of recorded) {
					expect(attempt.usage?.input).toBe(INPUT_TOKENS_PER_CALL);
					expect(attempt.usage?.cost.total).toBeCloseTo(0.002 + (attempt.outcome === "answered" ? 5 * 8e-6 : 0));
				}
				const failedDiagnostic = message.diagnostics?.find(
					(diagnostic) => diagnostic.type === FALLBACK_ATTEMPT_DIAGNOSTIC,
				);
				expect(failedDiagnostic?.error?.message).toBe(FAILURES[kind].message);
				expect(models[failing + 1]?.requests ?? []).toHaveLength(0);
			});
		}

		it(`ends with the last ${kind} when every model fails, listing every attempt`, async () => {
			const models = ["last-a", "last-b", "last-c"].map((api) => scripted(api, [FAILURES[kind]]));
			const chain = models.map((api, index) => api.model({ contextWindow: 100_000 * (index + 1) }));
			const events = await collectEvents(createFallbackStream(chain, ENABLED)(chain[0], context, {}));
			expect(events.map((event) => event.type)).toEqual(["start", "error"]);
			const message = terminalMessage(events);
			expect(message.model).toBe(chain[2].id);
			expect(message.errorMessage).toBe(FAILURES[kind].message);
			expect(attempts(message).map((attempt) => attempt.outcome)).toEqual(["failed", "failed", "failed"]);
		});
	}
});

describe("createFallbackStream stops", () => {
	it("on a context overflow unless onContextOverflow is set, so the caller can compact", async () => {
		const first = scripted("stop-overflow-a", [FAILURES.context_overflow]);
		const second = scripted("stop-overflow-b", [{ kind: "answer", text: "never" }]);
		const chain = [first.model(), second.model({ contextWindow: 1_000_000 })];
		const message = await createFallbackStream(chain)(chain[0], context, {}).result();
		expect(message.errorMessage).toBe(FAILURES.context_overflow.message);
		expect(second.requests).toHaveLength(0);
	});

	it("on a refusal unless onRefusal is set", async () => {
		const first = scripted("stop-refusal-a", [FAILURES.refusal]);
		const second = scripted("stop-refusal-b", [{ kind: "answer", text: "never" }]);
		const chain = [first.model(), second.model()];
		const message = await createFallbackStream(chain)(chain[0], context, {}).result();
		expect(message.rawStopReason).toBe("refusal");
		expect(second.requests).toHaveLength(0);
	});

	it("once content reached the caller: an error after content is the answer's end", async () => {
		const first = scripted("stop-content-a", [
			{ kind: "fail-after-content", text: "Half an ans", message: "connection reset" },
		]);
		const second = scripted("stop-content-b", [{ kind: "answer", text: "never" }]);
		const chain = [first.model(), second.model()];
		const events = await collectEvents(createFallbackStream(chain)(chain[0], context, {}));
		expect(events.map((event) => event.type)).toEqual(["start", "text_start", "text_delta", "text_end", "error"]);
		const message = terminalMessage(events);
		expect(message.content).toEqual([{ type: "text", text: "Half an ans" }]);
		expect(message.errorMessage).toBe("connection reset");
		expect(attempts(message)).toMatchObject([{ outcome: "failed" }]);
		expect(second.requests).toHaveLength(0);
	});

	it("skips a model whose context window is no larger after an overflow", async () => {
		const first = scripted("skip-a", [FAILURES.context_overflow]);
		const same = scripted("skip-b", [{ kind: "answer", text: "never" }]);
		const larger = scripted("skip-c", [{ kind: "answer", text: "fits" }]);
		const chain = [
			first.model({ contextWindow: 200_000 }),
			same.model({ contextWindow: 200_000 }),
			larger.model({ contextWindow: 1_000_000 }),
		];
		const message = await createFallbackStream(chain, { onContextOverflow: true })(chain[0], context, {}).result();
		expect(message.content).toEqual([{ type: "text", text: "fits" }]);
		expect(same.requests).toHaveLength(0);
		expect(attempts(message).map((attempt) => [attempt.outcome, attempt.failure])).toEqual([
			["failed", "context_overflow"],
			["skipped", "context_overflow"],
			["answered", undefined],
		]);
	});
});

describe("createFallbackStream and abort", () => {
	it("an abort while the second model runs ends the call as aborted and tries no further model", async () => {
		const controller = new AbortController();
		const first = scripted("abort-a", [FAILURES.error]);
		const second = scripted("abort-b", [{ kind: "wait-for-abort", onWaiting: () => controller.abort() }]);
		const third = scripted("abort-c", [{ kind: "answer", text: "never" }]);
		const chain = [first.model(), second.model(), third.model()];
		const events = await collectEvents(createFallbackStream(chain)(chain[0], context, { signal: controller.signal }));
		expect(events.map((event) => event.type)).toEqual(["start", "error"]);
		const message = terminalMessage(events);
		expect(message.stopReason).toBe("aborted");
		expect(message.model).toBe(chain[1].id);
		expect(attempts(message).map((attempt) => [attempt.outcome, attempt.failure])).toEqual([
			["failed", "error"],
			["failed", "aborted"],
		]);
		expect(third.requests).toHaveLength(0);
	});

	it("a signal aborted before the call tries only the first model", async () => {
		const first = scripted("pre-abort-a", [{ kind: "answer", text: "never" }]);
		const second = scripted("pre-abort-b", [{ kind: "answer", text: "never" }]);
		const chain = [first.model(), second.model()];
		const message = await createFallbackStream(chain)(chain[0], context, { signal: AbortSignal.abort() }).result();
		expect(message.stopReason).toBe("aborted");
		expect(second.requests).toHaveLength(0);
	});
});

describe("createFallbackStream gives each model its own request", () => {
	it("passes the caller's key, headers and provider options to the caller's model only", async () => {
		const first = scripted("options-a", [FAILURES.error]);
		const second = scripted("options-b", [{ kind: "answer", text: "ok" }]);
		const chain = [
			first.model(),
			{ model: second.model({ maxTokens: 1000 }), options: { apiKey: "key-for-b", headers: { "x-b": "1" } } },
		];
		const controller = new AbortController();
		await createFallbackStream(chain)(chain[0] as ReturnType<typeof first.model>, context, {
			apiKey: "key-for-a",
			headers: { "x-a": "1" },
			toolChoice: "any",
			temperature: 0.2,
			maxTokens: 4000,
			sessionId: "session-1",
			signal: controller.signal,
		}).result();
		expect(first.requests[0].options).toMatchObject({
			apiKey: "key-for-a",
			headers: { "x-a": "1" },
			toolChoice: "any",
		});
		const secondOptions = second.requests[0].options ?? {};
		expect(secondOptions).toEqual({
			apiKey: "key-for-b",
			headers: { "x-b": "1" },
			temperature: 0.2,
			maxTokens: 1000, // lowered to the model's limit
			sessionId: "session-1",
			// A signal of the chain's own, linked to the caller's (see inner-call-abort.test.ts).
			signal: expect.any(AbortSignal),
		});
		expect(second.requests[0].model.id).toBe("options-b-model");
	});

	it("rewrites the history for each model (transformMessages): another model's signed thinking becomes text", async () => {
		const first = scripted("history-a", [FAILURES.error]);
		const second = scripted("history-b", [{ kind: "answer", text: "ok" }]);
		const chain = [first.model(), second.model()];
		const earlier = assistantMessage({ api: chain[0].api, provider: chain[0].provider, model: chain[0].id }, [
			{ type: "thinking", thinking: "Let me think", thinkingSignature: "sig-a" },
			{ type: "text", text: "Hello" },
		]);
		const history: Context = { messages: [userMessage("Hi"), earlier, userMessage("Again")] };
		await createFallbackStream(chain)(chain[0], history, {}).result();
		expect(first.requests[0].context.messages[1]).toMatchObject({ content: earlier.content });
		expect(second.requests[0].context.messages[1]).toMatchObject({
			content: [
				{ type: "text", text: "Let me think" },
				{ type: "text", text: "Hello" },
			],
		});
	});

	it("puts the caller's model first when the chain does not list it", async () => {
		const listed = scripted("order-listed", [{ kind: "answer", text: "never" }]);
		const callers = scripted("order-caller", [{ kind: "answer", text: "from the caller's model" }]);
		const message = await createFallbackStream([listed.model()])(callers.model(), context, {}).result();
		expect(message.content).toEqual([{ type: "text", text: "from the caller's model" }]);
		expect(listed.requests).toHaveLength(0);
	});

	it("throws at once for an empty chain or an entry that is not a model", () => {
		expect(() => createFallbackStream([])).toThrow("createFallbackStream needs at least one model");
		expect(() => createFallbackStream([undefined as never])).toThrow(
			"createFallbackStream: entry 0 is not a model or {model, options}",
		);
	});
});
