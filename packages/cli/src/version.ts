// The package version, replaced at build time (tsup `define`); "development" when run from source.
declare const __KEEL_CLI_VERSION__: string | undefined;

export const CLI_VERSION: string = typeof __KEEL_CLI_VERSION__ === "string" ? __KEEL_CLI_VERSION__ : "development";
