// How a session is handed to the Agent: the one place that knows how @keel/agent-core binds a
// session, so a change in that binding is a change to this file alone.
import type { AgentOptions } from "@keel/agent-core";
import { bindSession, type Session } from "@keel/agent-core/session";

export function sessionAgentOptions(session: Session): Pick<AgentOptions, "store"> {
	return { store: bindSession(session) };
}
