import { describe, expect, it } from "vitest";
import { getModel } from "../../../src/index.js";
import { effortForThinkingLevel, usesAdaptiveThinking } from "../../../src/providers/anthropic/thinking.js";
import type { ThinkingLevel } from "../../../src/types.js";
import { claudeModel } from "./fixtures.js";

describe("usesAdaptiveThinking", () => {
	it.each([
		["claude-opus-4-6", true],
		["claude-opus-4.6", true],
		["claude-sonnet-4-6", true],
		["claude-opus-4-7", true],
		["anthropic/claude-sonnet-4.6", true],
		["claude-sonnet-5-0", true],
		["claude-sonnet-4-5-20250929", false],
		["claude-sonnet-4-20250514", false],
		["claude-3-7-sonnet-20250219", false],
		["claude-haiku-4-5", false],
		["claude-sonnet-5", true],
	])("%s → %s", (id, expected) => {
		expect(usesAdaptiveThinking(claudeModel({ id }))).toBe(expected);
	});

	it("follows a catalogue thinkingLevelMap of effort names", () => {
		const model = claudeModel({ id: "claude-custom", thinkingLevelMap: { low: "low", high: "high" } });
		expect(usesAdaptiveThinking(model)).toBe(true);
	});
});

describe("effortForThinkingLevel", () => {
	const levels: ThinkingLevel[] = ["minimal", "low", "medium", "high", "xhigh"];

	it.each([
		["claude-opus-4-6", ["low", "low", "medium", "high", "max"]],
		["claude-opus-4-7", ["low", "low", "medium", "high", "xhigh"]],
		["claude-sonnet-4-6", ["low", "low", "medium", "high", "high"]],
	])("maps every level for %s by id", (id, expected) => {
		const model = claudeModel({ id });
		expect(levels.map((level) => effortForThinkingLevel(model, level))).toEqual(expected);
	});

	it("follows the catalogue row for Opus 4.6 (xhigh → max) and treats an undeclared xhigh as unsupported", () => {
		const opus = claudeModel({ id: "claude-opus-4-6", thinkingLevelMap: { xhigh: "max" } });
		expect(levels.map((level) => effortForThinkingLevel(opus, level))).toEqual(["low", "low", "medium", "high", "max"]);
		const withoutXhigh = claudeModel({ id: "claude-opus-4-7", thinkingLevelMap: { minimal: null } });
		expect(effortForThinkingLevel(withoutXhigh, "xhigh")).toBe("high");
		expect(effortForThinkingLevel(withoutXhigh, "minimal")).toBe("low");
	});

	it("uses the catalogue map, moving unsupported levels up first, then down", () => {
		const model = claudeModel({
			id: "claude-next",
			thinkingLevelMap: { minimal: null, low: "low", medium: "medium", high: "high", xhigh: null },
		});
		expect(levels.map((level) => effortForThinkingLevel(model, level))).toEqual([
			"low",
			"low",
			"medium",
			"high",
			"high",
		]);
	});
});

describe("Claude capability flags in the catalogue", () => {
	it("marks Opus 4.7 and 4.8 as taking no temperature and asking for summarized thinking, Opus 4.8 as taking mid-conversation system messages", () => {
		const opus47 = getModel("anthropic", "claude-opus-4-7");
		const opus48 = getModel("anthropic", "claude-opus-4-8");
		expect(opus47.compat).toMatchObject({ supportsTemperature: false, omitsThinkingByDefault: true });
		expect(opus47.compat?.supportsMidConversationSystemMessages).toBeUndefined();
		expect(opus48.compat).toMatchObject({
			supportsTemperature: false,
			omitsThinkingByDefault: true,
			supportsMidConversationSystemMessages: true,
		});
		expect(getModel("anthropic", "claude-sonnet-5").compat).toEqual({ omitsThinkingByDefault: true });
		expect(getModel("anthropic", "claude-opus-4-6").compat).toBeUndefined();
	});
});
