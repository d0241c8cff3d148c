// One of the Agent's two message queues (steering, follow-up). Higher priority first, first come
// first served within a priority. The Agent coalesces a message equal to one still waiting in
// either queue (same content, any time), so input submitted twice is delivered once.
import type { AgentMessage, QueueMode } from "./types.js";

export interface QueuedMessage {
	message: AgentMessage;
	/** Higher goes first; default 0. */
	priority: number;
	/** Set when the Agent has a session: the id of the queue records written for this message. */
	queueItemId?: string;
}

export class MessageQueue {
	items: QueuedMessage[] = [];

	get length(): number {
		return this.items.length;
	}

	/** Inserts after every item of the same or a higher priority. */
	add(item: QueuedMessage): void {
		let index = this.items.length;
		while (index > 0 && this.items[index - 1].priority < item.priority) index--;
		if (index === this.items.length) this.items.push(item);
		else this.items.splice(index, 0, item);
	}

	/** The first item, or every item ("all"), removed from the queue. */
	take(mode: QueueMode): QueuedMessage[] {
		if (this.items.length === 0) return [];
		if (mode === "all") return this.clear();
		return this.items.splice(0, 1);
	}

	/** What `take(mode)` would return, left in the queue. */
	peek(mode: QueueMode): QueuedMessage[] {
		return mode === "all" ? [...this.items] : this.items.slice(0, 1);
	}

	clear(): QueuedMessage[] {
		const taken = this.items;
		this.items = [];
		return taken;
	}

	/** The waiting item whose message equals `key` (see `queueKey`). */
	find(key: string): QueuedMessage | undefined {
		return this.items.find((item) => queueKey(item.message) === key);
	}
}

/** What makes two queued messages "the same input": every field but the time they were made. */
export function queueKey(message: AgentMessage): string {
	const { timestamp: _timestamp, ...rest } = message as { timestamp?: unknown };
	return JSON.stringify(rest);
}
