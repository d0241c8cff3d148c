// Records what a provider sent during one real call, so a strange stream can become an offline
// test: `recordCall` sets `onResponse` and `onRawEvent` on the caller's options, `save` writes the
// recording, `WireTestServer.enqueueRecording` plays it back.
import { mkdir, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import { redactSecret } from "../call/secret-redaction.js";
import { getEnvApiKey } from "../env-api-keys.js";
import type { Api, Model, StreamOptions } from "../types.js";
import {
	CALL_RECORDING_FORMAT,
	type CallRecording,
	RECORDED_HEADERS,
	type RecordedResponse,
} from "./call-recording.js";

/** A call being recorded: pass `options` to the call, then save or inspect what it recorded. */
export interface CallRecorder<TOptions extends StreamOptions> {
	/** The caller's options with `onResponse` and `onRawEvent` set; the caller's own callbacks still run, after the recorder's. */
	readonly options: TOptions;
	/** The recording so far (a copy), in the documented format. */
	toJSON(): CallRecording;
	/** Writes the recording as JSON to `path`, creating missing folders. */
	save(path: string): Promise<void>;
}

/**
 * Records the answers of the call made with the returned `options`: for each attempt, the status,
 * the headers Keel reads and every raw server-sent event in order. Not recorded: the request (it
 * holds your conversation), the other response headers, and the body of an error answer. The API
 * key never appears: it travels in request headers, which are not recorded, and is also removed
 * from any recorded text that echoes it (`options.apiKey` or the provider's environment key).
 */
export function recordCall<TOptions extends StreamOptions>(options: TOptions = {} as TOptions): CallRecorder<TOptions> {
	let model: Model<Api> | undefined;
	let apiKey: string | undefined;
	const responses: RecordedResponse[] = [];
	const noteModel = (current: Model<Api>) => {
		if (model) return;
		model = current;
		apiKey = options.apiKey ?? getEnvApiKey(current.provider);
	};

	const recordingOptions: TOptions = {
		...options,
		onResponse: (response, current) => {
			noteModel(current);
			const headers: Record<string, string> = {};
			for (const name of RECORDED_HEADERS) {
				const value = response.headers[name];
				if (value !== undefined) headers[name] = redactSecret(value, apiKey);
			}
			responses.push({ status: response.status, headers, events: [] });
			return options.onResponse?.(response, current);
		},
		onRawEvent: (event, current) => {
			noteModel(current);
			// onResponse runs before the body of every answer; the guard covers a custom transport that skips it.
			if (responses.length === 0) responses.push({ status: 200, headers: {}, events: [] });
			const data = redactSecret(event.data, apiKey);
			const recorded = event.event === undefined ? { data } : { event: redactSecret(event.event, apiKey), data };
			responses[responses.length - 1].events.push(recorded);
			return options.onRawEvent?.(event, current);
		},
	};

	const toJSON = (): CallRecording => ({
		format: CALL_RECORDING_FORMAT,
		version: 1,
		api: model?.api ?? "unknown",
		provider: model?.provider ?? "unknown",
		model: model?.id ?? "unknown",
		responses: responses.map((response) => ({
			status: response.status,
			headers: { ...response.headers },
			events: response.events.map((event) => ({ ...event })),
		})),
	});

	return {
		options: recordingOptions,
		toJSON,
		async save(path) {
			await mkdir(dirname(path), { recursive: true });
			await writeFile(path, `${JSON.stringify(toJSON(), null, "\t")}\n`, "utf8");
		},
	};
}
