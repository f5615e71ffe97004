// E0301: a kernel's shared memory over the per-block maximum. The layout
// (every smem buffer and mbarrier with its alignment: swizzled tiles at the
// swizzle's repeat, 1024 B for 128B, each stage of a swizzled ring padded to
// it; unswizzled buffers at 16 B; mbarriers 8 B each) is the kernel's facts'
// (cake/kernel_facts.h), the one the occupancy and W0705 read too. Its
// total is checked against the per-block opt-in maximum (and the SM's
// capacity less the per-block reservation, when smaller).
#include "checks/resources.h"
#include "diag_builder.h"

#include <algorithm>
#include <string>

namespace cake {

void check_smem_limit(const ResourceContext& c) {
  struct Key {
    size_t crossing;
    int64_t limit, total;
    bool operator==(const Key&) const = default;
  };
  group_targets<Key>(
      c.listed,
      [&](const TargetInfo& t) -> std::optional<Key> {
        if (!t.smem_per_block_optin.known()) return std::nullopt;
        const SmemLayout& layout = c.facts.on(t).smem;
        int64_t limit = t.smem_per_block_optin.value;
        if (t.smem_per_sm.known() && t.smem_reserved_per_block.known())
          limit = std::min(limit, t.smem_per_sm.value - t.smem_reserved_per_block.value);
        if (layout.total <= limit) return std::nullopt;
        // The slot, in declaration order, whose bytes take the sum over the limit.
        int64_t sum = 0;
        size_t crossing = layout.slots.size();
        for (size_t i = 0; i < layout.slots.size(); ++i) {
          sum = checked_add(sum, layout.slots[i].bytes).value_or(INT64_MAX);
          if (sum > limit) {
            crossing = i;
            break;
          }
        }
        if (crossing == layout.slots.size()) return std::nullopt;
        return Key{crossing, limit, layout.total};
      },
      [&](TargetSet group, Key key) {
        const TargetInfo& t = target_at(std::countr_zero(group.bits));
        const SmemLayout& layout = c.facts.on(t).smem;
        const Symbol& at = c.m.symbols[layout.slots[key.crossing].symbol];
        Diagnostic d = make_diagnostic(DiagId::SmemOverLimit, at.def, c.kernel_name(), key.total, key.limit,
                                       target_list(group), t.smem_per_block_optin.src, at.name);
        // The biggest buffers, as related spans.
        std::vector<size_t> order(layout.slots.size());
        for (size_t i = 0; i < order.size(); ++i) order[i] = i;
        std::stable_sort(order.begin(), order.end(),
                         [&](size_t a, size_t b) { return layout.slots[a].bytes > layout.slots[b].bytes; });
        for (size_t i = 0; i < order.size() && i < 3; ++i) {
          const SmemSlot& slot = layout.slots[order[i]];
          const Symbol& s = c.m.symbols[slot.symbol];
          std::string note = "`" + std::string(s.name) + "`: " + bytes_text(slot.bytes);
          if (slot.count > 1 && !slot.barrier) note += " (" + std::to_string(slot.count) + " stages)";
          if (slot.align > 16) note += ", " + std::to_string(slot.align) + "-byte aligned";
          d.related.push_back({s.decl, note});
        }
        c.push(std::move(d), group);
      });
}

}  // namespace cake
