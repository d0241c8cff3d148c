// Property-based fuzzing of every HTTP API's stream() with its real transport: a valid answer of the
// API (text, a tool call, a partial one) is mutated — events dropped, repeated, swapped, values
// replaced inside their JSON, junk lines and bytes inserted, the body cut — and sent by the local
// wire-test server in random chunks (inside lines and UTF-8 characters). Whatever arrives, stream()
// must not throw, must end (a hang fails the test by its timeout), must end with exactly one
// terminal event and must keep the content streamed so far. Fixed seeds keep runs reproducible;
// scripts/fuzz/ runs the same bodies for much longer.
import fc from "fast-check";
import { describe, expect, it, vi } from "vitest";
import type { AssistantMessageEvent } from "../../src/types.js";
import { useWireTestServer } from "../helpers/wire-server.js";
import { API_CASES, TEST_KEY } from "../providers/http/api-cases.js";
import { bodyMutation, chunkBytes, chunkSizes, mutateBody } from "./body-mutations.js";
import { RICHER_SEEDS } from "./richer-seeds.js";
import { streamInvariantViolation } from "./stream-invariants.js";

// Runs are bounded by count, not time; the limit only catches a hang, generously on a loaded machine.
vi.setConfig({ testTimeout: 120_000 });

const wire = useWireTestServer();
const RUNS_PER_API = 30;
const SEED = 20_261_127;

describe.each(API_CASES)("$name stream() under fuzzed bodies", (api) => {
	const richer = RICHER_SEEDS[api.name];
	const seeds = [
		api.okBody(),
		api.toolCallBody(['{"path":"a', '.txt","n":', "1}"]),
		api.partialBody(),
		...(richer ? [richer()] : []),
	];

	it("never throws, never hangs, ends with one terminal event and keeps the content so far", async () => {
		await fc.assert(
			fc.asyncProperty(
				fc.nat({ max: seeds.length - 1 }),
				fc.array(bodyMutation, { minLength: 1, maxLength: 4 }),
				chunkSizes,
				async (seedIndex, mutations, sizes) => {
					const body = mutateBody(seeds[seedIndex], mutations);
					wire.server.reset();
					wire.server.enqueue({ body: chunkBytes(new TextEncoder().encode(body), sizes) });
					const stream = api.stream(wire.server.url, { apiKey: TEST_KEY, maxRetries: 0 });
					const events: AssistantMessageEvent[] = [];
					for await (const event of stream) events.push(event);
					const violation = streamInvariantViolation(events, await stream.result(), TEST_KEY);
					expect(violation, `body ${JSON.stringify(body)}`).toBeUndefined();
				},
			),
			{ seed: SEED, numRuns: RUNS_PER_API },
		);
	});
});
