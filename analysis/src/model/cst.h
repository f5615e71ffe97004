// Cached tree-sitter symbol and field ids of the CAKE grammar, so the model
// builder compares integers rather than node-type strings.
#pragma once

#include "cake/syntax.h"

#include <deque>
#include <vector>

namespace cake {

#define CAKE_CST_NODES(X)                                                                     \
  X(source_file) X(target_item) X(const_item) X(kernel_item) X(parameter_list)               \
  X(tensor_parameter) X(scalar_parameter) X(memory_space) X(where_clause) X(grid_clause)      \
  X(block_clause) X(cluster_clause) X(cta_group_clause) X(dim_list) X(dispatch_item) X(name_list) X(when_case)    \
  X(else_case) X(bench_item) X(binding) X(primitive_type) X(tensor_type) X(shape)             \
  X(order_attribute) X(swizzle_attribute) X(layout_attribute) X(byte_size)                   \
  X(smem_declaration) X(tmem_declaration) X(reg_declaration) X(mbarrier_declaration)          \
  X(count_clause) X(namedbarrier_declaration) X(tensormap_declaration) X(role_declaration)    \
  X(dsmem_declaration)                                                                        \
  X(warpgroup_spec) X(warp_spec) X(all_spec) X(maxnreg_clause) X(block) X(let_statement)     \
  X(assignment_statement) X(elect_statement) X(for_statement) X(pipeline_statement)           \
  X(if_statement) X(range) X(move_statement) X(multicast_modifier) X(trans_modifier)          \
  X(mma_statement) X(accumulate_modifier) X(plain_statement) X(group_wait_statement)          \
  X(arrive_statement) X(wait_statement) X(sync_statement) X(commit_statement)                 \
  X(reduce_statement) X(arg_reduce_statement) X(base_modifier) X(parenthesized_expression)    \
  X(unary_expression) X(binary_expression) X(call_expression) X(argument_list)                \
  X(cast_expression) X(index_expression) X(slice) X(full_slice) X(field_expression)          \
  X(transpose_expression) X(identifier) X(integer_literal) X(float_literal)                  \
  X(boolean_literal) X(comment)

#define CAKE_CST_FIELDS(X)                                                                    \
  X(name) X(value) X(parameters) X(facts) X(launch) X(body) X(space) X(type) X(attribute)    \
  X(fact) X(dims) X(threads) X(nonportable) X(dim) X(guard) X(kernel)      \
  X(binding) X(dtype) X(shape) X(mode) X(part) X(init) X(size) X(count) X(id) X(tensor)       \
  X(box) X(warps) X(maxnreg) X(group) X(warp) X(target) X(kind) X(variable)       \
  X(range) X(step) X(stage) X(stages) X(condition) X(consequence) X(alternative) X(start)     \
  X(end) X(op) X(destination) X(source) X(barrier) X(modifier) X(mask) X(accumulator) X(a)    \
  X(b) X(accumulate) X(pending) X(bytes) X(parity) X(index) X(base) X(left) X(right)          \
  X(operand) X(function) X(arguments) X(argument) X(extent) X(field) X(reference)         \
  X(buffer) X(rank)

struct Cst {
#define CAKE_X(N) TSSymbol N = 0;
  CAKE_CST_NODES(CAKE_X)
#undef CAKE_X
  struct Fields {
#define CAKE_X(N) TSFieldId N = 0;
    CAKE_CST_FIELDS(CAKE_X)
#undef CAKE_X
    // Fields whose names are C++ keywords.
    TSFieldId operator_ = 0, case_ = 0, default_ = 0;
  } f;

  static const Cst& get();
};

/// The child of `node` in field `field`, or a null node.
inline TSNode child(TSNode node, TSFieldId field) { return ts_node_child_by_field_id(node, field); }

/// Tree cursors reused across calls (ts_tree_cursor_new allocates): one per
/// nesting level of the iteration helpers below, per thread.
class CursorPool {
 public:
  ~CursorPool() {
    for (TSTreeCursor& c : cursors_) ts_tree_cursor_delete(&c);
  }
  TSTreeCursor* acquire(TSNode node) {
    if (depth_ == cursors_.size()) cursors_.push_back(ts_tree_cursor_new(node));
    else ts_tree_cursor_reset(&cursors_[depth_], node);
    return &cursors_[depth_++];
  }
  void release() { --depth_; }

 private:
  std::deque<TSTreeCursor> cursors_;  // stable addresses: outer levels hold pointers
  size_t depth_ = 0;
};

inline CursorPool& cursor_pool() {
  thread_local CursorPool pool;
  return pool;
}

/// Calls fn(child, field id) for every child of `node`, in order, in O(1)
/// per step (ts_node_child(node, i) is O(i)).
template <typename Fn>
void for_each_child(TSNode node, Fn&& fn) {
  CursorPool& pool = cursor_pool();
  TSTreeCursor* cursor = pool.acquire(node);
  if (ts_tree_cursor_goto_first_child(cursor)) {
    do {
      fn(ts_tree_cursor_current_node(cursor), ts_tree_cursor_current_field_id(cursor));
    } while (ts_tree_cursor_goto_next_sibling(cursor));
  }
  pool.release();
}

/// Calls fn(child) for every child of `node` in field `field`, in order.
template <typename Fn>
void for_each_field(TSNode node, TSFieldId field, Fn&& fn) {
  for_each_child(node, [&](TSNode c, TSFieldId f) {
    if (f == field) fn(c);
  });
}

/// Calls fn(child) for every named child of `node`, in order.
template <typename Fn>
void for_each_named_child(TSNode node, Fn&& fn) {
  for_each_child(node, [&](TSNode c, TSFieldId) {
    if (ts_node_is_named(c)) fn(c);
  });
}

}  // namespace cake
