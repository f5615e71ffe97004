// E0308: tensor memory. Each tmem buffer is `DTYPE[LANES, COLUMNS]`, its
// lanes within the target's, its allocation (the kernel's tmem plan,
// cake/kernel_facts.h: columns of cells, times the stages) a power of two
// within the allocation range, and all of them within the columns of a CTA.
#include "checks/resources.h"
#include "diag_builder.h"

#include <bit>
#include <string>

namespace cake {

void check_tmem_alloc(const ResourceContext& c) {
  TargetSet tc = with_feature(c.listed, Feature::Tcgen05);  // the others get E0202
  if (tc.empty()) return;
  // The allocations in the cells of the first target with tcgen05.
  const TmemPlan& plan = c.facts.on(target_at(std::countr_zero(tc.bits))).tmem;
  for (size_t index = 0; index < plan.buffers.size(); ++index) {
    const TmemBuffer& b = plan.buffers[index];
    const Symbol& s = c.m.symbols[b.symbol];
    if (!b.two_dims) {
      c.push(make_diagnostic(DiagForm::TmemDims, s.def, s.name, s.type.dims.size()), tc);
      continue;
    }
    const std::optional<int64_t>&lanes = b.lanes, &cols = b.columns, &stages = b.stages;
    unsigned bits = stored_bits(s.type.dtype);  // a byte for 6- and 4-bit floats, as the plan counts
    if (lanes) {
      group_targets<int64_t>(
          tc,
          [&](const TargetInfo& t) -> std::optional<int64_t> {
            if (!t.tmem_lanes.known() || (*lanes >= 1 && *lanes <= t.tmem_lanes.value)) return std::nullopt;
            return t.tmem_lanes.value;
          },
          [&](TargetSet group, int64_t max) {
            c.push(make_diagnostic(DiagForm::TmemLanes, c.expr_range(s.type.dims[0]), s.name, *lanes, max,
                                   target_list(group)),
                   group);
          });
    }
    if (!b.allocated) continue;
    int64_t cell_bits = plan.cell_bits;
    int64_t a = *b.allocated;
    struct Key {
      int64_t min, max;
      bool operator==(const Key&) const = default;
    };
    bool bad = false;
    group_targets<Key>(
        tc,
        [&](const TargetInfo& t) -> std::optional<Key> {
          if (!t.tmem_columns.known()) return std::nullopt;
          Key key{t.tmem_alloc_min_columns.value, t.tmem_columns.value};
          if (a >= key.min && a <= key.max && std::has_single_bit(static_cast<uint64_t>(a))) return std::nullopt;
          return key;
        },
        [&](TargetSet group, Key key) {
          bad = true;
          std::string_view column = a == 1 ? "column" : "columns";
          std::string_view src = target_at(std::countr_zero(group.bits)).tmem_alloc_min_columns.src;
          std::string_view dtype = dtype_name(s.type.dtype);
          ByteRange at = c.expr_range(s.type.dims[1]);
          Diagnostic d =
              bits != cell_bits
                  ? (*stages > 1 ? make_diagnostic(DiagForm::TmemAllocCellsStages, at, s.name, a, column, *cols,
                                                   dtype, cell_bits, *stages, key.min, key.max, src)
                                 : make_diagnostic(DiagForm::TmemAllocCells, at, s.name, a, column, *cols, dtype,
                                                   cell_bits, key.min, key.max, src))
              : *stages > 1
                  ? make_diagnostic(DiagForm::TmemAllocStages, at, s.name, a, column, *stages, key.min, key.max, src)
                  : make_diagnostic(DiagId::BadTmem, at, s.name, a, column, key.min, key.max, src);
          c.push(std::move(d), group);
        });
    if (bad) continue;
    // The running total of the valid allocations, on each target's plan.
    struct Over {
      int64_t total, max;
      bool operator==(const Over&) const = default;
    };
    group_targets<Over>(
        tc,
        [&](const TargetInfo& t) -> std::optional<Over> {
          const TmemBuffer& here = c.facts.on(t).tmem.buffers[index];
          if (!t.tmem_columns.known() || !here.valid || here.end <= t.tmem_columns.value ||
              here.end - *here.allocated > t.tmem_columns.value)
            return std::nullopt;
          return Over{here.end, t.tmem_columns.value};
        },
        [&](TargetSet group, Over over) {
          c.push(make_diagnostic(DiagForm::TmemOverCta, s.def, over.total, s.name, over.max, target_list(group)),
                 group);
        });
  }
}

}  // namespace cake
