// build_model(): the CST of a whole file -> Module, with names resolved.
#pragma once

#include "cake/model.h"
#include "cake/syntax.h"

#include <string_view>
#include <unordered_map>
#include <vector>

namespace cake {

/// How much of one top-level item a partial build covers (document.cpp).
enum class ItemPart : uint8_t { Whole, Header };

/// The first item that declares each top-level name (const, kernel,
/// dispatch), in a file.
struct GlobalName {
  TSNode item{}, name{};
};
using NameTable = std::unordered_map<std::string_view, GlobalName>;

/// Which top-level items to build, in file order; `Header` builds a kernel
/// without its body. `bytes` is the size of the text covered, to size the
/// model's arrays. `names` (all items' names) lets names resolve as in a
/// whole-file build: the symbol of an item left out is made when a name
/// first refers to it. Without `names`, `items` must hold every item.
struct ItemSelection {
  std::vector<std::pair<TSNode, ItemPart>> items;
  size_t bytes = 0;
  const NameTable* names = nullptr;
};

/// Builds the model of the whole file, or with `selection` of some items.
void build_model(const SyntaxTree& tree, std::string_view text, Module& module, std::vector<Diagnostic>& diagnostics,
                 const ItemSelection* selection = nullptr);

}  // namespace cake
