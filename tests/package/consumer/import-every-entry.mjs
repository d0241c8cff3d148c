// Run with plain `node` in the consumer project: imports the root and every subpath of each
// installed Keel package, and prints how many exports each has, as one JSON line for the test.
const entries = JSON.parse(process.argv[2]);
const exportCounts = {};
for (const entry of entries) {
	try {
		exportCounts[entry] = Object.keys(await import(entry)).length;
	} catch (error) {
		exportCounts[entry] = `${error.code ?? error.name}: ${error.message}`;
	}
}
console.log(JSON.stringify(exportCounts));
