// The chat page's script, bundled for the browser: it posts the conversation with the AI SDK's
// DefaultChatTransport and renders the UI message stream as it arrives (readUIMessageStream).
import { DefaultChatTransport, readUIMessageStream, type UIMessage } from "ai";

const messages: UIMessage[] = [];
const transport = new DefaultChatTransport<UIMessage>({ api: "/api/chat" });
const log = document.querySelector("#messages") as HTMLElement;
const form = document.querySelector("#form") as HTMLFormElement;
const input = document.querySelector("#prompt") as HTMLInputElement;
const send = document.querySelector("#send") as HTMLButtonElement;

function render(message: UIMessage): HTMLElement {
	const element = document.createElement("div");
	element.className = `message ${message.role}`;
	element.dataset.id = message.id;
	element.textContent = message.parts.map((part) => (part.type === "text" ? part.text : "")).join("");
	return element;
}

form.addEventListener("submit", async (event) => {
	event.preventDefault();
	const user: UIMessage = { id: crypto.randomUUID(), role: "user", parts: [{ type: "text", text: input.value }] };
	messages.push(user);
	log.append(render(user));
	input.value = "";
	send.disabled = true;
	try {
		const stream = await transport.sendMessages({
			trigger: "submit-message",
			chatId: "chat-1",
			messageId: undefined,
			messages,
			abortSignal: undefined,
		});
		let shown: HTMLElement | undefined;
		let last: UIMessage | undefined;
		for await (const snapshot of readUIMessageStream<UIMessage>({ stream })) {
			last = snapshot;
			const element = render(snapshot);
			if (shown) shown.replaceWith(element);
			else log.append(element);
			shown = element;
		}
		if (last) messages.push(last);
	} catch (error) {
		const element = document.createElement("div");
		element.className = "error";
		element.textContent = error instanceof Error ? error.message : String(error);
		log.append(element);
	} finally {
		send.disabled = false;
	}
});
