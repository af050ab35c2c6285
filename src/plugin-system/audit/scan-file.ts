import type * as t from "@babel/types";
import { parseSource, patternIdentifiers, topLevelNames, unwrap, walk } from "./ast.js";
import { FS_MODULES, FS_READ_MEMBERS, FS_WRITE_MEMBERS, GLOBAL_RULES, MODULE_RULES, NATIVE_BINDING_MEMBERS, normaliseModuleName, SAFE_MODULE_MEMBERS, type AuditRuleId } from "./rules.js";
import { memberValue, propertyName, ValueTable, type AbstractValue } from "./values.js";

/** A finding inside one file, before the plugin-level audit adds risk, declaration and excerpt. */
export interface RawFinding {
  readonly rule: AuditRuleId;
  readonly line: number;
  readonly column: number;
  readonly detail: string;
}

/** Every module specifier the file loads statically (imports, re-exports, literal require/import()). */
export interface ModuleReference {
  readonly specifier: string;
  readonly line: number;
  readonly column: number;
}

export interface FileScan {
  readonly findings: readonly RawFinding[];
  readonly references: readonly ModuleReference[];
}

type Argument = t.CallExpression["arguments"][number];
const NON_REFERENCE_PARENTS: ReadonlySet<string> = new Set([
  "ImportSpecifier", "ImportDefaultSpecifier", "ImportNamespaceSpecifier", "ExportSpecifier", "ExportNamespaceSpecifier",
  "ExportDefaultSpecifier", "LabeledStatement", "BreakStatement", "ContinueStatement", "MetaProperty", "TSEnumMember", "TSModuleDeclaration",
]);
const KEYED_PARENTS: ReadonlySet<string> = new Set(["ObjectProperty", "ObjectMethod", "ClassMethod", "ClassPrivateMethod", "ClassProperty", "ClassAccessorProperty"]);
const FUNCTION_NODES: ReadonlySet<string> = new Set(["FunctionDeclaration", "FunctionExpression", "ArrowFunctionExpression", "ObjectMethod", "ClassMethod", "ClassPrivateMethod"]);

function expressionArgument(arg: Argument | undefined): t.Expression | undefined {
  return arg && arg.type !== "SpreadElement" && arg.type !== "ArgumentPlaceholder" ? arg : undefined;
}

class FileScanner {
  readonly findings: RawFinding[] = [];
  readonly references: ModuleReference[] = [];
  private readonly seen = new Set<string>();

  constructor(
    private readonly table: ValueTable,
    private readonly topLevel: ReadonlySet<string>,
    private readonly bindingIds: ReadonlySet<t.Node>,
  ) {}

  private report(rule: AuditRuleId, node: t.Node, detail: string): void {
    const line = node.loc?.start.line ?? 0;
    const column = (node.loc?.start.column ?? 0) + 1;
    const id = `${rule}:${line}:${column}:${detail}`;
    if (this.seen.has(id)) return;
    this.seen.add(id);
    this.findings.push({ rule, line, column, detail });
  }

  private loadModule(specifier: string, node: t.Node): void {
    this.references.push({ specifier, line: node.loc?.start.line ?? 0, column: (node.loc?.start.column ?? 0) + 1 });
    const rule = MODULE_RULES[normaliseModuleName(specifier)];
    if (rule) this.report(rule, node, `loads "${specifier}"`);
  }

  /** `require(x)`, `import(x)`, `process.getBuiltinModule(x)`: a module when x folds, a dynamic finding otherwise. */
  private loadDynamic(arg: t.Expression | undefined, node: t.Node, rule: "dynamic-require" | "dynamic-import", what: string): void {
    const specifier = arg ? this.table.fold(arg) : undefined;
    if (specifier === undefined) this.report(rule, node, `${what} with a specifier that cannot be resolved statically`);
    else this.loadModule(specifier, node);
  }

  /** Findings for reading `name` from each possible value (`undefined` = a computed key that does not fold). */
  private member(values: readonly AbstractValue[], name: string | undefined, node: t.Node): void {
    for (const value of values) {
      if (value.kind === "global-object") {
        if (name === undefined) this.report("dynamic-member", node, "computed property of the global object cannot be resolved statically");
        else if (GLOBAL_RULES[name]) this.report(GLOBAL_RULES[name], node, `globalThis.${name}`);
        continue;
      }
      if (value.kind === "require") {
        if (name === "cache" || name === "extensions") this.report("vm", node, `require.${name} (changes what require loads)`);
        continue;
      }
      if (value.kind !== "module") continue;
      const { module } = value;
      if (module === "module") {
        if (name === undefined) this.report("dynamic-member", node, "computed property of node:module cannot be resolved statically");
        else if (!SAFE_MODULE_MEMBERS.has(name)) this.report("vm", node, `module.${name === "*" ? "*" : name} (Node's module loader)`);
        continue;
      }
      if (FS_MODULES.has(module)) {
        if (name === undefined) this.report("dynamic-member", node, `computed property of ${module} cannot be resolved statically`);
        else if (name === "*") {
          this.report("fs-write", node, `re-exports all of ${module}`);
          this.report("fs-read", node, `re-exports all of ${module}`);
        } else if (FS_WRITE_MEMBERS.has(name)) this.report("fs-write", node, `${module}.${name}`);
        else if (FS_READ_MEMBERS.has(name)) this.report("fs-read", node, `${module}.${name}`);
      } else if (module === "process") {
        if (name === undefined) this.report("dynamic-member", node, "computed property of process cannot be resolved statically");
        if (name === "env" || name === "*") this.report("env", node, "process.env");
        if (name !== undefined && (NATIVE_BINDING_MEMBERS.has(name) || name === "*")) this.report("native-binding", node, `process.${name}`);
      }
    }
  }

  private destructure(pattern: t.Node, values: readonly AbstractValue[]): void {
    const target = pattern.type === "AssignmentPattern" ? pattern.left : pattern;
    if (target.type !== "ObjectPattern" || values.length === 0) return;
    for (const property of target.properties) {
      if (property.type === "RestElement") continue;
      const name = !property.computed && property.key.type === "Identifier" ? property.key.name : this.table.fold(property.key);
      this.member(values, name, property);
      if (name !== undefined) this.destructure(property.value, memberValue(values, name));
    }
  }

  private call(node: t.CallExpression | t.OptionalCallExpression | t.NewExpression): void {
    const args = node.arguments;
    if (node.callee.type === "Import") {
      this.loadDynamic(expressionArgument(args[0]), node, "dynamic-import", "import()");
      return;
    }
    const callee = unwrap(node.callee);
    if ((callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") && propertyName(callee, (n) => this.table.fold(n)) === "constructor") {
      this.report("function-constructor", node, "calls a .constructor (reaches Function from any function)");
    }
    for (const value of this.table.evaluate(callee)) {
      if (value.kind === "module" && value.module === "module") this.report("vm", node, "creates a Module (it compiles and loads code)");
      if (value.kind === "require") this.loadDynamic(expressionArgument(args[0]), node, "dynamic-require", "require()");
      if (value.kind !== "member") continue;
      if (value.module === "process" && value.name === "getBuiltinModule") this.loadDynamic(expressionArgument(args[0]), node, "dynamic-require", "process.getBuiltinModule()");
      if (value.module === "Reflect" && value.name === "get") {
        const target = expressionArgument(args[0]);
        const key = expressionArgument(args[1]);
        if (target) this.member(this.table.evaluate(target), key ? this.table.fold(key) : undefined, node);
      }
      if (FS_MODULES.has(value.module) && (value.name === "open" || value.name === "openSync")) this.openFlags(expressionArgument(args[1]), node);
      if (value.module === "worker_threads" && value.name === "Worker") this.worker(args, node);
    }
  }

  private openFlags(flags: t.Expression | undefined, node: t.Node): void {
    if (flags === undefined) return;
    const constants = openFlagConstants(flags);
    if (constants !== undefined) {
      const writing = constants.filter((name) => WRITE_OPEN_FLAGS.has(name));
      if (writing.length > 0) this.report("fs-write", node, `open() with flags ${writing.join(" | ")}`);
      return;
    }
    const text = this.table.fold(flags);
    if (text === undefined) this.report("fs-write", node, "open() with flags that cannot be resolved statically");
    else if (/[wa+]/.test(text)) this.report("fs-write", node, `open() with flags "${text}"`);
  }

  private worker(args: readonly Argument[], node: t.Node): void {
    const script = expressionArgument(args[0]);
    const source = script && script.type === "NewExpression" && script.callee.type === "Identifier" && script.callee.name === "URL" ? expressionArgument(script.arguments[0]) : script;
    const file = source ? this.table.fold(source) : undefined;
    if (file !== undefined && file.startsWith(".")) this.references.push({ specifier: file, line: node.loc?.start.line ?? 0, column: (node.loc?.start.column ?? 0) + 1 });
    const options = expressionArgument(args[1]);
    if (options === undefined) return;
    if (options.type !== "ObjectExpression") {
      this.report("worker-eval", node, "Worker options cannot be resolved statically (eval: true would run a string as code)");
      return;
    }
    for (const property of options.properties) {
      if (property.type === "SpreadElement") this.report("worker-eval", node, "Worker options spread an object that cannot be resolved statically");
      else if (property.type === "ObjectProperty" && !property.computed && property.key.type === "Identifier" && property.key.name === "eval") {
        const value = unwrap(property.value);
        if (!(value.type === "BooleanLiteral" && !value.value)) this.report("worker-eval", node, "new Worker(code, { eval: true })");
      }
    }
  }

  private isReference(node: t.Identifier, parent: t.Node | null, key: string | null): boolean {
    if (this.bindingIds.has(node)) return false;
    if (parent === null) return true;
    if ((parent.type === "MemberExpression" || parent.type === "OptionalMemberExpression") && key === "property") return parent.computed;
    if (KEYED_PARENTS.has(parent.type) && key === "key") return (parent as { computed?: boolean }).computed === true;
    if (NON_REFERENCE_PARENTS.has(parent.type)) return false;
    return !(key === "id" && (FUNCTION_NODES.has(parent.type) || parent.type === "ClassDeclaration" || parent.type === "ClassExpression"));
  }

  visit(node: t.Node, parent: t.Node | null, key: string | null): void {
    switch (node.type) {
      case "ImportDeclaration":
        this.loadModule(node.source.value, node);
        for (const specifier of node.specifiers) {
          if (specifier.type !== "ImportSpecifier" || specifier.importKind === "type") continue;
          const imported = specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
          this.member([{ kind: "module", module: normaliseModuleName(node.source.value) }], imported, specifier);
        }
        break;
      case "ExportAllDeclaration":
        this.loadModule(node.source.value, node);
        this.member([{ kind: "module", module: normaliseModuleName(node.source.value) }], "*", node);
        break;
      case "ExportNamedDeclaration":
        if (!node.source) break;
        this.loadModule(node.source.value, node);
        for (const specifier of node.specifiers) {
          if (specifier.type !== "ExportSpecifier" || specifier.exportKind === "type") continue;
          this.member([{ kind: "module", module: normaliseModuleName(node.source.value) }], specifier.local.name, specifier);
        }
        break;
      case "TSImportEqualsDeclaration":
        if (node.moduleReference.type === "TSExternalModuleReference") this.loadModule(node.moduleReference.expression.value, node);
        break;
      case "ImportExpression":
        this.loadDynamic(node.source, node, "dynamic-import", "import()");
        break;
      case "CallExpression":
      case "OptionalCallExpression":
      case "NewExpression":
        this.call(node);
        break;
      case "MemberExpression":
      case "OptionalMemberExpression": {
        const name = propertyName(node, (n) => this.table.fold(n));
        this.member(this.table.evaluate(node.object), name, node);
        if (name === "constructor" && reachesFunction(node.object, (n) => this.table.fold(n))) this.report("function-constructor", node, "takes .constructor of a function (Function)");
        break;
      }
      case "Identifier": {
        const rule = GLOBAL_RULES[node.name];
        if (rule && !this.topLevel.has(node.name) && this.isReference(node, parent, key)) this.report(rule, node, node.name);
        break;
      }
      case "VariableDeclarator":
        if (node.init) this.destructure(node.id, this.table.evaluate(node.init));
        break;
      case "AssignmentExpression":
      case "AssignmentPattern":
        this.destructure(node.left, this.table.evaluate(node.right));
        break;
      default:
        break;
    }
  }
}

const FUNCTION_LITERALS: ReadonlySet<string> = new Set(["FunctionExpression", "ArrowFunctionExpression", "ClassExpression"]);

/** `(function(){}).constructor`, `x.constructor.constructor`, `Object.getPrototypeOf(fn).constructor`: all reach Function. */
function reachesFunction(object: t.Node, fold: (node: t.Node) => string | undefined): boolean {
  const target = unwrap(object);
  if (FUNCTION_LITERALS.has(target.type)) return true;
  if ((target.type === "MemberExpression" || target.type === "OptionalMemberExpression") && propertyName(target, fold) === "constructor") return true;
  if (target.type === "CallExpression" || target.type === "OptionalCallExpression") {
    const callee = unwrap(target.callee);
    return (callee.type === "MemberExpression" || callee.type === "OptionalMemberExpression") && propertyName(callee, fold) === "getPrototypeOf";
  }
  return false;
}

function collectBindingIds(program: t.Program): Set<t.Node> {
  const ids = new Set<t.Node>();
  walk(program, (node) => {
    if (node.type === "VariableDeclarator") for (const id of patternIdentifiers(node.id)) ids.add(id);
    else if (node.type === "CatchClause" && node.param) for (const id of patternIdentifiers(node.param)) ids.add(id);
    else if (FUNCTION_NODES.has(node.type)) for (const param of (node as t.Function).params) for (const id of patternIdentifiers(param)) ids.add(id);
  });
  return ids;
}

/** Scan one source file. Throws the parser's SyntaxError (with `loc`) when the file does not parse. */
export function scanSource(code: string, filename: string): FileScan {
  const program = parseSource(code, filename).program;
  const topLevel = topLevelNames(program);
  const table = new ValueTable(topLevel);
  table.collect(program);
  const scanner = new FileScanner(table, topLevel, collectBindingIds(program));
  walk(program, (node, parent, key) => scanner.visit(node, parent, key));
  return { findings: scanner.findings, references: scanner.references };
}

/** fs.constants open flags that let open() create, change or truncate a file. */
const WRITE_OPEN_FLAGS: ReadonlySet<string> = new Set(["O_WRONLY", "O_RDWR", "O_CREAT", "O_TRUNC", "O_APPEND"]);

/**
 * Numeric open flags written as an OR of `O_*` constants (`constants.O_RDONLY | constants.O_NOFOLLOW`,
 * or destructured names): the constant names, or undefined when the expression is anything else
 * (then the string-flag folding decides, and an unresolvable value is reported).
 */
function openFlagConstants(expression: t.Expression): string[] | undefined {
  const node = unwrap(expression) as t.Expression;
  if (node.type === "BinaryExpression" && node.operator === "|" && node.left.type !== "PrivateName") {
    const left = openFlagConstants(node.left);
    const right = openFlagConstants(node.right);
    return left === undefined || right === undefined ? undefined : [...left, ...right];
  }
  const name =
    node.type === "Identifier" ? node.name : node.type === "MemberExpression" && !node.computed && node.property.type === "Identifier" ? node.property.name : undefined;
  return name !== undefined && /^O_[A-Z_]+$/.test(name) ? [name] : undefined;
}
