import type { Page } from "playwright-core";

/** Form controls a screen reader could not name (no <label>, aria-label or aria-labelledby). */
export function unlabelledControls(page: Page): Promise<string[]> {
  return page.evaluate(() =>
    [...document.querySelectorAll("input, select, textarea, button")]
      .filter((el) => {
        if ((el as HTMLElement).closest(".cm-editor") !== null && el.tagName !== "DIV") return false; // CodeMirror's own search widgets
        const labelled = (el as HTMLInputElement).labels?.length ?? 0;
        const aria = el.getAttribute("aria-label") ?? el.getAttribute("aria-labelledby");
        const text = el.tagName === "BUTTON" ? (el.textContent ?? "").trim() : "";
        return labelled === 0 && (aria === null || aria === "") && text === "";
      })
      .map((el) => el.outerHTML.slice(0, 120)),
  );
}

/** Visible text whose colour on its background is under WCAG AA's 4.5:1 (disabled controls are exempt). */
export function contrastProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const rgb = (value: string): [number, number, number, number] => {
      const m = value.match(/rgba?\(([^)]+)\)/);
      if (m === null) return [0, 0, 0, 0];
      const parts = (m[1] as string).split(",").map((p) => Number.parseFloat(p));
      return [parts[0] ?? 0, parts[1] ?? 0, parts[2] ?? 0, parts[3] ?? 1];
    };
    const lum = ([r, g, b]: number[]) => {
      const f = (c: number) => {
        const s = c / 255;
        return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
      };
      return 0.2126 * f(r ?? 0) + 0.7152 * f(g ?? 0) + 0.0722 * f(b ?? 0);
    };
    const background = (el: Element | null): number[] => {
      for (let e = el; e !== null; e = e.parentElement) {
        const c = rgb(getComputedStyle(e).backgroundColor);
        if (c[3] > 0.5) return c;
      }
      return [255, 255, 255, 1];
    };
    const problems: string[] = [];
    const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const el = node.parentElement;
      if (el === null || (node.textContent ?? "").trim() === "" || el.closest("[disabled], .cm-editor, noscript") !== null) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0) continue;
      const fg = rgb(getComputedStyle(el).color);
      const bg = background(el);
      const [a, b] = [lum(fg), lum(bg)].sort((x, y) => y - x) as [number, number];
      const ratio = (a + 0.05) / (b + 0.05);
      if (ratio < 4.5) problems.push(`${ratio.toFixed(2)}: "${(node.textContent ?? "").trim().slice(0, 40)}"`);
    }
    return problems;
  });
}
