// Navigation queries over one analysed file, for editors: the symbol under a
// cursor, its definition and references, a rename's edits, the outline of the
// file and its folding ranges. Every query takes the model (and, for folding,
// the tree and line index) and byte offsets, and returns byte ranges or line
// numbers; the language server (server/lsp/features/) turns those into LSP
// JSON. All of them work on a file with syntax errors: the model is built
// from the error-tolerant tree, and whatever it lacks is simply not found.
#pragma once

#include "cake/model.h"
#include "cake/source.h"

#include <string>
#include <string_view>
#include <vector>

struct TSTree;
namespace cake { class SyntaxTree; }

namespace cake {

// Section - Symbols under the cursor

/// The symbol whose definition or a use covers `offset`, or ends exactly at
/// it (a cursor just past a name). kNone when there is none.
SymbolId symbol_at_cursor(const Module& module, uint32_t offset);

/// One occurrence of a symbol: its defining name or a reference.
struct Occurrence {
  ByteRange range;
  bool definition = false;
};

/// The occurrences of `symbol` in text order, each once; the defining name
/// only when `include_definition` (builtins have none).
std::vector<Occurrence> occurrences(const Module& module, SymbolId symbol, bool include_definition);

/// Whether `name` can name a user symbol: an identifier that is no keyword,
/// type name or builtin.
bool is_valid_name(std::string_view name);

/// What renaming the symbol at a cursor would do. `error` is empty when the
/// rename is allowed; `range` is the name under the cursor.
struct RenamePlan {
  SymbolId symbol = kNone;
  ByteRange range;
  std::string error;
};

/// Checks that the name at `offset` can be renamed (not a builtin, keyword
/// or nothing at all).
RenamePlan prepare_rename(const Module& module, uint32_t offset);

/// The edits that rename the symbol at `offset` to `new_name`, or an error
/// (invalid name, a clash with a visible name, not renamable).
struct RenameResult {
  std::vector<TextEdit> edits;
  std::string error;
};
RenameResult rename_symbol(const Module& module, uint32_t offset, std::string_view new_name);

// Section - Outline

enum class OutlineKind : uint8_t { Kernel, Role, Smem, Tmem, Reg, Mbarrier, NamedBarrier, Tensormap, Const, Dispatch, Bench };

/// One entry of the outline: an item of the file or a declaration in it.
struct OutlineItem {
  std::string name;
  std::string detail;     // what it is, in words ("shared-memory buffer")
  OutlineKind kind = OutlineKind::Kernel;
  ByteRange range;        // the whole declaration
  ByteRange selection;    // its name (inside range)
  std::vector<OutlineItem> children;
};

/// The file's items in text order: kernels with their resources and roles
/// (each role with the resources declared in it), consts, dispatches and
/// benches. Items without a name (broken syntax) are left out.
std::vector<OutlineItem> outline(const Module& module);

/// The kernels, consts and dispatches whose name contains `query`, ignoring
/// case (an empty query matches all), in text order, without children.
std::vector<OutlineItem> find_items(const Module& module, std::string_view query);

// Section - Folding

struct FoldingRange {
  enum class Kind : uint8_t { Region, Comment };
  uint32_t start_line = 0;  // 0-based
  uint32_t end_line = 0;    // the last folded line; a closing `}` stays visible
  Kind kind = Kind::Region;
};

/// Foldable regions: kernels, dispatches, benches, parameter lists, blocks
/// (roles, pipelines, for, if and elect bodies) and runs of line comments
/// or a multi-line block comment; sorted by start line, one per start line.
std::vector<FoldingRange> folding_ranges(const SyntaxTree& tree, std::string_view text, const LineIndex& lines);

}  // namespace cake
