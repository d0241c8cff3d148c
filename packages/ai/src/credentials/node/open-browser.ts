import { spawn } from "node:child_process";

/**
 * Opens `url` in the user's browser with the platform's opener (open, xdg-open, start). Resolves
 * to false when no opener could be started (a server without a desktop): print the URL then.
 */
export function openInBrowser(url: string): Promise<boolean> {
	const [command, ...arguments_] =
		process.platform === "darwin"
			? ["open", url]
			: process.platform === "win32"
				? ["cmd", "/c", "start", '""', url.replace(/&/g, "^&")]
				: ["xdg-open", url];
	return new Promise((resolve) => {
		try {
			const child = spawn(command, arguments_, { stdio: "ignore", detached: true });
			child.once("error", () => resolve(false));
			child.once("spawn", () => {
				child.unref();
				resolve(true);
			});
		} catch {
			resolve(false);
		}
	});
}
