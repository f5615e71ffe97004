// Tokenises .cake files with the TextMate grammar (vscode-textmate +
// vscode-oniguruma, the engine VS Code uses) and compares the scopes with
// snapshots in test/snapshots/, then checks targeted expectations.
//   node test/grammar.test.mjs            compare (exit 1 on a difference)
//   node test/grammar.test.mjs --update   rewrite the snapshots
// Inputs: docs/examples/*.cake and test/fixtures/*.cake.
import fs from "node:fs";
import path from "node:path";
import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";

const require = createRequire(import.meta.url);
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const here = path.dirname(fileURLToPath(import.meta.url));
const extRoot = path.resolve(here, "..");
const repoRoot = path.resolve(extRoot, "../..");
const snapDir = path.join(here, "snapshots");
const update = process.argv.includes("--update");

const wasm = fs.readFileSync(require.resolve("vscode-oniguruma/release/onig.wasm")).buffer;
await oniguruma.loadWASM(wasm);
const registry = new vsctm.Registry({
  onigLib: Promise.resolve({
    createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
    createOnigString: (s) => new oniguruma.OnigString(s),
  }),
  loadGrammar: async (scopeName) => {
    if (scopeName !== "source.cake") return null;
    const file = path.join(extRoot, "syntaxes", "cake.tmLanguage.json");
    return vsctm.parseRawGrammar(fs.readFileSync(file, "utf8"), file);
  },
});
const grammar = await registry.loadGrammar("source.cake");
if (!grammar) throw new Error("grammar source.cake did not load");

/** [{line, start, end, text, scopes}] for every token that is not only whitespace. */
function tokenize(text) {
  const out = [];
  let state = vsctm.INITIAL;
  text.split("\n").forEach((line, i) => {
    const r = grammar.tokenizeLine(line, state);
    for (const t of r.tokens) {
      const s = line.slice(t.startIndex, Math.min(t.endIndex, line.length));
      if (s.trim() === "") continue;
      out.push({ line: i, start: t.startIndex, end: t.endIndex, text: s, scopes: t.scopes.slice(1) });
    }
    state = r.ruleStack;
  });
  return out;
}

function snapshot(text) {
  const tokens = tokenize(text);
  const lines = text.split("\n");
  const out = [];
  let k = 0;
  lines.forEach((line, i) => {
    out.push(`> ${line}`);
    for (; k < tokens.length && tokens[k].line === i; k++) {
      const t = tokens[k];
      if (t.scopes.length === 0) continue; // plain identifiers and the like
      out.push(`  ${t.start}-${t.end} ${JSON.stringify(t.text)}: ${t.scopes.join(" ")}`);
    }
  });
  return out.join("\n") + "\n";
}

const inputs = [];
for (const dir of [path.join(repoRoot, "docs", "examples"), path.join(here, "fixtures")]) {
  if (!fs.existsSync(dir)) continue;
  for (const f of fs.readdirSync(dir).sort()) if (f.endsWith(".cake")) inputs.push(path.join(dir, f));
}
let failures = 0;
const fail = (msg) => { failures++; console.error(`FAIL ${msg}`); };
if (inputs.length === 0) fail("no .cake inputs found");

fs.mkdirSync(snapDir, { recursive: true });
for (const file of inputs) {
  const name = path.basename(file) + ".snap";
  const actual = snapshot(fs.readFileSync(file, "utf8"));
  const snapFile = path.join(snapDir, name);
  if (update) {
    fs.writeFileSync(snapFile, actual);
    console.log(`updated ${path.relative(extRoot, snapFile)}`);
    continue;
  }
  if (!fs.existsSync(snapFile)) { fail(`${name}: no snapshot (run with --update)`); continue; }
  const expected = fs.readFileSync(snapFile, "utf8");
  if (expected !== actual) {
    const a = actual.split("\n"), e = expected.split("\n");
    const at = a.findIndex((l, i) => l !== e[i]);
    fail(`${name}: differs from the snapshot at line ${at + 1}\n  expected: ${e[at]}\n  actual:   ${a[at]}\n  (run node test/grammar.test.mjs --update if the change is intended)`);
  } else {
    console.log(`ok   ${name}`);
  }
}

// Targeted expectations: [source line, token text, occurrence, scope it must carry (innermost), scope it must not carry].
const cases = [
  ["target sm_90a", "target", 0, "keyword.other.target.cake"],
  ["target sm_90a", "sm_90a", 0, "constant.language.target.cake"],
  ["kernel gemm(", "kernel", 0, "keyword.other.declaration.cake"],
  ["kernel gemm(", "gemm", 0, "entity.name.function.cake"],
  ["  A: global bf16[M, K] row_major,", "bf16", 0, "storage.type.primitive.cake"],
  ["  A: global bf16[M, K] row_major,", "global", 0, "storage.modifier.space.cake"],
  ["  A: global bf16[M, K] row_major,", "row_major", 0, "storage.modifier.attribute.cake"],
  ["  smem a: bf16[4][128, 64] swizzle 128B", "smem", 0, "storage.type.resource.cake"],
  ["  smem a: bf16[4][128, 64] swizzle 128B", "128B", 0, "constant.numeric.bytes.cake"],
  ["  smem a: bf16[4][128, 64] swizzle 128B", "a", 0, "variable.other.declaration.cake"],
  ["    tma.load a[s] <- A[m, k], full[s]", "tma.load", 0, "support.function.op.cake"],
  ["    tma.load a[s] <- A[m, k], full[s]", "<-", 0, "keyword.operator.arrow.cake"],
  ["    cp.async.wait 0", "cp.async.wait", 0, "support.function.op.cake"],
  ["    wait full[s] parity(p)", "wait", 0, "support.function.op.cake"],
  ["  let w = warp.id", "warp", 0, "variable.language.cake"],
  ["  load x <- X[block.x * 16 : 16, 0 : 8]", "block", 0, "variable.language.cake"],
  ["  kernel k() grid 1 block 128", "block", 0, "keyword.other.cake"],
  ["  for i in 0 .. 4 step 2 {", "for", 0, "keyword.control.loop.cake"],
  ["  for i in 0 .. 4 step 2 {", "..", 0, "keyword.operator.range.cake"],
  ["  x = exp2((x - m) * 1.4426950408889634)", "exp2", 0, "entity.name.function.call.cake"],
  ["  x = exp2((x - m) * 1.4426950408889634)", "1.4426950408889634", 0, "constant.numeric.float.cake"],
  ["const C = 1024", "C", 0, "variable.other.constant.cake"],
  ["  role producer warp 0 maxnreg(40) {", "producer", 0, "entity.name.namespace.role.cake"],
  ["  role producer warp 0 maxnreg(40) {", "maxnreg", 0, "storage.modifier.attribute.cake"],
  ["x = 1 // a comment with kernel in it", "a comment with kernel in it", 0, "comment.line.double-slash.cake"],
  ["  when M >= 4096 -> big_gemm", "big_gemm", 0, "entity.name.function.cake"],
  ["  tcgen05.wait.ld", "tcgen05.wait.ld", 0, "support.function.op.cake"],
];
for (const [src, text, nth, scope] of cases) {
  const toks = tokenize(src).filter((t) => t.text === text || t.text.trim() === text);
  const t = toks[nth];
  if (!t) { fail(`${JSON.stringify(src)}: no token ${JSON.stringify(text)}`); continue; }
  if (t.scopes[t.scopes.length - 1] !== scope) fail(`${JSON.stringify(src)}: ${JSON.stringify(text)} has ${t.scopes.join(" ") || "(no scope)"}, expected ${scope}`);
}
// A block comment spanning lines keeps its scope on the next line.
{
  const toks = tokenize("/* one\n kernel two */ kernel k");
  const inner = toks.find((t) => t.line === 1 && t.text.includes("kernel two"));
  const after = toks.find((t) => t.line === 1 && t.text === "kernel");
  if (!inner || !inner.scopes.includes("comment.block.cake")) fail("multi-line block comment lost its scope");
  if (!after || !after.scopes.includes("keyword.other.declaration.cake")) fail("keyword after a block comment is not a keyword");
}
console.log(`${cases.length + 1} targeted expectations checked`);

if (failures > 0) {
  console.error(`${failures} failure(s)`);
  process.exit(1);
}
console.log(update ? "snapshots updated" : "grammar: all ok");
