import ts from "typescript";

/**
 * Type-check generated declarations with the real TypeScript compiler (syntax AND semantics: every
 * referenced type must exist, index signatures must fit, …). `files` maps virtual file names to
 * text; returns the diagnostics as readable strings, empty when the code is valid.
 */
export function typeCheck(files: Record<string, string>): string[] {
  const options: ts.CompilerOptions = {
    strict: true,
    noEmit: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ES2022,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    lib: ["lib.es2022.d.ts"],
    types: [],
    skipLibCheck: true,
  };
  const host = ts.createCompilerHost(options, true);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (name) => name in files || ts.sys.fileExists(name);
  host.readFile = (name) => files[name] ?? readFile(name);
  host.getSourceFile = (name, languageVersion, onError, shouldCreate) => {
    const text = files[name];
    return text === undefined
      ? getSourceFile(name, languageVersion, onError, shouldCreate)
      : ts.createSourceFile(name, text, languageVersion, true);
  };
  const program = ts.createProgram(Object.keys(files), options, host);
  return ts.getPreEmitDiagnostics(program).map((diagnostic) => {
    const where =
      diagnostic.file !== undefined && diagnostic.start !== undefined
        ? `${diagnostic.file.fileName}:${diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start).line + 1}: `
        : "";
    return where + ts.flattenDiagnosticMessageText(diagnostic.messageText, "\n");
  });
}
