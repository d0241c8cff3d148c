import { build } from "esbuild";
import { gzipSync } from "node:zlib";
const result = await build({ entryPoints: [process.argv[2]], bundle: true, minify: true, write: false, metafile: true, format: "esm", platform: "browser", conditions: ["browser"], logLevel: "silent" });
const code = result.outputFiles[0].text;
console.log("total gz", gzipSync(code).length, "raw", code.length);
const out = Object.values(result.metafile.outputs)[0];
const rows = Object.entries(out.inputs).map(([k, v]) => [k.replace(/.*packages\/ai\/src\//, ""), v.bytesInOutput]).sort((a, b) => b[1] - a[1]);
const depth = Number(process.argv[3] ?? 1);
const groups = {};
for (const [k, v] of rows) { const g = k.split("/").slice(0, depth).join("/"); groups[g] = (groups[g] ?? 0) + v; }
console.log(Object.entries(groups).sort((a,b)=>b[1]-a[1]).slice(0,Number(process.argv[4]??30)).map(([k,v])=>`${v}\t${k}`).join("\n"));
