import type * as t from "@babel/types";
import { patternIdentifiers, unwrap, walk } from "./ast.js";
import { FS_MODULES, GLOBAL_OBJECT_NAMES, normaliseModuleName } from "./rules.js";

/**
 * What the auditor knows about an expression: which module object (or member of one) it may hold.
 * `process` and `Reflect` are modelled as modules so that `import process from "node:process"`
 * and the global behave the same.
 */
export type AbstractValue =
  | { readonly kind: "module"; readonly module: string }
  | { readonly kind: "member"; readonly module: string; readonly name: string }
  | { readonly kind: "global-object" }
  | { readonly kind: "require" };

const GLOBAL_VALUES: Readonly<Record<string, AbstractValue>> = {
  process: { kind: "module", module: "process" },
  Reflect: { kind: "module", module: "Reflect" },
  require: { kind: "require" },
  // CommonJS's `module` is an instance of node:module's Module: `module.constructor._load(...)`.
  module: { kind: "module", module: "module" },
};

function key(value: AbstractValue): string {
  return JSON.stringify(value);
}

function union(groups: readonly (readonly AbstractValue[])[]): AbstractValue[] {
  const seen = new Map<string, AbstractValue>();
  for (const group of groups) for (const value of group) seen.set(key(value), value);
  return [...seen.values()];
}

export function globalValue(name: string): AbstractValue[] {
  if (GLOBAL_OBJECT_NAMES.has(name)) return [{ kind: "global-object" }];
  const value = GLOBAL_VALUES[name];
  return value ? [value] : [];
}

/** The value of `object.name` for each possible object value. */
export function memberValue(values: readonly AbstractValue[], name: string): AbstractValue[] {
  const out: AbstractValue[] = [];
  for (const value of values) {
    if (value.kind === "global-object") out.push(...globalValue(name));
    else if (value.kind === "require") {
      if (name === "main") out.push({ kind: "module", module: "module" });
    } else if (value.kind === "module") {
      if (name === "default") out.push(value);
      // Module, its instances and their .constructor all reach the loader; `.require` loads like require.
      else if (value.module === "module" && (name === "constructor" || name === "Module")) out.push(value);
      else if (value.module === "module" && name === "require") out.push({ kind: "require" });
      else if (value.module === "process" && name === "mainModule") out.push({ kind: "module", module: "module" });
      else if (name === "promises" && FS_MODULES.has(value.module)) out.push({ kind: "module", module: "fs/promises" });
      else out.push({ kind: "member", module: value.module, name });
    }
  }
  return union([out]);
}

/** The name of a member access when it is static or folds to a constant; undefined when it is dynamic. */
export function propertyName(node: t.MemberExpression | t.OptionalMemberExpression, fold: (node: t.Node) => string | undefined): string | undefined {
  if (!node.computed && node.property.type === "Identifier") return node.property.name;
  if (node.property.type === "PrivateName") return undefined;
  return fold(node.property);
}

/**
 * Bindings of one file, in a single flat scope: a name bound anywhere to a module counts as that
 * module everywhere. Over-approximation is deliberate; an audit may over-report, never under-report.
 */
export class ValueTable {
  private readonly bindings = new Map<string, AbstractValue[]>();
  private strings = new Map<string, string | null>();
  /** Constants seen in the previous round, so a name used before its declaration still folds. */
  private previousStrings = new Map<string, string | null>();

  constructor(private readonly topLevel: ReadonlySet<string>) {}

  /** Collect bindings; repeated a few times so `const p = fs.promises` resolves whatever the order. */
  collect(program: t.Program): void {
    for (let round = 0; round < 4; round += 1) {
      const before = this.signature();
      this.previousStrings = this.strings;
      this.strings = new Map();
      walk(program, (node) => this.bindNode(node));
      if (this.signature() === before) return;
    }
  }

  private signature(): string {
    return JSON.stringify([...this.bindings.entries()]) + JSON.stringify([...this.strings.entries()]);
  }

  private add(name: string, values: readonly AbstractValue[]): void {
    if (values.length === 0) return;
    this.bindings.set(name, union([this.bindings.get(name) ?? [], values]));
  }

  private addString(name: string, value: string | undefined): void {
    const previous = this.strings.get(name);
    // The same const name with two different values (two scopes) is ambiguous, so it does not fold.
    this.strings.set(name, value === undefined || (previous !== undefined && previous !== value) ? null : value);
  }

  private bindNode(node: t.Node): void {
    switch (node.type) {
      case "VariableDeclarator":
        if (node.init) this.bindPattern(node.id, this.evaluate(node.init));
        if (node.id.type === "Identifier") this.addString(node.id.name, node.init ? this.fold(node.init) : undefined);
        break;
      case "AssignmentExpression":
        if (node.operator === "=") this.bindPattern(node.left, this.evaluate(node.right));
        if (node.left.type === "Identifier") this.addString(node.left.name, undefined);
        break;
      case "AssignmentPattern":
        this.bindPattern(node.left, this.evaluate(node.right));
        break;
      case "ImportDeclaration": {
        if (node.importKind === "type") break;
        const module: AbstractValue[] = [{ kind: "module", module: normaliseModuleName(node.source.value) }];
        for (const specifier of node.specifiers) {
          if (specifier.type === "ImportSpecifier") {
            if (specifier.importKind === "type") continue;
            const imported = specifier.imported.type === "Identifier" ? specifier.imported.name : specifier.imported.value;
            this.add(specifier.local.name, memberValue(module, imported));
          } else {
            this.add(specifier.local.name, module);
          }
        }
        break;
      }
      case "TSImportEqualsDeclaration":
        if (node.moduleReference.type === "TSExternalModuleReference") {
          this.add(node.id.name, [{ kind: "module", module: normaliseModuleName(node.moduleReference.expression.value) }]);
        }
        break;
      default:
        break;
    }
  }

  /** Bind the names of a pattern to what they take from `values` (`const { promises: p } = fs`). */
  bindPattern(pattern: t.Node, values: readonly AbstractValue[]): void {
    if (values.length === 0) return;
    switch (pattern.type) {
      case "Identifier":
        this.add(pattern.name, values);
        break;
      case "ObjectPattern":
        for (const property of pattern.properties) {
          if (property.type === "RestElement") {
            this.bindPattern(property.argument, values);
            continue;
          }
          const name = !property.computed && property.key.type === "Identifier" ? property.key.name : this.fold(property.key);
          if (name !== undefined) this.bindPattern(property.value, memberValue(values, name));
        }
        break;
      case "AssignmentPattern":
        this.bindPattern(pattern.left, values);
        break;
      default:
        // Array patterns and member targets carry no module identity worth tracking.
        for (const id of patternIdentifiers(pattern)) this.strings.set(id.name, null);
        break;
    }
  }

  /** The possible module values of an expression; [] when it holds nothing the rules care about. */
  evaluate(input: t.Node): AbstractValue[] {
    const node = unwrap(input);
    switch (node.type) {
      case "Identifier":
        return union([this.bindings.get(node.name) ?? [], this.topLevel.has(node.name) ? [] : globalValue(node.name)]);
      case "MemberExpression":
      case "OptionalMemberExpression": {
        const name = propertyName(node, (n) => this.fold(n));
        return name === undefined ? [] : memberValue(this.evaluate(node.object), name);
      }
      case "CallExpression":
      case "OptionalCallExpression":
        return this.evaluateCall(node);
      case "ImportExpression": {
        const specifier = this.fold(node.source);
        return specifier === undefined ? [] : [{ kind: "module", module: normaliseModuleName(specifier) }];
      }
      case "AwaitExpression":
        return node.argument ? this.evaluate(node.argument) : [];
      case "SequenceExpression":
        return node.expressions.length > 0 ? this.evaluate(node.expressions[node.expressions.length - 1] as t.Expression) : [];
      case "ConditionalExpression":
        return union([this.evaluate(node.consequent), this.evaluate(node.alternate)]);
      case "LogicalExpression":
        return union([this.evaluate(node.left), this.evaluate(node.right)]);
      case "AssignmentExpression":
        return this.evaluate(node.right);
      default:
        return [];
    }
  }

  private evaluateCall(node: t.CallExpression | t.OptionalCallExpression): AbstractValue[] {
    const first = node.arguments[0];
    const specifier = first && first.type !== "SpreadElement" && first.type !== "ArgumentPlaceholder" ? this.fold(first) : undefined;
    if (node.callee.type === "Import") return specifier === undefined ? [] : [{ kind: "module", module: normaliseModuleName(specifier) }];
    const out: AbstractValue[][] = [];
    for (const callee of this.evaluate(node.callee)) {
      if (callee.kind === "require" || (callee.kind === "member" && callee.module === "process" && callee.name === "getBuiltinModule")) {
        if (specifier !== undefined) out.push([{ kind: "module", module: normaliseModuleName(specifier) }]);
      } else if (callee.kind === "member" && callee.module === "module" && callee.name === "createRequire") {
        out.push([{ kind: "require" }]);
      } else if (callee.kind === "member" && callee.module === "Reflect" && callee.name === "get") {
        const target = node.arguments[0];
        const property = node.arguments[1];
        const name = property && property.type !== "SpreadElement" && property.type !== "ArgumentPlaceholder" ? this.fold(property) : undefined;
        if (target && target.type !== "SpreadElement" && target.type !== "ArgumentPlaceholder" && name !== undefined) out.push(memberValue(this.evaluate(target), name));
      }
    }
    return union(out);
  }

  /** Constant-fold a string expression: literals, templates, `+`, const names, `[...].join()`, String.fromCharCode. */
  fold(input: t.Node): string | undefined {
    const node = unwrap(input);
    switch (node.type) {
      case "StringLiteral":
        return node.value;
      case "NumericLiteral":
        return String(node.value);
      case "TemplateLiteral": {
        let text = node.quasis[0]?.value.cooked ?? "";
        for (let index = 0; index < node.expressions.length; index += 1) {
          const part = this.fold(node.expressions[index] as t.Node);
          if (part === undefined) return undefined;
          text += part + (node.quasis[index + 1]?.value.cooked ?? "");
        }
        return text;
      }
      case "BinaryExpression": {
        if (node.operator !== "+" || node.left.type === "PrivateName") return undefined;
        const left = this.fold(node.left);
        const right = this.fold(node.right);
        return left === undefined || right === undefined ? undefined : left + right;
      }
      case "Identifier": {
        const value = this.strings.has(node.name) ? this.strings.get(node.name) : this.previousStrings.get(node.name);
        return value === null ? undefined : value;
      }
      case "CallExpression":
        return this.foldCall(node);
      default:
        return undefined;
    }
  }

  private foldCall(node: t.CallExpression): string | undefined {
    const callee = unwrap(node.callee);
    if (callee.type !== "MemberExpression" || callee.computed || callee.property.type !== "Identifier") return undefined;
    const args = node.arguments.map((arg) => (arg.type === "SpreadElement" || arg.type === "ArgumentPlaceholder" ? undefined : this.fold(arg)));
    if (args.some((arg) => arg === undefined)) return undefined;
    const object = unwrap(callee.object);
    if (callee.property.name === "join" && object.type === "ArrayExpression") {
      const parts = object.elements.map((element) => (element && element.type !== "SpreadElement" ? this.fold(element) : undefined));
      if (parts.some((part) => part === undefined)) return undefined;
      return parts.join(args[0] ?? ",");
    }
    if (callee.property.name === "fromCharCode" && object.type === "Identifier" && object.name === "String") {
      return String.fromCharCode(...args.map(Number));
    }
    if (callee.property.name === "concat") {
      const base = this.fold(object);
      return base === undefined ? undefined : base.concat(...(args as string[]));
    }
    return undefined;
  }
}
