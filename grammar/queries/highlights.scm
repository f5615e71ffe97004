; Syntax highlighting for CAKE IR. Capture names follow the common
; tree-sitter vocabulary (nvim-treesitter, Helix, Zed).

(comment) @comment

(integer_literal) @number
(float_literal) @float
(boolean_literal) @boolean
(byte_size) @number

(primitive_type) @type.builtin
(memory_space) @type.qualifier
(order_attribute) @attribute
(swizzle_attribute "swizzle" @attribute)
(layout_attribute "layout" @attribute)
(layout_attribute name: (identifier) @constant.builtin)
(layout_attribute part: (identifier) @constant.builtin)
(trans_modifier) @attribute
(multicast_modifier "multicast" @attribute)
(accumulate_modifier "accumulate" @attribute)
(base_modifier "base" @attribute)
(count_clause "count" @attribute)
(maxnreg_clause "maxnreg" @attribute)
(all_spec) @keyword

[
  "target" "const" "kernel" "dispatch" "bench" "where" "grid" "block"
  "cluster" "nonportable" "cta_group" "when" "else" "smem" "tmem" "reg" "mbarrier"
  "namedbarrier" "tensormap" "box" "dsmem" "cta" "id" "threads" "role" "warpgroup" "warp"
  "let" "reference"
] @keyword

["for" "in" "step" "pipeline" "ring"] @keyword.repeat
["if" "else"] @keyword.conditional

(move_statement op: _ @function.builtin)
(mma_statement op: _ @function.builtin)
(plain_statement op: _ @function.builtin)
(group_wait_statement op: _ @function.builtin)
(arrive_statement op: _ @function.builtin)
(commit_statement op: _ @function.builtin)
(arg_reduce_statement op: _ @function.builtin)
(elect_statement kind: _ @keyword)
["wait" "parity" "sync" "reduce.row"] @function.builtin
(reduce_statement kind: _ @constant.builtin)
"cvt" @function.builtin

(kernel_item name: (identifier) @function)
(dispatch_item name: (identifier) @function)
(when_case kernel: (identifier) @function)
(else_case kernel: (identifier) @function)
(bench_item kernel: (identifier) @function)
(bench_item reference: (identifier) @function)
(call_expression function: (identifier) @function.call)
(role_declaration name: (identifier) @namespace)
(target_item name: (identifier) @constant.builtin)
(const_item name: (identifier) @constant)

(tensor_parameter name: (identifier) @parameter)
(scalar_parameter name: (identifier) @parameter)
(smem_declaration name: (identifier) @variable)
(tmem_declaration name: (identifier) @variable)
(reg_declaration name: (identifier) @variable)
(mbarrier_declaration name: (identifier) @variable)
(namedbarrier_declaration name: (identifier) @variable)
(tensormap_declaration name: (identifier) @variable)
(dsmem_declaration name: (identifier) @variable)
(field_expression field: (identifier) @property)
"T" @property

((identifier) @variable.builtin
  (#match? @variable.builtin "^(lane|inf|nan)$"))

[
  "=" "+=" "-=" "*=" "<-" "->" "@" ".." "+" "-" "*" "/" "%" "^" "&" "|"
  "&&" "||" "!" "==" "!=" "<" "<=" ">" ">=" "<<" ">>"
] @operator

["(" ")" "[" "]" "{" "}"] @punctuation.bracket
["," ":" "."] @punctuation.delimiter

(identifier) @variable
