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

	it("describes audio and resource links in text", () => {
		expect(mapContentBlock({ type: "audio", data: "AAAA", mimeType: "audio/wav" })).toEqual({
			type: "text",
			text: "[audio (audio/wav) not shown: 4 base64 characters]",
		});
		expect(
			mapContentBlock({ type: "resource_link", uri: "file:///notes.md", name: "notes", mimeType: "text/markdown" }),
		).toEqual({ type: "text", text: "Resource: file:///notes.md\nname: notes\ntype: text/markdown" });
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
