// Model kinds. Keel's collections hold chat models only, and a model without `type` is a chat
// model, so these answer "chat" for every Keel model; they exist for programs that narrow mixed
// lists (chat, image and classifier models) before use.
import type { Api, Model } from "../types.js";

export type ModelType = "chat" | "image" | "classifier";

/** The kind of a model; a model without `type` is a chat model. */
export function getModelType(model: Pick<Model<Api>, "id"> & { type?: ModelType }): ModelType {
	return model.type ?? "chat";
}

/** True when the model is of the given kind, models without `type` counting as chat models. */
export function isModelType(model: Pick<Model<Api>, "id"> & { type?: ModelType }, type: ModelType): boolean {
	return getModelType(model) === type;
}
