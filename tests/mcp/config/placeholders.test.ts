import { describe, it, expect } from "vitest";
import { inputReferences, parseTemplate, variableReferences } from "../../../src/mcp/config/index.js";

describe("the ${…} placeholder language", () => {
  it("splits text, ${VAR}, ${env:VAR}, ${VAR:-default} and ${input:id}", () => {
    expect(parseTemplate("Bearer ${TOKEN}")).toEqual({ ok: true, parts: [{ kind: "text", value: "Bearer " }, { kind: "env", name: "TOKEN" }] });
    expect(parseTemplate("${env:HOME}/data")).toEqual({ ok: true, parts: [{ kind: "env", name: "HOME" }, { kind: "text", value: "/data" }] });
    expect(parseTemplate("${PORT:-8080}")).toEqual({ ok: true, parts: [{ kind: "env", name: "PORT", fallback: "8080" }] });
    expect(parseTemplate("${OPTIONAL:-}")).toEqual({ ok: true, parts: [{ kind: "env", name: "OPTIONAL", fallback: "" }] });
    expect(parseTemplate("${input:github-token}")).toEqual({ ok: true, parts: [{ kind: "input", id: "github-token" }] });
  });

  it("leaves $VAR without braces and a lone $ alone (no shell is involved)", () => {
    expect(parseTemplate("$HOME costs $5")).toEqual({ ok: true, parts: [{ kind: "text", value: "$HOME costs $5" }] });
  });

  it("reads $${ as a literal ${", () => {
    expect(parseTemplate("echo $${NOT_A_VAR}")).toEqual({ ok: true, parts: [{ kind: "text", value: "echo ${NOT_A_VAR}" }] });
  });

  it("rejects anything else inside ${…} instead of passing it through", () => {
    expect(parseTemplate("${command:pick}")).toEqual({ ok: false, problem: '"${command:pick}" is not a supported placeholder (use ${VAR}, ${env:VAR}, ${VAR:-default} or ${input:id})' });
    expect(parseTemplate("${}")).toEqual({ ok: false, problem: '"${}" is not a supported placeholder (use ${VAR}, ${env:VAR}, ${VAR:-default} or ${input:id})' });
    expect(parseTemplate("x${TOKEN")).toEqual({ ok: false, problem: '"${TOKEN" has no closing "}" (write $${ for a literal ${)' });
  });

  it("lists the inputs and variables a string refers to", () => {
    expect(inputReferences("${input:a}-${B}-${input:c}")).toEqual(["a", "c"]);
    expect(variableReferences("${input:a}-${B}-${env:C:-x}")).toEqual(["B", "C"]);
    expect(variableReferences("${broken")).toEqual([]);
  });
});
