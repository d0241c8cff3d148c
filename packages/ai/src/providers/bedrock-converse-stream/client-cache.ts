// Bedrock clients kept per configuration: a client resolves and caches its credentials (a
// profile's files, SSO, an instance role's metadata call) once, not on every call. The cache is
// bounded; a client it lets go is destroyed (its HTTP/2 sessions closed) only once no call is still
// reading a stream through it, since destroying it would cut that stream mid-answer.

/** How many configurations keep a client. */
export const MAX_KEPT_CLIENTS = 8;

interface Destroyable {
	destroy(): void;
}

interface Entry<TClient extends Destroyable> {
	client: TClient;
	/** Calls using the client now. */
	users: number;
	/** Set when the cache let go of the client: the last user destroys it. */
	evicted: boolean;
}

/** A client lent to one call; `release` must be called once the call is done with it. */
export interface LentClient<TClient> {
	client: TClient;
	release(): void;
}

export class ClientCache<TClient extends Destroyable> {
	private readonly entries = new Map<string, Entry<TClient>>();

	constructor(private readonly capacity = MAX_KEPT_CLIENTS) {}

	/** The client kept for `key` (made with `create` when there is none), lent until `release`. */
	acquire(key: string, create: () => TClient): LentClient<TClient> {
		let entry = this.entries.get(key);
		if (entry) {
			// Least recently used goes first: a hit moves the entry to the end of the map's order.
			this.entries.delete(key);
		} else {
			entry = { client: create(), users: 0, evicted: false };
		}
		this.entries.set(key, entry);
		entry.users++;
		this.evictBeyondCapacity();
		const lent = entry;
		let released = false;
		return {
			client: lent.client,
			release: () => {
				if (released) return;
				released = true;
				lent.users--;
				if (lent.evicted && lent.users === 0) lent.client.destroy();
			},
		};
	}

	/** How many clients the cache keeps (tests). */
	get size(): number {
		return this.entries.size;
	}

	private evictBeyondCapacity(): void {
		for (const [key, entry] of this.entries) {
			if (this.entries.size <= this.capacity) return;
			this.entries.delete(key);
			entry.evicted = true;
			if (entry.users === 0) entry.client.destroy();
		}
	}
}
