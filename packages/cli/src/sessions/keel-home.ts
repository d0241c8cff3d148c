// Where the CLI keeps its files: $KEEL_HOME, else ~/.keel. Sessions live in <home>/sessions.
import { homedir } from "node:os";
import { join } from "node:path";

export function keelHome(env: Record<string, string | undefined>): string {
	const fromEnvironment = env.KEEL_HOME;
	if (fromEnvironment !== undefined && fromEnvironment !== "") return fromEnvironment;
	return join(env.HOME !== undefined && env.HOME !== "" ? env.HOME : homedir(), ".keel");
}

export function sessionsDirectory(env: Record<string, string | undefined>): string {
	return join(keelHome(env), "sessions");
}
