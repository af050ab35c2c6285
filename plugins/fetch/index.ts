import type { PluginRegistration } from "../../src/plugin-system/types.js";
import { fetchConfigSchema, type FetchConfig } from "./config.js";
import { createFetchModule } from "./fetch-module.js";

const fetchPlugin: PluginRegistration<FetchConfig> = {
  name: "fetch",
  declaredModules: ["fetch"],
  configSchema: fetchConfigSchema,
  createHostFunctions(config) {
    return { fetch: createFetchModule(config) };
  },
};

export default fetchPlugin;
