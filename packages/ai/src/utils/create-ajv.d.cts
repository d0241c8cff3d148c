import type { Ajv, Options } from "ajv";

/** A new AJV with the ajv-formats formats added (see create-ajv.cjs for why this is CommonJS). */
export declare function createAjv(options: Options): Ajv;
