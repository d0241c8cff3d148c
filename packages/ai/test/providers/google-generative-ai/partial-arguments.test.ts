// Vertex AI's streamed function-call arguments (partialArgs: a JSON path and a typed value per
// piece, strings possibly in several pieces) written as JSON text, piece by piece.
import { describe, expect, it } from "vitest";
import {
	type GeminiPartialArg,
	PartialArgumentsWriter,
	parseJsonPath,
} from "../../../src/providers/google-generative-ai/partial-arguments.js";

function writeAll(pieces: GeminiPartialArg[]): { deltas: string[]; text: string } {
	const writer = new PartialArgumentsWriter();
	const deltas = pieces.map((piece) => writer.write(piece));
	deltas.push(writer.finish());
	return { deltas, text: deltas.join("") };
}

describe("PartialArgumentsWriter", () => {
	it("writes strings in pieces, numbers, booleans and null as one JSON object", () => {
		const { deltas, text } = writeAll([
			{ jsonPath: "$.location", stringValue: "Bos", willContinue: true },
			{ jsonPath: "$.location", stringValue: 'ton, "MA"', willContinue: true },
			{ jsonPath: "$.location", stringValue: "" },
			{ jsonPath: "$.brightness", numberValue: 50.5 },
			{ jsonPath: "$.on", boolValue: true },
			{ jsonPath: "$.scene", nullValue: "NULL_VALUE" },
		]);
		expect(JSON.parse(text)).toEqual({ location: 'Boston, "MA"', brightness: 50.5, on: true, scene: null });
		// Each piece is written as it arrives: the first delta already holds the start of the string.
		expect(deltas[0]).toBe('{"location":"Bos');
	});

	it("opens and closes nested objects and arrays as the paths move", () => {
		const { text } = writeAll([
			{ jsonPath: "$.items[0].name", stringValue: "apple" },
			{ jsonPath: "$.items[0].qty", numberValue: 2 },
			{ jsonPath: "$.items[1].name", stringValue: "pear" },
			{ jsonPath: "$.tags[0]", stringValue: "fruit" },
			{ jsonPath: "$.tags[1]", stringValue: "fresh" },
			{ jsonPath: "$.matrix[0][0]", numberValue: 1 },
			{ jsonPath: "$.matrix[0][1]", numberValue: 2 },
			{ jsonPath: "$.matrix[1][0]", numberValue: 3 },
			{ jsonPath: "$['odd.key']['x y']", stringValue: "quoted names" },
		]);
		expect(JSON.parse(text)).toEqual({
			items: [{ name: "apple", qty: 2 }, { name: "pear" }],
			tags: ["fruit", "fresh"],
			matrix: [[1, 2], [3]],
			"odd.key": { "x y": "quoted names" },
		});
	});

	it("closes a string left open and every container when the call ends early", () => {
		const { text } = writeAll([{ jsonPath: "$.a.b", stringValue: "unfinish", willContinue: true }]);
		expect(JSON.parse(text)).toEqual({ a: { b: "unfinish" } });
	});

	it("writes {} for a call without arguments", () => {
		expect(writeAll([]).text).toBe("{}");
	});

	it("rejects a malformed path with a message naming it", () => {
		expect(() => new PartialArgumentsWriter().write({ jsonPath: "location", stringValue: "x" })).toThrow(
			'a jsonPath must start with "$", got "location"',
		);
		expect(() => parseJsonPath("$.items[x]")).toThrow('bad index in jsonPath "$.items[x]"');
		expect(() => parseJsonPath("$..a")).toThrow('empty name in jsonPath "$..a"');
		expect(parseJsonPath("$.a[12]['b\\'c']")).toEqual(["a", 12, "b'c"]);
	});
});
