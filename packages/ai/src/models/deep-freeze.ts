// Catalogue models are handed out frozen, all the way down: every caller gets the same shared rows,
// so a change through one would silently reach every other. Copy one to adjust it.

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}
