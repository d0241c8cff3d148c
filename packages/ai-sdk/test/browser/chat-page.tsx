// The chat page, bundled for the browser: a React app built on the AI SDK's `useChat` hook, the
// way a Next.js or Vite chat UI is written. It posts to /api/chat and renders the UI message stream
// (text parts and tool parts) as it arrives.
import { useChat } from "@ai-sdk/react";
import { type FormEvent, useState } from "react";
import { createRoot } from "react-dom/client";

function describePart(part: { type: string; text?: string; state?: string; output?: unknown }): string {
	if (part.type === "text") return part.text ?? "";
	// Tool parts are named `tool-<name>`; show the call once its output has arrived.
	if (part.type.startsWith("tool-") && part.state === "output-available") {
		return `[${part.type.slice("tool-".length)} → ${JSON.stringify(part.output)}]`;
	}
	return "";
}

function Chat() {
	const { messages, sendMessage, status, error } = useChat();
	const [input, setInput] = useState("");
	const busy = status === "submitted" || status === "streaming";
	function submit(event: FormEvent) {
		event.preventDefault();
		void sendMessage({ text: input });
		setInput("");
	}
	return (
		<>
			<div id="messages">
				{messages.map((message) => (
					<div key={message.id} className={`message ${message.role}`}>
						{message.parts.map(describePart).join("")}
					</div>
				))}
			</div>
			{error ? <div className="error">{error.message}</div> : null}
			<form id="form" onSubmit={submit}>
				<input id="prompt" autoComplete="off" value={input} onChange={(event) => setInput(event.target.value)} />
				<button id="send" type="submit" disabled={busy}>
					Send
				</button>
			</form>
		</>
	);
}

createRoot(document.querySelector("#root") as HTMLElement).render(<Chat />);
