; Scopes, definitions and references for CAKE IR (tree-sitter locals).

(source_file) @local.scope
(kernel_item) @local.scope
(dispatch_item) @local.scope
(block) @local.scope

(const_item name: (identifier) @local.definition)
(tensor_parameter name: (identifier) @local.definition)
(scalar_parameter name: (identifier) @local.definition)
(smem_declaration name: (identifier) @local.definition)
(tmem_declaration name: (identifier) @local.definition)
(reg_declaration name: (identifier) @local.definition)
(mbarrier_declaration name: (identifier) @local.definition)
(namedbarrier_declaration name: (identifier) @local.definition)
(tensormap_declaration name: (identifier) @local.definition)
(dsmem_declaration name: (identifier) @local.definition)
(let_statement name: (identifier) @local.definition)
(for_statement variable: (identifier) @local.definition)
(pipeline_statement stage: (identifier) @local.definition)
(pipeline_statement variable: (identifier) @local.definition)
(role_declaration name: (identifier) @local.definition)
(kernel_item name: (identifier) @local.definition)

(identifier) @local.reference
