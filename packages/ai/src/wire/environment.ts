/**
 * The process environment where there is one (Node, Bun, Deno's Node mode), else an empty record:
 * browsers and Cloudflare Workers have no `process`, and Keel's provider modules must load there.
 */
export function environmentVariables(): Record<string, string | undefined> {
	return typeof process !== "undefined" && process.env ? process.env : {};
}

/** One environment variable, or undefined when it is unset or empty. */
export function environmentVariable(name: string): string | undefined {
	const value = environmentVariables()[name];
	return value === undefined || value === "" ? undefined : value;
}
