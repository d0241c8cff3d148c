// The `prepack` of every published package: packing is pnpm's job. pnpm replaces the `workspace:`
// ranges of the manifest with the versions they stand for and adds the repository's LICENSE;
// `npm pack` and `npm publish` do neither, and make tarballs that `npm install` rejects. This stops
// them before they write anything, and says what to run instead.
const userAgent = process.env.npm_config_user_agent ?? "";
if (!userAgent.startsWith("pnpm/")) {
	const packageName = process.env.npm_package_name ?? "this package";
	console.error(
		`${packageName} is packed and published with pnpm, which resolves its workspace: dependencies and adds the LICENSE; ` +
			`${userAgent.split(" ")[0] || "this tool"} does neither. Run \`npx -y pnpm@10.34.9 pack\` (or \`pnpm -r publish\` from the repository root) instead.`,
	);
	process.exit(1);
}
