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
/// must be odd; and the first use of each stage is in phase 0, which a
/// start that is a multiple of 2 S gives.
inline bool phases_alternate(int stages, int start, int step) {
  return start % (2 * stages) == 0 && (step / std::gcd(step, stages)) % 2 == 1;
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

}  // namespace cake::testing
