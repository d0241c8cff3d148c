// The public surface of @keel/agent-core.
export type { AgentMessage, CustomAgentMessages } from "./types.js";
