/**
 * Reads module_info's compact signatures the way a model must: from the text alone, with no schema.
 * `argumentsFor` writes the smallest call a reader of the line would write (every required parameter,
 * of the type shown; enum values as listed; named types looked up in the `type X = …` lines), so a
 * test can check that the text holds everything a correct call needs.
 */

export type TypeNode =
  | { kind: "object"; members: Array<{ name: string; optional: boolean; type: TypeNode }> }
  | { kind: "array"; item: TypeNode }
  | { kind: "union"; members: TypeNode[] }
  | { kind: "literal"; value: unknown }
  | { kind: "name"; name: string; args: TypeNode[] };

export interface ReadSignature {
  readonly name: string;
  /** undefined for `fn()`. */
  readonly input: TypeNode | undefined;
  readonly output: TypeNode | undefined;
  readonly summary: string;
  readonly destructive: boolean;
}

export interface ReadListing {
  readonly aliases: ReadonlyMap<string, TypeNode>;
  readonly functions: ReadonlyMap<string, ReadSignature>;
  readonly commonOutput: TypeNode | undefined;
}

class Parser {
  private at = 0;
  constructor(private readonly text: string) {}

  get rest(): string {
    return this.text.slice(this.at);
  }

  private skip(): void {
    while (this.text[this.at] === " ") this.at++;
  }

  peek(token: string): boolean {
    this.skip();
    return this.text.startsWith(token, this.at);
  }

  expect(token: string): void {
    if (!this.peek(token)) throw new Error(`expected ${JSON.stringify(token)} at ${JSON.stringify(this.text.slice(this.at, this.at + 30))} in ${this.text}`);
    this.at += token.length;
  }

  type(): TypeNode {
    const members = [this.postfix()];
    while (this.peek("|") || this.peek("&")) {
      this.at++;
      members.push(this.postfix());
    }
    return members.length === 1 ? (members[0] as TypeNode) : { kind: "union", members };
  }

  private postfix(): TypeNode {
    let node = this.primary();
    while (this.peek("[]")) {
      this.at += 2;
      node = { kind: "array", item: node };
    }
    return node;
  }

  private stringLiteral(): string {
    this.skip();
    const match = /^"(?:[^"\\]|\\.)*"/.exec(this.rest);
    if (match === null) throw new Error(`expected a string literal at ${this.rest.slice(0, 30)}`);
    this.at += match[0].length;
    return JSON.parse(match[0]) as string;
  }

  private primary(): TypeNode {
    this.skip();
    if (this.peek("{")) {
      this.at++;
      const members: Array<{ name: string; optional: boolean; type: TypeNode }> = [];
      while (!this.peek("}")) {
        const name = this.peek('"') ? this.stringLiteral() : this.identifier();
        const optional = this.peek("?");
        if (optional) this.at++;
        this.expect(":");
        members.push({ name, optional, type: this.type() });
        if (this.peek(",")) this.at++;
      }
      this.expect("}");
      return { kind: "object", members };
    }
    if (this.peek("(")) {
      this.at++;
      const inner = this.type();
      this.expect(")");
      return inner;
    }
    if (this.peek('"')) return { kind: "literal", value: this.stringLiteral() };
    const number = /^-?\d+(\.\d+)?/.exec(this.rest);
    if (number !== null) {
      this.at += number[0].length;
      return { kind: "literal", value: Number(number[0]) };
    }
    const name = this.identifier();
    if (name === "true" || name === "false") return { kind: "literal", value: name === "true" };
    const args: TypeNode[] = [];
    if (this.peek("<")) {
      this.at++;
      args.push(this.type());
      while (this.peek(",")) {
        this.at++;
        args.push(this.type());
      }
      this.expect(">");
    }
    return { kind: "name", name, args };
  }

  identifier(): string {
    this.skip();
    const match = /^[A-Za-z_$][A-Za-z0-9_$]*/.exec(this.rest);
    if (match === null) throw new Error(`expected a name at ${JSON.stringify(this.rest.slice(0, 30))} in ${this.text}`);
    this.at += match[0].length;
    return match[0];
  }
}

/** Parses module_info's compact listing (the lines after the call line); other lines are ignored. */
export function readListing(text: string): ReadListing {
  const aliases = new Map<string, TypeNode>();
  const functions = new Map<string, ReadSignature>();
  let commonOutput: TypeNode | undefined;
  for (const line of text.split("\n")) {
    const alias = /^type ([A-Za-z0-9_]+) = (.*)$/.exec(line);
    if (alias !== null) {
      aliases.set(alias[1] as string, new Parser(alias[2] as string).type());
      continue;
    }
    const common = /^Unless shown, functions return (.*)\.$/.exec(line);
    if (common !== null) {
      commonOutput = new Parser(common[1] as string).type();
      continue;
    }
    const head = /^([A-Za-z_$][A-Za-z0-9_$]*)\(/.exec(line);
    if (head === null) continue;
    const parser = new Parser(line.slice(head[0].length));
    const input = parser.peek(")") ? undefined : parser.type();
    parser.expect(")");
    let output: TypeNode | undefined;
    if (parser.peek(":")) {
      parser.expect(":");
      output = parser.type();
    }
    const tail = parser.rest.trim();
    const destructive = tail.endsWith("[destructive]");
    const summary = tail.replace(/^— /, "").replace(/ ?\[destructive\]$/, "");
    functions.set(head[1] as string, { name: head[1] as string, input, output, summary, destructive });
  }
  return { aliases, functions, commonOutput };
}

/** Values a reader would choose for parameters it knows the meaning of (by name). */
export type ChosenValues = Readonly<Record<string, unknown>>;

function valueOf(node: TypeNode, listing: ReadListing, chosen: ChosenValues, name: string | undefined, depth = 0): unknown {
  if (depth > 20) throw new Error("type nests too deep");
  if (name !== undefined && Object.hasOwn(chosen, name)) return chosen[name];
  switch (node.kind) {
    case "literal":
      return node.value;
    case "array":
      return [valueOf(node.item, listing, chosen, undefined, depth + 1)];
    case "union": {
      const pick = node.members.find((m) => !(m.kind === "name" && m.name === "null")) ?? node.members[0];
      return valueOf(pick as TypeNode, listing, chosen, name, depth + 1);
    }
    case "object": {
      const out: Record<string, unknown> = {};
      for (const m of node.members) if (!m.optional) out[m.name] = valueOf(m.type, listing, chosen, m.name, depth + 1);
      return out;
    }
    case "name": {
      const alias = listing.aliases.get(node.name);
      if (alias !== undefined) return valueOf(alias, listing, chosen, name, depth + 1);
      switch (node.name) {
        case "string":
          return "x";
        case "number":
          return 1;
        case "boolean":
          return true;
        case "null":
          return null;
        case "Record":
        case "object":
        case "unknown":
          return {};
        default:
          throw new Error(`the listing names a type it never defines: ${node.name}`);
      }
    }
  }
}

/** The smallest call a reader of `fn`'s line would write: every required parameter, nothing else. */
export function argumentsFor(listing: ReadListing, fn: string, chosen: ChosenValues = {}): Record<string, unknown> {
  const signature = listing.functions.get(fn);
  if (signature === undefined) throw new Error(`the listing has no function ${fn}`);
  return signature.input === undefined ? {} : (valueOf(signature.input, listing, chosen, undefined) as Record<string, unknown>);
}
