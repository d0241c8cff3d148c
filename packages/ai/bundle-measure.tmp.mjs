import { build } from "esbuild";
const [entry, root] = process.argv.slice(2);
for (const minify of [false, true]) {
const r = await build({ entryPoints: [entry], bundle: true, format: "esm", platform: "browser", target: "es2022", write: false, minify, logLevel: "silent", nodePaths: [root + "/node_modules"], metafile: true,
  external: ["@anthropic-ai/*", "openai", "openai/*", "@aws-sdk/*"], splitting: false });
let total = 0; for (const f of r.outputFiles) total += f.contents.length;
const cat = Object.entries(r.metafile.inputs).filter(([k]) => /models/.test(k)).map(([k, v]) => `${k.replace(/.*packages\/ai\//, "")}:${v.bytes}`).join(" ");
console.log(minify ? "minified" : "plain", (total / 1024).toFixed(1), "KB");
}
