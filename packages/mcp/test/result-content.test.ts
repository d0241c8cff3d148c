import { describe, expect, it } from "vitest";
import { mapContentBlock, mapResultContent } from "../src/index.js";
import { truncateText } from "../src/result-content.js";

describe("MCP result content as Keel content", () => {
	it("keeps text and images as they are", () => {
		expect(mapContentBlock({ type: "text", text: "hi" })).toEqual({ type: "text", text: "hi" });
		expect(mapContentBlock({ type: "image", data: "aGk=", mimeType: "image/png" })).toEqual({
			type: "image",
			data: "aGk=",
			mimeType: "image/png",
		});
	});

	it("turns an embedded image blob into an image and other blobs into a line of text", () => {
		expect(
			mapContentBlock({ type: "resource", resource: { uri: "file:///a.png", mimeType: "image/png", blob: "aGk=" } }),
		).toEqual({ type: "image", data: "aGk=", mimeType: "image/png" });
		expect(
			mapContentBlock({
				type: "resource",
				resource: { uri: "file:///a.zip", mimeType: "application/zip", blob: "aGk=" },
			}),
		).toEqual({ type: "text", text: "[resource file:///a.zip (application/zip) not shown: 4 base64 characters]" });
	});

	it("turns an embedded PDF or Word blob into a file block named after the last segment of its URI", () => {
		expect(
			mapContentBlock({
				type: "resource",
				resource: { uri: "file:///reports/Q3%20summary.pdf", mimeType: "application/pdf", blob: "JVBERi0=" },
			}),
		).toEqual({ type: "file", mimeType: "application/pdf", data: "JVBERi0=", filename: "Q3 summary.pdf" });
		const docx = "application/vnd.openxmlformats-officedocument.wordprocessingml.document";
		expect(
			mapContentBlock({ type: "resource", resource: { uri: "urn:doc:42", mimeType: docx, blob: "UEsDBA==" } }),
		).toEqual({ type: "file", mimeType: docx, data: "UEsDBA==" });
	});

	it("reads an embedded text blob as text, like a text resource, and notes one that is not UTF-8", () => {
		const csv = Buffer.from("a,b\n1,2\n").toString("base64");
		expect(
			mapContentBlock({ type: "resource", resource: { uri: "file:///t.csv", mimeType: "text/csv", blob: csv } }),
		).toEqual({ type: "text", text: "Resource file:///t.csv:\na,b\n1,2\n" });
		expect(
			mapContentBlock({ type: "resource", resource: { uri: "file:///t.txt", mimeType: "text/plain", text: "hi" } }),
		).toEqual({ type: "text", text: "Resource file:///t.txt:\nhi" });
		const latin1 = Buffer.from([0xe9, 0x74, 0xe9]).toString("base64");
		expect(
			mapContentBlock({ type: "resource", resource: { uri: "file:///l.txt", mimeType: "text/plain", blob: latin1 } }),
		).toEqual({ type: "text", text: "[resource file:///l.txt (text/plain) not shown: 4 base64 characters]" });
	});

	it("adds structuredContent as JSON text unless a text block already carries it", () => {
		expect(mapResultContent({ content: [], structuredContent: { a: 1 } })).toEqual([{ type: "text", text: '{"a":1}' }]);
		expect(mapResultContent({ content: [{ type: "text", text: '{ "a": 1 }' }], structuredContent: { a: 1 } })).toEqual([
			{ type: "text", text: '{ "a": 1 }' },
		]);
	});

	it("cuts text across blocks at the limit, keeps images, and says how much was left out", () => {
		const { content, truncated } = truncateText(
			[
				{ type: "text", text: "abcdef" },
				{ type: "image", data: "aGk=", mimeType: "image/png" },
				{ type: "text", text: "ghij" },
			],
			8,
		);
		expect(truncated).toBe(true);
		expect(content).toEqual([
			{ type: "text", text: "abcdef" },
			{ type: "image", data: "aGk=", mimeType: "image/png" },
			{ type: "text", text: "gh" },
			{ type: "text", text: "[result truncated: 2 of 10 characters omitted]" },
		]);
	});
});
