import type { AssistantMessage, Usage } from "../types.js";
import { EventStream } from "../utils/event-stream.js";
import type { StructuredOutputError } from "./structured-output-error.js";

/** A value as it grows while streamed: every property (at any depth) may be missing yet. */
export type PartialObject<T> = T extends readonly (infer Item)[]
	? PartialObject<Item>[]
	: T extends object
		? { [Key in keyof T]?: PartialObject<T[Key]> }
		: T;

/** The object a structured call produced, with the answer it came from. */
export interface ObjectResult<T> {
	/** The answer, validated against the schema (values coerced to the schema's types). */
	object: T;
	/** The assistant message that held the answer. */
	message: AssistantMessage;
	/** Tokens and cost of every request the call made (the repair round trip included). */
	usage: Usage;
}

/**
 * What `streamObject` emits. `object_start` opens each answer (attempt 2 is the repair round trip,
 * with the validation errors sent back to the model); `object_delta` carries the object parsed so
 * far, the same object growing in place from one delta to the next (copy it to keep a snapshot);
 * `done` or `error` ends the stream.
 */
export type ObjectStreamEvent<T> =
	| { type: "object_start"; attempt: number; validationErrors?: string }
	| { type: "object_delta"; object: PartialObject<T>; partial: AssistantMessage }
	| { type: "done"; object: T; message: AssistantMessage; usage: Usage }
	| { type: "error"; error: StructuredOutputError };

type ObjectOutcome<T> = { ok: true; result: ObjectResult<T> } | { ok: false; error: StructuredOutputError };

/**
 * The events of a structured call, and its result: `result()` resolves with the object or rejects
 * with the `StructuredOutputError` the stream ended with (only when called: an unread failure
 * never becomes an unhandled rejection).
 */
export class ObjectStream<T> implements AsyncIterable<ObjectStreamEvent<T>> {
	private readonly events = new EventStream<ObjectStreamEvent<T>, ObjectOutcome<T>>(
		(event) => event.type === "done" || event.type === "error",
		(event): ObjectOutcome<T> => {
			if (event.type === "done") {
				return { ok: true, result: { object: event.object, message: event.message, usage: event.usage } };
			}
			if (event.type === "error") return { ok: false, error: event.error };
			throw new Error(`Not a terminal event: ${event.type}`);
		},
	);

	/** Adds an event; ignored once the stream has ended. */
	push(event: ObjectStreamEvent<T>): void {
		this.events.push(event);
	}

	[Symbol.asyncIterator](): AsyncIterator<ObjectStreamEvent<T>> {
		return this.events[Symbol.asyncIterator]();
	}

	/** The validated object; rejects with a `StructuredOutputError` when there is none. */
	result(): Promise<ObjectResult<T>> {
		return this.events.result().then((outcome) => {
			if (outcome.ok) return outcome.result;
			throw outcome.error;
		});
	}
}
