; Foldable regions for CAKE IR.
[
  (kernel_item)
  (dispatch_item)
  (bench_item)
  (parameter_list)
  (block)
  (comment)
] @fold
