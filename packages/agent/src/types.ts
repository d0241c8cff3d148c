import type { Message } from "@keel/ai";

/** Extend by declaration merging to add application message types to the transcript. */
// biome-ignore lint/suspicious/noEmptyInterface: extended by declaration merging
export interface CustomAgentMessages {}

/** A message in an agent's transcript: an LLM message or an application-defined one. */
export type AgentMessage = Message | CustomAgentMessages[keyof CustomAgentMessages];
