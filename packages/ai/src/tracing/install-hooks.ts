// Installs tracing's hooks where Keel's code reads them (see hooks.ts for the slot and why it is global).
import type { TracingHooks } from "./hooks.js";

const HOOKS_KEY = Symbol.for("keel.tracing.hooks");

/** Installs (or with undefined, removes) the hooks. */
export function setTracingHooks(hooks: TracingHooks | undefined): void {
	const slot = globalThis as { [HOOKS_KEY]?: TracingHooks };
	if (hooks) slot[HOOKS_KEY] = hooks;
	else delete slot[HOOKS_KEY];
}
