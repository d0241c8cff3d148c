/**
 * The one interface every provider's decoder implements. A decoder is a pure state machine: parsed
 * wire events in, AssistantMessageBuilder calls out; it never reads the network, a clock or the
 * environment, so it is tested with literal event lists.
 *
 * The transport (see http-transport.ts) feeds it every event of a response in order, stops reading
 * as soon as `isFinished` is true, and calls `end()` when the body ended without that.
 */
export interface StreamDecoder<TEvent> {
	/**
	 * Feeds one parsed event. Throws for an event that contradicts the wire format; the harness turns
	 * the exception into the call's error event, keeping the content decoded so far.
	 */
	decode(event: TEvent): void;
	/** True once the message has ended (finished or failed through the builder): nothing more is read. */
	readonly isFinished: boolean;
	/**
	 * The wire stream ended. A decoder that saw its API's terminal event does nothing; otherwise it
	 * ends the message with an error saying which terminal event never came.
	 */
	end(): void;
}
