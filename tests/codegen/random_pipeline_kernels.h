// Random pipelines for codegen.random_pipelines: rings of shared-memory
// stages filled ahead of their readers, of two kinds.
//
// - mbarrier rings (sm_90 on): a producer warp's elected thread waits for a
//   stage to be empty, expects its bytes and fills it by `tma.load` (a 2-D
//   box, swizzled where its rows are one swizzle span) and sometimes also
//   by `bulk.load` (1-D); 1 to 3 consumer warps wait for it to be full,
//   read it a run of values a thread, arrive on `empty` and either store
//   what they read per trip or sum it over the trips. Or, in clusters of
//   two CTAs, each CTA's producer loads half of every stage and multicasts
//   it to both, and each consumer releases the stage in both CTAs
//   (`arrive empty[s] multicast(3)`), as a multicast GEMM's B ring does.
//   A persistent kernel's ring goes on over an outer loop of tiles.
//   Sums leave through shared memory and a `tma.store` half the time
//   (fence.proxy.async, a named barrier of the consumers, one thread's
//   store, commit and wait).
// - cp.async rings (any target): one role fills the first stages in a
//   prologue, then per trip waits for the oldest group, reads its stage
//   between two `syncthreads` and refills it with the tile that many trips
//   ahead (ampere_gemm's shape).
//
// Stage counts, trip counts (fewer trips than stages included), the
// range's start and step, tile shapes, dtypes, warps and CTAs vary: what
// decides each value read is the lowering's stage and phase arithmetic,
// its barrier set-up, expected byte counts and copy addresses, which the
// host runtime (tests/codegen/host/cuda_host.h) runs with a producer that
// races ahead as far as the barriers let it. Each kernel is one the
// verifier must accept: a start and step are drawn only where every
// stage's phases alternate (see `phases_alternate`), so a refusal is a
// disagreement between the verifier and this file's reading of the
// language, and a test failure either way.
#pragma once

#include "random_kernels.h"

#include <numeric>
#include <random>
#include <string>
#include <vector>

namespace cake::testing {

/// Whether `pipeline s in ring(stages) for i in start .. start + n * step
/// step step` uses each stage with phases 0, 1, 0, ... (docs/language.md,
/// Pipelines: s = i % S, s.phase = (i / S) % 2): a stage comes back every
/// S / gcd(step, S) trips, i / S having grown by step / gcd(step, S), which
/// must be odd; and the first use of each stage, in the first S /
/// gcd(step, S) trips, must be in phase 0 (with step 3 of a ring of 4, i =
/// 6 is stage 2's first use, in phase 1: its consumer's wait on a fresh
/// barrier passes at once, before the stage is filled).
inline bool phases_alternate(int stages, int start, int step) {
  const int g = std::gcd(step, stages);
  if ((step / g) % 2 == 0) return false;
  for (int j = 0; j < stages / g; ++j)
    if ((start + j * step) / stages % 2 != 0) return false;
  return true;
}

inline RandomKernel random_pipeline_kernel(uint64_t seed) {
  Dice dice(seed);
  auto str = [](int64_t v) { return std::to_string(v); };
  RandomKernel out;
  bool tma = dice.pick(3) != 0;
  out.target = tma ? dice.one_of({"sm_90", "sm_90a", "sm_100a"}) : dice.one_of({"sm_80", "sm_86", "sm_89", "sm_90a"});
  std::string dt = dice.one_of({"f32", "bf16"});
  int elem = dt == "f32" ? 4 : 2;
  // A tile of R rows by C values; a thread reads V neighbouring values of
  // a row per pass, P passes.
  int consumers = tma ? 1 + dice.pick(3) : 1 << dice.pick(3);
  int threads = 32 * consumers;
  int row_bytes = 16 << dice.pick(5);  // 16 .. 256
  int cols = row_bytes / elem;
  int v = std::min(cols, 1 << dice.pick(3));
  if (cols / v > 32) v = cols / 32;
  int per_row = cols / v, rows_per_pass = threads / per_row;
  int passes = 1 << dice.pick(2);
  // At most 256 rows (a TMA box's limit), and stages of whole 128-byte
  // units (each stage a TMA destination).
  while (rows_per_pass * passes > 256) passes /= 2;
  while (rows_per_pass * passes * row_bytes % 128 != 0) passes *= 2;
  int rows = rows_per_pass * passes;
  std::string swizzle;
  if (tma && (row_bytes == 32 || row_bytes == 64 || row_bytes == 128) && rows % 8 == 0 && dice.pick(2))
    swizzle = str(row_bytes) + "B";
  int stages = 1 + dice.pick(4), trips = 1 + dice.pick(7), step = 1, start = 0;
  if (tma) {
    step = 1 + dice.pick(3);
    start = dice.pick(4) == 0 ? 2 * stages : 0;
    if (!phases_alternate(stages, start, step)) step = 1;
  }
  int end = start + (trips - 1) * step + 1 + dice.pick(step);  // the last trip is start + (trips - 1) step
  // A persistent kernel's ring goes on over its tiles: an outer loop of
  // `tiles` turns, each a range of `trips` that starts where the last
  // ended, so the stages and phases continue from tile to tile.
  int tiles = tma && step == 1 && start == 0 && dice.pick(3) == 0 ? 2 + dice.pick(2) : 1;
  if (tiles > 1) end = tiles * trips;
  int ctas = 1 + dice.pick(2);
  // A cluster of two multicasting halves of each stage: each half a whole
  // number of 128-byte units (1024 swizzled: the swizzle's atom).
  bool multicast = tma && dice.pick(3) == 0 && rows % 2 == 0 && rows / 2 * row_bytes % (swizzle.empty() ? 128 : 1024) == 0;
  if (multicast) ctas = 2 * (1 + dice.pick(2));
  bool sum = dice.pick(2) == 0, bulk = tma && !multicast && dice.pick(3) == 0, tma_store = tma && sum && dice.pick(2) == 0;
  int bulk_len = 4 << dice.pick(4);  // f32 values: 16 .. 128 bytes
  std::string R = str(rows), C = str(cols), V = str(v), S = str(stages), E = str(end);
  std::string tile = "[" + R + ", " + C + "]";
  // Tile k of CTA b is rows (b * end + k) * R of X; with multicast, of
  // cluster b / 2 (the same tile in both CTAs), and each CTA stores its
  // copy at its own rows of Y.
  std::string x_rows = str(ctas / (multicast ? 2 : 1) * end * rows), tile_row = "(block.x * " + E + " + k) * " + R;
  std::string source_row = multicast ? "(block.x / 2 * " + E + " + k) * " + R + " + cluster.rank * " + str(rows / 2) : tile_row;
  std::string y_shape = "[" + str(ctas * (sum ? 1 : end) * rows) + ", " + C + "]";
  std::string name = "random_pipeline_" + str(static_cast<int64_t>(seed));
  std::string s = "kernel " + name + "(X: global " + dt + "[" + x_rows + ", " + C + "], ";
  if (bulk) s += "W: global f32[" + str(ctas * end * bulk_len) + "], ";
  s += "Y: global f32" + y_shape + ") grid (" + str(ctas) + ") block " + str(threads + (tma ? 32 : 0)) +
       (multicast ? " cluster (2)" : "") + " {\n";
  s += "  smem buf: " + dt + "[" + S + "]" + tile + (swizzle.empty() ? "" : " swizzle(" + swizzle + ")") + "\n";
  if (bulk) s += "  smem wb: f32[" + S + "][" + str(bulk_len) + "]\n";

  // What each consumer thread reads of a stage (`stage`), adds up or
  // stores: its row and columns in pass p.
  std::string q = tma ? "(32 * role.rank + lane)" : "(32 * warp.id + lane)";
  std::string row = "p * " + str(rows_per_pass) + " + " + q + " / " + str(per_row);
  std::string col = q + " % " + str(per_row) + " * " + V;
  auto consume = [&](const std::string& stage, const std::string& indent) {
    std::string b;
    b += indent + "for p in 0 .. " + str(passes) + " {\n";
    b += indent + "  load y <- buf[" + stage + "][" + row + ", " + col + " : " + V + "]\n";
    std::string value = dt == "f32" ? "y" : "cvt<f32>(y)";
    if (bulk) {
      b += indent + "  load w <- wb[" + stage + "][" + q + " % " + str(bulk_len) + "]\n";
      value += " + w";
    }
    if (sum) {
      b += indent + "  acc[p, :] = acc[p, :] + (" + value + ") * cvt<f32>(k % 5 + 1)\n";
    } else {
      b += indent + "  z = " + value + " + cvt<f32>(k)\n";
      b += indent + "  store Y[" + tile_row + " + " + row + ", " + col + " : " + V + "] <- z\n";
    }
    b += indent + "}\n";
    return b;
  };
  auto fragments = [&](const std::string& indent) {
    std::string b = indent + "reg y: " + dt + "[" + V + "]\n";
    if (bulk) b += indent + "reg w: f32\n";
    if (sum)
      b += indent + "reg acc: f32[" + str(passes) + ", " + V + "] = 0\n";
    else
      b += indent + "reg z: f32[" + V + "]\n";
    return b;
  };
  auto sums_out = [&](const std::string& indent) {
    if (!sum) return std::string();
    std::string to = tma_store ? "out[" : "Y[block.x * " + R + " + ";
    std::string b = indent + "for p in 0 .. " + str(passes) + " {\n" + indent + "  store " + to + row + ", " + col + " : " +
                    V + "] <- acc[p, :]\n" + indent + "}\n";
    if (tma_store)
      b += indent + "fence.proxy.async\n" + indent + "sync stored\n" + indent + "elect {\n" + indent +
           "  tma.store ty[block.x * " + R + ", 0] <- out\n" + indent + "  tma.store.commit\n" + indent +
           "  tma.store.wait 0\n" + indent + "}\n";
    return b;
  };

  std::string range = tiles > 1 ? "k in t * " + str(trips) + " .. t * " + str(trips) + " + " + str(trips)
                                : "k in " + str(start) + " .. " + E + (step > 1 ? " step " + str(step) : "");
  // The ring's loop (`body`, at `indent`), inside the tiles' loop if any.
  auto over_tiles = [&](const std::string& body, const std::string& indent) {
    if (tiles == 1) return body;
    std::string b = indent + "for t in 0 .. " + str(tiles) + " {\n";
    size_t from = 0;
    while (from < body.size()) {
      size_t to = body.find('\n', from);
      b += "  " + body.substr(from, to + 1 - from);
      from = to + 1;
    }
    return b + indent + "}\n";
  };
  if (tma) {
    s += "  mbarrier full[" + S + "]\n";
    s += "  mbarrier empty[" + S + "] count(" + str(multicast ? 2 * threads : threads) + ")\n";
    std::string box = multicast ? "[" + str(rows / 2) + ", " + C + "]" : tile;
    s += "  tensormap tx = X box " + box + (swizzle.empty() ? "" : " swizzle(" + swizzle + ")") + "\n";
    if (tma_store) {
      s += "  smem out: f32" + tile + "\n";
      s += "  namedbarrier stored id(1) threads(" + str(threads) + ")\n";
      s += "  tensormap ty = Y box " + tile + "\n";
    }
    bool producer_last = dice.pick(2) == 0;
    std::string producer = producer_last ? str(consumers) : "0";
    std::string consumer = producer_last ? "0 .. " + str(consumers) : "1 .. " + str(consumers + 1);
    std::string expected = "bytes(buf[s])" + std::string(bulk ? " + bytes(wb[s])" : "");
    s += "  role producer warp(" + producer + ") {\n    elect {\n";
    std::string fill = "      pipeline s in ring(" + S + ") for " + range + " {\n";
    fill += "        wait empty[s] parity(s.phase ^ 1)\n";
    fill += "        arrive.expect_tx full[s], " + expected + "\n";
    if (multicast)
      fill += "        tma.load buf[s][cluster.rank * " + str(rows / 2) + " : " + str(rows / 2) + ", :] <- tx[" +
              source_row + ", 0], full[s] multicast(3)\n";
    else
      fill += "        tma.load buf[s] <- tx[" + tile_row + ", 0], full[s]\n";
    if (bulk)
      fill += "        bulk.load wb[s] <- W[(block.x * " + E + " + k) * " + str(bulk_len) + " : " + str(bulk_len) +
              "], full[s]\n";
    s += over_tiles(fill + "      }\n", "      ");
    // A CTA leaves only once its peer no longer arrives on its barriers
    // or writes into its stages.
    std::string leave = multicast ? "    cluster.sync\n" : "";
    s += "    }\n" + leave + "  }\n";
    s += "  role consumer warp(" + consumer + ") {\n" + fragments("    ");
    std::string drain = "    pipeline s in ring(" + S + ") for " + range + " {\n";
    drain += "      wait full[s] parity(s.phase)\n";
    drain += consume("s", "      ");
    drain += "      arrive empty[s]" + std::string(multicast ? " multicast(3)" : "") + "\n";
    s += over_tiles(drain + "    }\n", "    ") + sums_out("    ") + leave + "  }\n";
  } else {
    // The first S tiles (those that exist) in the prologue, one group
    // each; per trip, `wait S - 1` leaves the trip's group retired.
    std::string T = str(trips);
    s += "  role all_warps all {\n" + fragments("    ");
    s += "    for k in 0 .. " + S + " {\n      if k < " + T + " {\n";
    s += "        cp.async buf[k] <- X[" + tile_row + " : " + R + ", :]\n      }\n      cp.async.commit\n    }\n";
    s += "    pipeline s in ring(" + S + ") for k in 0 .. " + T + " {\n";
    s += "      cp.async.wait " + str(stages - 1) + "\n      syncthreads\n";
    s += consume("s", "      ");
    s += "      syncthreads\n";
    s += "      if k + " + S + " < " + T + " {\n";
    s += "        cp.async buf[s] <- X[(block.x * " + E + " + k + " + S + ") * " + R + " : " + R + ", :]\n      }\n";
    s += "      cp.async.commit\n    }\n" + sums_out("    ") + "  }\n";
  }
  s += "}\n";
  out.text = s;
  out.what = std::string(tma ? "mbarrier ring" : "cp.async ring") + " of " + S + " stages of " + dt + tile +
             (swizzle.empty() ? "" : " swizzle(" + swizzle + ")") + (bulk ? " + bulk" : "") +
             (multicast ? ", halves multicast in clusters of 2" : "") + ", " +
             (tiles > 1 ? str(tiles) + " tiles of " : "") + range + ", " +
             (tma_store ? "tma.store of the sums, " : "") +
             str(consumers) + " consumer warps, " + str(ctas) + " CTAs, " + (sum ? "summed" : "stored per trip");
  return out;
}

namespace random_pipeline_detail {

/// What the GEMM pipelines share, once drawn: C [M, N] = A [M, K] @ B [N,
/// K].T (or A @ an N-major B [K, N]) of dtype `t`, in tiles bm x bn x bk
/// whose rows are one swizzle span, over a grid of gx x gy CTAs, through a
/// ring of `stages` TMA-filled stages turned `trips` times.
struct GemmRing {
  std::string t, swizzle;
  int stages = 1, trips = 1, bm = 0, bn = 0, bk = 0, gx = 1, gy = 1;
  bool n_major = false;

  static std::string str(int64_t v) { return std::to_string(v); }
  int64_t m() const { return int64_t(bm) * gy; }
  int64_t n() const { return int64_t(bn) * gx; }
  int64_t k() const { return int64_t(bk) * trips; }
  std::string sw() const { return " swizzle(" + swizzle + ")"; }
  std::string b_tensor() const {
    return n_major ? "[" + str(k()) + ", " + str(n()) + "]" : "[" + str(n()) + ", " + str(k()) + "]";
  }
  std::string b_tile() const {
    return n_major ? "[" + str(bk) + ", " + str(bn) + "]" : "[" + str(bn) + ", " + str(bk) + "]";
  }
  std::string ring() const { return "pipeline s in ring(" + str(stages) + ") for kt in 0 .. " + str(trips) + " {\n"; }
  /// The kernel `name`'s header (C of `acc`, `threads` a CTA), its tiles,
  /// `more` declarations, its barriers (`empty` counting `empty_count`,
  /// nothing for one arrival; then `more_barriers`), the tensor maps, and
  /// the role of `producer`'s warps whose elected thread fills the ring.
  std::string head(const std::string& name, const std::string& acc, int threads, const std::string& more,
                   const std::string& empty_count, const std::string& more_barriers, const std::string& producer) const {
    std::string S = str(stages), BM = str(bm), BK = str(bk);
    std::string b_at = n_major ? "kt * " + BK + ", block.x * " + str(bn) : "block.x * " + str(bn) + ", kt * " + BK;
    std::string s = "kernel " + name + "(A: global " + t + "[" + str(m()) + ", " + str(k()) + "], B: global " + t +
                    b_tensor() + ", C: global " + acc + "[" + str(m()) + ", " + str(n()) + "]) grid (" + str(gx) + ", " +
                    str(gy) + ") block " + str(threads) + " {\n";
    s += "  smem sA: " + t + "[" + S + "][" + BM + ", " + BK + "]" + sw() + "\n";
    s += "  smem sB: " + t + "[" + S + "]" + b_tile() + sw() + "\n" + more;
    s += "  mbarrier full[" + S + "]\n  mbarrier empty[" + S + "]" + empty_count + "\n" + more_barriers;
    s += "  tensormap tA = A box [" + BM + ", " + BK + "]" + sw() + "\n";
    s += "  tensormap tB = B box " + b_tile() + sw() + "\n";
    s += "  role producer " + producer + " {\n    elect {\n      " + ring();
    s += "        wait empty[s] parity(s.phase ^ 1)\n";
    s += "        arrive.expect_tx full[s], bytes(sA[s]) + bytes(sB[s])\n";
    s += "        tma.load sA[s] <- tA[block.y * " + BM + ", kt * " + BK + "], full[s]\n";
    s += "        tma.load sB[s] <- tB[" + b_at + "], full[s]\n      }\n    }\n  }\n";
    return s;
  }
  /// For a failure's message (then the tiles).
  std::string what() const {
    return t + " [" + str(m()) + ", " + str(k()) + "] x " + b_tensor() + (n_major ? " N-major" : "") + sw() + ", " +
           str(stages) + " stages, " + str(trips) + " trips, ";
  }
};

}  // namespace random_pipeline_detail

/// hopper_gemm's shape at random (sm_90a): a producer warpgroup's elected
/// thread fills a ring of A and B tiles by TMA, each tile's rows one
/// swizzle span of K; one or two consumer warpgroups wait for a stage,
/// multiply their 64 rows of it by wgmma (K-major A and B, or a 16-bit
/// N-major B, each k-step's descriptor further along the stage), wait for
/// the group and release the stage once per warpgroup; C = A B^T (or A B)
/// over the trips, stored at the end. The inputs are the seeded ones of
/// kernel_io.h (not quantized): the sums are compared with the executor's
/// tolerances, as the examples' are.
inline RandomKernel random_wgmma_pipeline_kernel(uint64_t seed) {
  Dice dice(seed);
  random_pipeline_detail::GemmRing g;
  auto str = random_pipeline_detail::GemmRing::str;
  RandomKernel out;
  out.target = "sm_90a";
  g.t = dice.one_of({"bf16", "f16", "tf32", "f8e4m3"});
  int bytes = g.t == "tf32" ? 4 : g.t == "f8e4m3" ? 1 : 2;
  bool sixteen = bytes == 2;
  g.swizzle = dice.one_of({"128B", "64B", "32B"});
  if (!sixteen) g.swizzle = "128B";
  int span = g.swizzle == "128B" ? 128 : g.swizzle == "64B" ? 64 : 32;
  g.n_major = sixteen && dice.pick(3) == 0;
  int groups = 1 + dice.pick(2);
  g.stages = 1 + dice.pick(4), g.trips = 1 + dice.pick(5);
  g.bk = span / bytes, g.bm = 64 * groups;
  // An N-major B tile is [BK, BN] with BN one span; a K-major one [BN, BK].
  g.bn = g.n_major ? span / bytes : 8 * (1 + dice.pick(16));
  g.gx = 1 + dice.pick(2), g.gy = 1 + dice.pick(2);
  std::string BM = str(g.bm), BN = str(g.bn);
  std::string s = g.head("random_wgmma_pipeline_" + str(static_cast<int64_t>(seed)), "f32", 128 * (1 + groups), "",
                         " count(" + str(groups) + ")", "", "warpgroup(0)");
  s += "  role consumer warpgroup(1 .. " + str(1 + groups) + ") {\n";
  s += "    reg acc: f32[64, " + BN + "] layout(wgmma_acc)\n    " + g.ring();
  s += "      wait full[s] parity(s.phase)\n      wgmma.fence\n";
  std::string a = groups > 1 ? "sA[s][role.rank * 64 : 64, :]" : "sA[s]";
  std::string product = a + " @ sB[s]" + (g.n_major ? "" : ".T");
  s += "      wgmma acc += " + product + ", accumulate(kt > 0)\n";
  s += "      wgmma.commit\n      wgmma.wait 0\n";
  s += "      elect.warpgroup { arrive empty[s] }\n    }\n";
  s += "    store C[block.y * " + BM + " + role.rank * 64 : 64, block.x * " + BN + " : " + BN + "] <- acc\n  }\n}\n";
  out.text = s;
  out.what = g.what() + str(groups) + " consumer warpgroups, tiles " + BM + " x " + BN;
  return out;
}

/// blackwell_gemm's shape at random (sm_100a): warp 0's elected thread
/// fills a ring of A and B tiles by TMA, warp 1's issues each stage's
/// tcgen05.mma into tensor memory and frees the stage with tcgen05.commit,
/// and a warpgroup reads the accumulator back once the last commit lands.
/// M = 128 or 64, K-major tiles (or a 16-bit N-major B) whose rows are
/// one swizzle span, 16- and 8-bit floats, tf32 and i8; as above, the
/// seeded inputs and the executor's tolerances.
inline RandomKernel random_tcgen05_pipeline_kernel(uint64_t seed) {
  Dice dice(seed);
  random_pipeline_detail::GemmRing g;
  auto str = random_pipeline_detail::GemmRing::str;
  RandomKernel out;
  out.target = "sm_100a";
  g.t = dice.one_of({"bf16", "f16", "tf32", "f8e4m3", "f8e5m2", "i8"});
  int bytes = g.t == "tf32" ? 4 : g.t == "bf16" || g.t == "f16" ? 2 : 1;
  g.swizzle = dice.one_of({"128B", "64B", "32B"});
  int span = g.swizzle == "128B" ? 128 : g.swizzle == "64B" ? 64 : 32;
  g.bm = dice.pick(2) ? 128 : 64;
  int n_step = g.bm == 128 ? 16 : 8;
  g.n_major = bytes == 2 && span / bytes % n_step == 0 && dice.pick(3) == 0;
  g.stages = 1 + dice.pick(4), g.trips = 1 + dice.pick(5);
  g.bk = span / bytes;
  g.bn = g.n_major ? span / bytes : n_step * (1 + dice.pick(128 / n_step));
  if (g.t == "i8" && g.bm == 64 && g.bn > 32) g.bn = g.bn / 16 * 16;  // kind::i8 at M = 64 (PTX ISA)
  g.gx = 1 + dice.pick(2), g.gy = 1 + dice.pick(2);
  int columns = 32;
  while (columns < g.bn) columns *= 2;
  std::string acc = g.t == "i8" ? "i32" : "f32";
  std::string BM = str(g.bm), BN = str(g.bn);
  std::string s = g.head("random_tcgen05_pipeline_" + str(static_cast<int64_t>(seed)), acc, 256,
                         "  tmem acc: " + acc + "[" + BM + ", " + str(columns) + "]\n", "", "  mbarrier done\n", "warp(0)");
  std::string d = g.bn == columns ? "acc" : "acc[:, 0 : " + BN + "]";
  s += "  role mma warp(1) {\n    elect {\n      " + g.ring();
  s += "        wait full[s] parity(s.phase)\n";
  s += "        tcgen05.mma " + d + " += sA[s] @ sB[s]" + (g.n_major ? "" : ".T") + ", accumulate(kt > 0)\n";
  s += "        tcgen05.commit empty[s]\n      }\n      tcgen05.commit done\n    }\n  }\n";
  s += "  role idle warp(2 .. 4) { }\n";
  // Each warp its own lanes: 32 rows (M = 128) or 16 (M = 64).
  int lanes = g.bm == 128 ? 32 : 16;
  std::string L = str(lanes), layout = g.bm == 128 ? "tcgen05_acc" : "mma_acc";
  bool chunks = g.bn % 32 == 0 && g.bn > 32;
  std::string width = chunks ? "32" : BN;
  s += "  role epilogue warpgroup(1) {\n    let q = warp.id % 4\n";
  s += "    reg r: " + acc + "[" + L + ", " + width + "] layout(" + layout + ")\n    wait done parity(0)\n";
  std::string rows = "q * " + L + " : " + L;
  if (chunks) {
    s += "    for c in 0 .. " + BN + " step 32 {\n      tcgen05.ld r <- acc[" + rows + ", c : 32]\n";
    s += "      tcgen05.wait.ld\n      store C[block.y * " + BM + " + " + rows + ", block.x * " + BN + " + c : 32] <- r\n    }\n";
  } else {
    s += "    tcgen05.ld r <- acc[" + rows + ", 0 : " + BN + "]\n    tcgen05.wait.ld\n";
    s += "    store C[block.y * " + BM + " + " + rows + ", block.x * " + BN + " : " + BN + "] <- r\n";
  }
  s += "  }\n}\n";
  out.text = s;
  out.what = g.what() + "tiles " + BM + " x " + BN;
  return out;
}

/// ampere_gemm's shape at random (sm_80 on): every warp fills a cp.async
/// ring of A and B tiles (a group a stage, the stage refilled S trips
/// ahead), reads its part of each stage by ldmatrix between two
/// `syncthreads` and multiplies it by mma.sync; 16-bit values, or 8-bit
/// ones (which ldmatrix leaves in the operand's order), on a grid of warps
/// of 1-2 x 1-2, each a TM x TN tile.
inline RandomKernel random_mma_pipeline_kernel(uint64_t seed) {
  Dice dice(seed);
  auto str = random_pipeline_detail::GemmRing::str;
  RandomKernel out;
  std::string t = dice.one_of({"bf16", "f16", "f8e4m3", "i8"});
  bool eight = t == "f8e4m3" || t == "i8";
  out.target = t == "f8e4m3" ? dice.one_of({"sm_89", "sm_90a"}) : dice.one_of({"sm_80", "sm_86", "sm_89", "sm_90a"});
  int bytes = eight ? 1 : 2;
  std::string swizzle = dice.one_of({"128B", "64B", "32B", ""});
  int span = swizzle == "128B" ? 128 : swizzle == "64B" ? 64 : 32;
  int bk = span / bytes;
  int wm = 1 + dice.pick(2), wn = 1 + dice.pick(2), tm = 16 << dice.pick(3);
  int tn = eight ? 16 << dice.pick(2) : 8 << dice.pick(3);
  int bm = wm * tm, bn = wn * tn, stages = 1 + dice.pick(4), trips = 1 + dice.pick(6);
  int gx = 1 + dice.pick(2), gy = 1 + dice.pick(2);
  std::string acc = t == "i8" ? "i32" : "f32", S = str(stages), T = str(trips), BM = str(bm), BN = str(bn), BK = str(bk);
  std::string TM = str(tm), TN = str(tn), SW = swizzle.empty() ? "" : " swizzle(" + swizzle + ")";
  int64_t m = int64_t(bm) * gy, n = int64_t(bn) * gx, k = int64_t(bk) * trips;
  std::string s = "kernel random_mma_pipeline_" + str(static_cast<int64_t>(seed)) + "(A: global " + t + "[" + str(m) +
                  ", " + str(k) + "], B: global " + t + "[" + str(n) + ", " + str(k) + "], C: global " + acc + "[" +
                  str(m) + ", " + str(n) + "]) grid (" + str(gx) + ", " + str(gy) + ") block " + str(32 * wm * wn) +
                  " {\n";
  s += "  smem sA: " + t + "[" + S + "][" + BM + ", " + BK + "]" + SW + "\n";
  s += "  smem sB: " + t + "[" + S + "][" + BN + ", " + BK + "]" + SW + "\n";
  s += "  role gemm all {\n    let wm = warp.id / " + str(wn) + "\n    let wn = warp.id % " + str(wn) + "\n";
  s += "    reg acc: " + acc + "[" + TM + ", " + TN + "] layout(mma_acc) = 0\n";
  s += "    reg a: " + t + "[" + TM + ", " + BK + "] layout(mma_acc)\n";
  s += "    reg b: " + t + "[" + TN + ", " + BK + "] layout(mma_acc)\n";
  auto fill = [&](const std::string& stage, const std::string& tile, const std::string& indent) {
    return indent + "cp.async sA[" + stage + "] <- A[block.y * " + BM + " : " + BM + ", " + tile + " * " + BK + " : " + BK +
           "]\n" + indent + "cp.async sB[" + stage + "] <- B[block.x * " + BN + " : " + BN + ", " + tile + " * " + BK +
           " : " + BK + "]\n";
  };
  s += "    for p in 0 .. " + S + " {\n      if p < " + T + " {\n" + fill("p", "p", "        ") +
       "      }\n      cp.async.commit\n    }\n";
  s += "    pipeline s in ring(" + S + ") for kt in 0 .. " + T + " {\n";
  s += "      cp.async.wait " + str(stages - 1) + "\n      syncthreads\n";
  s += "      ldmatrix a <- sA[s][wm * " + TM + " : " + TM + ", :]\n";
  s += "      ldmatrix b <- sB[s][wn * " + TN + " : " + TN + ", :]\n      syncthreads\n";
  s += "      if kt + " + S + " < " + T + " {\n" + fill("s", "(kt + " + S + ")", "        ") + "      }\n";
  s += "      cp.async.commit\n      mma acc += a @ b.T\n    }\n";
  s += "    store C[block.y * " + BM + " + wm * " + TM + " : " + TM + ", block.x * " + BN + " + wn * " + TN + " : " + TN +
       "] <- acc\n  }\n}\n";
  out.text = s;
  out.what = t + " [" + str(m) + ", " + str(k) + "] x [" + str(n) + ", " + str(k) + "]" + SW + " on " + out.target + ", " +
             S + " stages, " + T + " trips, " + str(wm) + " x " + str(wn) + " warps of " + TM + " x " + TN;
  return out;
}

}  // namespace cake::testing
