// The executor's memory: storages (a tensor, an smem or tmem buffer with its
// stages, one owner's register fragment), views into them (what an operand
// expression names), and the vector clocks and access records of the race
// detector. Values are logical: swizzles and fragment layouts change where
// bytes live on the GPU, not which value an element has, so they play no part.
#pragma once

#include "cake/model.h"

#include <llvm/ADT/SmallVector.h>

#include <cstdint>
#include <string_view>
#include <utility>
#include <vector>

namespace cake::exec {

// Section - vector clocks

/// A vector clock by entity (a warp or an async effect of one CTA group).
using Clock = std::vector<uint32_t>;
void join(Clock& into, const Clock& from);
inline uint32_t at(const Clock& c, uint32_t entity) { return entity < c.size() ? c[entity] : 0; }

/// Per storage axis, the half-open range an access touches.
struct Rect {
  llvm::SmallVector<std::pair<int64_t, int64_t>, 4> axes;
  bool overlaps(const Rect& o) const;
  bool covers(const Rect& o) const;
  /// Grows to the union with `o` where that union is a box (the two agree
  /// on every axis but one, along which they meet or overlap); else false.
  bool join(const Rect& o);
};

struct AccessRecord {
  bool write = false;
  bool atomic = false;   // a `store.add`'s: atomic writes do not race with each other
  bool generic = false;  // a write of shared memory through the generic proxy
  /// For a generic write: the `fence.proxy.async` of its writer that
  /// followed it, as an index into World::fences_ (0: none yet).
  uint32_t fence = 0;
  Rect rect;
  uint32_t entity = 0, epoch = 0;
  StmtId stmt = kNone;
};

// Section - storage and views

struct Storage {
  SymbolId symbol = kNone;
  std::string_view name;
  DType dtype = DType::Unknown;
  Space space = Space::None;
  std::vector<int64_t> dims, strides;  // stage dims first
  size_t stage_dims = 0;
  std::vector<double> data;
  std::vector<AccessRecord> history;  // the race detector's, since the last reset
  std::vector<StmtId> writers;        // global tensors: the statement that last wrote each element
  FragLayout layout = FragLayout::None;
  /// The tile's element order (stage dims are outermost either way): data
  /// is in memory order, as the kernel's pointer would see it.
  Order order = Order::RowMajor;
  /// Whether the race detector follows it: a storage no statement writes
  /// (an input tensor) cannot race.
  bool tracked = true;
  /// Shared or tensor memory (or a fragment) of a CTA whose threads have
  /// all ended: any access now races with that end (World::end_cta()).
  bool freed = false;

  /// Sets the dims (and the strides of `order`) and fills the data; false (and nothing allocated) when
  /// the elements would exceed `limit` or a dim is negative.
  bool shape(std::vector<int64_t> d, double fill, int64_t limit);
  int64_t elements() const { return static_cast<int64_t>(data.size()); }
};

/// A window of a storage: view dim d walks storage axis `axis[d]` from
/// `origin[axis[d]]` over `extent[d]` elements; the other axes stay at their
/// origin. A TMA box (`boxed`) may reach outside the tensor: such elements
/// read as zero and are not written.
struct View {
  Storage* st = nullptr;
  llvm::SmallVector<int64_t, 4> origin;
  llvm::SmallVector<int, 4> axis;
  llvm::SmallVector<int64_t, 4> extent;
  bool boxed = false;
  bool row_vector = false;  // a `.row` fragment: broadcasts across columns

  size_t rank() const { return extent.size(); }
  int64_t elements() const;
  /// The rect of storage elements it touches (clipped to the storage).
  Rect rect() const;
  /// True when every element lies inside the storage.
  bool inside() const;
  /// Calls f(flat) for each element in the view's row-major order; flat is
  /// -1 for an element outside the storage (boxed views only).
  template <typename F>
  void for_each(F&& f) const;
  /// Restricts view dim 0 to [lo, hi).
  View rows(int64_t lo, int64_t hi) const;
  /// Restricts view dim `d` to [lo, hi).
  View dim_range(size_t d, int64_t lo, int64_t hi) const;
};

/// The whole of `st`, every axis in order.
View whole(Storage& st);

template <typename F>
void View::for_each(F&& f) const {
  const size_t n = rank();
  if (n == 0) {
    int64_t flat = 0;
    bool in = true;
    for (size_t a = 0; a < origin.size(); ++a) {
      if (origin[a] < 0 || origin[a] >= st->dims[a]) in = false;
      flat += origin[a] * st->strides[a];
    }
    f(in ? flat : -1);
    return;
  }
  for (int64_t e : extent)
    if (e <= 0) return;
  llvm::SmallVector<int64_t, 4> idx(n, 0);
  int64_t base = 0;
  for (size_t a = 0; a < origin.size(); ++a) base += origin[a] * st->strides[a];
  llvm::SmallVector<int64_t, 4> stride(n);
  for (size_t d = 0; d < n; ++d) stride[d] = st->strides[axis[d]];
  int64_t flat = base;
  while (true) {
    if (boxed) {
      bool in = true;
      for (size_t a = 0; a < origin.size() && in; ++a) {
        int64_t c = origin[a];
        for (size_t d = 0; d < n; ++d)
          if (axis[d] == static_cast<int>(a)) c += idx[d];
        in = c >= 0 && c < st->dims[a];
      }
      f(in ? flat : -1);
    } else {
      f(flat);
    }
    size_t d = n;
    while (d > 0) {
      --d;
      if (++idx[d] < extent[d]) {
        flat += stride[d];
        break;
      }
      flat -= stride[d] * (extent[d] - 1);
      idx[d] = 0;
      if (d == 0) return;
    }
  }
}

}  // namespace cake::exec
