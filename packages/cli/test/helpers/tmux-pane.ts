// `keel` in a real terminal: a tmux pane (its own server socket, a fixed size) that a test types
// into with send-keys and reads with capture-pane, escape sequences included, so colours and the
// spinner are checked as a person would see them.
import { execFileSync, spawnSync } from "node:child_process";
import { randomUUID } from "node:crypto";

/** Why the terminal tests cannot run here, or undefined when tmux works. */
export function tmuxUnavailableReason(): string | undefined {
	const result = spawnSync("tmux", ["-V"], { encoding: "utf8" });
	if (result.error || result.status !== 0) {
		return 'tmux is not installed: run "node scripts/ensure-tmux.mjs" (as root it installs the Debian tmux package)';
	}
	return undefined;
}

const shellQuote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

export interface PaneOptions {
	command: string[];
	env: Record<string, string>;
	columns?: number;
	rows?: number;
}

export class TmuxPane {
	private readonly socket = `keel-test-${randomUUID()}`;

	private constructor() {}

	/**
	 * Starts the command in a new detached session. A shell around it prints "[exit N]" when it ends
	 * and keeps the pane open, so the final screen can be read (tmux's remain-on-exit redraws the
	 * dead pane and can lose its first line).
	 */
	static start(options: PaneOptions): TmuxPane {
		const pane = new TmuxPane();
		const environment = Object.entries({ TERM: "xterm-256color", ...options.env }).map(
			([name, value]) => `${name}=${value}`,
		);
		// `env -i` so the command sees exactly the given environment, not the tmux server's.
		const command = ["env", "-i", ...environment, ...options.command].map(shellQuote).join(" ");
		const shellCommand = `${command}; echo "[exit $?]"; exec sleep 3600`;
		pane.tmux([
			"new-session",
			"-d",
			"-s",
			"keel",
			"-x",
			String(options.columns ?? 100),
			"-y",
			String(options.rows ?? 30),
			shellCommand,
		]);
		return pane;
	}

	private tmux(args: string[]): string {
		return execFileSync("tmux", ["-L", this.socket, "-f", "/dev/null", ...args], { encoding: "utf8" });
	}

	/** Keys as tmux names them: literal text, "Enter", "C-c", "C-d". */
	sendKeys(...keys: string[]): void {
		this.tmux(["send-keys", "-t", "keel", ...keys]);
	}

	/** Literal text followed by Enter. */
	typeLine(text: string): void {
		this.tmux(["send-keys", "-t", "keel", "-l", text]);
		this.tmux(["send-keys", "-t", "keel", "Enter"]);
	}

	/** The visible screen as text, with SGR escape sequences when `withEscapes` (colours, dim). */
	capture(withEscapes = false): string {
		return this.tmux(["capture-pane", "-p", "-t", "keel", ...(withEscapes ? ["-e"] : [])]);
	}

	/** The command's exit status once it has exited, else undefined. */
	exitStatus(): number | undefined {
		const match = /^\[exit (\d+)\]$/m.exec(this.capture());
		return match ? Number(match[1]) : undefined;
	}

	/**
	 * Polls the screen until `condition` holds (the terminal has no event to wait on), failing after
	 * `timeoutMs` with the screen in the message.
	 */
	async waitFor(condition: (screen: string) => boolean, description: string, timeoutMs = 15_000): Promise<string> {
		const deadline = Date.now() + timeoutMs;
		for (;;) {
			const screen = this.capture(true);
			if (condition(screen)) return screen;
			if (Date.now() > deadline) {
				throw new Error(`Timed out waiting for ${description}. The screen:\n${this.capture()}`);
			}
			await new Promise((resolve) => setTimeout(resolve, 50));
		}
	}

	async waitForExit(timeoutMs = 15_000): Promise<number> {
		await this.waitFor(() => this.exitStatus() !== undefined, "the command to exit", timeoutMs);
		return this.exitStatus()!;
	}

	close(): void {
		spawnSync("tmux", ["-L", this.socket, "kill-server"]);
	}
}

/** The screen without escape sequences. */
export function plain(screen: string): string {
	// biome-ignore lint/suspicious/noControlCharactersInRegex: SGR sequences start with ESC.
	return screen.replace(/\u001b\[[0-9;]*m/g, "");
}
