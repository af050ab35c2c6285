import type { PluginRegistration } from "../../src/plugin-system/types.js";
import { parseArgs } from "../../src/plugins/args.js";
import { invalidFsArgument } from "../../src/plugins/fs-errors.js";
import { Jail } from "../../src/plugins/jail.js";
import { appendFileArgs, mkdirArgs, removeArgs, writeBinaryArgs, writeFileArgs } from "./args.js";
import { fsWriteConfigSchema, type FsWriteConfig } from "./config.js";
import { FileWriter } from "./write-ops.js";

const fsWrite: PluginRegistration<FsWriteConfig> = {
  name: "fs-write",
  declaredModules: ["fs-write"],
  configSchema: fsWriteConfigSchema,
  async createHostFunctions(config, context) {
    const writer = new FileWriter(await Jail.open(config.baseDir, { exclude: [context.paths.home] }), config.maxWriteBytes);
    return {
      "fs-write": {
        writeFile: async (args) => {
          const [path, content, options] = parseArgs(writeFileArgs, args, invalidFsArgument);
          return writer.write(path, Buffer.from(content, options?.encoding ?? "utf8"), options);
        },
        appendFile: async (args) => {
          const [path, content, options] = parseArgs(appendFileArgs, args, invalidFsArgument);
          return writer.append(path, Buffer.from(content, options?.encoding ?? "utf8"));
        },
        writeBinary: async (args) => {
          const [path, data, options] = parseArgs(writeBinaryArgs, args, invalidFsArgument);
          return writer.write(path, data, options);
        },
        mkdir: async (args) => writer.mkdir(parseArgs(mkdirArgs, args, invalidFsArgument)[0]),
        remove: async (args) => {
          const [path, options] = parseArgs(removeArgs, args, invalidFsArgument);
          await writer.remove(path, options?.recursive);
          return null;
        },
      },
    };
  },
};

export default fsWrite;
