// Random kernels of register fragments, for differential tests of the
// lowering against the CPU executor (codegen/host_run_test.cpp on the host,
// gpu/gpu_check.cpp on a GPU): each seed gives one kernel the verifier
// accepts, of one owner (a thread, a warp's `mma_acc`, a warpgroup's
// `wgmma_acc`), whose statements mix loads, element-wise expressions
// (arithmetic, max/min/abs, select over comparisons of values and of
// row()/col(), broadcast row vectors, single elements as scalars (`x[3, 5]`,
// not of a warpgroup's fragment), an f32 scalar parameter, exp2), conversions to 16- and 8-bit
// floats and to i32, integer arithmetic, row reductions (of floats and of
// integers, which wrap), an arg-reduction, per thread sometimes an f64
// tile's arithmetic, reductions and arg-reductions, and a round trip
// through shared memory (a store, or each unit's tile copied in by
// cp.async), per thread sometimes lanes of a warp exchanging tiles through
// shared memory (in code every lane runs, under `if lane % 2 == 0` and in
// loops, some of whose trips differ between the lanes), and that stores
// every fragment it computes. What decides each element is where the lowering places it, so
// these kernels exercise the fragment layouts' index arithmetic in
// combinations no hand-written kernel covers.
//
// The values stay comparable with the executor's tolerances: every f32
// assignment is clamped to [-64, 64]; a row sum adds terms made multiples of
// 2^-6 first, which any order adds exactly; f64 values are fractions of
// 2^-n near 1e8 that double holds exactly (f32 does not); and a conversion to a narrower
// type, a comparison, a sum and an arg-reduction read only values both
// sides compute bit for bit (not of an exp2, which a GPU approximates).
#pragma once

#include <array>
#include <cstdint>
#include <random>
#include <string>
#include <vector>

namespace cake::testing {

struct RandomKernel {
  std::string target;
  std::string text;  // without its `target` line
  std::string what;  // owner and shape, for a failure's message
};

/// A seed's draws, for the generators written as one function.
class Dice {
 public:
  explicit Dice(uint64_t seed) : rng_(seed) {}
  /// 0 .. n - 1.
  int pick(int n) { return std::uniform_int_distribution<int>(0, n - 1)(rng_); }
  bool chance(int percent) { return pick(100) < percent; }
  /// One of v; a braced list of string literals draws a std::string.
  template <class T = std::string>
  T one_of(const std::vector<T>& v) {
    return v[static_cast<size_t>(pick(static_cast<int>(v.size())))];
  }

 private:
  std::mt19937_64 rng_;
};

namespace random_kernel_detail {

/// An expression's text, and whether both sides compute it bit for bit.
struct Val {
  std::string text;
  bool exact = true;
};

enum class Owner { Thread, Warp, Warpgroup };

class Generator : Dice {
 public:
  explicit Generator(uint64_t seed) : Dice(seed), seed_(seed), lanes_(seed ^ 0x9e3779b97f4a7c15ull) {}

  RandomKernel make() {
    RandomKernel out;
    owner_ = static_cast<Owner>(pick(3));
    switch (owner_) {
      case Owner::Thread:
        rows_ = one_of<int>({1, 2, 4});
        cols_ = one_of<int>({1, 2, 4, 8, 16});
        units_ = one_of<int>({32, 64, 128});
        threads_ = units_;
        unit_ = "(warp.id * 32 + lane)";
        out.target = one_of<std::string>({"sm_80", "sm_89", "sm_90a"});
        break;
      case Owner::Warp:
        rows_ = one_of<int>({16, 16, 32});
        cols_ = one_of<int>({8, 16, 24, 32, 64});
        units_ = one_of<int>({1, 2, 4});
        threads_ = 32 * units_;
        unit_ = "warp.id";
        layout_ = " layout(mma_acc)";
        row_layout_ = " layout(mma_acc.row)";
        out.target = one_of<std::string>({"sm_80", "sm_89", "sm_90a"});
        break;
      case Owner::Warpgroup:
        rows_ = 64;
        cols_ = one_of<int>({8, 16, 32, 64});
        units_ = one_of<int>({1, 2});
        threads_ = 128 * units_;
        unit_ = "role.rank";
        layout_ = " layout(wgmma_acc)";
        row_layout_ = " layout(wgmma_acc.row)";
        out.target = "sm_90a";
        break;
    }
    // Four tiles of rows x cols within a thread's registers (E0304).
    while (rows_ * cols_ / (threads_ / units_) > 48) cols_ /= 2;
    ctas_ = one_of<int>({1, 2});
    target_ = out.target;
    total_rows_ = ctas_ * units_ * rows_;
    std::vector<std::string> narrow = {"bf16", "f16"};
    if (out.target != "sm_80") {
      narrow.push_back("f8e4m3");
      narrow.push_back("f8e5m2");
    }
    narrow_ = one_of(narrow);
    // 8- and 16-bit integers wrap as they are stored; in an accumulator
    // layout 8-bit ones are packed four to a register.
    int_ = owner_ == Owner::Thread ? one_of<std::string>({"i32", "i32", "i16", "u16", "i8", "u8", "u32"})
                                   : one_of<std::string>({"i32", "i32", "i8", "u8"});
    argmax_ = chance(50);
    smem_ = chance(60);
    // An f64 tile per thread where the registers allow it.
    f64_ = owner_ == Owner::Thread && rows_ * cols_ <= 16 && chance(50);
    swizzle_ = smem_ && owner_ != Owner::Thread && chance(50) ? swizzle_for(cols_ * 4) : "";

    body();
    out.text = kernel_text();
    out.what = std::string(owner_ == Owner::Thread ? "per-thread" : owner_ == Owner::Warp ? "mma_acc" : "wgmma_acc") +
               " [" + std::to_string(rows_) + ", " + std::to_string(cols_) + "] x " + std::to_string(units_) +
               " units x " + std::to_string(ctas_) + " CTAs, " + narrow_ + " on " + out.target;
    return out;
  }

 private:
  uint64_t seed_;
  // The lane exchanges' own draws, so that they leave the other draws, and
  // so each seed's kernel, as they were before them.
  Dice lanes_;
  bool lane_smem_ = false;  // `sl` declared: some lanes exchanged tiles
  Owner owner_ = Owner::Thread;
  int rows_ = 1, cols_ = 1, units_ = 1, threads_ = 32, ctas_ = 1, total_rows_ = 1;
  std::string unit_, layout_, row_layout_, narrow_, swizzle_, target_;
  std::string int_ = "i32";  // k's dtype: narrower ones per thread only

  /// An i32 value (row(x), col(x)) as k's dtype.
  std::string as_int(const std::string& e) const { return int_ == "i32" ? e : "cvt<" + int_ + ">(" + e + ")"; }
  bool argmax_ = true, smem_ = false, f64_ = false;
  std::vector<std::string> lines_;
  // Whether each fragment's current value is computed bit for bit alike.
  bool x_exact_ = true, y_exact_ = true, v_exact_ = true, u_exact_ = true;
  // Whether y, v and u hold a value yet (the first statements set them).
  bool have_y_ = false, have_v_ = false, have_u_ = false;
  int depth_ = 0, loops_ = 0;
  bool divergent_ = false;  // inside an `if`: no barrier
  std::vector<std::string> loop_vars_;

  using Dice::chance;
  using Dice::one_of;
  using Dice::pick;

  /// The widest swizzle a row of `bytes` fills whole, or none.
  std::string swizzle_for(int bytes) {
    std::vector<std::string> fit;
    for (int span : {32, 64, 128})
      if (bytes % span == 0) fit.push_back(" swizzle(" + std::to_string(span) + "B)");
    return fit.empty() ? "" : one_of(fit);
  }

  std::string base() const {
    return "(block.x * " + std::to_string(units_) + " + " + unit_ + ") * " + std::to_string(rows_);
  }
  std::string tile(const std::string& tensor) const {
    return tensor + "[" + base() + " : " + std::to_string(rows_) + ", :]";
  }
  std::string row_slice(const std::string& tensor) const {
    return owner_ == Owner::Thread ? tensor + "[" + base() + " : " + std::to_string(rows_) + ", :]"
                                   : tensor + "[" + base() + " : " + std::to_string(rows_) + "]";
  }
  std::string tile_type(const std::string& dtype) const {
    return dtype + "[" + std::to_string(rows_) + ", " + std::to_string(cols_) + "]";
  }
  std::string row_type(const std::string& dtype) const {
    return owner_ == Owner::Thread ? dtype + "[" + std::to_string(rows_) + ", 1]"
                                   : dtype + "[" + std::to_string(rows_) + "]";
  }

  std::string f32_literal() {
    return one_of<std::string>({"0.5", "2.0", "1.25", "0.75", "3.0", "0.125", "1.5", "4.0"});
  }

  // --- expressions ---------------------------------------------------------

  Val f32_leaf(bool exact_only) {
    for (;;) {
      switch (pick(12)) {
        case 11: return {"alpha"};  // a scalar parameter: the launcher passes an f32
        case 10: if (owner_ != Owner::Warpgroup) { Val e = element(); if (!exact_only || e.exact) return e; } break;
        case 9: if (!loop_vars_.empty()) return {"cvt<f32>(" + loop_vars_.back() + ")"}; break;
        case 0: case 1: if (!exact_only || x_exact_) return {"x", x_exact_}; break;
        case 2: case 3: if (have_y_ && (!exact_only || y_exact_)) return {"y", y_exact_}; break;
        case 4: return {f32_literal()};
        case 5: if (have_v_ && (!exact_only || v_exact_)) return {"v", v_exact_}; break;
        case 6: if (have_u_ && (!exact_only || u_exact_)) return {"u", u_exact_}; break;
        case 7: return {"cvt<f32>(h)"};
        case 8: return {one_of<std::string>({"cvt<f32>(row(x))", "cvt<f32>(col(x))", "cvt<f32>(k)"})};
      }
    }
  }

  /// One element of x, y or v at a constant place, a scalar every element
  /// reads (a warpgroup's fragment's is refused: one warp holds it).
  Val element() {
    std::string r = std::to_string(pick(static_cast<int>(rows_))), c = std::to_string(pick(static_cast<int>(cols_)));
    switch (pick(3)) {
      case 0: if (have_y_) return {"y[" + r + ", " + c + "]", y_exact_}; break;
      case 1: if (have_v_) return {owner_ == Owner::Thread ? "v[" + r + ", 0]" : "v[" + r + "]", v_exact_}; break;
    }
    return {"x[" + r + ", " + c + "]", x_exact_};
  }

  Val f32_expr(int depth, bool exact_only) {
    if (depth == 0 || chance(25)) return f32_leaf(exact_only);
    auto both = [&](const std::string& pre, const std::string& mid, const std::string& post) {
      Val a = f32_expr(depth - 1, exact_only), b = f32_expr(depth - 1, exact_only);
      return Val{pre + a.text + mid + b.text + post, a.exact && b.exact};
    };
    switch (pick(9)) {
      case 0: return both("(", " + ", ")");
      case 1: return both("(", " - ", ")");
      case 2: return both("(", " * ", ")");
      case 3: return both("max(", ", ", ")");
      case 4: return both("min(", ", ", ")");
      case 5: { Val a = f32_expr(depth - 1, exact_only); return {"abs(" + a.text + ")", a.exact}; }
      case 6: { Val a = f32_expr(depth - 1, exact_only); return {"(" + a.text + " * " + f32_literal() + ")", a.exact}; }
      case 7: {
        Val a = f32_expr(depth - 1, exact_only), b = f32_expr(depth - 1, exact_only);
        return {"select(" + condition(depth - 1) + ", " + a.text + ", " + b.text + ")", a.exact && b.exact};
      }
      case 8:
        if (exact_only) return f32_leaf(true);
        return {"exp2(min(" + f32_expr(depth - 1, false).text + ", 3.0))", false};
    }
    return f32_leaf(exact_only);
  }

  /// A pred fragment from values computed alike on both sides.
  std::string condition(int depth) {
    if (depth > 0 && chance(30))
      return "(" + condition(depth - 1) + (chance(50) ? " && " : " || ") + condition(depth - 1) + ")";
    static const std::vector<std::string> ops = {" < ", " <= ", " > ", " >= "};
    switch (pick(3)) {
      case 0: return f32_expr(depth, true).text + one_of(ops) + f32_expr(depth, true).text;
      case 1: return "col(x)" + one_of(ops) + "row(x) + " + std::to_string(pick(9) - 4);
      default: return int_expr(depth) + one_of(ops) + std::to_string(pick(40) - 20);
    }
  }

  std::string int_leaf() {
    switch (pick(6)) {
      case 0: case 1: return "k";
      case 2: return as_int("row(x)");
      case 3: return as_int("col(x)");
      case 4: return std::to_string(1 + pick(9));
      default: return x_exact_ ? "cvt<" + int_ + ">(x * 8.0)" : as_int("col(x)");
    }
  }

  std::string int_expr(int depth) {
    if (depth == 0 || chance(25)) return int_leaf();
    std::string a = int_expr(depth - 1), b = int_expr(depth - 1);
    switch (pick(10)) {
      case 0: return "(" + a + " + " + b + ")";
      case 1: return "(" + a + " - " + b + ")";
      case 2: return "(" + a + " * " + b + ")";
      case 3: return "(" + a + " & " + b + ")";
      case 4: return "(" + a + " | " + b + ")";
      case 5: return "(" + a + " ^ " + b + ")";
      case 6: return "(" + a + " % " + std::to_string(2 + pick(7)) + ")";
      case 7: return "(" + a + " / " + std::to_string(2 + pick(7)) + ")";
      case 8: return "(" + a + " << " + std::to_string(1 + pick(3)) + ")";
      default: return "(" + a + " >> " + std::to_string(1 + pick(3)) + ")";
    }
  }

  Val row_expr(int depth) {
    if (depth == 0 || chance(30)) {
      switch (pick(3)) {
        case 0: return {"v", v_exact_};
        case 1: return {"u", u_exact_};
        default: return {f32_literal()};
      }
    }
    Val a = row_expr(depth - 1), b = row_expr(depth - 1);
    bool exact = a.exact && b.exact;
    switch (pick(5)) {
      case 0: return {"(" + a.text + " + " + b.text + ")", exact};
      case 1: return {"(" + a.text + " - " + b.text + ")", exact};
      case 2: return {"(" + a.text + " * " + b.text + ")", exact};
      case 3: return {"max(" + a.text + ", " + b.text + ")", exact};
      default: return {"min(" + a.text + ", " + b.text + ")", exact};
    }
  }

  static std::string clamped(const std::string& e) { return "max(min(" + e + ", 64.0), -64.0)"; }

  // --- statements ------------------------------------------------------------

  void say(const std::string& line) { lines_.push_back(std::string(2 * depth_, ' ') + line); }

  /// A loop of 2 to 4 turns (its variable a leaf of the f32 expressions),
  /// or an `if` on a condition each owner takes as one, around 1 to 3
  /// steps. Under an `if` no barrier runs (the threads of a block may
  /// disagree), and a value that was not computed alike before may still
  /// hold after it.
  void nested() {
    // A loop's body runs again after its end: a value it leaves not
    // computed alike would reach the reads at its start that needed it so.
    // Such a body is taken back and another drawn.
    size_t mark = lines_.size();
    int loops_before = loops_;
    bool x = x_exact_, y = y_exact_, v = v_exact_, u = u_exact_;
    for (int attempt = 0; attempt < 4; ++attempt) {
      nested_once();
      if (x_exact_ == x && y_exact_ == y && v_exact_ == v && u_exact_ == u) return;
      if (lines_.size() > mark && lines_[mark].find("for ") == std::string::npos) return;  // an if: kept
      lines_.resize(mark);
      loops_ = loops_before;
      x_exact_ = x, y_exact_ = y, v_exact_ = v, u_exact_ = u;
    }
  }

  void nested_once() {
    bool loop = chance(60) || depth_ > 0;
    // Per thread, sometimes a loop whose trips differ between the lanes
    // (from `lane % 2` or `% 3`): no barrier inside, as under a lane `if`.
    bool lanes_differ = false;
    if (loop) {
      loop_vars_.push_back("it" + std::to_string(loops_++));
      std::string end = std::to_string(2 + pick(3));
      lanes_differ = owner_ == Owner::Thread && lanes_.chance(70);
      std::string first = lanes_differ ? lanes_.one_of<std::string>({"lane % 2", "lane % 3"}) : "0";
      say("for " + loop_vars_.back() + " in " + first + " .. " + end + " {");
    } else {
      std::string c;
      switch (owner_) {
        case Owner::Thread: c = one_of<std::string>({"lane % 2 == 0", "block.x == 0"}); break;
        case Owner::Warp: c = one_of<std::string>({"warp.id % 2 == 0", "block.x == 1"}); break;
        case Owner::Warpgroup: c = one_of<std::string>({"role.rank == 0", "block.x == 0"}); break;
      }
      say("if " + c + " {");
    }
    bool was_divergent = divergent_;
    divergent_ = divergent_ || !loop || lanes_differ;
    bool x = x_exact_, y = y_exact_, v = v_exact_, u = u_exact_;
    ++depth_;
    for (int n = 1 + pick(3); n > 0; --n) step();
    --depth_;
    say("}");
    divergent_ = was_divergent;
    if (loop) {
      loop_vars_.pop_back();
    } else {
      x_exact_ = x_exact_ && x, y_exact_ = y_exact_ && y, v_exact_ = v_exact_ && v, u_exact_ = u_exact_ && u;
    }
  }

  void assign_f32(bool to_x) {
    Val e = f32_expr(2 + pick(2), false);
    say(std::string(to_x ? "x" : "y") + " = " + clamped(e.text));
    (to_x ? x_exact_ : y_exact_) = e.exact;
  }

  /// Whether `ldmatrix`/`stmatrix` move the narrow fragment: an accumulator
  /// layout, 16-bit values (stmatrix from sm_90) or 8-bit ones in 16-row,
  /// 32-column tiles.
  bool matrix_moves() const {
    if (owner_ == Owner::Thread || target_ != "sm_90a") return false;
    if (narrow_ == "bf16" || narrow_ == "f16") return true;
    return rows_ % 16 == 0 && cols_ % 32 == 0;
  }

  /// Part of y written from another part of y of its shape (other lanes'
  /// values in the accumulator layouts, read before any is written) and
  /// the same part of x. A warpgroup's rows stay in one warp's 16.
  void shifted_part() {
    auto spans = [&](int64_t size, int64_t band) {
      int64_t first = band * pick(static_cast<int>(size / band));
      int64_t to = first + pick(static_cast<int>(band)), from = first + pick(static_cast<int>(band));
      int64_t extent = 1 + pick(static_cast<int>(first + band - std::max(to, from)));
      return std::array<std::string, 3>{std::to_string(to), std::to_string(from), std::to_string(extent)};
    };
    auto r = spans(rows_, owner_ == Owner::Warpgroup ? 16 : rows_), c = spans(cols_, cols_);
    std::string written = "[" + r[0] + " : " + r[2] + ", " + c[0] + " : " + c[2] + "]";
    std::string read = "[" + r[1] + " : " + r[2] + ", " + c[1] + " : " + c[2] + "]";
    say("y" + written + " = " + clamped("select(x" + written + " > " + f32_literal() + ", y" + read + " * " + f32_literal() +
                                        ", x" + written + " - y" + read + ")"));
    y_exact_ = y_exact_ && x_exact_;
  }

  /// Each lane's x into shared memory and its partner's (lane ^ 2 .. 16,
  /// so that under `if lane % 2 == 0` the partner runs it too) into y: the
  /// lanes of a warp exchange data, which the lowering orders with
  /// `__syncwarp` (by a ballot's mask where some lanes skip the code).
  /// Each warp has its own rows of `sl` (E0605).
  void lane_exchange() {
    std::string r = std::to_string(rows_), partner = std::to_string(lanes_.one_of<int>({2, 4, 8, 16}));
    say("store sl[warp.id, lane * " + r + " : " + r + ", :] <- x");
    say("load y <- sl[warp.id, (lane ^ " + partner + ") * " + r + " : " + r + ", :]");
    y_exact_ = x_exact_;
    lane_smem_ = true;
  }

  void step() {
    if (owner_ == Owner::Thread && lanes_.chance(divergent_ ? 60 : 15)) lane_exchange();
    switch (pick(17)) {
      case 15: {
        // Integer row reductions, in k's dtype; a product first makes
        // the values (and sums) wrap.
        if (chance(50)) {
          std::string by = int_ == "i32" || int_ == "u32" ? "65599" : int_ == "i16" || int_ == "u16" ? "251" : "97";
          say("k = k * " + by + " + " + std::to_string(pick(8)));
        }
        say("reduce.row " + one_of<std::string>({"max", "min", "sum"}) + " kv <- k");
        break;
      }
      case 16: {
        if (!f64_) break;
        // f64 values exact in any order (quarters, eighths, ... of values
        // near 1e8: more bits than an f32 holds), reduced or arg-reduced.
        say("d = d * 0.5 - cvt<f64>(k) * 0.25");
        if (chance(30)) {
          say(std::string(argmax_ ? "argmax.row" : "argmin.row") + " db, da <- d");
          break;
        }
        say("reduce.row " + one_of<std::string>({"max", "min", "sum"}) + " dv <- d");
        break;
      }
      case 14: {
        if (chance(50)) return shifted_part();
        // Part of y written from the same part of y and x: columns, rows
        // or one row.
        std::string items;
        if (cols_ % 2 == 0 && chance(50)) {
          std::string half = std::to_string(cols_ / 2);
          items = chance(50) ? ":, 0 : " + half : ":, " + half + " : " + half;
        } else if (rows_ >= 2 && chance(50)) {
          items = "1 : " + std::to_string(rows_ - 1) + ", :";
        } else {
          items = std::to_string(pick(rows_)) + ", :";
        }
        std::string yp = "y[" + items + "]", xp = "x[" + items + "]";
        say(yp + " = " + clamped("select(" + xp + " > " + f32_literal() + ", " + yp + " * " + f32_literal() + ", " + xp +
                                 " - " + yp + ")"));
        y_exact_ = y_exact_ && x_exact_;
        break;
      }
      case 13:
        // A load into part of x: its right half from the tile's left half.
        if (cols_ % 2 == 0) {
          std::string half = std::to_string(cols_ / 2);
          say("load x[:, " + half + " : " + half + "] <- X[" + base() + " : " + std::to_string(rows_) + ", 0 : " + half + "]");
        }
        break;
      case 10: {
        // The narrow fragment's own arithmetic, rounded to its type.
        static const std::vector<std::string> ops = {" + ", " - ", " * "};
        say("h = max(min(h" + one_of(ops) + (chance(50) ? std::string("h") : f32_literal()) + ", 64.0), -64.0)");
        break;
      }
      case 11: {
        // Narrow values kept as such: max and min exactly, a sum rounded
        // once from f32 (within one unit of the type, whatever the order).
        std::string how = one_of<std::string>({"max", "min", "sum"});
        say("reduce.row " + how + " hv <- h");
        break;
      }
      case 12:
        if (!smem_ || divergent_) break;
        // The narrow fragment through shared memory into the next unit's,
        // by ldmatrix/stmatrix where they move it.
        if (matrix_moves()) {
          say("stmatrix sh[" + unit_ + "] <- h");
          say("syncthreads");
          say("ldmatrix h <- sh[(" + unit_ + " + 1) % " + std::to_string(units_) + "]");
        } else {
          say("store sh[" + unit_ + "] <- h");
          say("syncthreads");
          say("load h <- sh[(" + unit_ + " + 1) % " + std::to_string(units_) + "]");
        }
        say("syncthreads");
        break;
      case 0: case 1: assign_f32(false); break;
      case 2: assign_f32(true); break;
      case 3: say("h = cvt<" + narrow_ + ">(" + f32_expr(2, true).text + ")"); break;
      case 4: say("k = " + int_expr(2 + pick(2)) + " & 65535"); break;
      case 5: {
        bool from_y = chance(50);
        std::string how = one_of<std::string>({"max", "min", "sum"});
        bool to_v = chance(50);
        std::string src = from_y ? "y" : "x";
        bool exact = from_y ? y_exact_ : x_exact_;
        if (how == "sum" && !exact) how = "max";
        // A sum in any order is the same when its terms are multiples of
        // 2^-6 below 2^6 (the sums need 19 bits): made so first.
        if (how == "sum") say(src + " = cvt<f32>(cvt<i32>(" + src + " * 64.0)) * 0.015625");
        say("reduce.row " + how + (to_v ? " v" : " u") + " <- " + src);
        (to_v ? v_exact_ : u_exact_) = exact;
        break;
      }
      case 6: {
        Val e = row_expr(2);
        say("v = " + clamped(e.text));
        v_exact_ = e.exact;
        break;
      }
      case 7: {
        // Only of values computed alike: a near tie must not flip the index.
        std::string src = y_exact_ ? "y" : x_exact_ ? "x" : "";
        if (src.empty()) break;
        std::string base = chance(50) ? "" : ", base(" + std::to_string(pick(100)) + ")";
        say(std::string(argmax_ ? "argmax.row" : "argmin.row") + " best, arg <- " + src + base);
        break;
      }
      case 8:
        if (!smem_ || divergent_) break;
        // Each unit's tile through shared memory into the next unit's
        // fragment: the layout's placement both ways. Or x's tile copied
        // in by cp.async, each unit its own (the operands read the unit:
        // a thread's, a warp's or a warpgroup's own copy, move_share()).
        if (chance(30)) {
          say("cp.async s[" + unit_ + "] <- " + tile("X"));
          say("cp.async.commit");
          say("cp.async.wait 0");
        } else {
          say("store s[" + unit_ + "] <- y");
        }
        say("syncthreads");
        say("load y <- s[(" + unit_ + " + 1) % " + std::to_string(units_) + "]");
        say("syncthreads");
        break;
      case 9: {
        bool to_x = chance(50);
        Val e = f32_expr(1, false);
        say(std::string(to_x ? "x" : "y") + (chance(50) ? " += " : " -= ") + clamped(e.text));
        // x op= e reads x itself; clamping bounds only e, so keep x's growth
        // in check by clamping the whole next time around.
        say(std::string(to_x ? "x" : "y") + " = " + clamped(to_x ? "x" : "y"));
        (to_x ? x_exact_ : y_exact_) = (to_x ? x_exact_ : y_exact_) && e.exact;
        break;
      }
    }
  }

  void body() {
    say("load x <- " + tile("X"));
    say("load h <- " + tile("H"));
    say("k = " + as_int("col(x)") + " * 3 - " + as_int("row(x)"));
    say("reduce.row max v <- x");
    have_v_ = true;
    say("y = " + clamped(f32_expr(2, true).text));
    have_y_ = true;
    say("reduce.row min u <- y");
    have_u_ = true;
    say("reduce.row max hv <- h");
    say("reduce.row max kv <- k");
    if (f64_) {
      say("d = cvt<f64>(k) * 0.5 + 100000000.25");
      say("reduce.row sum dv <- d");
    }
    int steps = 4 + pick(6);
    for (int i = 0; i < steps; ++i) {
      if (chance(20)) {
        nested();
        continue;
      }
      step();
    }
    say("store " + tile("XO") + " <- x");
    if (cols_ % 2 == 0 && chance(50)) {
      // y's column halves, each stored where the other belongs: parts of
      // a fragment.
      std::string half = std::to_string(cols_ / 2);
      std::string at = "YO[" + base() + " : " + std::to_string(rows_) + ", ";
      say("store " + at + "0 : " + half + "] <- y[:, " + half + " : " + half + "]");
      say("store " + at + half + " : " + half + "] <- y[:, 0 : " + half + "]");
    } else if (rows_ % 2 == 0 && chance(50)) {
      std::string half = std::to_string(rows_ / 2);
      say("store YO[" + base() + " : " + half + ", :] <- y[" + half + " : " + half + ", :]");
      say("store YO[" + base() + " + " + half + " : " + half + ", :] <- y[0 : " + half + ", :]");
    } else {
      say("store " + tile("YO") + " <- y");
    }
    say("store " + tile("HO") + " <- h");
    say("store " + tile("KO") + " <- k");
    say("store " + row_slice("VO") + " <- v");
    say("store " + row_slice("UO") + " <- u");
    say("store " + row_slice("BO") + " <- best");
    say("store " + row_slice("AO") + " <- arg");
    say("store " + row_slice("HVO") + " <- hv");
    say("store " + row_slice("KVO") + " <- kv");
    if (f64_) {
      say("store " + tile("DO") + " <- d");
      say("store " + row_slice("DVO") + " <- dv");
      say("store " + row_slice("DBO") + " <- db");
      say("store " + row_slice("DAO") + " <- da");
    }
  }

  std::string kernel_text() const {
    std::string R = std::to_string(total_rows_), C = std::to_string(cols_);
    auto tensor = [&](const std::string& name, const std::string& dtype) {
      return name + ": global " + dtype + "[" + R + ", " + C + "]";
    };
    auto rows = [&](const std::string& name, const std::string& dtype) {
      return name + ": global " + dtype + (owner_ == Owner::Thread ? "[" + R + ", 1]" : "[" + R + "]");
    };
    std::string params = tensor("X", "f32") + ", " + tensor("H", narrow_) + ", " + tensor("XO", "f32") + ", " +
                         tensor("YO", "f32") + ", " + tensor("HO", narrow_) + ", " + tensor("KO", int_) + ", " +
                         rows("VO", "f32") + ", " + rows("UO", "f32") + ", " + rows("BO", "f32") + ", " +
                         rows("AO", "i32") + ", " + rows("HVO", narrow_) + ", " + rows("KVO", int_) + ", alpha: f32";
    if (f64_)
      params += ", " + tensor("DO", "f64") + ", " + rows("DVO", "f64") + ", " + rows("DBO", "f64") + ", " + rows("DAO", "i32");
    std::string text = "kernel random_" + std::to_string(seed_) + "(" + params + ") grid (" + std::to_string(ctas_) + ") block " +
                       std::to_string(threads_) + " {\n";
    if (lane_smem_)
      text += "  smem sl: f32[" + std::to_string(threads_ / 32) + ", " + std::to_string(32 * rows_) + ", " + C + "]\n";
    if (smem_) {
      text += "  smem s: f32[" + std::to_string(units_) + "][" + std::to_string(rows_) + ", " + C + "]" + swizzle_ + "\n";
      text += "  smem sh: " + narrow_ + "[" + std::to_string(units_) + "][" + std::to_string(rows_) + ", " + C + "]\n";
    }
    std::string indent = "  ";
    if (owner_ == Owner::Warpgroup) {
      text += "  role wg warpgroup(" + std::string(units_ == 1 ? "0" : "0, 1") + ") {\n";
      indent = "    ";
    }
    text += indent + "reg x: " + tile_type("f32") + layout_ + "\n";
    text += indent + "reg y: " + tile_type("f32") + layout_ + "\n";
    text += indent + "reg h: " + tile_type(narrow_) + layout_ + "\n";
    text += indent + "reg k: " + tile_type(int_) + layout_ + "\n";
    text += indent + "reg v: " + row_type("f32") + row_layout_ + "\n";
    text += indent + "reg u: " + row_type("f32") + row_layout_ + "\n";
    text += indent + "reg best: " + row_type("f32") + row_layout_ + (argmax_ ? " = -inf\n" : " = +inf\n");
    text += indent + "reg arg: " + row_type("i32") + row_layout_ + " = 0\n";
    text += indent + "reg hv: " + row_type(narrow_) + row_layout_ + "\n";
    text += indent + "reg kv: " + row_type(int_) + row_layout_ + "\n";
    if (f64_) {
      text += indent + "reg d: " + tile_type("f64") + "\n";
      text += indent + "reg dv: " + row_type("f64") + "\n";
      text += indent + "reg db: " + row_type("f64") + (argmax_ ? " = -inf\n" : " = +inf\n");
      text += indent + "reg da: " + row_type("i32") + " = 0\n";
    }
    for (const std::string& line : lines_) text += indent + line + "\n";
    if (owner_ == Owner::Warpgroup) text += "  }\n";
    return text + "}\n";
  }
};

}  // namespace random_kernel_detail

/// The kernel of `seed`: the same text for the same seed on every machine
/// (std::mt19937_64 and uniform_int_distribution's use of it are fixed by
/// the library in use; a different standard library may give other kernels
/// for a seed, each as valid).
inline RandomKernel random_kernel(uint64_t seed) { return random_kernel_detail::Generator(seed).make(); }

}  // namespace cake::testing
