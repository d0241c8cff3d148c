// Tracing is bookkeeping: a tracer that throws (a broken exporter, a span processor bug, an
// attribute the SDK rejects) must never change a call's outcome. Keel's harness and fallback chain
// reach the hooks only through these wrappers, which swallow every exception a hook throws.
import type { Api, Context, Model, StreamOptions } from "../types.js";
import {
	type AttemptTrace,
	type FallbackAttemptTrace,
	type FallbackTrace,
	getTracingHooks,
	type ModelCallTrace,
} from "./hooks.js";

function quietly<T>(run: () => T): T | undefined {
	try {
		return run();
	} catch {
		return undefined;
	}
}

/** Runs `run` inside `activate`; when the hook itself fails, runs it directly (exactly once either way). */
function activateQuietly<T>(activate: (run: () => T) => T, run: () => T): T {
	let ran = false;
	let returned = false;
	let result: T | undefined;
	try {
		return activate(() => {
			ran = true;
			result = run();
			returned = true;
			return result;
		});
	} catch (error) {
		// An exception from `run` is the caller's; one from the hook before or after `run` is not.
		if (!ran) return run();
		if (!returned) throw error;
		return result as T;
	}
}

const silentAttempt: AttemptTrace = { end() {} };

/** The model call's trace when tracing is on, with every hook call guarded; undefined when off. */
export function startModelCallTrace(
	model: Model<Api>,
	options: StreamOptions,
	context: Context | undefined,
): ModelCallTrace | undefined {
	const hooks = getTracingHooks();
	if (!hooks) return undefined;
	const trace = quietly(() => hooks.startModelCall(model, options, context));
	if (!trace) return undefined;
	return {
		firstToken: () => quietly(() => trace.firstToken()),
		startAttempt: (attempt) => {
			const attemptTrace = quietly(() => trace.startAttempt(attempt));
			if (!attemptTrace) return silentAttempt;
			return { end: (outcome) => quietly(() => attemptTrace.end(outcome)) };
		},
		end: (message) => quietly(() => trace.end(message)),
	};
}

/** The fallback chain's trace when tracing is on, with every hook call guarded; undefined when off. */
export function startFallbackTrace(models: Model<Api>[]): FallbackTrace | undefined {
	const hooks = getTracingHooks();
	if (!hooks) return undefined;
	const trace = quietly(() => hooks.startFallback(models));
	if (!trace) return undefined;
	return {
		startAttempt: (model, index): FallbackAttemptTrace => {
			const attemptTrace = quietly(() => trace.startAttempt(model, index));
			if (!attemptTrace) return { activate: (run) => run(), end() {} };
			return {
				activate: (run) => activateQuietly((inner) => attemptTrace.activate(inner), run),
				end: (message, reason) => quietly(() => attemptTrace.end(message, reason)),
			};
		},
		end: (message) => quietly(() => trace.end(message)),
	};
}
