import { describe, expect, it } from "vitest";
import { TaintIndex } from "../../../src/mcp/flow/index.js";

const SECRET = "CANARY-7f3a9c2e1b5d4a6f";
const OTHER = "ledger entry 55-ALPHA-9120-omega";

describe("find skips the server the arguments go to", () => {
  it("does not report a server's own data going back to it, and still reports every other server's", () => {
    const index = new TaintIndex("x.send({ body: a })");
    index.label("vault", { content: `Your key is ${SECRET}.` });
    index.label("books", [OTHER]);
    expect(index.find({ body: SECRET }, "vault")).toEqual([]);
    expect(index.find({ body: `${SECRET} ${OTHER}` }, "vault")).toEqual([{ server: "books", path: "body" }]);
    expect(index.find({ body: `${SECRET} ${OTHER}` })).toEqual([
      { server: "vault", path: "body" },
      { server: "books", path: "body" },
    ]);
  });

  it("still finds the skipped server's data for another server once it is indexed later", () => {
    const index = new TaintIndex("x.send({ body: a })");
    index.label("vault", { content: `Your key is ${SECRET}.` });
    // Only vault's data exists: nothing to search for vault itself.
    expect(index.find({ body: SECRET }, "vault")).toEqual([]);
    expect(index.find({ body: SECRET }, "mail")).toEqual([{ server: "vault", path: "body" }]);
  });
});
