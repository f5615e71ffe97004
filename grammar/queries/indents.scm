; Indentation for CAKE IR (nvim-treesitter vocabulary).
[
  (block)
  (parameter_list)
  (dispatch_item)
  (bench_item)
] @indent
["}" ")"] @indent_end @branch
(comment) @ignore
