// What the extension says about the server and how it finds a rule's page,
// kept free of the `vscode` module so that it can be unit-tested with plain
// Node (test/manifest.test.mjs).

/** The custom request of cake-lsp (docs/lsp.md) that answers with a rule's page. */
export const RULE_PAGE_REQUEST = "cake/rulePage";
/** The scheme of the read-only documents that show rule pages from the server. */
export const RULE_SCHEME = "cake-rule";

export interface ServerInfo {
  name: string;
  version?: string;
}

/** The output channel's line once the server runs: its name and version from initialize's serverInfo. */
export function serverInfoLine(info: ServerInfo | undefined, command: string): string {
  if (!info) {
    return `${command} is running (it sent no serverInfo)`;
  }
  return `${info.name} ${info.version ?? "(no version)"} is running: ${command}`;
}

/** A diagnostic's code as VS Code holds it (a string or number, or {value, target} with a link), as text. */
export function diagnosticCode(code: unknown): string | undefined {
  if (typeof code === "string" || typeof code === "number") {
    return String(code);
  }
  if (typeof code === "object" && code !== null && "value" in code) {
    return String((code as { value: string | number }).value);
  }
  return undefined;
}

/** Whether a code is one of cake's rules (CAKE-E0402), which have pages. */
export function isRuleCode(code: string | undefined): code is string {
  return code !== undefined && /^CAKE-[EW]\d{4}$/.test(code);
}

/** The path of the read-only document that shows `code`'s page ("/CAKE-E0402.md"), and back. */
export function rulePagePath(code: string): string {
  return `/${code}.md`;
}
export function codeOfRulePagePath(path: string): string {
  return path.replace(/^\//, "").replace(/\.md$/, "");
}

/** The custom request of cake-lsp (docs/lsp.md) that answers with a kernel's lowered CUDA. */
export const LOWERED_REQUEST = "cake/lowered";
/** The scheme of the read-only documents that show a kernel's lowered CUDA. */
export const LOWERED_SCHEME = "cake-lowered";

/** cake/lowered's answer (server/lsp/features/lowered.cpp). */
export interface LoweredResult {
  kernel: string;
  target: string;
  targets: string[];
  ok: boolean;
  cuda: string;
  problems: { code: string; message: string; range: { start: { line: number; character: number } } }[];
}

/** What a lowered-CUDA view shows, by its path ("/row_softmax.sm_80.cu") and query (the .cake document's URI). */
export function loweredPath(kernel: string, target: string): string {
  return `/${kernel}.${target}.cu`;
}
export function parseLoweredPath(path: string): { kernel: string; target: string } | undefined {
  const m = /^\/(.+)\.(sm_[0-9a-z]+)\.cu$/.exec(path);
  return m ? { kernel: m[1], target: m[2] } : undefined;
}

/** The text of the view: the CUDA, or why the kernel does not lower yet, as CUDA comments. */
export function loweredText(r: LoweredResult): string {
  if (r.ok) {
    return r.cuda;
  }
  // Only E0801s: constructs the lowering lacks; anything else: the file's own errors.
  const notYet = r.problems.every((p) => p.code === "CAKE-E0801");
  const lines = [notYet
    ? `// ${r.kernel} cannot be lowered to CUDA for ${r.target} yet (docs/lowering.md):`
    : `// ${r.kernel} is not lowered to CUDA for ${r.target} while the file has errors:`];
  for (const p of r.problems) {
    lines.push(`//   line ${p.range.start.line + 1}: ${p.code}: ${p.message}`);
  }
  return lines.join("\n") + "\n";
}
