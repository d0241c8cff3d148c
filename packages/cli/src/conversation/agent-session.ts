// How a session is handed to the Agent: the one place that knows the Agent's option for it, so a
// change in @keel/agent-core's way of binding a session is a change to this line alone.
import type { AgentOptions } from "@keel/agent-core";
import type { Session } from "@keel/agent-core/session";

export function sessionAgentOptions(session: Session): Pick<AgentOptions, "session"> {
	return { session };
}
