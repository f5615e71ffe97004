// Where the tile an operand selects (`sA[s][0 : 64, :]`, `W[r : 2, 1, :]`)
// lies in its buffer, walked in the buffer's memory order (docs/language.md,
// "Element order"). The verifier's movement checks (E0510) and the
// lowering's copies and MMA descriptors read this one walk.
#pragma once

#include "cake/eval.h"
#include "cake/model.h"

#include <optional>
#include <vector>

namespace cake {

/// The symbol an operand indexes and its index items, outermost first: a
/// ring's stage items, then the tile's (none for a bare name; missing
/// trailing items take their dims whole).
struct IndexedOperand {
  SymbolId base = kNone;
  std::vector<IndexItem> items;
};
IndexedOperand indexed_operand(const Module& m, ExprId e);

struct TileInBuffer {
  IndexedOperand operand;
  /// The buffer whose type the items index: the operand's symbol, or the
  /// shared-memory buffer a `dsmem` view names.
  SymbolId buffer = kNone;
  /// Every dim of the buffer as an item position (stage dims first in the
  /// items), outermost in memory first: the stage dims, then the tile's in
  /// its element order.
  std::vector<size_t> order;
  /// The dims the tile keeps (not fixed by a scalar index), as positions
  /// among the tile's dims (0 for its first kept dim in the items),
  /// outermost in memory first.
  std::vector<size_t> kept;
  /// The tile keeps the buffer's contiguous dim: it is made of runs along it.
  bool runs = false;
  /// The tile takes the contiguous dim whole: its rows are the buffer's.
  bool whole_rows = false;
  /// The first item, after the tile's first kept dim and before the
  /// contiguous dim in memory order, that fixes or narrows its dim: the
  /// tile's rows are not neighbours in the buffer. Its position in `items`.
  std::optional<size_t> gap;
  /// Every dim after the tile's first kept one in memory order is whole:
  /// the tile is one run of memory.
  bool dense = false;
};

/// The walk of operand `e`, or nullopt when it does not index a tensor
/// parameter, an smem buffer or a dsmem view of one.
std::optional<TileInBuffer> tile_in_buffer(const Module& m, const Evaluator& eval, ExprId e);

}  // namespace cake
