// Compaction inside a running Agent. Before each model call it checks the size of the context (the
// last response's usage plus an estimate of what came after it) against the model's context window
// and compacts the session when the threshold is reached. The loop's own copy of the transcript
// still holds the summarised messages, so every later call of the run maps them to the summary:
// each compaction replaces everything up to its last summarised message.
import type { AssistantMessage, Model } from "@keel/ai";
import type { AgentStoreRun } from "../agent-store.js";
import type { AgentMessage, StreamFn } from "../types.js";
import { type CompactionResult, type CompactOptions, compact, estimateTokens } from "./compaction.js";
import type { Session } from "./session.js";
import type { CompactBoundaryMessage } from "./session-types.js";

/** The Agent's `compaction` option. */
export interface AgentCompactionOptions {
	/** Compact before a model call once the context reaches this share of the context window. Default 0.8. */
	threshold?: number;
	/** Compact and retry the turn once when the provider reports a context overflow. Default true. */
	retryOnOverflow?: boolean;
	/** The summariser; default the Agent's model. */
	model?: Model;
	/** The summariser's system prompt. */
	prompt?: string;
	keepRecentMessages?: number;
	keepRecentTokens?: number;
}

export const DEFAULT_COMPACTION_THRESHOLD = 0.8;

interface AppliedCompaction {
	lastSummarised: AgentMessage;
	summary: AgentMessage;
}

export class AgentCompaction {
	/** The compactions of the running run, applied in order to the loop's copy of the transcript. */
	private applied: AppliedCompaction[] = [];

	constructor(
		private readonly session: Session,
		readonly options: AgentCompactionOptions,
		/** Called after each compaction, so the Agent's state shows the compacted context. */
		private readonly onCompacted: () => void,
	) {
		const threshold = options.threshold ?? DEFAULT_COMPACTION_THRESHOLD;
		if (!(threshold > 0 && threshold <= 1)) {
			throw new RangeError(`compaction.threshold must be above 0 and at most 1, got ${String(options.threshold)}`);
		}
	}

	/** A new run starts from the Agent's state, which already shows every earlier compaction. */
	startRun(): void {
		this.applied = [];
	}

	/**
	 * The loop's transcript with every compaction of this run applied; compacts first when it is too
	 * large. Synchronous while no compaction is due, so a turn under the threshold makes no promise.
	 */
	prepareContext(messages: AgentMessage[], run: AgentStoreRun): AgentMessage[] | Promise<AgentMessage[]> {
		const context = this.applied.length === 0 ? messages : this.applyCompactions(messages);
		const contextWindow = run.model.contextWindow;
		if (!(contextWindow > 0)) return context;
		const tokens = estimateContextTokens(context);
		if (tokens < (this.options.threshold ?? DEFAULT_COMPACTION_THRESHOLD) * contextWindow) return context;
		return this.compact(run.model, run.streamFn, run.signal, "auto", tokens).then((result) =>
			result ? this.applyCompactions(messages) : context,
		);
	}

	/** Compacts the session now and records the mapping for the running run. */
	async compact(
		model: Model,
		streamFn: StreamFn,
		signal: AbortSignal | undefined,
		trigger: CompactBoundaryMessage["trigger"],
		tokensBefore?: number,
	): Promise<CompactionResult | undefined> {
		const options: CompactOptions = {
			model: this.options.model ?? model,
			streamFn,
			trigger,
			keepPendingInput: true,
		};
		if (this.options.prompt !== undefined) options.prompt = this.options.prompt;
		if (this.options.keepRecentMessages !== undefined) options.keepRecentMessages = this.options.keepRecentMessages;
		if (this.options.keepRecentTokens !== undefined) options.keepRecentTokens = this.options.keepRecentTokens;
		if (tokensBefore !== undefined) options.tokensBefore = tokensBefore;
		if (signal) options.signal = signal;
		const result = await compact(this.session, options);
		if (!result) return undefined;
		// The token budget in the session state says how often and at what size the Agent compacted.
		const budget = this.session.state.tokenBudget ?? {};
		const tokenBudget = { ...budget, compactionCount: (budget.compactionCount ?? 0) + 1 };
		if (model.contextWindow > 0) tokenBudget.contextWindow = model.contextWindow;
		if (tokensBefore !== undefined) tokenBudget.lastInputTokens = tokensBefore;
		await this.session.updateState({ tokenBudget });
		// The stored records' messages: typed as transcript messages in every program, with or
		// without the session kinds merged in.
		const lastSummarised = this.session.getRecord(result.lastSummarisedMessageId)?.message;
		const summary = this.session.getRecord(result.summaryId)?.message;
		if (lastSummarised && summary) this.applied.push({ lastSummarised, summary });
		this.onCompacted();
		return result;
	}

	private applyCompactions(messages: AgentMessage[]): AgentMessage[] {
		let context = messages;
		for (const { lastSummarised, summary } of this.applied) {
			const index = context.lastIndexOf(lastSummarised);
			if (index !== -1) context = [summary, ...context.slice(index + 1)];
		}
		return context;
	}
}

/**
 * The last response's input and output tokens, plus an estimate of every message after it. A
 * response older than the context's summary measured the context before compaction: it is
 * estimated like any other message.
 */
export function estimateContextTokens(messages: AgentMessage[]): number {
	const first = messages[0] as { role?: unknown; timestamp?: number } | undefined;
	const compactedAt = first?.role === "summary" ? (first.timestamp ?? 0) : Number.NEGATIVE_INFINITY;
	let estimate = 0;
	for (let index = messages.length - 1; index >= 0; index--) {
		const message = messages[index] as AssistantMessage;
		if (
			message.role === "assistant" &&
			message.usage &&
			message.timestamp > compactedAt &&
			message.stopReason !== "error" &&
			message.stopReason !== "aborted"
		) {
			const usage = message.usage;
			return estimate + usage.input + usage.cacheRead + usage.cacheWrite + usage.output;
		}
		estimate += estimateTokens(messages[index]);
	}
	return estimate;
}
