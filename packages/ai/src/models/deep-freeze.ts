// Catalogue models are handed out frozen, all the way down, so a caller cannot change the shared
// rows by accident (in pi they were shared mutable objects). Copy one to adjust it.

/** Freezes `value` and everything reachable from it; returns it. */
export function deepFreeze<T>(value: T): T {
	if (value && typeof value === "object" && !Object.isFrozen(value)) {
		Object.freeze(value);
		for (const child of Object.values(value)) deepFreeze(child);
	}
	return value;
}
