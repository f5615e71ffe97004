// What editors show about ops, keywords and names: one-line semantics and
// the form of each op, which of a file's targets have it, the keywords of
// the language, and the names visible at an offset. Shared by the hover,
// completion and signature-help queries (query_hover.h, query_completion.h).
#pragma once

#include "cake/arch.h"
#include "cake/model.h"

#include <optional>
#include <span>
#include <string_view>
#include <vector>

namespace cake {

/// "dst <- src [, barrier]": the operands of the op's family (ops.def).
std::string_view op_form(Op op);
/// True when every listed known target has the op (or none is listed).
bool op_supported_by(Op op, const Module& m);

/// The keywords of CAKE IR that are not op spellings or dtypes.
std::span<const std::string_view> keywords();

/// The symbols visible at `offset`: file-scope ones, and those of the
/// enclosing kernel declared before it whose scope covers it.
std::vector<SymbolId> symbols_in_scope(const Module& m, uint32_t offset);

}  // namespace cake
