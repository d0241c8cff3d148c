// A profile's region in @keel/ai's build for browsers and Workers (the package's "browser"
// condition, see package.json "imports"): there is no shared AWS config file to read it from, so
// the region comes from the options or the base URL, else us-east-1. Node, Deno and Bun load
// profile-region.ts.
// @see https://docs.aws.amazon.com/sdkref/latest/guide/file-format.html

/** No config file in a browser or a Worker. */
export async function readProfileRegion(_profile: string): Promise<string | undefined> {
	return undefined;
}
