// completeOrThrow and throwIfFailed: a failed or aborted call becomes an exception that carries the
// message (content received so far included); a successful one is returned unchanged.
import { afterEach, describe, expect, it } from "vitest";
import { CallFailedError, completeOrThrow, completeSimpleOrThrow, throwIfFailed } from "../src/index.js";
import { fauxAssistantMessage, fauxText, registerFauxProvider } from "../src/testing/index.js";

const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

describe("completeOrThrow", () => {
	const faux = registerFauxProvider({ api: "faux-or-throw" });
	afterEach(() => faux.setResponses([]));

	it("returns the answer of a call that succeeded", async () => {
		faux.setResponses(["hello"]);
		const message = await completeOrThrow(faux.getModel(), context);
		expect(message.stopReason).toBe("stop");
		expect(message.content).toEqual([{ type: "text", text: "hello" }]);
	});

	it("rejects with a CallFailedError carrying the error text and the content received so far", async () => {
		faux.setResponses([
			fauxAssistantMessage([fauxText("half an ans")], { stopReason: "error", errorMessage: "500 boom" }),
		]);
		const failure = await completeOrThrow(faux.getModel(), context).catch((error: unknown) => error);
		expect(failure).toBeInstanceOf(CallFailedError);
		expect((failure as CallFailedError).message).toBe("500 boom");
		expect((failure as CallFailedError).stopReason).toBe("error");
		expect((failure as CallFailedError).assistantMessage.content).toEqual([{ type: "text", text: "half an ans" }]);
	});

	it("rejects an aborted call (completeSimpleOrThrow)", async () => {
		faux.setResponses(["never streamed"]);
		const failure = await completeSimpleOrThrow(faux.getModel(), context, { signal: AbortSignal.abort() }).catch(
			(error: unknown) => error,
		);
		expect(failure).toBeInstanceOf(CallFailedError);
		expect((failure as CallFailedError).stopReason).toBe("aborted");
	});
});

describe("throwIfFailed", () => {
	it("returns a finished message unchanged and throws for an errored one", () => {
		const base = { role: "assistant" as const, content: [], api: "x", provider: "x", model: "x", timestamp: 0 };
		const usage = {
			input: 0,
			output: 0,
			cacheRead: 0,
			cacheWrite: 0,
			totalTokens: 0,
			cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 },
		};
		const done = { ...base, usage, stopReason: "stop" as const };
		expect(throwIfFailed(done)).toBe(done);
		expect(() => throwIfFailed({ ...base, usage, stopReason: "error", errorMessage: "401 bad key" })).toThrow(
			"401 bad key",
		);
	});
});
