export function buildUi(outdir: string): Promise<string>;
