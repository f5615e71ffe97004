// Type and shape inference for model expressions: dtype, memory space,
// dims (as model expressions, so symbolic dims stay symbolic), fragment
// layout and the buffer an operand reads. Reports the E01xx problems only
// inference can see (rank, kinds, element-wise shapes and dtypes, calls)
// when given a diagnostics sink; pass none to infer silently (hover).
#pragma once

#include "cake/broadcast.h"
#include "cake/model.h"
#include "cake/eval.h"

#include <optional>
#include <string_view>
#include <vector>

namespace cake {

struct Typed {
  enum class Kind : uint8_t {
    Unknown,        // an error was reported, or nothing is known
    Scalar,         // an integer or float value (loop vars, lets, literals, block.x)
    Buffer,         // a tensor, smem/tmem buffer or fragment, or a view of one
    Barrier,        // an mbarrier (one element of an array)
    BarrierArray,   // an mbarrier array not yet indexed
    NamedBarrier,
    Tensormap,      // not yet indexed with coordinates
    TensormapTile,  // `tX[coords]`: the box at those coordinates
    Other,          // a role, kernel or dispatch used as a value
  };
  Kind kind = Kind::Unknown;
  DType dtype = DType::Unknown;
  bool literal = false;  // a literal or inf/nan: takes the dtype of the other operand
  Space space = Space::None;
  std::vector<ExprId> dims;  // remaining dims, outermost first (stage dims included)
  size_t stage_dims = 0;     // how many of `dims` are still ring dims
  FragLayout layout = FragLayout::None;
  SymbolId root = kNone;     // the buffer, barrier or tensormap read

  bool is_buffer() const { return kind == Kind::Buffer; }
  bool is_scalar() const { return kind == Kind::Scalar; }
};

/// `&`, `|`, `^`, `<<`, `>>`: operators on integers only (E0103 on floats).
bool is_bitwise_operator(std::string_view op);

class Typer {
 public:
  Typer(const Module& module, std::vector<Diagnostic>* diagnostics)
      : m_(module), eval_(module), diags_(diagnostics) {}

  Typed type_of(ExprId e);

  /// True unless both dims are known and differ.
  bool dims_may_equal(ExprId a, ExprId b) const;
  /// How `operand` spreads over a result of shape `onto` (cake/broadcast.h),
  /// dims compared with dims_may_equal: the element-wise shape check and the
  /// assignment check both ask this.
  Spread spread(const Typed& operand, const std::vector<ExprId>& onto) const;
  /// "[128, 64]" with each dim as written (or folded).
  std::string shape_text(const std::vector<ExprId>& dims, size_t from = 0) const;
  std::string dim_text(ExprId d) const;

  const Evaluator& evaluator() const { return eval_; }

 private:
  Typed type_depth(ExprId e, int depth);
  Typed index(const Expr& e, int depth);
  /// `operands` typed from the expressions `ids`, one each.
  Typed elementwise(const Expr& e, std::vector<Typed> operands, const std::vector<ExprId>& ids);
  Typed call(const Expr& e, int depth);
  void report(Diagnostic d);

  const Module& m_;
  Evaluator eval_;
  std::vector<Diagnostic>* diags_;
};

}  // namespace cake
