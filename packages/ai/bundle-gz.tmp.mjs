import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const [entry, root] = process.argv.slice(2);
const r = await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "browser", target: "es2022", write: false, minify: true, logLevel: "silent", nodePaths: [root + "/node_modules"], external: ["@anthropic-ai/*", "openai", "openai/*", "@aws-sdk/*"] });
const code = r.outputFiles[0].contents;
console.log("minified", (code.length / 1024).toFixed(1), "KB gzip", (gzipSync(code).length / 1024).toFixed(1), "KB");
