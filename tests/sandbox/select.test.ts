import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HyperlightError } from "../../src/sandbox/engines/hyperlight/errors.js";
import { probeHyperlight } from "../../src/sandbox/engines/hyperlight/probe.js";
import { createEngine, type CreatedEngine } from "../../src/sandbox/select.js";

let empty: string;
beforeAll(async () => {
  // An addon folder with nothing installed: hyperlight is unavailable here whatever the machine.
  empty = await mkdtemp(join(tmpdir(), "mcpvm-select-"));
});
afterAll(async () => {
  await rm(empty, { recursive: true, force: true });
});

async function using<T>(created: CreatedEngine, body: (created: CreatedEngine) => Promise<T>): Promise<T> {
  try {
    return await body(created);
  } finally {
    await created.engine.dispose();
  }
}

describe("createEngine", () => {
  it("gives quickjs when quickjs is asked for, without probing hyperlight", async () => {
    await using(await createEngine("quickjs"), async ({ engine, selection }) => {
      expect(engine.kind).toBe("quickjs");
      expect(selection).toEqual({ kind: "quickjs", requested: "quickjs", reason: "quickjs was requested", unavailable: {} });
    });
  });

  it("auto falls back to quickjs when the hyperlight addon is missing, and says why", async () => {
    await using(await createEngine("auto", { hyperlight: { vendorDir: empty } }), async ({ engine, selection }) => {
      expect(engine.kind).toBe("quickjs");
      expect(selection.kind).toBe("quickjs");
      expect(selection.requested).toBe("auto");
      expect(selection.unavailable.hyperlight).toContain("npm run setup:hyperlight");
      expect(selection.reason).toContain("hyperlight is unavailable");
      expect(await engine.run({ code: "return 1 + 1" })).toMatchObject({ ok: true, value: 2 });
    });
  });

  it("auto picks hyperlight exactly when the probe VM boots on this machine", async () => {
    const probe = await probeHyperlight();
    await using(await createEngine("auto"), async ({ selection }) => {
      expect(selection.kind).toBe(probe.ok ? "hyperlight" : "quickjs");
      expect(selection.unavailable.hyperlight).toBe(probe.ok ? undefined : probe.reason);
    });
  });

  it("an explicit hyperlight that cannot be used fails with a typed error carrying the probe's reason", async () => {
    const error = await createEngine("hyperlight", { hyperlight: { vendorDir: empty } }).then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(HyperlightError);
    const typed = error as HyperlightError;
    expect(typed.code).toBe("HYPERLIGHT_NOT_INSTALLED");
    const probe = await probeHyperlight({ vendorDir: empty });
    expect(typed.data).toEqual({ reason: probe.ok ? "" : probe.reason });
    expect(typed.message).toContain("npm run setup:hyperlight");
  });

  it("an explicit hyperlight gives a hyperlight engine where the probe boots, and the probe's code and reason elsewhere", async () => {
    const probe = await probeHyperlight();
    const outcome = await createEngine("hyperlight").then(
      async (created) => {
        await created.engine.dispose();
        return { kind: created.selection.kind };
      },
      (thrown: unknown) => ({ code: (thrown as HyperlightError).code, reason: (thrown as HyperlightError).data?.reason }),
    );
    expect(outcome).toEqual(probe.ok ? { kind: "hyperlight" } : { code: probe.code, reason: probe.reason });
  });
});
