// One-mistake mutations of the example kernels (docs/examples/): each bug a
// kernel author makes, written into a correct kernel, must be reported with
// its code on the line that causes it; each tricky but correct variant must
// stay clean. A mutation replaces text (the first occurrence of each `from`,
// in order); the expected error must start on the first line of the mutated
// file that contains `line`, and every other error must carry one of the
// codes in `also` (the consequences the same bug has elsewhere).
#include <catch2/catch.hpp>

#include "cake/analyze.h"
#include "cake/registry.h"
#include "support/test_files.h"

#include <string>
#include <vector>

namespace {

struct Mutation {
  std::string file;
  std::vector<std::pair<std::string, std::string>> edits;
  std::string code;  // "" for a variant that must stay clean
  std::string line;  // a substring of the line the error starts on
  std::vector<std::string> also = {};
};

const std::vector<Mutation>& mutations() {
  static const std::vector<Mutation> all = {
      // flash_attention.cake: causal attention, FA3's roles.
      {"flash_attention.cake", {{"      wgmma.commit\n      wgmma.wait 0\n      // key", "      wgmma.commit\n      // key"}},
       "CAKE-E0408", "s = select("},
      {"flash_attention.cake", {{"      wgmma.fence                                 // p was written", "      //"}},
       "CAKE-E0407", "wgmma o += p @ sV[st]"},
      {"flash_attention.cake", {{"mbarrier empty[2] count(2)", "mbarrier empty[2] count(1)"}}, "CAKE-E0401",
       "elect.warpgroup { arrive empty[st] }"},
      {"flash_attention.cake", {{"bytes(sK[st]) + bytes(sV[st])", "bytes(sK[st])"}}, "CAKE-E0402",
       "arrive.expect_tx full[st]", {"CAKE-E0601"}},
      {"flash_attention.cake", {{"        wait empty[st] parity(st.phase ^ 1)\n", ""}}, "CAKE-E0602",
       "tma.load sK[st]", {"CAKE-E0601"}},
      {"flash_attention.cake",
       {{"    pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 {\n      wait full",
         "    pipeline st in ring(2) for kt in 0 .. (block.x + 1) * 2 - 1 {\n      wait full"}},
       "CAKE-E0418", "tma.load sV[st]"},
      {"flash_attention.cake", {{"wait qfull parity(0)", "wait qfull parity(1)"}}, "CAKE-E0403", "wait qfull"},
      {"flash_attention.cake", {{"      wgmma.commit\n      wgmma.wait 0\n      elect.warpgroup", "      wgmma.commit\n      elect.warpgroup"}},
       "CAKE-E0602", "tma.load sV[st]", {"CAKE-E0408"}},
      {"flash_attention.cake", {{"tensormap tV = V box [64, 64]", "tensormap tV = V box [64, 128]"}}, "CAKE-E0502",
       "tensormap tV", {"CAKE-E0504", "CAKE-E0109"}},
      {"flash_attention.cake", {{"warpgroup(1, 2) maxnreg(232)", "warpgroup(1, 2) maxnreg(240)"}}, "CAKE-E0302",
       "role consumer"},
      {"flash_attention.cake", {{"reg p: bf16[64, 64]", "reg p: f16[64, 64]"}}, "CAKE-E0103", "p = cvt<bf16>(s)"},
      {"flash_attention.cake", {{"elect.warpgroup { arrive empty[st] }", "elect.warp { arrive empty[st] }"}},
       "CAKE-E0401", "elect.warp { arrive empty[st] }"},
      {"flash_attention.cake", {{"smem sV: bf16[2][64, 64] swizzle(128B)", "smem sV: bf16[2][64, 64]"}}, "CAKE-E0503",
       "tma.load sV[st]"},
      {"flash_attention.cake", {{"tQ[block.x * 128, 0], qfull", "tQ[block.x * 128, 0], full[0]"}}, "CAKE-E0402",
       "arrive.expect_tx qfull", {"CAKE-E0403"}},
      {"flash_attention.cake", {{"    o = o / l\n", "    o = o / l\n    wgmma o += p @ sV[0].T\n"}}, "CAKE-E0407",
       "wgmma o += p @ sV[0].T", {"CAKE-E0408"}},
      // blackwell_gemm.cake: tcgen05 and tensor memory.
      {"blackwell_gemm.cake", {{"acc[q * 32 : 32, c : 32]", "acc[0 : 32, c : 32]"}}, "CAKE-E0413", "tcgen05.ld r <- acc[0"},
      {"blackwell_gemm.cake", {{"      tcgen05.wait.ld", "      //"}}, "CAKE-E0412", "o = cvt<bf16>(r)"},
      {"blackwell_gemm.cake", {{"      tcgen05.commit done", "      //"}}, "CAKE-E0404", "wait done"},
      {"blackwell_gemm.cake", {{"        tcgen05.commit empty[s]", "        //"}}, "CAKE-E0404", "wait empty[s]"},
      {"blackwell_gemm.cake", {{"        wait full[s] parity(s.phase)\n", ""}}, "CAKE-E0601", "tcgen05.mma acc",
       {"CAKE-E0403"}},
      // hopper_gemm.cake: TMA and wgmma.
      {"hopper_gemm.cake", {{"      wgmma.fence ", "      // "}}, "CAKE-E0407", "wgmma acc +="},
      {"hopper_gemm.cake", {{"mbarrier empty[4] count(2)", "mbarrier empty[4] count(256)"}}, "CAKE-E0401",
       "elect.warpgroup { arrive empty[s] }", {"CAKE-E0403"}},
      {"hopper_gemm.cake", {{"wait full[s] parity(s.phase)", "wait full[s] parity(s.phase ^ 1)"}}, "CAKE-E0601",
       "wgmma acc +="},
      {"hopper_gemm.cake", {{"      wgmma.wait 0 ", "      // "}}, "CAKE-E0602", "tma.load sA[s]", {"CAKE-E0408"}},
      {"hopper_gemm.cake", {{"smem sA: bf16[4][128, 64]", "smem sA: bf16[3][128, 64]"}}, "CAKE-E0104", "tma.load sA[s]"},
      // ampere_gemm.cake: cp.async and one role of eight warps.
      {"ampere_gemm.cake", {{"cp.async.wait 2", "cp.async.wait 3"}}, "CAKE-E0409", "ldmatrix a <- sA"},
      {"ampere_gemm.cake", {{"      syncthreads                               // ...in every thread", "      //"}},
       "CAKE-E0409", "ldmatrix a <- sA"},
      {"ampere_gemm.cake", {{"      syncthreads                               // every warp holds", "      //"}},
       "CAKE-E0605", "cp.async sA[s] <- A"},
      // row_softmax.cake: partial results through shared memory.
      {"row_softmax.cake", {{"    syncthreads                                     // all partial maxima", "    //"}},
       "CAKE-E0605", "load t <- pmax[i]"},
      {"row_softmax.cake", {{"    syncthreads                                     // all partial sums", "    //"}},
       "CAKE-E0605", "load t <- psum[i]"},
      // kmeans_assign.cake: the brief's bug and its cousin.
      {"kmeans_assign.cake", {{"count(256)", "count(2)"}}, "CAKE-E0401", "arrive empty[s]"},
      {"kmeans_assign.cake", {{"      arrive empty[s]  ", "      elect.warpgroup { arrive empty[s] }  "}}, "CAKE-E0401",
       "elect.warpgroup { arrive empty[s] }", {"CAKE-E0403"}},
      // cluster_rowsum.cake: distributed shared memory across a cluster.
      {"cluster_rowsum.cake", {{"    cluster.sync                                    // every partial", "    //"}},
       "CAKE-E0602", "store lead[", {"CAKE-E0601", "CAKE-E0420"}},
      {"cluster_rowsum.cake", {{"dsmem lead = part cta(0)", "dsmem lead = part cta(cluster.rank + 1)"}}, "CAKE-E0414",
       "dsmem lead"},
      // blackwell_gemm_pair.cake: CTA pairs.
      {"blackwell_gemm_pair.cake", {{"    if half == 0 {                              // the even CTA", "    if true {  //"}},
       "CAKE-E0421", "tcgen05.mma acc += sA[s]"},
      {"blackwell_gemm_pair.cake", {{"tcgen05.commit done multicast(3 << cluster.rank)", "tcgen05.commit done"}},
       "CAKE-E0403", "tcgen05.commit done"},
      {"blackwell_gemm_pair.cake", {{"kt * 64], lead_full[s]\n        tma.load sB", "kt * 64], full[s]\n        tma.load sB"}},
       "CAKE-E0402", "arrive.expect_tx full[s]", {"CAKE-E0403"}},
      {"blackwell_gemm_pair.cake", {{"full[s], 2 * (bytes(sA[s]) + bytes(sB[s]))", "full[s], bytes(sA[s]) + bytes(sB[s])"}},
       "CAKE-E0402", "arrive.expect_tx full[s]", {"CAKE-E0601", "CAKE-E0602"}},

      // Tricky but correct: these stay clean.
      {"flash_attention.cake",
       {{"ring(2)", "ring(3)"}, {"ring(2)", "ring(3)"}, {"bf16[2][64, 64]", "bf16[3][64, 64]"},
        {"bf16[2][64, 64]", "bf16[3][64, 64]"}, {"full[2]", "full[3]"}, {"empty[2] count(2)", "empty[3] count(2)"}},
       "", ""},
      {"flash_attention.cake",
       {{"mbarrier empty[2] count(2)", "mbarrier empty[2] count(256)"},
        {"elect.warpgroup { arrive empty[st] }", "arrive empty[st]"}},
       "", ""},
      // A one-phase barrier waited for on every trip (not a stale phase).
      {"flash_attention.cake",
       {{"    wait qfull parity(0)\n", ""}, {"      wait full[st] parity(st.phase)\n", "      wait full[st] parity(st.phase)\n      wait qfull parity(0)\n"}},
       "", ""},
      {"hopper_gemm.cake",
       {{"ring(4)", "ring(2)"}, {"ring(4)", "ring(2)"}, {"bf16[4][128, 64]", "bf16[2][128, 64]"},
        {"bf16[4][256, 64]", "bf16[2][256, 64]"}, {"full[4]", "full[2]"}, {"empty[4]", "empty[2]"}},
       "", ""},
      {"ampere_gemm.cake", {{"cp.async.wait 2", "cp.async.wait 0"}}, "", ""},
      // The even CTA named another way.
      {"blackwell_gemm_pair.cake", {{"full cta(cluster.rank - cluster.rank % 2)", "full cta(cluster.rank / 2 * 2)"}}, "", ""},
      // Each CTA's partials read by CTA 0 through its own name, the others' through the view.
      {"cluster_rowsum.cake", {{"      for i in 0 .. 16 {\n        load t <- part[i]", "      for i in 0 .. 16 {\n        load t <- lead[i]"}},
       "", ""},
  };
  return all;
}

}  // namespace

TEST_CASE("each one-mistake mutation of an example is reported on the line that causes it") {
  int bugs = 0, clean = 0;
  for (size_t i = 0; i < mutations().size(); ++i) {
    const Mutation& mu = mutations()[i];
    std::string text = cake::test::read_file(std::string(CAKE_DOCS_DIR) + "/examples/" + mu.file).value_or("");
    REQUIRE(!text.empty());
    INFO("mutation " << i << " of " << mu.file << (mu.code.empty() ? " (clean)" : ": " + mu.code));
    for (const auto& [from, to] : mu.edits) {
      size_t at = text.find(from);
      INFO("edit `" << from << "`");
      REQUIRE(at != std::string::npos);
      text.replace(at, from.size(), to);
    }
    auto a = cake::analyze(text);
    int want_line = -1;
    if (!mu.code.empty()) {
      size_t at = text.find(mu.line);
      INFO("line `" << mu.line << "`");
      REQUIRE(at != std::string::npos);
      want_line = static_cast<int>(a->lines.position(static_cast<uint32_t>(at)).line);
    }
    bool found = false;
    for (const cake::Diagnostic& d : a->diagnostics) {
      if (d.severity != cake::Severity::Error) continue;
      std::string code(cake::rule_info(d.id).code);
      int line = static_cast<int>(a->lines.position(d.range.begin).line);
      INFO(code << " on line " << line + 1 << ": " << d.message);
      if (code == mu.code && line == want_line) found = true;
      bool expected = code == mu.code || std::find(mu.also.begin(), mu.also.end(), code) != mu.also.end();
      CHECK(expected);
    }
    if (mu.code.empty()) {
      ++clean;
      continue;
    }
    INFO("expected " << mu.code << " on line " << want_line + 1);
    CHECK(found);
    ++bugs;
  }
  CHECK(bugs >= 30);
  CHECK(clean >= 5);
}
