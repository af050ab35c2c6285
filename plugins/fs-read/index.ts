import type { PluginRegistration } from "../../src/plugin-system/types.js";
import { parseArgs } from "../../src/plugins/args.js";
import { invalidFsArgument } from "../../src/plugins/fs-errors.js";
import { Jail } from "../../src/plugins/jail.js";
import { pathOnlyArgs, readChunkArgs, readFileArgs } from "./args.js";
import { fsReadConfigSchema, type FsReadConfig } from "./config.js";
import { DirectoryReader } from "./dir-ops.js";
import { FileReader } from "./read-ops.js";

const readBinaryArgs = pathOnlyArgs("readBinary");
const listDirArgs = pathOnlyArgs("listDir");
const statArgs = pathOnlyArgs("stat");
const existsArgs = pathOnlyArgs("exists");

const fsRead: PluginRegistration<FsReadConfig> = {
  name: "fs-read",
  declaredModules: ["fs-read"],
  configSchema: fsReadConfigSchema,
  async createHostFunctions(config, context) {
    const jail = await Jail.open(config.baseDir, { exclude: [context.paths.home] });
    const files = new FileReader(jail, config.maxReadBytes);
    const dirs = new DirectoryReader(jail, config.maxListEntries);
    return {
      "fs-read": {
        readFile: async (args) => {
          const [path, options] = parseArgs(readFileArgs, args, invalidFsArgument);
          return files.readFile(path, options?.encoding);
        },
        readChunk: async (args) => {
          const [path, offset, length, options] = parseArgs(readChunkArgs, args, invalidFsArgument);
          return files.readChunk(path, offset, length, options?.encoding);
        },
        readBinary: async (args) => files.readBinary(parseArgs(readBinaryArgs, args, invalidFsArgument)[0]),
        listDir: async (args) => dirs.listDir(parseArgs(listDirArgs, args, invalidFsArgument)[0]),
        stat: async (args) => dirs.stat(parseArgs(statArgs, args, invalidFsArgument)[0]),
        exists: async (args) => dirs.exists(parseArgs(existsArgs, args, invalidFsArgument)[0]),
      },
    };
  },
};

export default fsRead;
