// A one-line spinner on stderr while the model has not answered yet, only on a terminal: piped
// output never sees it. It rewrites its own line with "\r" and erases it when stopped.

const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 80;

export interface Spinner {
	/** Erases the spinner; safe to call more than once. */
	stop(): void;
}

export function startSpinner(
	stream: { write(text: string): unknown; isTTY?: boolean },
	label: string,
	styles: { dim(text: string): string },
): Spinner {
	if (stream.isTTY !== true) return { stop() {} };
	let frame = 0;
	const draw = () => {
		stream.write(`\r${styles.dim(`${FRAMES[frame % FRAMES.length]} ${label}`)}\u001b[K`);
		frame++;
	};
	draw();
	const timer = setInterval(draw, FRAME_MS);
	let stopped = false;
	return {
		stop() {
			if (stopped) return;
			stopped = true;
			clearInterval(timer);
			stream.write("\r\u001b[K");
		},
	};
}
