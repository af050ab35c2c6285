import { describe, expect, it } from "vitest";
import { clientCapabilities, withOwnRoots, type ServerRequestHooks } from "../../../src/mcp/client-manager/server-requests.js";

const ctx = { server: "files", signal: new AbortController().signal, origin: undefined, era: "legacy" } as const;

describe("a server's own roots replace what the face offers", () => {
  // The gateway's hooks: each client's roots, changing as the client says (listChanged).
  const gatewayHooks: ServerRequestHooks = {
    listRoots: () => Promise.resolve({ roots: [{ uri: "file:///", name: "/" }] }),
    rootsConnection: () => undefined,
  };

  it("answers roots/list with the entry's roots, not the face's, and declares no list changes", async () => {
    const hooks = withOwnRoots(gatewayHooks, ["/srv/data"]);
    expect(await hooks?.listRoots?.(ctx as never)).toEqual({ roots: [{ uri: "file:///srv/data", name: "data" }] });
    expect(clientCapabilities(hooks).roots).toEqual({});
    expect(hooks?.rootsConnection).toBeUndefined();
  });

  it("offers them even where the face offers none", async () => {
    const hooks = withOwnRoots(undefined, ["/srv/data"]);
    expect(clientCapabilities(hooks).roots).toEqual({});
    expect((await hooks?.listRoots?.(ctx as never))?.roots.map((r) => r.uri)).toEqual(["file:///srv/data"]);
  });

  it("leaves the face's hooks alone for a server without its own", () => {
    expect(withOwnRoots(gatewayHooks, undefined)).toBe(gatewayHooks);
  });
});
