// Random MMA kernels for codegen.random_mma. mma.sync: one warp multiplies an
// [M, K] by an [N, K] tile of one operand type (bf16, f16, tf32, f8e4m3,
// f8e5m2, i8, u8) into an f32 (i32) accumulator, its operands loaded in the
// accumulator layout (which the lowering gathers into operand registers for
// 8-bit values and tf32), or B through shared memory by ldmatrix, plain or
// `trans`. wgmma (random_wgmma_kernel()): one warpgroup, A in swizzled
// shared memory or in registers, B K-major or (16-bit) N-major in swizzled
// shared memory. Each is accepted by the verifier, lowers, and computes on
// the host what the CPU executor computes (tests/codegen/host_run_test.cpp).
//
// Float operands are made multiples of 1/4 in [-2, 2], which every
// operand type holds exactly, so products and sums are exact in f32 and the
// executor (which sums in double) and the host's model of mma.sync agree
// bit for bit; integer products wrap alike.
#pragma once

#include "random_kernels.h"

#include <random>
#include <string>

namespace cake::testing {

/// `f` (f32) made a multiple of 1/4 in [-2, 2] and converted to `t`.
inline std::string quantized_operand(const std::string& t, const std::string& f) {
  return "cvt<" + t + ">(cvt<f32>(cvt<i32>(max(min(" + f + ", 2.0), -2.0) * 4.0)) / 4.0)";
}

inline RandomKernel random_mma_kernel(uint64_t seed) {
  Dice dice(seed);
  RandomKernel out;
  out.target = dice.one_of({"sm_80", "sm_89", "sm_90a"});
  std::vector<std::string> types = {"bf16", "f16", "tf32", "i8", "u8"};
  if (out.target != "sm_80") types.insert(types.end(), {"f8e4m3", "f8e5m2"});
  std::string t = dice.one_of(types);
  bool integer = t == "i8" || t == "u8", eight = integer || t[1] == '8', sixteen = t == "bf16" || t == "f16";
  int k_step = eight ? 32 : t == "tf32" ? 8 : 16;
  int m = 16 * (1 + dice.pick(2)), k = k_step * (1 + dice.pick(eight ? 2 : 3));
  // B through shared memory by ldmatrix (16-bit values; `trans` from a
  // [K, N] tile), or loaded in the accumulator layout.
  std::string b_from = sixteen ? dice.one_of({"load", "ldmatrix", "trans"}) : "load";
  int n = eight || b_from == "trans" ? 16 * (1 + dice.pick(2)) : 8 * (1 + dice.pick(4));
  std::string acc = integer ? "i32" : "f32", in = integer ? t : "f32";
  std::string M = std::to_string(m), N = std::to_string(n), K = std::to_string(k);
  bool trans = b_from == "trans";
  std::string b_shape = trans ? "[" + K + ", " + N + "]" : "[" + N + ", " + K + "]";
  std::string s;
  s += "kernel random_mma_" + std::to_string(seed) + "(A: global " + in + "[" + M + ", " + K + "], B: global " + in + b_shape + ", C: global " + acc + "[" + M +
       ", " + N + "]) grid (1) block 32 {\n";
  if (b_from != "load") s += "  smem sb: " + t + b_shape + "\n";
  s += "  reg a: " + t + "[" + M + ", " + K + "] layout(mma_acc)\n";
  s += "  reg b: " + t + b_shape + " layout(mma_acc)\n";
  s += "  reg acc: " + acc + "[" + M + ", " + N + "] layout(mma_acc)\n";
  auto operand = [&](const std::string& name, const std::string& tensor, const std::string& shape) {
    if (integer) return "  load " + name + " <- " + tensor + "\n";
    return "  reg f" + name + ": f32" + shape + " layout(mma_acc)\n  load f" + name + " <- " + tensor + "\n  " + name +
           " = " + quantized_operand(t, "f" + name) + "\n";
  };
  s += operand("a", "A", "[" + M + ", " + K + "]");
  if (b_from == "load") {
    s += operand("b", "B", b_shape);
  } else {
    s += "  reg b0: " + t + b_shape + " layout(mma_acc)\n";
    s += operand("b0", "B", b_shape);
    s += "  store sb <- b0\n  syncthreads\n";
    s += "  ldmatrix b <- sb" + std::string(trans ? " trans" : "") + "\n";
  }
  std::string product = trans ? "a @ b" : "a @ b.T";
  s += "  mma acc = " + product + "\n";
  if (dice.pick(2)) s += "  mma acc += " + product + "\n";
  if (dice.pick(2)) s += "  acc = acc + acc\n";
  s += "  store C <- acc\n}\n";
  out.text = s;
  out.what = t + " [" + M + ", " + K + "] x " + b_shape + " (B by " + b_from + ") on " + out.target;
  return out;
}

/// A warpgroup's wgmma (sm_90a) of an A [64, K] (in swizzled shared memory
/// or in registers) by a B [N, K] (or, for 16-bit values, an N-major
/// [K, N]) in swizzled shared memory, each tile's rows one swizzle span,
/// filled a row per thread from quantized values (see above).
inline RandomKernel random_wgmma_kernel(uint64_t seed) {
  Dice dice(seed);
  RandomKernel out;
  out.target = "sm_90a";
  std::string t = dice.one_of({"bf16", "f16", "tf32", "f8e4m3", "f8e5m2", "i8", "u8"});
  bool integer = t == "i8" || t == "u8", sixteen = t == "bf16" || t == "f16";
  int bytes = integer || t[1] == '8' ? 1 : sixteen ? 2 : 4;
  std::string swizzle = sixteen ? dice.one_of({"128B", "64B", "32B"}) : "128B";
  int span = swizzle == "128B" ? 128 : swizzle == "64B" ? 64 : 32;
  bool mn_major = sixteen && dice.pick(3) == 0, a_in_registers = dice.pick(3) == 0;
  // K-major rows are one span of K; an N-major B's rows one span of N (and
  // K any number of k-steps when A is in registers).
  int k = span / bytes, n = 0;
  if (mn_major) {
    n = span / bytes;
    if (a_in_registers) k = 16 * (1 + dice.pick(4));
  } else {
    n = std::stoi(dice.one_of({"8", "16", "24", "32", "48", "64", "96", "128"}));
  }
  std::string acc = integer ? "i32" : "f32", N = std::to_string(n), K = std::to_string(k);
  std::string b_shape = mn_major ? "[" + K + ", " + N + "]" : "[" + N + ", " + K + "]";
  int b_rows = mn_major ? k : n, b_cols = mn_major ? n : k;
  std::string in = integer ? t : "f32";
  std::string s = "kernel random_wgmma_" + std::to_string(seed) + "(A: global " + in + "[64, " + K + "], B: global " + in +
                  b_shape + ", C: global " + acc + "[64, " + N + "]) grid (1) block 128 {\n";
  if (!a_in_registers) s += "  smem sa: " + t + "[64, " + K + "] swizzle(" + swizzle + ")\n";
  s += "  smem sb: " + t + b_shape + " swizzle(" + swizzle + ")\n";
  s += "  role mma warpgroup(0) {\n";
  s += "    reg acc: " + acc + "[64, " + N + "] layout(wgmma_acc)\n";
  auto quantized = [&](const std::string& name) {
    return quantized_operand(t, name);
  };
  // A row per thread into shared memory, 16 values at a time: the thread's
  // row of `tile`.
  auto rows = [&](const std::string& name, const std::string& tensor, const std::string& tile, int count, int cols) {
    std::string r = "32 * warp.id + lane", part = "[" + r + ", 16 * c : 16]";
    std::string body = "    if " + r + " < " + std::to_string(count) + " {\n      for c in 0 .. " + std::to_string(cols / 16) + " {\n";
    if (integer) {
      body += "        load q" + name + " <- " + tensor + part + "\n";
    } else {
      body += "        load f" + name + " <- " + tensor + part + "\n";
      body += "        q" + name + " = " + quantized("f" + name) + "\n";
    }
    body += "        store " + tile + part + " <- q" + name + "\n      }\n    }\n";
    std::string decl = "    reg q" + name + ": " + t + "[16]\n";
    if (!integer) decl += "    reg f" + name + ": f32[16]\n";
    return decl + body;
  };
  std::string a = "sa";
  if (a_in_registers) {
    a = "p";
    s += "    reg p: " + t + "[64, " + K + "] layout(wgmma_acc)\n";
    if (integer) {
      s += "    load p <- A\n";
    } else {
      s += "    reg fp: f32[64, " + K + "] layout(wgmma_acc)\n    load fp <- A\n    p = " + quantized("fp") + "\n";
    }
  } else {
    s += rows("a", "A", "sa", 64, k);
  }
  s += rows("b", "B", "sb", b_rows, b_cols);
  s += "    fence.proxy.async\n    syncthreads\n    wgmma.fence\n";
  std::string product = a + " @ sb" + std::string(mn_major ? "" : ".T");
  s += "    wgmma acc = " + product + "\n";
  if (dice.pick(2)) s += "    wgmma acc += " + product + "\n";
  s += "    wgmma.commit\n    wgmma.wait 0\n    store C <- acc\n  }\n}\n";
  out.text = s;
  out.what = t + " A " + (a_in_registers ? "in registers" : "in shared memory") + " x B " + b_shape + " swizzle(" +
             swizzle + ")" + (mn_major ? " N-major" : "");
  return out;
}

/// One CTA's tcgen05.mma (sm_100a), issued by one thread: an M = 128 or
/// M = 64 accumulator in tensor memory of A [M, K] (in swizzled shared
/// memory, or, for 16-bit values and tf32, in tensor memory written by
/// tcgen05.st) by a B [N, K] (or an N-major [K, N], its rows one swizzle
/// span) in swizzled shared memory, of any of the seven operand types (e4m3
/// and e5m2 mixed too), `=` then perhaps `+=` or `+=, accumulate(false)`;
/// read back by tcgen05.ld 32 lanes a warp into `tcgen05_acc` fragments
/// (M = 128) or 16 into `mma_acc` ones (M = 64), whole or 32 columns at a
/// time. Operands filled and quantized as above.
inline RandomKernel random_tcgen05_kernel(uint64_t seed) {
  Dice dice(seed);
  auto str = [](int v) { return std::to_string(v); };
  RandomKernel out;
  out.target = "sm_100a";
  std::string ta = dice.one_of({"bf16", "f16", "tf32", "f8e4m3", "f8e5m2", "i8", "u8"});
  bool integer = ta == "i8" || ta == "u8", sixteen = ta == "bf16" || ta == "f16", fp8 = ta.starts_with("f8");
  std::string tb = fp8 ? dice.one_of({"f8e4m3", "f8e5m2"}) : ta;
  int bytes = integer || fp8 ? 1 : sixteen ? 2 : 4;
  std::string swizzle = dice.one_of({"128B", "64B", "32B"});
  int span = swizzle == "128B" ? 128 : swizzle == "64B" ? 64 : 32;
  int m = dice.pick(2) ? 128 : 64, n_step = m == 128 ? 16 : 8;
  bool a_in_tmem = (sixteen || ta == "tf32") && dice.pick(3) == 0;
  // An N-major B's rows are one span of N, which must be a valid N.
  bool mn_major = !integer && span / bytes % n_step == 0 && dice.pick(3) == 0;
  int k = span / bytes, n = 0;
  if (mn_major) {
    n = span / bytes;
  } else {
    // (With A in tensor memory its registers on the way there count too.)
    n = n_step * (1 + dice.pick((a_in_tmem ? 64 : 128) / n_step));
    // kind::i8 at M = 64: N of 8 .. 32 by 8, then by 16 (PTX ISA).
    if (integer && m == 64 && n > 32) n = n / 16 * 16;
  }
  std::string acc = integer ? "i32" : "f32", M = str(m), N = str(n), K = str(k);
  std::string b_shape = mn_major ? "[" + K + ", " + N + "]" : "[" + N + ", " + K + "]";
  int b_rows = mn_major ? k : n, b_cols = mn_major ? n : k;
  int columns = 32;
  while (columns < n) columns *= 2;
  auto input = [&](const std::string& t) { return integer ? t : std::string("f32"); };
  std::string s = "kernel random_tcgen05_" + std::to_string(seed) + "(A: global " + input(ta) + "[" + M + ", " + K +
                  "], B: global " + input(tb) + b_shape + ", C: global " + acc + "[" + M + ", " + N +
                  "]) grid (1) block 128 {\n";
  if (!a_in_tmem) s += "  smem sa: " + ta + "[" + M + ", " + K + "] swizzle(" + swizzle + ")\n";
  s += "  smem sb: " + tb + b_shape + " swizzle(" + swizzle + ")\n";
  s += "  tmem acc: " + acc + "[" + M + ", " + str(columns) + "]\n";
  // A 16-bit A takes half a column a value, tf32 a column.
  int a_columns = 32;
  while (a_columns < k * bytes / 4) a_columns *= 2;
  if (a_in_tmem) s += "  tmem tA: " + ta + "[" + M + ", " + str(a_columns * 4 / bytes) + "]\n";
  s += "  mbarrier done\n";
  // A warp's lanes of the accumulator: 32 (M = 128) or 16 (M = 64) rows.
  int lanes = m == 128 ? 32 : 16;
  std::string layout = m == 128 ? "tcgen05_acc" : "mma_acc", L = str(lanes);
  s += "  let q = warp.id % 4\n";
  auto rows = [&](const std::string& name, const std::string& t, const std::string& tensor, const std::string& tile,
                  int count, int cols) {
    int w = std::min(16, cols);
    std::string r = "32 * warp.id + lane", part = "[" + r + ", " + str(w) + " * c : " + str(w) + "]";
    std::string body = "  if " + r + " < " + str(count) + " {\n    for c in 0 .. " + str(cols / w) + " {\n";
    if (integer) {
      body += "      load q" + name + " <- " + tensor + part + "\n";
    } else {
      body += "      load f" + name + " <- " + tensor + part + "\n";
      body += "      q" + name + " = " + quantized_operand(t, "f" + name) + "\n";
    }
    body += "      store " + tile + part + " <- q" + name + "\n    }\n  }\n";
    std::string decl = "  reg q" + name + ": " + t + "[" + str(w) + "]\n";
    if (!integer) decl += "  reg f" + name + ": f32[" + str(w) + "]\n";
    return decl + body;
  };
  std::string a = "sa";
  if (a_in_tmem) {
    a = "tA[:, 0 : " + K + "]";
    s += "  reg fa: f32[" + L + ", " + K + "] layout(" + layout + ")\n";
    s += "  reg pa: " + ta + "[" + L + ", " + K + "] layout(" + layout + ")\n";
    s += "  load fa <- A[q * " + L + " : " + L + ", :]\n";
    s += "  pa = " + quantized_operand(ta, "fa") + "\n";
    s += "  tcgen05.st tA[q * " + L + " : " + L + ", 0 : " + K + "] <- pa\n  tcgen05.wait.st\n";
  } else {
    s += rows("a", ta, "A", "sa", m, k);
  }
  s += rows("b", tb, "B", "sb", b_rows, b_cols);
  s += "  fence.proxy.async\n  syncthreads\n";
  std::string product = a + " @ sb" + std::string(mn_major ? "" : ".T");
  std::string d = n == columns ? "acc" : "acc[:, 0 : " + N + "]";
  s += "  elect {\n    tcgen05.mma " + d + " = " + product + "\n";
  int second = dice.pick(3);
  if (second == 1) s += "    tcgen05.mma " + d + " += " + product + "\n";
  if (second == 2) s += "    tcgen05.mma " + d + " += " + product + ", accumulate(false)\n";
  s += "    tcgen05.commit done\n  }\n  wait done parity(0)\n";
  bool chunks = n % 32 == 0 && n > 32 && dice.pick(2);
  int width = chunks ? 32 : n;
  s += "  reg r: " + acc + "[" + L + ", " + str(width) + "] layout(" + layout + ")\n";
  std::string cols = chunks ? "c : 32" : "0 : " + N, c_cols = chunks ? "c : 32" : ":";
  std::string read = "tcgen05.ld r <- acc[q * " + L + " : " + L + ", " + cols + "]\n";
  std::string indent = chunks ? "    " : "  ";
  std::string body = indent + read + indent + "tcgen05.wait.ld\n" + indent + "store C[q * " + L + " : " + L + ", " +
                     c_cols + "] <- r\n";
  s += chunks ? "  for c in 0 .. " + N + " step 32 {\n" + body + "  }\n" : body;
  s += "}\n";
  out.text = s;
  out.what = "M = " + M + ", " + ta + (tb != ta ? " x " + tb : "") + " A " + (a_in_tmem ? "in tensor memory" : "in shared memory") +
             " x B " + b_shape + " swizzle(" + swizzle + ")" + (mn_major ? " N-major" : "") +
             (second == 1 ? ", = then +=" : second == 2 ? ", = then += accumulate(false)" : "") +
             (chunks ? ", read 32 columns at a time" : "");
  return out;
}

}  // namespace cake::testing
