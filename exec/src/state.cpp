// Storages, views and vector clocks; see state.h.
#include "state.h"

#include <algorithm>

namespace cake::exec {

void join(Clock& into, const Clock& from) {
  if (into.size() < from.size()) into.resize(from.size(), 0);
  for (size_t i = 0; i < from.size(); ++i) into[i] = std::max(into[i], from[i]);
}

bool Rect::overlaps(const Rect& o) const {
  for (size_t a = 0; a < axes.size() && a < o.axes.size(); ++a)
    if (axes[a].second <= o.axes[a].first || o.axes[a].second <= axes[a].first) return false;
  return true;
}

bool Rect::covers(const Rect& o) const {
  for (size_t a = 0; a < axes.size() && a < o.axes.size(); ++a)
    if (o.axes[a].first < axes[a].first || o.axes[a].second > axes[a].second) return false;
  return true;
}

bool Rect::join(const Rect& o) {
  if (axes.size() != o.axes.size()) return false;
  size_t differing = axes.size();
  for (size_t a = 0; a < axes.size(); ++a) {
    if (axes[a] == o.axes[a]) continue;
    if (differing != axes.size() || axes[a].second < o.axes[a].first || o.axes[a].second < axes[a].first) return false;
    differing = a;
  }
  if (differing < axes.size())
    axes[differing] = {std::min(axes[differing].first, o.axes[differing].first),
                       std::max(axes[differing].second, o.axes[differing].second)};
  return true;
}

bool Storage::shape(std::vector<int64_t> d, double fill, int64_t limit) {
  int64_t n = 1;
  for (int64_t x : d)
    if (x < 0 || __builtin_mul_overflow(n, x, &n) || n > limit) return false;
  dims = std::move(d);
  strides.assign(dims.size(), 1);
  // The tile's dims from the contiguous one out, then the stage dims.
  size_t stages = std::min(stage_dims, dims.size()), rank = dims.size() - stages;
  std::vector<size_t> out;
  for (size_t t : memory_order(order, rank)) out.push_back(stages + t);
  for (size_t a = 0; a < stages; ++a) out.insert(out.begin() + static_cast<ptrdiff_t>(a), a);
  int64_t stride = 1;
  for (size_t i = out.size(); i-- > 0;) {
    strides[out[i]] = stride;
    stride *= dims[out[i]];
  }
  data.assign(static_cast<size_t>(n), fill);
  return true;
}

View whole(Storage& st) {
  View v;
  v.st = &st;
  v.origin.assign(st.dims.size(), 0);
  for (size_t d = 0; d < st.dims.size(); ++d) {
    v.axis.push_back(static_cast<int>(d));
    v.extent.push_back(st.dims[d]);
  }
  v.row_vector = st.layout == FragLayout::MmaAccRow || st.layout == FragLayout::WgmmaAccRow;
  return v;
}

int64_t View::elements() const {
  int64_t n = 1;
  for (int64_t e : extent) n *= e;
  return n;
}

Rect View::rect() const {
  Rect r;
  r.axes.resize(origin.size());
  for (size_t a = 0; a < origin.size(); ++a) r.axes[a] = {origin[a], origin[a] + 1};
  for (size_t d = 0; d < rank(); ++d) r.axes[axis[d]].second = origin[axis[d]] + extent[d];
  for (size_t a = 0; a < origin.size(); ++a) {
    r.axes[a].first = std::clamp<int64_t>(r.axes[a].first, 0, st->dims[a]);
    r.axes[a].second = std::clamp<int64_t>(r.axes[a].second, 0, st->dims[a]);
  }
  return r;
}

bool View::inside() const {
  llvm::SmallVector<int64_t, 4> hi(origin.begin(), origin.end());
  for (size_t a = 0; a < origin.size(); ++a) hi[a] = origin[a] + 1;
  for (size_t d = 0; d < rank(); ++d) hi[axis[d]] = origin[axis[d]] + extent[d];
  for (size_t a = 0; a < origin.size(); ++a)
    if (origin[a] < 0 || hi[a] > st->dims[a]) return false;
  return true;
}

View View::rows(int64_t lo, int64_t hi) const { return dim_range(0, lo, hi); }

View View::dim_range(size_t d, int64_t lo, int64_t hi) const {
  View v = *this;
  if (v.rank() <= d) return v;
  v.origin[v.axis[d]] += lo;
  v.extent[d] = hi - lo;
  return v;
}

}  // namespace cake::exec
