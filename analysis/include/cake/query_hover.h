// Hover: what is at a byte offset of a file, as structured data: the
// subject (a symbol, an op, a dtype or a target) with its labelled, typed
// facts, and the diagnostics covering the offset. Works on the model of any
// text, including one with syntax errors (the model keeps what parsed). No
// markdown, positions or LSP here: the server renders the hover
// (server/render/hover.cpp) and converts the range.
#pragma once

#include "cake/diagnostic.h"
#include "cake/model.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace cake {

/// One labelled fact of a hover ("size: 65536 B (64 KB)"), its value typed
/// by `kind`; fields a kind does not name are unused.
struct HoverFact {
  enum class Kind : uint8_t {
    Text,         // `text`, words ("smem", "all of the block", "not set", "-")
    Code,         // `text`, a name or type shown as code ("bf16")
    Expr,         // `text` as written, and `number` when it folds to a different spelling ("32 * 2" = 64)
    Count,        // `number` of `text` ("5120" "registers"; text empty: the bare number)
    Shape,        // `text` the shape, `stages` the stage shape in front of it when not empty
    Swizzle,      // a swizzle spanning `number` bytes
    Bytes,        // `number` bytes in all, `per_stage` bytes of one stage when set
    Placement,    // where the kernel's shared-memory layout puts it on `targets`: `slot` of `total` bytes
    LayoutTotal,  // the kernel's shared-memory layout: `number` bytes of buffers and mbarriers on `targets`
  };
  /// A buffer's or mbarrier array's place in the layout (cake/kernel_facts.h SmemSlot).
  struct Slot {
    int64_t bytes = 0, count = 1, stride = 0, align = 0, offset = 0;
    bool barrier = false;
    bool operator==(const Slot&) const = default;
  };
  std::string_view label;  // "size", "placed"
  Kind kind = Kind::Text;
  std::string text;
  std::optional<int64_t> number;
  std::string stages;
  std::optional<int64_t> per_stage;
  Slot slot;
  int64_t total = 0;
  std::vector<std::string_view> targets;  // Placement, LayoutTotal: the file's targets with these numbers
};

/// What is under the cursor.
struct HoverSubject {
  enum class Kind : uint8_t { Symbol, Op, DType, Target };
  Kind kind = Kind::Symbol;
  std::string name;              // the symbol's name, the op's spelling, the dtype or target as written
  std::string_view what;         // Symbol: symbol_kind_name; Target: its family
  unsigned bits = 0;             // DType: its width
  std::string_view form;         // Op: "dst <- src [, barrier] ..." (may be empty)
  std::string_view summary;      // Op: one-line semantics
  std::optional<std::string_view> feature;  // Op: the feature it needs; none: every target has it
  std::vector<std::string_view> supported, unsupported;  // Op with a feature: the file's known targets
  std::vector<HoverFact> facts;  // Symbol: in display order
};

/// A diagnostic covering the cursor.
/// A diagnostic under the cursor, by its rule (its message is the
/// diagnostic's own, which editors show beside the hover).
struct HoverDiagnostic {
  std::string_view code, summary;  // its rule's
};

struct HoverInfo {
  ByteRange range;                       // what the description is about
  std::optional<HoverSubject> subject;
  std::vector<HoverDiagnostic> diagnostics;  // in order
};

/// The description of the symbol, op, dtype or target at `offset`, and the
/// code and rule summary of every diagnostic covering it; nullopt
/// when there is nothing to say.
std::optional<HoverInfo> hover_at(const Module& m, std::string_view text, const std::vector<Diagnostic>& diagnostics,
                                  uint32_t offset);

}  // namespace cake
