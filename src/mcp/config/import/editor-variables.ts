import { basename, dirname } from "node:path";
import { variableReferences } from "../placeholders.js";
import { templateFields, type TemplateSource } from "../template-fields.js";
import { projectFolderOf } from "./working-folder.js";

/**
 * VS Code and Cursor fill in editor variables (`${workspaceFolder}`, `${userHome}`) when they start
 * a server; mcpvm would read them from the environment, where they are not set. The import knows
 * the workspace of a `.vscode/mcp.json` or `.cursor/mcp.json` (the folder that holds it), so it
 * writes that path in; `${userHome}` becomes `${HOME}`. Any other editor variable is reported.
 */
export interface EditorContext {
  /** The workspace folder the imported file belongs to, when the file says so by where it lives. */
  readonly workspaceFolder?: string;
  /** The editor's folder inside it that holds the file (`.vscode`, `.cursor`), for the note. */
  readonly editorFolder?: string;
  /** The folder a project's servers start in (the workspace, or the folder of a project-root file). */
  readonly projectFolder?: string;
}

const EDITOR_VARIABLES = new Set(["workspaceFolder", "workspaceFolderBasename", "workspaceRoot", "userHome", "pathSeparator", "file", "fileDirname", "cwd"]);
const EDITOR_FOLDERS = new Set([".vscode", ".cursor"]);
const FIELDS = ["command", "args", "env", "cwd", "url", "headers"] as const;

/** `<folder>/.vscode/mcp.json` (or `.cursor/mcp.json`) belongs to the workspace `<folder>`; other files to none known. */
export function editorContextOf(file: string): EditorContext {
  const holder = dirname(file);
  const editor = EDITOR_FOLDERS.has(basename(holder)) ? { workspaceFolder: dirname(holder), editorFolder: basename(holder) } : {};
  const projectFolder = projectFolderOf(file, editor.workspaceFolder);
  return projectFolder === undefined ? editor : { ...editor, projectFolder };
}

// `$${` is a literal `${` in mcpvm's templates, so an escaped reference is left alone.
const REFERENCE = /(?<!\$)\$\{(workspaceFolder|workspaceFolderBasename|workspaceRoot|userHome)\}/g;

function literal(text: string): string {
  return text.replaceAll("${", () => "$${");
}

function mapStrings(value: unknown, map: (text: string) => string): unknown {
  if (typeof value === "string") return map(value);
  if (Array.isArray(value)) return value.map((item) => mapStrings(item, map));
  if (typeof value === "object" && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapStrings(item, map)]));
  return value;
}

function replacementFor(name: string, folder: string | undefined): string | undefined {
  if (name === "userHome") return "${HOME}";
  if (folder === undefined) return undefined;
  return name === "workspaceFolderBasename" ? literal(basename(folder)) : literal(folder);
}

function noteFor(name: string, context: EditorContext): string {
  if (name === "userHome") return "${userHome} became ${HOME}, read from your environment at connect time";
  const folder = context.workspaceFolder ?? "";
  const value = name === "workspaceFolderBasename" ? basename(folder) : folder;
  return `\${${name}} was replaced by ${value} (the folder that holds ${context.editorFolder ?? "the imported file"})`;
}

/** Rewrite, in place, the editor variables that can be known at import time; one note per variable replaced. */
export function resolveEditorVariables(candidate: Record<string, unknown>, context: EditorContext): string[] {
  const replaced = new Set<string>();
  for (const key of FIELDS) {
    if (candidate[key] === undefined) continue;
    candidate[key] = mapStrings(candidate[key], (text) =>
      text.replace(REFERENCE, (match, name: string) => {
        const value = replacementFor(name, context.workspaceFolder);
        if (value === undefined) return match;
        replaced.add(name);
        return value;
      }),
    );
  }
  return [...replaced].map((name) => noteFor(name, context));
}

/** Editor variables still in the entry, which the environment at connect time would have to supply. */
export function editorVariableWarnings(candidate: TemplateSource): string[] {
  const names = new Set(templateFields(candidate).flatMap((field) => variableReferences(field.value)).filter((name) => EDITOR_VARIABLES.has(name)));
  return [...names].map((name) => `\${${name}} is an editor variable; mcpvm reads it from the environment at connect time, so set ${name} or edit the entry`);
}
