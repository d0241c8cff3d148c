// `-o key value`: model options checked against the model before any call: a temperature, a
// maximum output length, a reasoning level, and the sampling parameters the model's API takes
// (top_p, top_k, seed, …, sent as samplingParams). A key the model does not take is refused by
// name, with the keys it does take, rather than silently dropped.
import { type Api, checkSamplingParams, type Model, samplingParamKeys } from "@keel/ai";
import { UsageError } from "../command.js";
import type { CallOptions } from "../conversation/timed-stream.js";

export const SUPPORTED_OPTIONS = ["temperature", "max_tokens", "reasoning"] as const;

/** `-o key value` is two words after the flag; parseArgs takes one, so the pair becomes `--option key=value`. */
export function joinOptionPairs(commandName: string, args: string[]): string[] {
	const joined: string[] = [];
	for (let index = 0; index < args.length; index++) {
		const argument = args[index];
		if (argument === "--") {
			joined.push(...args.slice(index));
			break;
		}
		if (argument !== "-o" && argument !== "--option") {
			joined.push(argument);
			continue;
		}
		const key = args[index + 1];
		const value = args[index + 2];
		if (key === undefined || value === undefined) {
			throw new UsageError(`${argument} takes a name and a value, e.g. ${argument} temperature 0.2`, commandName);
		}
		joined.push(`--option=${key}=${value}`);
		index += 2;
	}
	return joined;
}

export interface ParsedModelOptions {
	callOptions: CallOptions;
	reasoning?: string;
}

/** Each `key=value` checked against the model; a usage error says what is accepted. */
export function parseModelOptions(
	commandName: string,
	model: Model<Api>,
	pairs: Record<string, string>,
): ParsedModelOptions {
	const parsed: ParsedModelOptions = { callOptions: {} };
	for (const [rawKey, value] of Object.entries(pairs)) {
		const key = rawKey
			.replace(/-/g, "_")
			.replace(/([a-z])([A-Z])/g, "$1_$2")
			.toLowerCase();
		if (key === "temperature") {
			const number = Number(value);
			if (value.trim() === "" || !Number.isFinite(number) || number < 0 || number > 2) {
				throw new UsageError(`-o temperature expects a number from 0 to 2, got "${value}"`, commandName);
			}
			parsed.callOptions.temperature = number;
		} else if (key === "max_tokens") {
			const number = Number(value);
			if (!Number.isInteger(number) || number < 1 || number > model.maxTokens) {
				throw new UsageError(
					`-o max_tokens expects a whole number from 1 to ${model.maxTokens} (the most ${model.provider}/${model.id} can write), got "${value}"`,
					commandName,
				);
			}
			parsed.callOptions.maxTokens = number;
		} else if (key === "reasoning") {
			parsed.reasoning = value;
		} else {
			parsed.callOptions.samplingParams = {
				...parsed.callOptions.samplingParams,
				[key]: samplingValue(commandName, model, rawKey, key, value),
			};
		}
	}
	return parsed;
}

/** A sampling key's value, checked against what the model takes. */
function samplingValue(commandName: string, model: Model<Api>, rawKey: string, key: string, value: string): number {
	const sampling = samplingParamKeys(model).filter((name) => name !== "temperature");
	if (!sampling.includes(key)) {
		const accepted = [...SUPPORTED_OPTIONS, ...sampling].join(", ");
		throw new UsageError(
			`-o ${rawKey} is not an option Keel can send to ${model.provider}/${model.id} (${model.api}): use ${accepted}`,
			commandName,
		);
	}
	const number = Number(value);
	const problem = value.trim() === "" ? `"${key}" must be a number` : checkSamplingParams(model, { [key]: number });
	if (problem) throw new UsageError(`-o ${rawKey} expects a number, got "${value}"`, commandName);
	return number;
}

/** `--option key=value` values into a record (the last one wins). */
export function optionPairs(commandName: string, values: string[] | undefined): Record<string, string> {
	const pairs: Record<string, string> = {};
	for (const entry of values ?? []) {
		const equals = entry.indexOf("=");
		if (equals <= 0)
			throw new UsageError(`-o takes a name and a value, e.g. -o temperature 0.2 (got "${entry}")`, commandName);
		pairs[entry.slice(0, equals)] = entry.slice(equals + 1);
	}
	return pairs;
}
