import type { OpenAIResponsesOptions, OpenAIResponsesSimpleOptions } from "../openai-responses/options.js";
import type { AzureTargetOptions } from "./resolve-azure-target.js";

/** Responses options plus where to reach the deployment (each also readable from the environment). */
export interface AzureOpenAIResponsesOptions extends OpenAIResponsesOptions, AzureTargetOptions {}

export type AzureOpenAIResponsesSimpleOptions = OpenAIResponsesSimpleOptions & AzureTargetOptions;
