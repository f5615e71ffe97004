// editors.vscode_e2e: the VS Code extension in a real VS Code (code-server,
// the web build of VS Code) driven through headless chromium with
// playwright-core. Run by vscode_e2e.sh, which checks the prerequisites and
// packages the .vsix; see docs/editors.md ("Tests").
//
// A fresh profile (user-data-dir, extensions-dir, HOME) in a temporary
// directory; the .vsix installed with `code-server --install-extension`;
// code-server on 127.0.0.1, a free port, --auth none; a workspace holding a
// copy of docs/examples/hopper_gemm.cake and no build/bin, on a PATH without
// cake-lsp. Then, as a user would:
//   1. activation, and "cake-lsp not found" (a toast, the status item)
//   2. TextMate colouring of the file with no server
//   3. the toast's Open Settings shows the setting cake.server.path
//      (the Remote tab: code-server is a remote window)
//   4. the path of cake-lsp typed into that setting, "Restart Server": running
//   5. semantic tokens recolour the file
//   6. code lens, inlay hints, hover with the cost estimate, the outline
//   7. an edit makes an error: its squiggle on the edited line, and in Problems
//   8. CAKE IR: Open Rule Documentation opens the rule's page
//   9. the quick fix undoes the error
//  10. CAKE IR: Show Lowered CUDA opens the kernel's CUDA beside the file;
//      an edit that breaks the file shows why it cannot lower, undone the CUDA
// Each step leaves a screenshot in OUT/screenshots; a failed check also
// leaves one named fail-<step>.png. Exit 0 when all pass, 1 otherwise.
//
// Usage: node vscode_e2e.mjs --code-server DIR --chromium EXE --vsix FILE
//          --cake-lsp FILE --example FILE --out DIR [--deadline SECONDS]
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createRequire } from "node:module";

const require = createRequire(import.meta.url);
const { chromium } = require("playwright-core");

// Section - Arguments, scratch directories, logging

const args = {};
for (let i = 2; i < process.argv.length; i += 2) args[process.argv[i].replace(/^--/, "")] = process.argv[i + 1];
for (const k of ["code-server", "chromium", "vsix", "cake-lsp", "example", "out"]) {
  if (!args[k]) { console.error(`usage: missing --${k}`); process.exit(2); }
}
const out = path.resolve(args.out);
const shots = path.join(out, "screenshots");
for (const old of [shots, path.join(out, "vscode-logs")]) fs.rmSync(old, { recursive: true, force: true });
fs.mkdirSync(shots, { recursive: true });
const deadline = Date.now() + 1000 * Number(args.deadline ?? 170);
const t0 = Date.now();
const secs = () => ((Date.now() - t0) / 1000).toFixed(1);
const log = (msg) => console.log(`[${secs()} s] ${msg}`);

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "cake-vscode-e2e-"));
const userData = path.join(tmp, "user-data");
const extDir = path.join(tmp, "extensions");
const home = path.join(tmp, "home");
const ws = path.join(tmp, "workspace");
for (const d of [path.join(userData, "User"), extDir, home, ws]) fs.mkdirSync(d, { recursive: true });
const fileName = path.basename(args.example);
const source = fs.readFileSync(args.example, "utf8");
fs.writeFileSync(path.join(ws, fileName), source);
// No welcome page, no update checks, one fixed theme (the colours are compared).
fs.writeFileSync(path.join(userData, "User", "settings.json"), JSON.stringify({
  "workbench.startupEditor": "none",
  "workbench.colorTheme": "Default Dark Modern",
  "workbench.tips.enabled": false,
  "telemetry.telemetryLevel": "off",
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false,
  "security.workspace.trust.enabled": false,
  "editor.minimap.enabled": false,
}, null, 2));

// PATH without any cake-lsp, so that the server cannot be found at first.
const cleanPath = (process.env.PATH ?? "").split(path.delimiter)
  .filter((d) => d !== "" && !fs.existsSync(path.join(d, "cake-lsp"))).join(path.delimiter);
const env = {
  ...process.env, PATH: cleanPath, HOME: home,
  XDG_CONFIG_HOME: path.join(home, ".config"), XDG_DATA_HOME: path.join(home, ".local/share"),
  XDG_CACHE_HOME: path.join(home, ".cache"),
};
const entry = path.join(args["code-server"], "out", "node", "entry.js");
const profile = ["--user-data-dir", userData, "--extensions-dir", extDir];

let server, browser, page;
async function cleanup() {
  await browser?.close().catch(() => {});
  if (server?.pid) { try { process.kill(-server.pid, "SIGKILL"); } catch { /* gone */ } }
  // The logs of code-server and the extension host, for a failed run.
  const logs = path.join(userData, "logs");
  if (fs.existsSync(logs)) fs.cpSync(logs, path.join(out, "vscode-logs"), { recursive: true });
  fs.rmSync(tmp, { recursive: true, force: true });
}
for (const sig of ["SIGTERM", "SIGINT"]) process.on(sig, async () => { log(`${sig}: stopping`); await cleanup(); process.exit(1); });

// Section - Checks

let failures = 0, shotNo = 0;
async function shot(name) {
  if (!page) return undefined;
  const file = path.join(shots, `${String(++shotNo).padStart(2, "0")}-${name}.png`);
  await page?.screenshot({ path: file }).catch(() => {});
  return file;
}
/** Runs one check; a failure is counted, shown and photographed, and the run goes on unless `fatal`. */
async function check(name, fn, { fatal = false } = {}) {
  const left = deadline - Date.now();
  try {
    if (left <= 0) throw new Error("out of time (the test's deadline)");
    const detail = await Promise.race([fn(), new Promise((_, no) => setTimeout(() => no(new Error("out of time (the test's deadline)")), left))]);
    log(`ok   ${name}${detail ? `: ${String(detail).replace(/\s+/g, " ")}` : ""}`);
    await shot(name.replace(/[^a-z0-9]+/gi, "-").toLowerCase());
  } catch (err) {
    failures++;
    const file = path.join(shots, `fail-${name.replace(/[^a-z0-9]+/gi, "-").toLowerCase()}.png`);
    await page?.screenshot({ path: file }).catch(() => {});
    log(`FAIL ${name}: ${String(err?.message ?? err).split("\n")[0]} (screenshot ${file})`);
    if (fatal) throw new Error(`stopping after: ${name}`);
  }
}
const assert = (ok, msg) => { if (!ok) throw new Error(msg); };
/** Polls fn until it returns a truthy value; throws `what` after `ms`. */
async function until(what, fn, ms = 20000) {
  const end = Math.min(Date.now() + ms, deadline);
  for (;;) {
    const v = await fn().catch(() => undefined);
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

// Section - Editor helpers (Monaco's DOM: .view-line per visible line, the
// line numbers in the margin at the same `top`; inlay hints are injected
// spans with dyn-rule-* classes)

const editor = () => page.locator(`.editor-instance .monaco-editor[data-uri$="/${fileName}"]`).first();
const fileTab = () => page.locator(".tabs-container .tab", { hasText: fileName });
const statusItem = () => page.locator("#cake\\.cake-ir");
/** The 1-based number of the example's first line matching re. */
function lineOf(re) {
  const i = source.split("\n").findIndex((l) => re.test(l));
  assert(i >= 0, `${fileName} has no line matching ${re}`);
  return i + 1;
}
/** The visible lines: [{line, top, text (without inlay hints), hints, tokens: [{text, color}]}]. */
function visibleLines() {
  return editor().evaluate((ed) => {
    const byTop = new Map([...ed.querySelectorAll(".margin-view-overlays .line-numbers")]
      .map((n) => [n.parentElement.style.top, Number(n.textContent)]));
    const squiggles = new Set([...ed.querySelectorAll(".view-overlays .squiggly-error")].map((s) => s.parentElement.style.top));
    return [...ed.querySelectorAll(".view-lines .view-line")].map((l) => {
      const spans = [...l.querySelectorAll(":scope > span > span")];
      const code = spans.filter((s) => !/dyn-rule/.test(s.className));
      return {
        line: byTop.get(l.style.top), top: l.style.top, error: squiggles.has(l.style.top),
        text: code.map((s) => s.textContent).join("").replace(/\u00a0/g, " "),
        hints: spans.filter((s) => /dyn-rule/.test(s.className)).map((s) => s.textContent.replace(/\u00a0/g, " ")).join(""),
        tokens: code.map((s) => ({ text: s.textContent.replace(/\u00a0/g, " "), color: getComputedStyle(s).color, bracket: /bracket/.test(s.className) })),
      };
    }).filter((l) => l.line !== undefined);
  });
}
async function line(n) {
  return until(`line ${n} to be visible`, async () => (await visibleLines()).find((l) => l.line === n));
}
async function gotoLine(n, col) {
  await fileTab().click();   // focuses the editor
  await page.keyboard.press("Control+g");
  await page.locator(".quick-input-widget input").waitFor({ state: "visible" });
  await page.keyboard.type(`${n}:${col}`);
  await page.keyboard.press("Enter");
  await until(`the cursor at ${n}:${col}`, async () => /Ln (\d+), Col (\d+)/.exec(await page.locator("#status\\.editor\\.selection").innerText()) ?.slice(1).join(":") === `${n}:${col}`, 5000);
}
async function runCommand(title) {
  await page.keyboard.press("F1");
  const input = page.locator(".quick-input-widget input");
  await input.waitFor({ state: "visible" });
  await input.fill(`>${title}`);
  await page.locator(".quick-input-list .monaco-list-row", { hasText: title }).first().click();
}
/** Colour of each token, by (line text, token index), for comparing TextMate alone with semantic tokens. */
const tokenColours = (lines) => new Map(lines.flatMap((l) => l.tokens.filter((t) => !t.bracket && t.text.trim())
  .map((t, i) => [`${l.text}\u0000${i}\u0000${t.text}`, t.color])));

// Section - The run

try {
  // What the checks look for, found in the example.
  const kernelLine = lineOf(/^kernel \w+\(/);
  const kernelName = /^kernel (\w+)\(/.exec(source.split("\n")[kernelLine - 1])[1];
  const smemLine = lineOf(/^\s*smem \w+:/);
  const smemName = /smem (\w+):/.exec(source.split("\n")[smemLine - 1])[1];
  const waitLine = lineOf(/^\s*wait empty\[/);
  const waitCol = source.split("\n")[waitLine - 1].indexOf("empty") + 1;

  log(`profile and workspace in ${tmp}; screenshots in ${shots}`);
  const inst = spawnSync(process.execPath, [entry, ...profile, "--install-extension", args.vsix], { env, encoding: "utf8", timeout: 60000 });
  await check("install the vsix", async () => {
    assert(inst.status === 0 && /successfully installed/.test(inst.stdout), `code-server --install-extension failed:\n${inst.stdout}${inst.stderr}`);
    const dirs = fs.readdirSync(extDir).filter((d) => d.startsWith("cake.cake-ir-"));
    assert(dirs.length === 1, `no cake.cake-ir-* in ${extDir}`);
    return dirs[0];
  }, { fatal: true });

  server = spawn(process.execPath, [entry, ...profile, "--bind-addr", "127.0.0.1:0", "--auth", "none",
    "--disable-telemetry", "--disable-update-check", "--disable-workspace-trust", "--disable-getting-started-override", ws],
  { env, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  const serverLog = fs.createWriteStream(path.join(out, "code-server.log"));
  let url;
  const listening = new Promise((resolve, reject) => {
    server.stdout.on("data", (d) => {
      serverLog.write(d);
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)\//.exec(String(d));
      if (m) resolve(m[1]);
    });
    server.stderr.on("data", (d) => serverLog.write(d));
    server.on("exit", (code) => reject(new Error(`code-server exited with ${code} (see ${out}/code-server.log)`)));
  });
  await check("code-server listens on 127.0.0.1", async () => { url = await listening; return url; }, { fatal: true });

  browser = await chromium.launch({ executablePath: args.chromium, args: ["--disable-dev-shm-usage", "--disable-gpu"] });
  page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  page.setDefaultTimeout(15000);
  const pageErrors = fs.createWriteStream(path.join(out, "browser-console.log"));
  page.on("console", (m) => pageErrors.write(`${m.type()}: ${m.text()}\n`));
  page.on("pageerror", (e) => pageErrors.write(`pageerror: ${e.message}\n`));
  await page.goto(`${url}/?folder=${encodeURIComponent(ws)}`);

  // 1. Activation (workspaceContains:**/*.cake) with no server to be found.
  await check("workbench loads", () => page.locator(".monaco-workbench .part.statusbar").waitFor({ timeout: 60000 }), { fatal: true });
  const notFound = page.locator(".notification-toast", { hasText: "cake-lsp not found" });
  await check("extension activates: status item and 'cake-lsp not found'", async () => {
    await notFound.waitFor({ timeout: 30000 });
    const toast = await notFound.innerText();
    assert(toast.includes(path.join(ws, "build", "bin", "cake-lsp")) && toast.includes("PATH"), `the toast does not say what was searched: ${toast}`);
    await statusItem().locator(".codicon-error").waitFor({ timeout: 5000 });
    const label = await statusItem().getAttribute("aria-label");
    assert(/cake-lsp not found/.test(label ?? ""), `status item's tooltip: ${label}`);
    return toast.split("\n").find((l) => l.includes("not found"));
  }, { fatal: true });

  // 2. TextMate colouring alone: keyword, type and comment coloured, each differently.
  let textmate;
  await check("TextMate colouring (no server)", async () => {
    await page.locator(".explorer-viewlet .monaco-list-row", { hasText: fileName }).click();
    const l = await until("coloured tokens", async () => {
      const v = await line(kernelLine + 1);   // a parameter: blanks, names, a keyword
      const blank = v.tokens.find((t) => /^\s+$/.test(t.text))?.color;
      return v.tokens.some((t) => /^\w+$/.test(t.text) && t.color !== blank) ? v : undefined;
    });
    const lines = await visibleLines();
    const colourOf = (re) => lines.flatMap((x) => x.tokens).find((t) => re.test(t.text))?.color;
    const kw = colourOf(/^kernel$/), num = colourOf(/^\d+$/), cm = colourOf(/^\/\//), plain = colourOf(/^\s+$/);
    assert(kw && num && cm && new Set([kw, num, cm, plain]).size === 4, `kernel ${kw}, a number ${num}, a comment ${cm}, blanks ${plain}: not four colours`);
    textmate = tokenColours(lines);
    return `kernel ${kw}, a number ${num}, a comment ${cm}, blanks ${plain} (line ${l.line})`;
  });

  // 3. Open Settings lands on a tab that shows cake.server.path.
  const setting = page.locator('.settings-editor .setting-item-contents[data-key="cake.server.path"]');
  await check("Open Settings shows cake.server.path", async () => {
    await notFound.hover();   // keeps the toast up
    await notFound.getByRole("button", { name: "Open Settings" }).click();
    await page.locator(".settings-editor").waitFor({ timeout: 15000 });
    const shown = await setting.waitFor({ timeout: 15000 }).then(() => true, () => false);
    const tab = (await page.locator(".settings-editor .settings-tabs-widget .action-label.checked").allInnerTexts()).join(" ").trim();
    const count = (await page.locator(".settings-editor .settings-count-widget").allInnerTexts()).join(" ").trim();
    assert(shown, `the settings editor (tab "${tab}": "${count}") shows no cake.server.path setting`);
    return `on the "${tab}" tab`;
  });

  // 4. The path typed into that setting (written to the remote's settings
  // file when the editor did not show it: a failure above); the extension
  // offers a restart.
  await check("set cake.server.path, Restart Server: cake-lsp runs", async () => {
    if (await setting.isVisible()) {
      await setting.locator("input").fill(args["cake-lsp"]);
    } else {
      fs.mkdirSync(path.join(userData, "Machine"), { recursive: true });
      fs.writeFileSync(path.join(userData, "Machine", "settings.json"), JSON.stringify({ "cake.server.path": args["cake-lsp"] }));
    }
    const restart = page.locator(".notification-toast", { hasText: "server settings changed" });
    await restart.waitFor({ timeout: 20000 });
    await restart.getByRole("button", { name: "Restart Server" }).click();
    await statusItem().locator(".codicon-check").waitFor({ timeout: 30000 });
    return await statusItem().getAttribute("aria-label");
  }, { fatal: true });

  // 5. Back in the file: the server's semantic tokens recolour tokens.
  await check("semantic tokens recolour the file", async () => {
    await page.locator(".tabs-container .tab", { hasText: "Settings" }).locator(".codicon-close").click();
    await fileTab().click();
    const changed = await until("a token's colour to change", async () => {
      const now = tokenColours(await visibleLines());
      const diff = [...now].filter(([k, c]) => textmate?.has(k) && textmate.get(k) !== c);
      return diff.length > 0 ? diff : undefined;
    });
    return `${changed.length} tokens, e.g. ${changed.slice(0, 3).map(([k, c]) => `${k.split("\u0000")[2]} ${textmate.get(k)} -> ${c}`).join(", ")}`;
  });

  // 6. The cost model in the editor.
  await check("code lens with the estimate on the kernel", async () => {
    const lens = await until("a code lens with a time", async () => {
      const t = await page.locator(".monaco-editor .codelens-decoration").allInnerTexts();
      return t.find((x) => /\d µs|\d ms|\d ns/.test(x));
    });
    return lens;
  });
  await check("inlay hints", async () => {
    const l = await until(`an inlay hint with a size on line ${smemLine}`, async () => {
      const v = await line(smemLine);
      return /\d+(\.\d+)? ?[KMG]?B\b/.test(v.hints) ? v : undefined;
    });
    const costly = (await visibleLines()).filter((x) => /µs|ms\b/.test(x.hints)).length;
    return `line ${smemLine}: "${l.hints.trim()}"; ${costly} visible lines with a cost hint`;
  });
  await check("hover on the kernel shows its estimate", async () => {
    await editor().locator(".view-line span span", { hasText: new RegExp(`^${kernelName}$`) }).first().hover();
    const hover = page.locator(".monaco-editor .monaco-hover:not(.hidden)");
    const text = await until("a hover with a time", async () => {
      const t = (await hover.allInnerTexts()).join("\n");
      return /\d(\.\d+)? ?(µs|ms|ns)/.test(t) ? t : undefined;
    });
    return text.split("\n").find((x) => /µs|ms|ns/.test(x));
  });
  await check("outline lists the kernel and its buffers", async () => {
    await page.mouse.move(5, 450);   // away from the hover
    const header = page.locator(".pane-header", { hasText: /^Outline$/i });
    if ((await header.getAttribute("aria-expanded")) !== "true") await header.click();
    const rows = page.locator(".pane", { has: header }).locator(".monaco-list-row .label-name");
    let t = [];
    const names = await until(`${kernelName} and ${smemName} in the outline`, async () => {
      t = (await rows.allInnerTexts()).map((x) => x.trim());
      return t.includes(kernelName) && t.includes(smemName) ? t : undefined;
    }).catch((e) => { throw new Error(`${e.message}; rows: ${JSON.stringify(t)}`); });
    return names.join(", ");
  });

  // 7. An edit: `empty` becomes `empti` (an undefined name, with a fix).
  await check(`an edit makes an error on line ${waitLine}`, async () => {
    const before = await line(waitLine);
    assert(!before.error, `line ${waitLine} has an error before the edit`);
    await gotoLine(waitLine, waitCol + 4);
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.type("i");
    const l = await until(`a squiggle on line ${waitLine}`, async () => {
      const v = await line(waitLine);
      return v.error && v.text.includes("empti[") ? v : undefined;
    });
    const others = (await visibleLines()).filter((x) => x.error && x.line !== waitLine).map((x) => x.line);
    assert(others.length === 0, `squiggles on other lines too: ${others.join(", ")}`);
    await runCommand("View: Focus Problems");
    const problem = await until("the problem in the Problems panel", async () => {
      const t = await page.locator(".markers-panel .monaco-list-row").allInnerTexts();
      return t.find((x) => x.includes(`[Ln ${waitLine},`) && /CAKE-E\d{4}/.test(x));
    });
    await runCommand("View: Hide Panel");
    return `${l.text.trim()} | ${problem.replace(/\s+/g, " ")}`;
  });

  // 8. The rule's page for the diagnostic under the cursor.
  await check("CAKE IR: Open Rule Documentation opens the rule's page", async () => {
    await gotoLine(waitLine, waitCol + 2);
    await runCommand("CAKE IR: Open Rule Documentation");
    const tab = page.locator(".tabs-container .tab", { hasText: /CAKE-E\d{4}/ });
    await tab.waitFor({ timeout: 20000 });
    const title = await tab.innerText();
    const code = /CAKE-E\d{4}/.exec(title)[0];
    const doc = page.frameLocator("iframe.webview.ready").frameLocator("#active-frame");
    await doc.locator("h1", { hasText: code }).waitFor({ timeout: 20000 });
    return `${title.trim()}: ${await doc.locator("h1").first().innerText()}`;
  });

  // 9. The quick fix (Ctrl+.) puts `empty` back; the error goes.
  await check("the quick fix repairs the edit", async () => {
    await gotoLine(waitLine, waitCol + 2);
    await page.keyboard.press("Control+.");
    const item = page.locator(".action-widget .monaco-list-row.focused", { hasText: "`empty`" });
    await item.waitFor({ timeout: 15000 });
    const title = await item.innerText();
    await page.keyboard.press("Enter");
    await until(`line ${waitLine} repaired, without a squiggle`, async () => {
      const v = await line(waitLine);
      return !v.error && v.text.includes("wait empty[");
    });
    await until("no problems in the status bar", async () => /No Problems/.test(await page.locator("#status\\.problems").getAttribute("aria-label")));
    return title.replace(/\s+/g, " ");
  });

  // 10. The kernel under the cursor as CUDA, read-only, beside the file; it
  // follows the file's edits (an error: it says why it cannot lower; undone:
  // the CUDA again).
  const lowered = () => page.locator('.editor-instance .monaco-editor[data-uri^="cake-lowered:"]').first();
  const loweredLines = async () => (await lowered().locator(".view-lines .view-line").allInnerTexts())
    .map((t) => t.replace(/\u00a0/g, " "));
  await check("CAKE IR: Show Lowered CUDA opens the kernel's CUDA beside, and it follows edits", async () => {
    await gotoLine(waitLine, waitCol + 2);
    await runCommand("CAKE IR: Show Lowered CUDA");
    const tab = page.locator(".tabs-container .tab", { hasText: `${kernelName}.sm_` });
    await tab.waitFor({ timeout: 20000 });
    const title = (await tab.innerText()).trim();
    await until("the prelude at the top of the view", async () => (await loweredLines()).some((x) => x.includes("cake prelude")));
    // The kernel's entry point, found in the view (Ctrl+F counts matches).
    await lowered().locator(".view-lines").click();
    await page.keyboard.press("Control+f");
    await page.keyboard.type(`${kernelName}(unsigned short*`);
    const found = await until("the kernel's signature in the view", async () => {
      const t = (await lowered().locator(".find-widget .matchesCount").allInnerTexts()).join(" ").trim();
      return /^1 of 1$/.test(t) ? t : undefined;
    });
    await page.keyboard.press("Escape");
    await page.keyboard.press("Control+Home");   // the top, where a refusal is written
    // An edit in the file that stops it lowering, then undone.
    await gotoLine(waitLine, waitCol + 4);
    await page.keyboard.press("Shift+ArrowRight");
    await page.keyboard.type("i");
    const refused = await until("the view to follow the edit", async () =>
      (await loweredLines()).find((x) => /is not lowered to CUDA .* while the file has errors/.test(x)));
    await page.keyboard.press("Control+z");
    await until("the CUDA back after the undo", async () => (await loweredLines()).some((x) => x.includes("cake prelude")));
    await shot("lowered-cuda");
    return `tab "${title}", its signature found (${found}), then "${refused.trim()}"`;
  });
} catch (err) {
  log(String(err?.message ?? err));
} finally {
  await cleanup();
}
log(failures === 0 ? "editors.vscode_e2e: all ok" : `editors.vscode_e2e: ${failures} check(s) failed`);
log(`screenshots: ${shots}`);
process.exit(failures === 0 ? 0 : 1);
