// Checks the packaged extension (argv[2], default cake-ir.vsix from `npm run package`): the
// files it holds (and those it must not), and its manifest: activation
// events, contributes (language, grammar, semantic token scopes, settings,
// commands), main, license and repository. Also unit-tests the server
// lookup and the settings tab of Open Settings (src/serverPath.ts) in plain Node.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const extRoot = path.resolve(here, "..");
const vsix = path.resolve(process.argv[2] ?? path.join(extRoot, "cake-ir.vsix"));
let failures = 0;
const check = (ok, msg) => { if (!ok) { failures++; console.error(`FAIL ${msg}`); } else console.log(`ok   ${msg}`); };

// Section - The vsix's entries, read with yauzl (a dependency of @vscode/vsce)

const yauzl = require(require.resolve("yauzl", { paths: [path.dirname(require.resolve("@vscode/vsce/package.json"))] }));
function readZip(file) {
  return new Promise((resolve, reject) => {
    yauzl.open(file, { lazyEntries: true }, (err, zip) => {
      if (err) return reject(err);
      const entries = new Map();
      zip.on("entry", (e) => {
        zip.openReadStream(e, (err2, stream) => {
          if (err2) return reject(err2);
          const chunks = [];
          stream.on("data", (c) => chunks.push(c));
          stream.on("end", () => { entries.set(e.fileName, Buffer.concat(chunks)); zip.readEntry(); });
        });
      });
      zip.on("end", () => resolve(entries));
      zip.readEntry();
    });
  });
}

check(fs.existsSync(vsix), "cake-ir.vsix exists (npm run package)");
if (!fs.existsSync(vsix)) process.exit(1);
const entries = await readZip(vsix);
const names = [...entries.keys()].sort();
console.log(`vsix entries:\n  ${names.join("\n  ")}`);
for (const f of ["extension.vsixmanifest", "extension/package.json", "extension/dist/extension.js",
  "extension/syntaxes/cake.tmLanguage.json", "extension/language-configuration.json", "extension/LICENSE.txt", "extension/readme.md"]) {
  check(entries.has(f), `vsix has ${f}`);
}
for (const bad of [/node_modules\//, /\/src\//, /\.map$/, /\.ts$/, /\/test\//, /\.vsix$/]) {
  check(!names.some((n) => bad.test(n)), `vsix has nothing matching ${bad}`);
}
const bundle = entries.get("extension/dist/extension.js")?.toString("utf8") ?? "";
check(bundle.includes("vscode-languageclient") || bundle.includes("LanguageClient"), "bundle contains the language client");
check(/require\(["']vscode["']\)/.test(bundle), "bundle leaves `vscode` external");
check(!/require\(["']vscode-languageclient/.test(bundle), "bundle does not require vscode-languageclient at run time");

// Section - The manifest

const pkg = JSON.parse(entries.get("extension/package.json").toString("utf8"));
check(pkg.main === "./dist/extension.js", "main is ./dist/extension.js");
check(pkg.license === "Apache-2.0" && typeof pkg.repository?.url === "string", "license and repository set");
check(pkg.activationEvents.includes("onLanguage:cake"), "activates on language cake");
check(pkg.activationEvents.includes("workspaceContains:**/*.cake"), "activates on a workspace with .cake files");
const lang = pkg.contributes.languages.find((l) => l.id === "cake");
check(lang && lang.extensions.includes(".cake") && lang.configuration === "./language-configuration.json", "language cake for .cake with its configuration");
const gr = pkg.contributes.grammars.find((g) => g.language === "cake");
check(gr && gr.scopeName === "source.cake" && entries.has("extension/" + gr.path.replace(/^\.\//, "")), "grammar source.cake is packaged");
const grammarJson = JSON.parse(entries.get("extension/syntaxes/cake.tmLanguage.json").toString("utf8"));
check(grammarJson.scopeName === "source.cake", "grammar file's scopeName is source.cake");
const langConf = JSON.parse(entries.get("extension/language-configuration.json").toString("utf8"));
check(langConf.comments.lineComment === "//" && langConf.comments.blockComment.join(" ") === "/* */", "comments // and /* */");
check(langConf.brackets.length === 3 && langConf.autoClosingPairs.length >= 3 && langConf.indentationRules, "brackets, auto-closing pairs, indentation rules");

// The server's legend (docs/lsp.md, "Semantic tokens"): every type mapped.
const legend = ["keyword", "op", "buffer", "barrier", "role", "type", "target", "parameter", "variable", "function", "number", "comment"];
const scopes = pkg.contributes.semanticTokenScopes.find((s) => s.language === "cake")?.scopes ?? {};
for (const t of legend) check(Array.isArray(scopes[t]) && scopes[t].length > 0, `semanticTokenScopes maps ${t}`);
const custom = new Set(pkg.contributes.semanticTokenTypes.map((t) => t.id));
for (const t of ["op", "buffer", "barrier", "role", "target"]) check(custom.has(t), `custom semantic token type ${t} declared`);

const props = pkg.contributes.configuration.properties;
for (const k of ["cake.server.path", "cake.server.args", "cake.trace.server", "cake.targets", "cake.compile"]) check(k in props, `setting ${k}`);
check(JSON.stringify(props["cake.trace.server"].enum) === JSON.stringify(["off", "messages", "verbose"]), "cake.trace.server is off|messages|verbose");
const cmds = pkg.contributes.commands.map((c) => c.command);
for (const c of ["cake.restartServer", "cake.showOutput", "cake.openRuleDocs", "cake.showLowered"]) {
  check(cmds.includes(c), `command ${c} contributed`);
  check(bundle.includes(`"${c}"`), `command ${c} registered in the bundle`);
}

check(bundle.includes('"cake/rulePage"') && bundle.includes('"cake-rule"'), "the bundle asks the server for rule pages (cake-rule: documents)");
check(bundle.includes("serverInfo"), "the bundle logs initialize's serverInfo");
check(bundle.includes('"cake/lowered"') && bundle.includes('"cake-lowered"'), "the bundle asks the server for lowered CUDA (cake-lowered: documents)");
check((pkg.contributes.menus["editor/context"] ?? []).some((m) => m.command === "cake.showLowered" && m.when === "editorLangId == cake"),
  "Show Lowered CUDA is in the editor's context menu of .cake files");
// Section - Server lookup (src/serverPath.ts, compiled with esbuild)

const esbuild = require("esbuild");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cake-vscode-"));
const compiled = path.join(tmp, "serverPath.js");
esbuild.buildSync({ entryPoints: [path.join(extRoot, "src", "serverPath.ts")], outfile: compiled, platform: "node", format: "cjs", logLevel: "warning" });
const { resolveServer, settingsEditorFor } = require(compiled);
const ws = path.join(tmp, "ws");
const bin = path.join(ws, "build", "bin");
fs.mkdirSync(bin, { recursive: true });
const pathDir = path.join(tmp, "pathdir");
fs.mkdirSync(pathDir);
const onPath = path.join(pathDir, "cake-lsp");
fs.writeFileSync(onPath, "#!/bin/sh\n", { mode: 0o755 });
check(resolveServer("", [ws], pathDir).command === onPath, "no build/bin: cake-lsp from PATH");
fs.writeFileSync(path.join(bin, "cake-lsp"), "#!/bin/sh\n", { mode: 0o755 });
check(resolveServer("", [ws], pathDir).command === path.join(bin, "cake-lsp"), "workspace build/bin/cake-lsp before PATH");
check(resolveServer("build/bin/cake-lsp", [ws], "").command === path.join(bin, "cake-lsp"), "cake.server.path relative to the workspace");
check(resolveServer(onPath, [], "").command === onPath, "cake.server.path absolute");
check(resolveServer("cake-lsp", [], pathDir).command === onPath, "cake.server.path as a bare name is looked up on PATH");
const missing = resolveServer("", [path.join(tmp, "nowhere")], path.join(tmp, "empty"));
check(missing.command === undefined && missing.how.includes("searched"), "nothing found: undefined, with what was searched");
check(resolveServer("/no/such/cake-lsp", [], pathDir).command === undefined, "a wrong cake.server.path is not silently replaced");

// Section - Open Settings of "cake-lsp not found": the tab that shows the
// machine-overridable cake.server.path (tests/editors/vscode_e2e.mjs clicks it in code-server)

check(props["cake.server.path"].scope === "machine-overridable", "cake.server.path is machine-overridable");
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
check(same(settingsEditorFor("cake.server.path", undefined), ["workbench.action.openSettings", "cake.server.path"]),
  "local window: workbench.action.openSettings with the setting as query");
check(same(settingsEditorFor("cake.server.path", "ssh-remote"), ["workbench.action.openRemoteSettings", { query: "cake.server.path" }]),
  "remote window: workbench.action.openRemoteSettings (the Remote tab) with the setting as query");
check(bundle.includes("workbench.action.openRemoteSettings"), "the bundle opens the Remote settings tab");
fs.rmSync(tmp, { recursive: true, force: true });

if (failures > 0) { console.error(`${failures} failure(s)`); process.exit(1); }
console.log("manifest: all ok");
