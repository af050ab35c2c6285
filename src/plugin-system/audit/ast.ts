import { parse } from "@babel/parser";
import type * as t from "@babel/types";

/** Parse a plugin source file: ESM, TypeScript syntax allowed (plain JS parses the same way). */
export function parseSource(code: string, filename: string): t.File {
  return parse(code, {
    sourceType: "module",
    sourceFilename: filename,
    plugins: ["typescript"],
    allowAwaitOutsideFunction: true,
    errorRecovery: false,
  });
}

/** Keys that hold types, never runtime code; skipping them keeps type names out of the findings. */
const TYPE_KEYS: ReadonlySet<string> = new Set(["typeAnnotation", "returnType", "typeParameters", "superTypeParameters", "implements", "typeArguments"]);
const META_KEYS: ReadonlySet<string> = new Set(["loc", "start", "end", "extra", "range", "leadingComments", "trailingComments", "innerComments", "type"]);
const TYPE_ONLY_NODES: ReadonlySet<string> = new Set([
  "TSInterfaceDeclaration",
  "TSTypeAliasDeclaration",
  "TSDeclareFunction",
  "TSDeclareMethod",
  "TSIndexSignature",
]);

export function isNode(value: unknown): value is t.Node {
  return typeof value === "object" && value !== null && typeof (value as { type?: unknown }).type === "string";
}

/** True for nodes that vanish when TypeScript is compiled (`import type`, `declare const`, interfaces, …). */
export function isTypeOnly(node: t.Node): boolean {
  if (TYPE_ONLY_NODES.has(node.type)) return true;
  if ((node as { declare?: unknown }).declare === true) return true;
  if (node.type === "ImportDeclaration" && node.importKind === "type") return true;
  if ((node.type === "ExportNamedDeclaration" || node.type === "ExportAllDeclaration") && node.exportKind === "type") return true;
  return false;
}

export type Visitor = (node: t.Node, parent: t.Node | null, key: string | null) => void;

/** Depth-first walk over every runtime node; a small explicit stack so deep files cannot overflow ours. */
export function walk(root: t.Node, visit: Visitor): void {
  const stack: Array<[t.Node, t.Node | null, string | null]> = [[root, null, null]];
  while (stack.length > 0) {
    const [node, parent, key] = stack.pop() as [t.Node, t.Node | null, string | null];
    if (isTypeOnly(node)) continue;
    visit(node, parent, key);
    const record = node as unknown as Record<string, unknown>;
    const children: Array<[t.Node, t.Node, string]> = [];
    for (const childKey of Object.keys(record)) {
      if (META_KEYS.has(childKey) || TYPE_KEYS.has(childKey)) continue;
      const value = record[childKey];
      if (Array.isArray(value)) {
        for (const item of value) if (isNode(item)) children.push([item, node, childKey]);
      } else if (isNode(value)) {
        children.push([value, node, childKey]);
      }
    }
    for (let index = children.length - 1; index >= 0; index -= 1) stack.push(children[index] as [t.Node, t.Node, string]);
  }
}

/** Strip wrappers that do not change the runtime value: `x as T`, `x!`, `x satisfies T`, `(x)`. */
export function unwrap(node: t.Node): t.Node {
  let current = node;
  for (;;) {
    switch (current.type) {
      case "TSAsExpression":
      case "TSNonNullExpression":
      case "TSSatisfiesExpression":
      case "TSTypeAssertion":
      case "TSInstantiationExpression":
      case "ParenthesizedExpression":
        current = current.expression;
        break;
      default:
        return current;
    }
  }
}

/** The identifiers a pattern binds (`{ a, b: { c }, ...d }`, `[x = 1]`). */
export function patternIdentifiers(pattern: t.Node, into: t.Identifier[] = []): t.Identifier[] {
  switch (pattern.type) {
    case "Identifier":
      into.push(pattern);
      break;
    case "ObjectPattern":
      for (const property of pattern.properties) patternIdentifiers(property.type === "RestElement" ? property.argument : property.value, into);
      break;
    case "ArrayPattern":
      for (const element of pattern.elements) if (element) patternIdentifiers(element, into);
      break;
    case "AssignmentPattern":
      patternIdentifiers(pattern.left, into);
      break;
    case "RestElement":
      patternIdentifiers(pattern.argument, into);
      break;
    case "TSParameterProperty":
      patternIdentifiers(pattern.parameter, into);
      break;
    default:
      break;
  }
  return into;
}

/** Names declared at the top level of the module (imports, const/let/var, functions, classes, enums). */
export function topLevelNames(program: t.Program): Set<string> {
  const names = new Set<string>();
  const addDeclaration = (node: t.Node): void => {
    if (node.type === "VariableDeclaration") {
      for (const declarator of node.declarations) for (const id of patternIdentifiers(declarator.id)) names.add(id.name);
    } else if ((node.type === "FunctionDeclaration" || node.type === "ClassDeclaration" || node.type === "TSEnumDeclaration") && node.id) {
      names.add(node.id.name);
    } else if (node.type === "TSImportEqualsDeclaration") {
      names.add(node.id.name);
    }
  };
  for (const statement of program.body) {
    if (statement.type === "ImportDeclaration") {
      for (const specifier of statement.specifiers) names.add(specifier.local.name);
    } else if ((statement.type === "ExportNamedDeclaration" || statement.type === "ExportDefaultDeclaration") && statement.declaration) {
      addDeclaration(statement.declaration);
    } else {
      addDeclaration(statement);
    }
  }
  return names;
}
