// Random mma.sync kernels for codegen.random_mma: one warp multiplies an
// [M, K] by an [N, K] tile of one operand type (bf16, f16, tf32, f8e4m3,
// f8e5m2, i8, u8) into an f32 (i32) accumulator, its operands loaded in the
// accumulator layout (which the lowering gathers into operand registers for
// 8-bit values and tf32), or B through shared memory by ldmatrix, plain or
// `trans`. Each is accepted by the verifier, lowers, and computes on the
// host what the CPU executor computes (tests/codegen/host_run_test.cpp).
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

inline RandomKernel random_mma_kernel(uint64_t seed) {
  std::mt19937_64 rng(seed);
  auto pick = [&](int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng); };
  auto one_of = [&](std::vector<std::string> v) { return v[pick(static_cast<int>(v.size()))]; };
  RandomKernel out;
  out.target = one_of({"sm_80", "sm_89", "sm_90a"});
  std::vector<std::string> types = {"bf16", "f16", "tf32", "i8", "u8"};
  if (out.target != "sm_80") types.insert(types.end(), {"f8e4m3", "f8e5m2"});
  std::string t = one_of(types);
  bool integer = t == "i8" || t == "u8", eight = integer || t[1] == '8', sixteen = t == "bf16" || t == "f16";
  int k_step = eight ? 32 : t == "tf32" ? 8 : 16;
  int m = 16 * (1 + pick(2)), k = k_step * (1 + pick(eight ? 2 : 3));
  // B through shared memory by ldmatrix (16-bit values; `trans` from a
  // [K, N] tile), or loaded in the accumulator layout.
  std::string b_from = sixteen ? one_of({"load", "ldmatrix", "trans"}) : "load";
  int n = eight || b_from == "trans" ? 16 * (1 + pick(2)) : 8 * (1 + pick(4));
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
           " = cvt<" + t + ">(cvt<f32>(cvt<i32>(max(min(f" + name + ", 2.0), -2.0) * 4.0)) / 4.0)\n";
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
  if (pick(2)) s += "  mma acc += " + product + "\n";
  if (pick(2)) s += "  acc = acc + acc\n";
  s += "  store C <- acc\n}\n";
  out.text = s;
  out.what = t + " [" + M + ", " + K + "] x " + b_shape + " (B by " + b_from + ") on " + out.target;
  return out;
}

}  // namespace cake::testing
