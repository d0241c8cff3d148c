// The stored size of each message a scan hands over, by its position in the store, for the cut of
// load: "context" (see scanIntoTree). Recorded as two arrays in scan order rather than a map by id:
// a scan of 100,000 messages then costs two array pushes per message, not a hash-map entry each,
// and only the few thousand messages of the model context are ever looked up.

export class StoredSizes {
	private positions: number[] = [];
	private sizes: number[] = [];
	/** Only for a store whose scan did not hand positions over in ascending order. */
	private byPosition: Map<number, number> | undefined;
	private ascending = true;

	add(position: number, bytes: number): void {
		const count = this.positions.length;
		if (count > 0 && position <= this.positions[count - 1]) this.ascending = false;
		this.positions.push(position);
		this.sizes.push(bytes);
	}

	/** The size recorded for `position`; undefined when none was. */
	at(position: number): number | undefined {
		if (!this.ascending) {
			if (!this.byPosition) {
				this.byPosition = new Map();
				for (let index = 0; index < this.positions.length; index++) {
					this.byPosition.set(this.positions[index], this.sizes[index]);
				}
			}
			return this.byPosition.get(position);
		}
		let low = 0;
		let high = this.positions.length - 1;
		while (low <= high) {
			const middle = (low + high) >>> 1;
			const found = this.positions[middle];
			if (found === position) return this.sizes[middle];
			if (found < position) low = middle + 1;
			else high = middle - 1;
		}
		return undefined;
	}

	clear(): void {
		this.positions = [];
		this.sizes = [];
		this.byPosition = undefined;
	}
}
