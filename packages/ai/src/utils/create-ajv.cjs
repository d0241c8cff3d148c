// CommonJS on purpose, so that AJV is evaluated on the first validation and not when @keel/ai is
// imported. An ES module's imports all run before the module itself, and a synchronous function
// (validateToolArguments is one) cannot wait for a dynamic import(). A bundler, though, turns each
// CommonJS module it bundles into a function that runs on its first require() (esbuild's
// __commonJS wrapper), so the require() calls below run AJV's code only when createAjv is first
// called. This only holds while ajv and ajv-formats are bundled (tsup.config.ts, noExternal);
// run from source (tests), Node's own require() loads them from node_modules.
"use strict";

/**
 * A new AJV with the ajv-formats formats added.
 * @param {import("ajv").Options} options
 * @returns {import("ajv").Ajv}
 */
function createAjv(options) {
	const { Ajv } = require("ajv");
	const formats = require("ajv-formats");
	// ajv-formats exports its plugin both as the module and as `default`.
	const addFormats = formats.default ?? formats;
	return addFormats(new Ajv(options));
}

module.exports = { createAjv };
