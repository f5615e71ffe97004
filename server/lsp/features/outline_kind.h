// The LSP SymbolKind number of an outline entry, shared by
// textDocument/documentSymbol and workspace/symbol.
#pragma once

#include "cake/query.h"

namespace cake::lsp {

/// LSP 3.17 SymbolKind: Namespace 3, Class 5, Function 12, Variable 13,
/// Constant 14, Object 19, Event 24, Array 18, Interface 11.
inline int lsp_symbol_kind(OutlineKind kind) {
  switch (kind) {
    case OutlineKind::Kernel: return 12;
    case OutlineKind::Role: return 3;
    case OutlineKind::Smem: return 18;
    case OutlineKind::Tmem: return 18;
    case OutlineKind::Reg: return 13;
    case OutlineKind::Mbarrier: return 24;
    case OutlineKind::NamedBarrier: return 24;
    case OutlineKind::Tensormap: return 19;
    case OutlineKind::Const: return 14;
    case OutlineKind::Dispatch: return 11;
    case OutlineKind::Bench: return 5;
  }
  return 13;
}

}  // namespace cake::lsp
