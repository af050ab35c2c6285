/**
 * Every example in the docs is run by a test (developers' rule; issue 10). Each fenced code block of
 * README.md and docs/**\/*.md needs an `<!-- example: <kind> … -->` annotation (see extract.ts and
 * tests/docs/README.md); a block without one fails here. `js` runs in the real quickjs sandbox through
 * `mcpvm run`, `sh` lines run through the real CLI in a temp home, `config`/`import` JSON goes through
 * the real schemas.
 */
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { runCli } from "../../src/cli/main.js";
import { parseConfigText } from "../../src/config/config-file.js";
import {
  DEFAULT_NATIVE_PLUGIN_NAMES,
  parseImportText,
  parseMcpServers,
} from "../../src/mcp/config/index.js";
import { userProfilesSchema } from "../../src/agent/profiles/schema.js";
import { parseGatewaySettings } from "../../src/gateway/index.js";
import {
  configureServers,
  localiseConfig,
  makeDocHome,
  mergeConfig,
  type DocHome,
} from "./doc-home.js";
import { captureIo } from "../support/cli-io.js";
import { extractBlocks, type Annotation, type CodeBlock } from "./extract.js";
import { parseShLine, type ShCommand } from "./sh-line.js";

const ROOT = resolve(import.meta.dirname, "../..");

function markdownFiles(): string[] {
  const docs: string[] = [];
  const walk = (dir: string): void => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith(".md")) docs.push(relative(ROOT, path));
    }
  };
  walk(join(ROOT, "docs"));
  return ["README.md", ...docs.sort()];
}

const blocks: CodeBlock[] = markdownFiles().flatMap((file) =>
  extractBlocks(file, readFileSync(join(ROOT, file), "utf8")),
);
const where = (block: CodeBlock): string => `${block.file}:${block.line}`;
const annotated = (block: CodeBlock): Annotation =>
  block.annotation as Annotation;
const ofKind = (kind: string): CodeBlock[] =>
  blocks.filter(
    (b) => typeof b.annotation === "object" && b.annotation.kind === kind,
  );

interface CliResult {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

async function mcpvm(
  home: DocHome,
  command: ShCommand,
  extraArgs: readonly string[] = [],
): Promise<CliResult> {
  const io = captureIo({ ...home.env, ...command.env }, command.stdin, home.dir);
  const code = await runCli([...extraArgs, ...command.argv], io);
  if (command.redirectTo !== undefined) await writeFile(command.redirectTo, io.stdoutText());
  return { code, stdout: io.stdoutText(), stderr: io.stderrText() };
}

const homes: DocHome[] = [];
async function newHome(): Promise<DocHome> {
  const home = await makeDocHome();
  homes.push(home);
  return home;
}
afterAll(async () => {
  await Promise.all(homes.map((home) => home.cleanup()));
});

// One home per doc: its blocks run in order, as a reader following the doc would.
const docHomes = new Map<string, Promise<DocHome>>();
function homeOfDoc(file: string): Promise<DocHome> {
  if (!docHomes.has(file)) docHomes.set(file, newHome());
  return docHomes.get(file)!;
}

function namedConfig(name: string): Record<string, unknown> {
  const block = ofKind("config").find(
    (b) => annotated(b).options.get("name") === name,
  );
  if (block === undefined)
    throw new Error(`no config block annotated name=${name}`);
  return JSON.parse(block.code) as Record<string, unknown>;
}

const listOption = (annotation: Annotation, key: string): string[] =>
  (annotation.options.get(key) ?? "").split(",").filter((s) => s.length > 0);

describe("every code block in the docs is annotated", () => {
  it("finds the docs' blocks", () => {
    expect(blocks.length).toBeGreaterThan(20);
  });
  it("has an `<!-- example: … -->` annotation before each block", () => {
    const problems = blocks
      .filter((b) => typeof b.annotation !== "object")
      .map(
        (b) =>
          `${where(b)}: ${b.annotation ?? "no <!-- example: <kind> … --> annotation before this block (see tests/docs/README.md)"}`,
      );
    expect(problems).toEqual([]);
  });
  it("names an existing test for each block covered elsewhere", () => {
    const missing = ofKind("covered")
      .filter((b) => !existsSync(join(ROOT, annotated(b).options.get("by")!)))
      .map(where);
    expect(missing).toEqual([]);
  });
  it("lists what is not run, and why", () => {
    const notRun = [...ofKind("skip"), ...ofKind("not-code")].map(
      (b) => `${where(b)} (${annotated(b).kind}): ${annotated(b).reason}`,
    );
    const skippedLines = ofKind("sh").flatMap((b) =>
      [...annotated(b).options]
        .filter(([key]) => key.startsWith("skip@"))
        .map(([key, reason]) => `${where(b)} line ${key.slice(5)}: ${reason}`),
    );
    console.info(
      `docs examples not run:\n  ${[...notRun, ...skippedLines].join("\n  ")}`,
    );
    expect(notRun.length + skippedLines.length).toBeLessThan(blocks.length / 2);
  });
});

describe.each(ofKind("config").map((b) => [where(b), b] as const))(
  "config snippet %s",
  (_name, block) => {
    it("is valid under the real config schemas", () => {
      const annotation = annotated(block);
      const text =
        annotation.options.get("wrap") === "mcpServers"
          ? `{ "mcpServers": { ${block.code} } }`
          : block.code;
      const config = parseConfigText(block.file, text);
      parseMcpServers(config.mcpServers, {
        file: block.file,
        nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES,
      });
      userProfilesSchema.parse(config.profiles ?? {});
      if (config.gateway !== undefined)
        parseGatewaySettings(config.gateway, block.file);
    });
  },
);

describe.each(ofKind("import").map((b) => [where(b), b] as const))(
  "client config %s",
  (_name, block) => {
    it("imports every server it names", () => {
      const annotation = annotated(block);
      const file = annotation.options.get("file") ?? "mcp.json";
      const report = parseImportText(file, block.code, {
        nativePluginNames: DEFAULT_NATIVE_PLUGIN_NAMES,
      });
      expect(report.skipped).toEqual([]);
      // Names may be adjusted on import (the report says so); the count of servers may not.
      expect(Object.keys(report.servers)).toHaveLength(
        Number(annotation.options.get("count") ?? "1"),
      );
    });
  },
);

// One concurrent suite: servers spend most of a line's time starting and stopping, so docs (and guest
// scripts) run side by side while each doc's lines keep their order (afterPreviousLine).
describe("runnable examples", { concurrent: true }, () => {
  for (const block of ofKind("js")) {
    it.concurrent(
      `guest script ${where(block)} runs in the quickjs sandbox through \`mcpvm run\``,
      { timeout: 60_000 },
      async ({ expect }) => {
        const annotation = annotated(block);
        const home = await newHome();
        await configureServers(home, listOption(annotation, "servers"), true);
        const prelude = annotation.options.get("prelude");
        const script =
          prelude === undefined ? block.code : `${prelude}\n${block.code}`;
        const extra = annotation.options.has("yes") ? ["--yes"] : [];
        const result = await mcpvm(
          home,
          { env: {}, argv: ["run", "-"], stdin: script },
          extra,
        );
        const expectedExit = Number(annotation.options.get("exit") ?? "0");
        expect(
          result.code,
          `exit code of the script; its stderr:\n${result.stderr}`,
        ).toBe(expectedExit);
        const output = annotation.options.get("output");
        if (output !== undefined)
          expect(result.stdout + result.stderr).toContain(output);
      },
    );
  }

  // Docs run side by side; within a doc, lines run one after another (each waits for the line before).
  const docChains = new Map<string, Promise<unknown>>();
  function afterPreviousLine<T>(
    chain: string,
    step: () => Promise<T>,
  ): Promise<T> {
    const previous = docChains.get(chain) ?? Promise.resolve();
    const next = previous.catch(() => undefined).then(step);
    docChains.set(chain, next);
    return next;
  }

  async function prepareSection(
    home: DocHome,
    annotation: Annotation,
    ownHome: boolean,
  ): Promise<void> {
    if (ownHome) await configureServers(home, [], true); // MCP on, as "Turning MCP on" says
    // `uses=<name>`: the doc's config snippet annotated `config name=<name>` is in config.json first.
    for (const name of listOption(annotation, "uses"))
      await mergeConfig(home, namedConfig(name));
    // The servers a section presupposes: configured (`servers=`), or configured and approved (`approved=`).
    const servers = listOption(annotation, "servers");
    if (servers.length > 0) await configureServers(home, servers, false);
    const approved = listOption(annotation, "approved");
    if (approved.length > 0) await configureServers(home, approved, true);
  }

  async function runLine(
    home: DocHome,
    text: string,
    extra: readonly string[],
  ): Promise<CliResult> {
    let last: CliResult = { code: 0, stdout: "", stderr: "" };
    for (const command of parseShLine(text, home.dir)) {
      last = await mcpvm(home, command, extra);
      await localiseConfig(home);
      if (last.code !== 0) break;
    }
    return last;
  }

  for (const block of ofKind("sh")) {
    const file = block.file;
    const annotation = annotated(block);
    // `home=own`: a section that starts from an empty config rather than from the doc's earlier steps.
    const ownHome = annotation.options.get("home") === "own";
    const chain = ownHome ? where(block) : file;
    const lines = block.code
      .split("\n")
      .map((text, index) => ({ text, number: index + 1 }))
      .filter(
        ({ text }) => text.trim().length > 0 && !text.trim().startsWith("#"),
      );
    const firstNumber = lines[0]?.number;
    it.concurrent.for(
      lines.map(
        (l) =>
          [`${where(block)} line ${l.number}: ${l.text.trim()}`, l] as const,
      ),
    )("%s", { timeout: 60_000 }, async ([, { text, number }], { expect }) => {
      const result = await afterPreviousLine(chain, async () => {
        if (annotation.options.has(`skip@${number}`)) return undefined;
        const home = await homeOfDoc(chain);
        if (number === firstNumber)
          await prepareSection(home, annotation, ownHome);
        return runLine(
          home,
          text,
          annotation.options.has("yes") ? ["--yes"] : [],
        );
      });
      if (result === undefined) return;
      const expectedExit = Number(
        annotation.options.get(`exit@${number}`) ??
          annotation.options.get("exit") ??
          "0",
      );
      expect(
        result.code,
        `exit code of: ${text.trim()}\nstdout:\n${result.stdout.slice(0, 2000)}\nstderr:\n${result.stderr.slice(0, 2000)}`,
      ).toBe(expectedExit);
    });
  }
});
