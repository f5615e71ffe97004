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
