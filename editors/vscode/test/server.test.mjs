// The extension against a real cake-lsp (argv[2]), over the same JSON-RPC
// library the language client uses (vscode-jsonrpc): the line the output
// channel shows from initialize's serverInfo names the version that
// `cake-lsp --version` prints, and the cake-rule: documents of "Open Rule
// Documentation" get their text from cake/rulePage (src/serverInfo.ts).
// Also unit-tests src/serverInfo.ts in plain Node.
import { spawn, execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const extRoot = path.resolve(here, "..");
const server = process.argv[2];
let failures = 0;
const check = (ok, msg) => { if (!ok) { failures++; console.error(`FAIL ${msg}`); } else console.log(`ok   ${msg}`); };

// Section - src/serverInfo.ts, compiled with esbuild
const esbuild = require("esbuild");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cake-vscode-server-"));
const compiled = path.join(tmp, "serverInfo.js");
esbuild.buildSync({ entryPoints: [path.join(extRoot, "src", "serverInfo.ts")], outfile: compiled, platform: "node", format: "cjs", logLevel: "warning" });
const info = require(compiled);
check(info.serverInfoLine({ name: "cake-lsp", version: "1.2.3" }, "/x/cake-lsp") === "cake-lsp 1.2.3 is running: /x/cake-lsp", "serverInfoLine names the version");
check(info.serverInfoLine(undefined, "/x/cake-lsp").includes("no serverInfo"), "serverInfoLine without serverInfo");
check(info.diagnosticCode({ value: "CAKE-E0101", target: {} }) === "CAKE-E0101" && info.diagnosticCode("CAKE-W0701") === "CAKE-W0701", "diagnosticCode of a linked or plain code");
check(info.isRuleCode("CAKE-E0402") && !info.isRuleCode("E0402") && !info.isRuleCode(undefined), "isRuleCode");
check(info.codeOfRulePagePath(info.rulePagePath("CAKE-E0402")) === "CAKE-E0402", "rule page path round trip");
const which = info.parseLoweredPath(info.loweredPath("row_softmax", "sm_90a"));
check(which?.kernel === "row_softmax" && which?.target === "sm_90a", "lowered view path round trip");
check(info.parseLoweredPath("/x.cu") === undefined, "a path without a target is not a lowered view");
const refused = info.loweredText({ kernel: "k", target: "sm_90a", ok: false, cuda: "",
  problems: [{ code: "CAKE-E0801", message: "`wgmma` cannot be lowered to CUDA yet", range: { start: { line: 41, character: 6 } } }] });
check(refused.includes("// k cannot be lowered to CUDA for sm_90a yet") && refused.includes("//   line 42: CAKE-E0801: `wgmma`"),
  "a refused kernel's view says why, by line");
const broken = info.loweredText({ kernel: "k", target: "sm_90a", ok: false, cuda: "",
  problems: [{ code: "CAKE-E0101", message: "a file with errors cannot be lowered", range: { start: { line: 26, character: 9 } } }] });
check(broken.includes("// k is not lowered to CUDA for sm_90a while the file has errors") && broken.includes("//   line 27: CAKE-E0101"),
  "a kernel of a file with errors: its view says the file has errors, not that lowering lacks something");
fs.rmSync(tmp, { recursive: true, force: true });

// Section - a real cake-lsp
if (!server) {
  console.log("SKIP the cake-lsp part: no server given");
} else {
  const rpc = require("vscode-jsonrpc/node");
  const version = execFileSync(server, ["--version"], { encoding: "utf8" }).trim();
  const proc = spawn(server, [], { stdio: ["pipe", "pipe", "inherit"] });
  const connection = rpc.createMessageConnection(new rpc.StreamMessageReader(proc.stdout), new rpc.StreamMessageWriter(proc.stdin));
  connection.listen();
  const timeout = setTimeout(() => { console.error("FAIL cake-lsp did not answer in 30 s"); process.exit(1); }, 30000);
  const result = await connection.sendRequest("initialize", { processId: process.pid, rootUri: null, capabilities: {} });
  check(version === `cake-lsp ${result.serverInfo?.version}`, `initialize's serverInfo.version is the one --version prints (${version})`);
  const line = info.serverInfoLine(result.serverInfo, server);
  check(line.startsWith(`${version} is running`), `the output channel shows "${line}"`);
  check(result.capabilities?.experimental?.rulePage === true, "cake/rulePage advertised");
  connection.sendNotification("initialized", {});
  const code = info.codeOfRulePagePath(info.rulePagePath("CAKE-E0402"));
  const page = await connection.sendRequest(info.RULE_PAGE_REQUEST, { code });
  check(page.markdown.startsWith("# CAKE-E0402: "), "cake/rulePage answers with the rule's page");
  check(page.markdown === fs.readFileSync(path.join(extRoot, "..", "..", "docs", "rules", "CAKE-E0402.md"), "utf8"), "the page as docs/rules has it");
  // The lowered-CUDA view's request, as the content provider sends it.
  check(result.capabilities?.experimental?.lowered === true, "cake/lowered advertised");
  const example = path.join(extRoot, "..", "..", "docs", "examples", "row_softmax.cake");
  const uri = `file://${example}`;
  connection.sendNotification("textDocument/didOpen", { textDocument: { uri, languageId: "cake", version: 1, text: fs.readFileSync(example, "utf8") } });
  const lowered = await connection.sendRequest(info.LOWERED_REQUEST, { textDocument: { uri }, kernel: "row_softmax", target: "sm_80" });
  const text = info.loweredText(lowered);
  check(lowered.ok && text.includes('extern "C" __global__') && text.includes(`#line 30 "${example}"`), "cake/lowered gives row_softmax's CUDA with its #lines");
  await connection.sendRequest("shutdown");
  connection.sendNotification("exit");
  clearTimeout(timeout);
  connection.dispose();
}
if (failures > 0) { console.error(`${failures} failure(s)`); process.exit(1); }
console.log("server: all ok");
