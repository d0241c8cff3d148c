// The hooks a fallback chain reports through: a span over the chain, one per target tried with the
// reason the chain moved on, and each target's model call span nested under its attempt.
import { SpanStatusCode } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { createFallbackStream } from "../src/fallback/create-fallback-stream.js";
import { stream } from "../src/stream.js";
import { fauxAssistantMessage, registerFauxProvider } from "../src/testing/faux-provider.js";
import { getTracingHooks } from "../src/tracing/hooks.js";
import { recordTelemetry } from "./helpers/tracing.js";

describe("fallback tracing hooks", () => {
	it("nests each target's model call under its attempt, under one chain span", async () => {
		const telemetry = recordTelemetry();
		const faux = registerFauxProvider({
			api: "fallback-faux",
			models: [{ id: "first" }, { id: "second" }],
			responses: [fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" }), "answer"],
		});
		const models = [faux.getModel("first"), faux.getModel("second")];
		const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };

		const chain = getTracingHooks()?.startFallback(models);
		expect(chain).toBeDefined();
		const first = chain?.startAttempt(models[0], 0);
		const failed = await (first?.activate(() => stream(models[0], context)) ?? stream(models[0], context)).result();
		first?.end(failed, "error");
		const second = chain?.startAttempt(models[1], 1);
		const answered = await (second?.activate(() => stream(models[1], context)) ?? stream(models[1], context)).result();
		second?.end(answered);
		chain?.end(answered);
		faux.unregister();

		const chainSpan = telemetry.span("fallback");
		expect(chainSpan.attributes["keel.fallback.models"]).toEqual(["faux/first", "faux/second"]);
		expect(chainSpan.attributes["gen_ai.response.model"]).toBe("second");
		expect(chainSpan.status.code).toBe(SpanStatusCode.UNSET);
		const [attempt1, attempt2] = telemetry.children(chainSpan);
		expect(attempt1.attributes).toMatchObject({ "keel.fallback.index": 0, "keel.fallback.reason": "error" });
		expect(attempt1.status).toEqual({ code: SpanStatusCode.ERROR, message: "overloaded" });
		expect(attempt2.attributes["keel.fallback.reason"]).toBeUndefined();
		expect(telemetry.children(attempt1).map((span) => span.name)).toEqual(["chat first"]);
		expect(telemetry.children(attempt2).map((span) => span.name)).toEqual(["chat second"]);
	});

	it("is what createFallbackStream reports: one chain span, an attempt per target, each call under its attempt", async () => {
		const telemetry = recordTelemetry();
		const faux = registerFauxProvider({
			api: "fallback-faux-chain",
			models: [{ id: "primary" }, { id: "backup" }],
			responses: [fauxAssistantMessage("", { stopReason: "error", errorMessage: "overloaded" }), "answer"],
		});
		const models = [faux.getModel("primary"), faux.getModel("backup")];
		const context = { messages: [{ role: "user" as const, content: "hi", timestamp: 0 }] };
		try {
			const message = await createFallbackStream(models, { entry: "stream" })(models[0], context).result();
			expect(message.model).toBe("backup");
		} finally {
			faux.unregister();
		}

		const chainSpan = telemetry.span("fallback");
		expect(chainSpan.attributes["keel.fallback.models"]).toEqual(["faux/primary", "faux/backup"]);
		expect(chainSpan.attributes["gen_ai.response.model"]).toBe("backup");
		const [attempt1, attempt2] = telemetry.children(chainSpan);
		expect(attempt1.attributes).toMatchObject({ "keel.fallback.index": 0, "keel.fallback.reason": "error" });
		expect(attempt2.attributes).toMatchObject({ "keel.fallback.index": 1 });
		expect(attempt2.attributes["keel.fallback.reason"]).toBeUndefined();
		expect(telemetry.children(attempt1).map((span) => span.name)).toEqual(["chat primary"]);
		expect(telemetry.children(attempt2).map((span) => span.name)).toEqual(["chat backup"]);
	});
});
