// The curated catalogue: applied on top of whatever the public catalogues give, so its rows win.
// Every row names the public page its facts come from (`source`).
import type { CuratedModel, CuratedPatch } from "./curated-types.js";
import { FIRST_PARTY_MODELS, FIRST_PARTY_PATCHES } from "./first-party.js";
import { SUBSCRIPTION_MODELS } from "./subscriptions.js";
import { VENDOR_MODELS } from "./vendors.js";

export type { CuratedModel, CuratedPatch, ModelRetirement } from "./curated-types.js";
export { MODEL_RETIREMENTS } from "./retirements.js";

export const CURATED_MODELS: readonly CuratedModel[] = [
	...FIRST_PARTY_MODELS,
	...SUBSCRIPTION_MODELS,
	...VENDOR_MODELS,
];

export const CURATED_PATCHES: readonly CuratedPatch[] = [...FIRST_PARTY_PATCHES];
