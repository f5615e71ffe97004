// @ts-check
/**
 * @file Tree-sitter grammar for CAKE IR, the typed, hardware-explicit schedule
 * language for NVIDIA GPU kernels (docs/language.md is the reference).
 *
 * The grammar is newline-insensitive: every statement is keyword-led or an
 * assignment, so statements delimit themselves. Op names with dots
 * (`tma.load`, `cp.async.wait`, `elect.warp`) are single tokens; the lexer
 * prefers the longest match, so `tma.load` never lexes as `tma` `.` `load`.
 * Keywords are extracted from `identifier` (the `word` rule), which makes
 * them contextual: `block` is a keyword in a kernel header and an ordinary
 * name in `block.x`.
 *
 * After editing this file, regenerate src/parser.c with a tree-sitter 0.20.x
 * CLI (`tree-sitter generate --no-bindings`) and run
 * `scripts/grammar-hash --update`; a test fails when the recorded hash no
 * longer matches this file.
 */

/// <reference types="tree-sitter-cli/dsl" />

// Precedences, lowest first (docs/language.md, "Expressions"). The order is
// C's, except that there is no assignment or conditional expression.
const PREC = {
  or: 1,
  and: 2,
  bit_or: 3,
  bit_xor: 4,
  bit_and: 5,
  equal: 6,
  compare: 7,
  shift: 8,
  add: 9,
  multiply: 10,
  unary: 11,
  postfix: 12,
};

const DTYPES = [
  'f64', 'f32', 'tf32', 'f16', 'bf16', 'f8e4m3', 'f8e5m2', 'f6e3m2', 'f6e2m3',
  'f4e2m1', 'i64', 'i32', 'i16', 'i8', 'u64', 'u32', 'u16', 'u8', 'b32', 'pred',
];

/** Movement ops of the form `OP dst <- src [, barrier] [modifiers]`. */
const MOVE_OPS = [
  'load', 'store', 'store.add', 'cp.async', 'tma.load', 'tma.store', 'bulk.load',
  'ldmatrix', 'stmatrix', 'tcgen05.ld', 'tcgen05.st', 'tcgen05.cp',
];

/** Ops that take no operand (fences, commits, block-wide barriers). */
const PLAIN_OPS = [
  'cp.async.commit', 'wgmma.fence', 'wgmma.commit', 'tma.store.commit',
  'tcgen05.wait.ld', 'tcgen05.wait.st', 'syncthreads', 'cluster.sync',
  'fence.proxy.async',
];

/** Ops that wait until at most N groups are pending: `OP N`. */
const GROUP_WAIT_OPS = ['cp.async.wait', 'wgmma.wait', 'tma.store.wait', 'tma.store.wait.read'];

/**
 * @param {RuleOrLiteral} rule
 * @param {RuleOrLiteral} separator
 */
function sep1(rule, separator) {
  return seq(rule, repeat(seq(separator, rule)));
}

/**
 * A comma-separated list that may end with a comma.
 * @param {RuleOrLiteral} rule
 */
function commaSep1(rule) {
  return seq(sep1(rule, ','), optional(','));
}

module.exports = grammar({
  name: 'cake',

  extras: $ => [/\s/, $.comment],

  word: $ => $.identifier,

  // No `supertypes`: tree-sitter 0.20 keeps a hidden reduction for every
  // supertype node, a third of all reductions; without them parsing takes
  // 14% fewer instructions and trees of valid files are the same.

  rules: {
    source_file: $ => repeat($._item),

    _item: $ => choice(
      $.target_item,
      $.const_item,
      $.kernel_item,
      $.dispatch_item,
      $.bench_item,
    ),

    // Section - Items

    target_item: $ => seq('target', sep1(field('name', $.identifier), ',')),

    const_item: $ => seq(
      'const',
      field('name', $.identifier),
      '=',
      field('value', $._expression),
    ),

    kernel_item: $ => seq(
      'kernel',
      field('name', $.identifier),
      field('parameters', $.parameter_list),
      optional(field('facts', $.where_clause)),
      repeat(field('launch', choice($.grid_clause, $.block_clause, $.cluster_clause, $.cta_group_clause))),
      field('body', $.block),
    ),

    parameter_list: $ => seq('(', optional(commaSep1($._parameter)), ')'),

    _parameter: $ => choice($.tensor_parameter, $.scalar_parameter),

    tensor_parameter: $ => seq(
      field('name', $.identifier),
      ':',
      field('space', $.memory_space),
      field('type', $.tensor_type),
      repeat(field('attribute', $._attribute)),
    ),

    scalar_parameter: $ => seq(
      field('name', $.identifier),
      ':',
      field('type', $.primitive_type),
    ),

    memory_space: _ => choice('global', 'const'),

    where_clause: $ => seq('where', sep1(field('fact', $._expression), ',')),

    grid_clause: $ => seq('grid', field('dims', $.dim_list)),

    block_clause: $ => seq('block', field('threads', $._expression)),

    cluster_clause: $ => seq(
      'cluster',
      field('dims', $.dim_list),
      optional(field('nonportable', 'nonportable')),
    ),

    /** `cta_group 2`: tcgen05 ops work on pairs of CTAs of the cluster (PTX's `.cta_group::2`). */
    cta_group_clause: $ => seq('cta_group', field('size', $._expression)),

    /** `(x, y, z)` of grid and cluster. */
    dim_list: $ => seq('(', commaSep1(field('dim', $._expression)), ')'),

    dispatch_item: $ => seq(
      'dispatch',
      field('name', $.identifier),
      field('parameters', $.name_list),
      '{',
      repeat(field('case', $.when_case)),
      optional(field('default', $.else_case)),
      '}',
    ),

    name_list: $ => seq('(', optional(commaSep1(field('name', $.identifier))), ')'),

    when_case: $ => seq(
      'when',
      field('guard', $._expression),
      '->',
      field('kernel', $.identifier),
    ),

    else_case: $ => seq('else', '->', field('kernel', $.identifier)),

    bench_item: $ => seq(
      'bench',
      field('kernel', $.identifier),
      '{',
      optional(commaSep1(field('binding', $.binding))),
      '}',
      optional(seq('reference', field('reference', $.identifier))),
    ),

    binding: $ => seq(field('name', $.identifier), '=', field('value', $._expression)),

    // Section - Types and attributes

    primitive_type: _ => choice(...DTYPES),

    /** `bf16[N, 64]`, or `bf16[3][128, 64]` for a ring of 3 stages. */
    tensor_type: $ => seq(
      field('dtype', $.primitive_type),
      repeat1(field('shape', $.shape)),
    ),

    shape: $ => seq('[', commaSep1(field('dim', $._expression)), ']'),

    _attribute: $ => choice($.order_attribute, $.swizzle_attribute, $.layout_attribute),

    order_attribute: _ => choice('row_major', 'col_major'),

    swizzle_attribute: $ => seq(
      'swizzle',
      '(',
      field('mode', choice($.byte_size, $.identifier)),
      ')',
    ),

    /** `layout(wgmma_acc)`, `layout(wgmma_acc.row)`. */
    layout_attribute: $ => seq(
      'layout',
      '(',
      field('name', $.identifier),
      optional(seq('.', field('part', $.identifier))),
      ')',
    ),

    byte_size: _ => /[0-9]+B/,

    // Section - Memory and resources

    smem_declaration: $ => seq(
      'smem',
      field('name', $.identifier),
      ':',
      field('type', $.tensor_type),
      repeat(field('attribute', $._attribute)),
    ),

    tmem_declaration: $ => seq(
      'tmem',
      field('name', $.identifier),
      ':',
      field('type', $.tensor_type),
    ),

    reg_declaration: $ => seq(
      'reg',
      field('name', $.identifier),
      ':',
      field('type', choice($.tensor_type, $.primitive_type)),
      repeat(field('attribute', $._attribute)),
      optional(seq('=', field('init', $._expression))),
    ),

    mbarrier_declaration: $ => seq(
      'mbarrier',
      field('name', $.identifier),
      optional(seq('[', field('size', $._expression), ']')),
      optional(field('count', $.count_clause)),
    ),

    count_clause: $ => seq('count', '(', field('value', $._expression), ')'),

    namedbarrier_declaration: $ => seq(
      'namedbarrier',
      field('name', $.identifier),
      'id', '(', field('id', $._expression), ')',
      'threads', '(', field('threads', $._expression), ')',
    ),

    tensormap_declaration: $ => seq(
      'tensormap',
      field('name', $.identifier),
      '=',
      field('tensor', $.identifier),
      'box',
      field('box', $.shape),
      repeat(field('attribute', $._attribute)),
    ),

    /** `dsmem peer = buf cta(cluster.rank ^ 1)`: the copy of smem buffer `buf` in CTA `rank` of the cluster. */
    dsmem_declaration: $ => seq(
      'dsmem',
      field('name', $.identifier),
      '=',
      field('buffer', $.identifier),
      'cta',
      '(',
      field('rank', $._expression),
      ')',
    ),

    // Section - Roles

    role_declaration: $ => seq(
      'role',
      field('name', $.identifier),
      field('warps', choice($.warpgroup_spec, $.warp_spec, $.all_spec)),
      optional(field('maxnreg', $.maxnreg_clause)),
      field('body', $.block),
    ),

    warpgroup_spec: $ => seq(
      'warpgroup',
      '(',
      commaSep1(field('group', choice($._expression, $.range))),
      ')',
    ),

    warp_spec: $ => seq(
      'warp',
      '(',
      commaSep1(field('warp', choice($._expression, $.range))),
      ')',
    ),

    all_spec: _ => 'all',

    maxnreg_clause: $ => seq('maxnreg', '(', field('value', $._expression), ')'),

    // Section - Statements

    block: $ => seq('{', repeat($._statement), '}'),

    _statement: $ => choice(
      $.smem_declaration,
      $.tmem_declaration,
      $.reg_declaration,
      $.mbarrier_declaration,
      $.namedbarrier_declaration,
      $.tensormap_declaration,
      $.dsmem_declaration,
      $.role_declaration,
      $.let_statement,
      $.assignment_statement,
      $.elect_statement,
      $.for_statement,
      $.pipeline_statement,
      $.if_statement,
      $.move_statement,
      $.mma_statement,
      $.plain_statement,
      $.group_wait_statement,
      $.arrive_statement,
      $.wait_statement,
      $.sync_statement,
      $.commit_statement,
      $.reduce_statement,
      $.arg_reduce_statement,
    ),

    let_statement: $ => seq('let', field('name', $.identifier), '=', field('value', $._expression)),

    assignment_statement: $ => seq(
      field('target', choice($.identifier, $.index_expression)),
      field('operator', choice('=', '+=', '-=', '*=')),
      field('value', $._expression),
    ),

    elect_statement: $ => seq(
      field('kind', choice('elect', 'elect.warpgroup', 'elect.warp')),
      field('body', $.block),
    ),

    // Section - Control flow

    for_statement: $ => seq(
      'for',
      field('variable', $.identifier),
      'in',
      field('range', $.range),
      optional(seq('step', field('step', $._expression))),
      field('body', $.block),
    ),

    pipeline_statement: $ => seq(
      'pipeline',
      field('stage', $.identifier),
      'in',
      'ring',
      '(',
      field('stages', $._expression),
      ')',
      'for',
      field('variable', $.identifier),
      'in',
      field('range', $.range),
      optional(seq('step', field('step', $._expression))),
      field('body', $.block),
    ),

    if_statement: $ => seq(
      'if',
      field('condition', $._expression),
      field('consequence', $.block),
      optional(seq('else', field('alternative', choice($.block, $.if_statement)))),
    ),

    /** `a .. b`, half-open. */
    range: $ => seq(field('start', $._expression), '..', field('end', $._expression)),

    // Section - Ops

    /** `tma.load cs[s] <- tC[kt * 128, 0], full[s] multicast(0b11)` and kin. */
    move_statement: $ => seq(
      field('op', choice(...MOVE_OPS)),
      field('destination', $._expression),
      '<-',
      field('source', $._expression),
      optional(seq(',', field('barrier', $._expression))),
      repeat(field('modifier', choice($.multicast_modifier, $.trans_modifier))),
    ),

    multicast_modifier: $ => seq('multicast', '(', field('mask', $._expression), ')'),

    trans_modifier: _ => 'trans',

    /** `mma acc += a @ b`, `wgmma acc = a @ b.T`, `tcgen05.mma acc += a @ b, accumulate(p)`. */
    mma_statement: $ => seq(
      field('op', choice('mma', 'wgmma', 'tcgen05.mma')),
      field('accumulator', choice($.identifier, $.index_expression)),
      field('operator', choice('=', '+=')),
      field('a', $._expression),
      '@',
      field('b', $._expression),
      optional(seq(',', field('accumulate', $.accumulate_modifier))),
    ),

    accumulate_modifier: $ => seq('accumulate', '(', field('condition', $._expression), ')'),

    plain_statement: _ => field('op', choice(...PLAIN_OPS)),

    group_wait_statement: $ => seq(
      field('op', choice(...GROUP_WAIT_OPS)),
      field('pending', $._expression),
    ),

    arrive_statement: $ => choice(
      seq(
        field('op', 'arrive'),
        field('barrier', $._expression),
        optional(field('modifier', $.multicast_modifier)),
      ),
      seq(
        field('op', 'arrive.expect_tx'),
        field('barrier', $._expression),
        ',',
        field('bytes', $._expression),
      ),
    ),

    wait_statement: $ => seq(
      'wait',
      field('barrier', $._expression),
      'parity',
      '(',
      field('parity', $._expression),
      ')',
    ),

    sync_statement: $ => seq('sync', field('barrier', $.identifier)),

    commit_statement: $ => seq(
      field('op', 'tcgen05.commit'),
      field('barrier', $._expression),
      optional(field('modifier', $.multicast_modifier)),
    ),

    reduce_statement: $ => seq(
      'reduce.row',
      field('kind', choice('max', 'min', 'sum')),
      field('destination', $._expression),
      '<-',
      field('source', $._expression),
    ),

    arg_reduce_statement: $ => seq(
      field('op', choice('argmin.row', 'argmax.row')),
      field('value', $._expression),
      ',',
      field('index', $._expression),
      '<-',
      field('source', $._expression),
      optional(seq(',', field('base', $.base_modifier))),
    ),

    base_modifier: $ => seq('base', '(', field('value', $._expression), ')'),

    // Section - Expressions

    _expression: $ => choice(
      $.identifier,
      $.integer_literal,
      $.float_literal,
      $.boolean_literal,
      $.parenthesized_expression,
      $.unary_expression,
      $.binary_expression,
      $.call_expression,
      $.cast_expression,
      $.index_expression,
      $.field_expression,
      $.transpose_expression,
    ),

    parenthesized_expression: $ => seq('(', $._expression, ')'),

    unary_expression: $ => prec(PREC.unary, seq(
      field('operator', choice('-', '+', '!')),
      field('operand', $._expression),
    )),

    binary_expression: $ => {
      /** @type {[number, RuleOrLiteral][]} */
      const table = [
        [PREC.or, '||'],
        [PREC.and, '&&'],
        [PREC.bit_or, '|'],
        [PREC.bit_xor, '^'],
        [PREC.bit_and, '&'],
        [PREC.equal, choice('==', '!=')],
        [PREC.compare, choice('<', '<=', '>', '>=')],
        [PREC.shift, choice('<<', '>>')],
        [PREC.add, choice('+', '-')],
        [PREC.multiply, choice('*', '/', '%')],
      ];
      return choice(...table.map(([precedence, operator]) => prec.left(precedence, seq(
        field('left', $._expression),
        field('operator', operator),
        field('right', $._expression),
      ))));
    },

    call_expression: $ => prec(PREC.postfix, seq(
      field('function', $.identifier),
      field('arguments', $.argument_list),
    )),

    argument_list: $ => seq('(', optional(commaSep1(field('argument', $._expression))), ')'),

    /** `cvt<bf16>(acc)`: `cvt` is reserved, so `<` never reads as a comparison. */
    cast_expression: $ => seq(
      'cvt',
      '<',
      field('type', $.primitive_type),
      '>',
      '(',
      field('value', $._expression),
      ')',
    ),

    index_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '[',
      commaSep1(field('index', choice($._expression, $.slice, $.full_slice))),
      ']',
    )),

    /** `start : extent` inside an index. */
    slice: $ => seq(field('start', $._expression), ':', field('extent', $._expression)),

    /** `:` alone, the whole dimension. */
    full_slice: _ => ':',

    field_expression: $ => prec(PREC.postfix, seq(
      field('value', $._expression),
      '.',
      field('field', $.identifier),
    )),

    /** `x.T`, a transposed view (no copy). */
    transpose_expression: $ => prec(PREC.postfix, seq(field('value', $._expression), '.', 'T')),

    identifier: _ => /[A-Za-z_][A-Za-z0-9_]*/,

    integer_literal: _ => token(choice(
      /0[xX][0-9a-fA-F][0-9a-fA-F_]*/,
      /0[bB][01][01_]*/,
      /[0-9][0-9_]*/,
    )),

    float_literal: _ => token(choice(
      /[0-9][0-9_]*\.[0-9][0-9_]*([eE][+-]?[0-9]+)?/,
      /[0-9][0-9_]*[eE][+-]?[0-9]+/,
    )),

    boolean_literal: _ => choice('true', 'false'),

    comment: _ => token(choice(
      seq('//', /[^\n]*/),
      seq('/*', /[^*]*\*+([^/*][^*]*\*+)*/, '/'),
    )),
  },
});
