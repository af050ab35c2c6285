import { expect, it } from "vitest";

/** A case of a kind test: an id, and a listing the audit reads. */
export type KindCase<L> = readonly [string, L];

/**
 * The two checks every kind test of a rule round makes (families-wave17, families-wave20): each attack of a kind is
 * held by the rules themselves (the text model's finding set aside, so a case cannot pass on it), and each honest
 * twin passes the whole audit, text model included. Called inside a describe block.
 */
export function itHoldsKindsPassesTwins<L>(
  kinds: Record<string, readonly KindCase<L>[]>,
  twins: Record<string, readonly KindCase<L>[]>,
  audit: { readonly byRules: (listing: L) => string; readonly whole: (listing: L) => string },
): void {
  for (const [kind, cases] of Object.entries(kinds)) {
    it.each(cases)(`${kind}: the rules hold %s`, (_id, listing) => {
      expect(["warn", "block"]).toContain(audit.byRules(listing));
    });
  }
  for (const [kind, cases] of Object.entries(twins)) {
    it.each(cases)(`${kind}: the audit passes %s`, (_id, listing) => {
      expect(["pass", "info"]).toContain(audit.whole(listing));
    });
  }
}
